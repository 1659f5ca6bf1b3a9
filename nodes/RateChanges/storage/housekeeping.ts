import type { NodeApiError } from 'n8n-workflow';

import { allOf, eq, DataTablesFullError, type DataTables, type RowCondition } from './dataTables';
import { estimateBytes } from './fullness';
import { entryOf, type Journal } from './journal';
import type { MonthRows } from './monthRows';
import type { Store } from './tables';

/**
 * What keeps Rate Changes' tables from growing with time, run by the node's own executions once a
 * day (the first execution of a day claims the day on a row of the changes table): month rows of
 * months that have passed go, and alerts older than Keep Changes, reported or not. "Today" is the
 * day of the newest record the execution holds, not the clock of the machine, so a shop collected
 * today cleans up as of today wherever n8n runs, and a replay of old shops cleans up as of then.
 * Deleting is never refused at n8n's size limit, so this also makes room there.
 */

const META_ENTRY = 'housekeeping';

/** The day this n8n process last saw cleaned, per changes table: saves the read of the claim row. */
const cleanedDays = new Map<string, string>();

function dayBefore(day: string, days: number): string {
	return new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

function lt(columnName: string, value: string): RowCondition {
	return { columnName, condition: 'lt', value };
}

export async function keepTidy(store: Store, tables: readonly MonthRows[], newestCollected: string, keepChangesDays: number): Promise<void> {
	const today = newestCollected.slice(0, 10);
	if (!(await claimDay(store.journal, today))) return;
	const { api } = store;
	// A day's grace: a check-in "today" somewhere on earth is still yesterday elsewhere.
	const yesterday = dayBefore(today, 1);
	const cutoff = `${dayBefore(today, keepChangesDays)}T00:00:00.000Z`;
	await Promise.all([
		...tables.map(async (rows) => await api.deleteRows(rows.table, allOf(lt('month', yesterday.slice(0, 7))))),
		store.journal.forgetBefore(cutoff),
	]);
	await writeEstimate(store, tables);
}

/**
 * Where n8n's API gives no table sizes (2.8), the size of Rate Changes' tables estimated from their
 * rows once a day, kept on the claim row for Digest to report.
 */
async function writeEstimate(store: Store, tables: readonly MonthRows[]): Promise<void> {
	const listed = await store.api.listTables();
	if (listed.every((table) => typeof table.sizeBytes === 'number')) return;
	const handles = [store.journal.table, ...tables.map((rows) => rows.table)];
	const sizes = Object.fromEntries(await Promise.all(handles.map(async (table) => [table.id, estimateBytes(await store.api.readRows(table, allOf()))] as const)));
	try {
		await writeHousekeeping(store, (kept) => ({ ...kept, sizes }));
	} catch (error) {
		if (!(error instanceof DataTablesFullError)) throw error as NodeApiError;
	}
}

/**
 * What the claim row keeps for Digest in its `alerts` column (the changes table's columns serve
 * this one row too): the estimate of Rate Changes' tables the last clean-up wrote (bytes by table
 * id), and why the last clean-up could not run, until a digest has said so.
 */
export interface Housekeeping {
	sizes?: Record<string, number>;
	cleanupFailed?: string;
}

export async function readHousekeeping(api: DataTables, journal: Journal): Promise<Housekeeping> {
	const [row] = await api.readRows(journal.table, allOf(eq('entry', META_ENTRY)));
	return typeof row?.alerts === 'string' ? (JSON.parse(row.alerts) as Housekeeping) : {};
}

async function writeHousekeeping(store: Store, change: (kept: Housekeeping) => Housekeeping): Promise<void> {
	const kept = await readHousekeeping(store.api, store.journal);
	await store.api.updateRows(store.journal.table, allOf(eq('entry', META_ENTRY)), { alerts: JSON.stringify(change(kept)) });
}

/**
 * The day's clean-up as an execution runs it: whatever stops it (a key without the delete scope,
 * n8n's 5xx past the retries, a lost answer, the size limit) costs no alert and fails nothing. Why
 * it could not run is kept for the next digest to say, once (where n8n lets it be written).
 */
export async function tidyOrNote(store: Store, tidy: () => Promise<void>): Promise<void> {
	try {
		await tidy();
	} catch (error) {
		await noteCleanupFailure(store, error);
	}
}

export async function noteCleanupFailure(store: Store, error: unknown): Promise<void> {
	const reason = error instanceof Error ? error.message : String(error);
	await writeHousekeeping(store, (kept) => ({ ...kept, cleanupFailed: reason })).catch(() => undefined);
}

/** Forgets the failure a digest has reported. */
export async function clearCleanupFailure(store: Store): Promise<void> {
	await writeHousekeeping(store, (kept) => ({ sizes: kept.sizes })).catch(() => undefined);
}

/** Whether this execution is the first to clean up as of `today`. */
async function claimDay(journal: Journal, today: string): Promise<boolean> {
	if ((cleanedDays.get(journal.table.id) ?? '') >= today) return false;
	try {
		const [row] = await journal.api.readRows(journal.table, allOf(eq('entry', META_ENTRY)));
		const done = row ? String(row.collectedTo ?? '') : undefined;
		if (done !== undefined && done >= today) {
			cleanedDays.set(journal.table.id, done);
			return false;
		}
		let claimed: boolean;
		if (row === undefined) {
			// Two executions may both add the claim row; both then clean up once, which deletes nothing twice.
			await journal.api.insertRows(journal.table, [{ entry: META_ENTRY, state: 'meta', collectedTo: today }], async () => (await journal.find(META_ENTRY)) !== undefined);
			claimed = true;
		} else {
			const { rows } = await journal.api.updateRows(journal.table, allOf(eq('id', row.id), eq('collectedTo', done ?? null)), { collectedTo: today });
			claimed = rows.length > 0 && entryOf(rows[0]).token === META_ENTRY;
		}
		cleanedDays.set(journal.table.id, today);
		return claimed;
	} catch (error) {
		// At the limit the claim cannot be written: clean up anyway, since deleting is what makes room.
		if (error instanceof DataTablesFullError) return true;
		throw error as NodeApiError;
	}
}
