import { sleep, type IDataObject, type NodeApiError } from 'n8n-workflow';

import { allOf, anyOf, eq, type DataTables, type Row, type RowFilter, type TableHandle } from './dataTables';

/**
 * How Rate Changes writes a month row (a stay month, or a month of remembered positions) so that
 * executions running at once, answers lost on the way back and executions that die half way never
 * lose a write nor make one twice:
 *
 * - Every row carries `writers`: the tokens of its last writes, newest first. A token is one
 *   execution's (journal.ts makes it), so a row tells which executions wrote it lately.
 * - A stored row is written with a compare-and-set on its `writers` as they were read: of two
 *   executions that read the same row, one writes and the other reads it again. A write whose
 *   answer was lost and that is sent again matches nothing the second time; the row read back
 *   then names the token, and the write counts as done.
 * - A row not stored yet is inserted. Executions that insert the same new row at once each insert
 *   one; the row with the lowest id counts, and the others lose: they read it and write over it
 *   as over any stored row, and their own row goes. The lowest id is read twice, a moment apart,
 *   since on Postgres a row with a lower id may become visible a little after one with a higher.
 */

export type StoredRow = Row;

/** How many writes a row remembers: enough to tell, minutes later, whether an execution's write got in. */
export const WRITERS_KEPT = 4;

/** Keys per read: each is one "block eq …" condition of the filter in the query string. */
export const KEYS_PER_READ = 50;

/** The wait before a row just inserted is read again to see that no row with a lower id came first. */
const SETTLE_MS = 200;

/** A row left by an execution that lost a race (or died before removing it) is removed after this long. */
const STRAY_AGE_MS = 10 * 60_000;

/**
 * The writers after this write: its token, the last writes before it, and every earlier one whose
 * alerts are not confirmed yet (`pinned`, the tokens of tentative entries): while an execution
 * may have died between its write and its confirm, its token stays, however many executions write
 * the row after it, so the entry it left can still be told true or false.
 */
export function writersAfter(token: string, previous: unknown, pinned: ReadonlySet<string> = new Set()): string {
	const earlier = writersOf(previous);
	const recent = earlier.filter((writer) => !pinned.has(writer)).slice(0, WRITERS_KEPT - 1);
	return [token, ...recent, ...earlier.filter((writer) => pinned.has(writer))].join(' ');
}

function writersOf(value: unknown): string[] {
	return typeof value === 'string' && value !== '' ? value.split(' ') : [];
}

/** Whether the row's recent writes include one with this token. */
export function wroteBy(row: Row | undefined, token: string): boolean {
	return row !== undefined && writersOf(row.writers).includes(token);
}

export interface MonthWrite {
	key: string;
	/** The row as read, written over with a compare-and-set; none for a row not stored yet. */
	stored?: StoredRow;
	/** Every column but `writers`. */
	data: IDataObject;
}

export interface WriteResult {
	/** The keys this write got in for. */
	won: Set<string>;
	/** The rest, each with the row that counts now (another execution's); none when it is gone. */
	lost: Map<string, StoredRow | undefined>;
}

/** The month rows of one table. */
export class MonthRows {
	constructor(
		readonly api: DataTables,
		readonly table: TableHandle,
	) {}

	/** The row that counts for each key: the lowest id; rows of the same key beside it are strays. */
	async read(keys: readonly string[]): Promise<Map<string, StoredRow>> {
		return (await this.readAll(keys)).counting;
	}

	/** The rows a filter finds, the row that counts for each key. */
	async readWhere(filter: RowFilter): Promise<Map<string, StoredRow>> {
		return (await this.sorted(await this.api.readRows(this.table, filter))).counting;
	}

	private async readAll(keys: readonly string[]): Promise<{ counting: Map<string, StoredRow>; strays: StoredRow[] }> {
		const chunks: string[][] = [];
		for (let start = 0; start < keys.length; start += KEYS_PER_READ) chunks.push(keys.slice(start, start + KEYS_PER_READ) as string[]);
		const rows = (await Promise.all(chunks.map(async (chunk) => await this.api.readRows(this.table, anyOf(chunk.map((key) => eq('block', key))))))).flat();
		return await this.sorted(rows);
	}

	/** Rows by key, lowest id first; strays old enough to be nobody's race any more are removed. */
	private async sorted(rows: readonly StoredRow[]): Promise<{ counting: Map<string, StoredRow>; strays: StoredRow[] }> {
		const counting = new Map<string, StoredRow>();
		const strays: StoredRow[] = [];
		for (const row of [...rows].sort((a, b) => a.id - b.id)) {
			const key = String(row.block);
			if (counting.has(key)) strays.push(row);
			else counting.set(key, row);
		}
		const old = strays.filter((row) => Date.now() - Date.parse(String(row.createdAt ?? '')) > STRAY_AGE_MS);
		// Housekeeping: a stray left (the key may not delete) is skipped by every read all the same.
		if (old.length > 0) await this.api.deleteIds(this.table, old.map((row) => row.id)).catch(() => undefined);
		return { counting, strays };
	}

	/** Writes each month; `pinned`: tokens whose entries are still tentative, kept in every row's writers. */
	async write(token: string, writes: readonly MonthWrite[], pinned: ReadonlySet<string> = new Set()): Promise<WriteResult> {
		const result: WriteResult = { won: new Set(), lost: new Map() };
		const inserts = writes.filter((write) => write.stored === undefined);
		await Promise.all(
			writes
				.filter((write) => write.stored !== undefined)
				.map(async (write) => {
					const now = await this.compareAndSet(token, write, pinned);
					if (now === 'won') result.won.add(write.key);
					else result.lost.set(write.key, now);
				}),
		);
		if (inserts.length > 0) await this.insertNew(token, inserts, result);
		return result;
	}

	/** Writes over the stored row if it is still as read; 'won', or the row as it is now (none: it was deleted meanwhile). */
	private async compareAndSet(token: string, write: MonthWrite, pinned: ReadonlySet<string>): Promise<'won' | StoredRow | undefined> {
		const stored = write.stored as StoredRow;
		const sameState = allOf(eq('id', stored.id), eq('writers', String(stored.writers ?? '')));
		let answer: { rows: Row[]; uncertain: boolean };
		try {
			// A lost answer is looked into at once, not after the resend's backoff: the row keeps only its
			// last WRITERS_KEPT writers, and other executions writing it meanwhile would push this one out.
			answer = await this.api.updateRows(this.table, sameState, { ...write.data, writers: writersAfter(token, stored.writers, pinned) }, async () =>
				wroteBy((await this.read([write.key])).get(write.key), token),
			);
		} catch (error) {
			// No attempt got an answer that counts (lost, or a 500, each time), yet the first may have
			// got in: the row tells, so the execution does not stop between its rows and its confirm.
			if (wroteBy((await this.read([write.key]).catch(() => undefined))?.get(write.key), token)) return 'won';
			throw error as NodeApiError;
		}
		if (answer.rows.length > 0) return 'won';
		const now = (await this.read([write.key])).get(write.key);
		return answer.uncertain && wroteBy(now, token) ? 'won' : now;
	}

	private async insertNew(token: string, inserts: readonly MonthWrite[], result: WriteResult): Promise<void> {
		const keys = inserts.map((write) => write.key);
		await this.api.insertRows(
			this.table,
			inserts.map((write) => ({ ...write.data, writers: token })),
			async (batch) => {
				const found = await this.api.readRows(this.table, anyOf(batch.map((row) => eq('block', String(row.block)))));
				return found.some((row) => row.writers === token);
			},
		);
		// Only this execution's insert gives a row its token in the insert path; another execution may
		// already have written over it, keeping the token in `writers`.
		const mine = (row: StoredRow | undefined) => wroteBy(row, token);
		let rows = await this.readAll(keys);
		if (keys.some((key) => mine(rows.counting.get(key)))) {
			await sleep(SETTLE_MS);
			rows = await this.readAll(keys);
		}
		for (const key of keys) {
			const counting = rows.counting.get(key);
			if (mine(counting)) result.won.add(key);
			else result.lost.set(key, counting);
		}
		const myStrays = rows.strays.filter(mine);
		// A stray that stays is removed by whoever reads it once it is old (sorted): failing to remove
		// it now must not stop the execution between its rows and its confirm.
		if (myStrays.length > 0) await this.api.deleteIds(this.table, myStrays.map((row) => row.id)).catch(() => undefined);
	}
}
