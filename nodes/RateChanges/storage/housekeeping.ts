import type { NodeApiError } from 'n8n-workflow';

import { allOf, eq, DataTablesFullError, type DataTables, type RowCondition, type TableHandle } from './dataTables';
import { estimateBytes } from './fullness';
import { entryOf, type Journal } from './journal';
import type { MonthRows } from './monthRows';

/**
 * What keeps Rate Changes' tables from growing with time: once a day, each table the node writes
 * is cleaned by the executions that write it, whatever order a workflow runs its operations in:
 * month rows of months that have passed go (the rates table's stay months, the positions table's
 * rank, parity and calendar rows; the history table's once Keep History has passed since their
 * month ended), and alerts older than Keep Changes, reported or not. The day is
 * claimed per cleaned table, on a row of the changes table (`state` `meta`): the first execution
 * of a day that writes a table cleans it, so Detect Changes cleaning the rates table first leaves
 * the positions table to the next operation that writes it. "Today" is the day of the newest
 * record the execution holds, not the clock of the machine, so a shop collected today cleans up as
 * of today wherever n8n runs, and a replay of old shops cleans up as of then. Deleting is never
 * refused at n8n's size limit, so this also makes room there.
 */

/** The claim row of the changes table's own clean-up, which also keeps what Digest reports of the clean-ups (`Housekeeping`). */
const META_ENTRY = 'housekeeping';

/** The claim row of a month table's clean-up: `housekeeping|<table id>`, the table's id also in `monthTable`. */
function claimEntry(journal: Journal, table: TableHandle): string {
	return table.id === journal.table.id ? META_ENTRY : `${META_ENTRY}|${table.id}`;
}

/** The day this n8n process last saw each table cleaned, by table id: saves the read of the claim row. */
const cleanedDays = new Map<string, string>();

function dayBefore(day: string, days: number): string {
	return new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

function lt(columnName: string, value: string): RowCondition {
	return { columnName, condition: 'lt', value };
}

/**
 * Month rows of months before yesterday's go (a day's grace: a check-in "today" somewhere on earth
 * is still yesterday elsewhere); with `keepDays`, rows of months that ended before that many days
 * ago (the history table: its rows outlive their check-ins, and every entry of such a row is older).
 */
async function removePastMonths(api: DataTables, table: TableHandle, today: string, keepDays = 1): Promise<void> {
	await api.deleteRows(table, allOf(lt('month', dayBefore(today, keepDays).slice(0, 7))));
}

/** A table of month rows kept `keepDays` after their month ended (the history table); the others' go the day after. */
export interface KeptMonths {
	rows: MonthRows;
	keepDays: number;
}

export type TidiedTable = MonthRows | KeptMonths;

/** The day's clean-up of the changes table and of the month tables an execution writes, each table claimed on its own. */
export async function keepTidy(journal: Journal, tables: readonly TidiedTable[], newestCollected: string, keepChangesDays: number): Promise<void> {
	const today = newestCollected.slice(0, 10);
	const { api } = journal;
	const kept = tables.map((table) => ('keepDays' in table ? table : { rows: table, keepDays: 1 }));
	const keepDaysOf = new Map(kept.map(({ rows, keepDays }) => [rows.table.id, keepDays]));
	const claimed = (await Promise.all([journal.table, ...kept.map(({ rows }) => rows.table)].map(async (table) => ((await claimDay(journal, table, today)) ? [table] : [])))).flat();
	if (claimed.length === 0) return;
	const cutoff = `${dayBefore(today, keepChangesDays)}T00:00:00.000Z`;
	await Promise.all(
		claimed.map(async (table) => (table.id === journal.table.id ? await journal.forgetBefore(cutoff) : await removePastMonths(api, table, today, keepDaysOf.get(table.id)))),
	);
	await writeEstimate(journal, claimed);
}

/**
 * Rate Calendar's clean-up of the positions table it writes (its `calendar` rows, and any rank and
 * parity rows beside them), as of the newest rate it read. It keeps no changes table to claim the
 * day on and runs once a morning, so this n8n process's memory of the day is its claim; whatever
 * stops it costs the calendar nothing (there is no digest of its table to say so: the next day
 * tries again).
 */
export async function tidyCalendarTable(rows: MonthRows, newestCollected: string | undefined): Promise<void> {
	if (newestCollected === undefined) return;
	const today = newestCollected.slice(0, 10);
	if ((cleanedDays.get(rows.table.id) ?? '') >= today) return;
	cleanedDays.set(rows.table.id, today);
	await removePastMonths(rows.api, rows.table, today).catch(() => undefined);
}

/**
 * Where n8n's API gives no table sizes (2.8), the size of each table just cleaned estimated from its
 * rows, kept on the changes table's claim row for Digest to report.
 */
async function writeEstimate(journal: Journal, tables: readonly TableHandle[]): Promise<void> {
	const listed = await journal.api.listTables();
	if (listed.every((table) => typeof table.sizeBytes === 'number')) return;
	const sizes = Object.fromEntries(await Promise.all(tables.map(async (table) => [table.id, estimateBytes(await journal.api.readRows(table, allOf()))] as const)));
	try {
		await writeHousekeeping(journal, (kept) => ({ ...kept, sizes: { ...kept.sizes, ...sizes } }));
	} catch (error) {
		if (!(error instanceof DataTablesFullError)) throw error as NodeApiError;
	}
}

/**
 * What the changes table's claim row keeps for Digest in its `alerts` column (the changes table's
 * columns serve this one row too): the estimate of each table as its last clean-up wrote it (bytes
 * by table id), and why the last clean-up could not run, until a digest has said so.
 */
export interface Housekeeping {
	sizes?: Record<string, number>;
	cleanupFailed?: string;
}

export async function readHousekeeping(journal: Journal): Promise<Housekeeping> {
	const [row] = await journal.api.readRows(journal.table, allOf(eq('entry', META_ENTRY)));
	return typeof row?.alerts === 'string' ? (JSON.parse(row.alerts) as Housekeeping) : {};
}

async function writeHousekeeping(journal: Journal, change: (kept: Housekeeping) => Housekeeping): Promise<void> {
	const kept = await readHousekeeping(journal);
	await journal.api.updateRows(journal.table, allOf(eq('entry', META_ENTRY)), { alerts: JSON.stringify(change(kept)) });
}

/**
 * The day's clean-up as an execution runs it: whatever stops it (a key without the delete scope,
 * n8n's 5xx past the retries, a lost answer, the size limit) costs no alert and fails nothing. Why
 * it could not run is kept for the next digest to say, once (where n8n lets it be written).
 */
export async function tidyOrNote(journal: Journal, tidy: () => Promise<void>): Promise<void> {
	try {
		await tidy();
	} catch (error) {
		await noteCleanupFailure(journal, error);
	}
}

export async function noteCleanupFailure(journal: Journal, error: unknown): Promise<void> {
	const reason = error instanceof Error ? error.message : String(error);
	await writeHousekeeping(journal, (kept) => ({ ...kept, cleanupFailed: reason })).catch(() => undefined);
}

/** Forgets the failure a digest has reported. */
export async function clearCleanupFailure(journal: Journal): Promise<void> {
	await writeHousekeeping(journal, (kept) => ({ sizes: kept.sizes })).catch(() => undefined);
}

/** Whether this execution is the first to clean `table` up as of `today`. */
async function claimDay(journal: Journal, table: TableHandle, today: string): Promise<boolean> {
	if ((cleanedDays.get(table.id) ?? '') >= today) return false;
	const entry = claimEntry(journal, table);
	try {
		const [row] = await journal.api.readRows(journal.table, allOf(eq('entry', entry)));
		const done = row ? String(row.collectedTo ?? '') : undefined;
		if (done !== undefined && done >= today) {
			cleanedDays.set(table.id, done);
			return false;
		}
		let claimed: boolean;
		if (row === undefined) {
			// Two executions may both add the claim row; both then clean up once, which deletes nothing twice.
			const claim = { entry, state: 'meta', collectedTo: today, ...(entry === META_ENTRY ? {} : { monthTable: table.id }) };
			await journal.api.insertRows(journal.table, [claim], async () => (await journal.find(entry)) !== undefined);
			claimed = true;
		} else {
			const { rows } = await journal.api.updateRows(journal.table, allOf(eq('id', row.id), eq('collectedTo', done ?? null)), { collectedTo: today });
			claimed = rows.length > 0 && entryOf(rows[0]).token === entry;
		}
		cleanedDays.set(table.id, today);
		return claimed;
	} catch (error) {
		// At the limit the claim cannot be written: clean up anyway, since deleting is what makes room.
		if (error instanceof DataTablesFullError) return true;
		throw error as NodeApiError;
	}
}
