import type { IDataObject, NodeApiError } from 'n8n-workflow';

import { allOf, eq, type DataTables, type Row, type TableHandle } from './dataTables';
import { MonthRows, writersAfter, wroteBy, type StoredRow } from './monthRows';

/**
 * One pass at a time per node: how a record operation takes many executions at once without any
 * of them failing on another's writes (docs/nodes/rate-changes-reference.md, "One pass at a time").
 *
 * The service posts one rate record a POST, many at once, and records of one shop share month
 * rows: twenty executions writing the same row in place would each read, lose the compare-and-set
 * and read again. Instead, each node (a workflow's Rate Changes node, by its id) has a **lease**:
 * - the execution that takes it runs the **pass**: its own records, then whatever other executions
 *   **staged** meanwhile, batch after batch, until none is left;
 * - an execution that finds the lease held only stages its records (an insert: no two executions
 *   ever write one row in place) and ends with no items: their alerts come out of the pass;
 * - the holder gives the lease back, then looks for staged records once more: a record staged
 *   before the release is seen then, and one staged after it finds the lease free, so no record is
 *   left staged with no pass to take it.
 * A holder that fails gives the lease back; one that died holding it (n8n restarted, the execution
 * was cancelled) holds it until it runs out, LEASE_MS after it was last renewed, and the next
 * execution of the node takes it and the records left. n8n's Retry of a failed execution takes it
 * at once: the execution it retries is over. The entries a pass left tentative (it failed between
 * its writes and its confirm) are resolved at once by the pass that takes the lease after it,
 * when that pass holds the same records (they were delivered again): a pass that gave the lease
 * back, or let it run out, writes no more.
 *
 * The queue table holds two kinds of rows: one **lease** row per node (its `block` is
 * `lease|<key>`, `until` the time it runs out, empty when free; written with a compare-and-set on
 * `writers` as month rows are, monthRows.ts), and **staged** rows (`block` `records|<key>`,
 * `records` the records of one execution as JSON), removed once a pass has compared them.
 */

/**
 * A lease not renewed for this long is taken over: a pass renews it after every batch, which takes
 * seconds. Taken over too soon, two passes run at once for a moment, which is safe (month rows are
 * written with a compare-and-set, and records another pass keeps writing are staged again).
 */
export const LEASE_MS = 30_000;

/** The most staged rows one batch of a pass takes; the rest wait for its next batch. */
export const STAGED_ROWS_PER_BATCH = 500;

/** Records another execution staged for the pass. */
export interface Staged {
	row: Row;
	items: IDataObject[];
	/** It was staged by n8n's Retry of a failed execution: its own tentative entries may be resolved at once. */
	retry: boolean;
}

export class PassQueue {
	private readonly lease: MonthRows;
	private readonly leaseKey: string;
	private readonly stagedKey: string;
	/** The lease row as this execution last wrote it: what its next compare-and-set expects. */
	private held?: StoredRow;
	/**
	 * Executions whose pass of this node was over when this one took the lease (they gave it back,
	 * or it ran out): their entries left tentative are resolved at once (storage/store.ts).
	 */
	private readonly endedPasses = new Set<string>();
	private stagings = 0;
	/** Staged rows this pass compared and could not remove. */
	private readonly compared = new Set<number>();

	constructor(
		private readonly api: DataTables,
		private readonly table: TableHandle,
		key: string,
		private readonly token: string,
	) {
		this.lease = new MonthRows(api, table);
		this.leaseKey = `lease|${key}`;
		this.stagedKey = `records|${key}`;
	}

	/**
	 * Takes the lease when it is free or has run out, or `over` whoever holds it (n8n's Retry of a
	 * failed execution, which may have died holding it); whether this execution holds it now.
	 */
	async take(over = false): Promise<boolean> {
		const current = (await this.lease.read([this.leaseKey])).get(this.leaseKey);
		const free = current === undefined || isFree(current, Date.now());
		if (!free && !over) return false;
		const taken = await this.writeLease(current, new Date(Date.now() + LEASE_MS).toISOString());
		// Its last holder wrote the lease last (a row names its latest writer first, monthRows.ts).
		const holder = executionOf(String(current?.writers ?? '').split(' ')[0]);
		if (taken && free && holder !== undefined && holder !== executionOf(this.token)) this.endedPasses.add(holder);
		return taken;
	}

	/** Whether a token (an entry's, a row writer's) is of an execution whose pass of this node was over when this one took the lease. */
	ended(token: string): boolean {
		const execution = executionOf(token);
		return execution !== undefined && this.endedPasses.has(execution);
	}

	/** Renews the lease after a batch once a third of it has gone; false when it ran out and another execution took it. */
	async renew(): Promise<boolean> {
		if (this.held === undefined) return false;
		if (Date.parse(String(this.held.until)) - Date.now() > (LEASE_MS * 2) / 3) return true;
		return await this.writeLease(this.held, new Date(Date.now() + LEASE_MS).toISOString());
	}

	/** Gives the lease back (a holder whose lease was taken over has nothing to give). */
	async release(): Promise<void> {
		if (this.held) await this.writeLease(this.held, '');
	}

	/**
	 * The lease's compare-and-set on `writers`, as month rows are written (monthRows.ts), without
	 * reading the row back when it lost: a lease held by another is all this execution needs to know.
	 */
	private async writeLease(stored: StoredRow | undefined, until: string): Promise<boolean> {
		const data = { block: this.leaseKey, kind: 'lease', until, records: '' };
		// A write that failed leaves `held` as it was, so that giving the lease back can be tried again.
		if (!stored) {
			// The node's first pass: its lease row is inserted (monthRows.ts settles a race of two).
			const { won } = await this.lease.write(this.token, [{ key: this.leaseKey, data }]);
			this.held = won.has(this.leaseKey) ? (await this.lease.read([this.leaseKey])).get(this.leaseKey) : undefined;
			return this.held !== undefined;
		}
		const writers = writersAfter(this.token, stored.writers);
		// The row names this execution since it took the lease: the time written tells this write apart.
		const mine = async () => {
			const now = (await this.lease.read([this.leaseKey])).get(this.leaseKey);
			return wroteBy(now, this.token) && String(now?.until ?? '') === until;
		};
		const { rows, uncertain } = await this.api.updateRows(this.table, allOf(eq('id', stored.id), eq('writers', String(stored.writers ?? ''))), { ...data, writers }, mine);
		if (rows.length === 0 && !(uncertain && (await mine()))) {
			this.held = undefined;
			return false;
		}
		this.held = until === '' ? undefined : { ...stored, ...data, writers };
		return true;
	}

	/** Stages records for the pass: one insert, told apart from any other by its own token, which it returns. */
	async stage(items: readonly IDataObject[], retry: boolean): Promise<string> {
		const writer = `${this.token}.${++this.stagings}`;
		if (items.length === 0) return writer;
		const row = { block: this.stagedKey, kind: 'records', until: '', records: JSON.stringify({ retry, items }), writers: writer };
		await this.api.insertRows(this.table, [row], async () => (await this.api.readRows(this.table, allOf(eq('writers', writer)))).length > 0);
		return writer;
	}

	/** The records staged for this node, oldest first, at most STAGED_ROWS_PER_BATCH rows; none this pass compared and could not remove. */
	async staged(): Promise<Staged[]> {
		const rows = (await this.api.readRows(this.table, allOf(eq('block', this.stagedKey)))).filter((row) => !this.compared.has(row.id));
		return rows.slice(0, STAGED_ROWS_PER_BATCH).map(stagedOf);
	}

	/**
	 * Removes staged rows a pass has compared; removing one twice removes nothing more. Rows it could
	 * not remove (the key may not delete) this pass does not take again; a later pass compares them
	 * again and finds them stored: no alert twice.
	 */
	async remove(staged: readonly Staged[]): Promise<void> {
		try {
			await this.api.deleteIds(this.table, staged.map(({ row }) => row.id));
		} catch (error) {
			for (const { row } of staged) this.compared.add(row.id);
			throw error as NodeApiError;
		}
	}
}

function stagedOf(row: Row): Staged {
	const { retry = false, items = [] } = JSON.parse(String(row.records ?? '{}')) as { retry?: boolean; items?: IDataObject[] };
	return { row, items, retry };
}

/**
 * Every record staged in the queue table, by any node whose changes table it is (Detect Changes'
 * records not written to the rates table yet among them): what Compare With My Hotel and Check
 * Parity add to the rates table's view, so that the last batch of a run sees every record of it
 * that has arrived, whichever pass writes it (actions/standing.ts).
 */
export async function allStaged(api: DataTables, table: TableHandle): Promise<Array<{ operation: string; items: IDataObject[] }>> {
	return (await api.readRows(table, allOf(eq('kind', 'records')))).map((row) => ({ operation: String(row.block ?? '').split('|')[1] ?? '', items: stagedOf(row).items }));
}

/** The execution a token names (journal.ts newToken: `<execution id>.<random>`); none without an id. */
function executionOf(token: string): string | undefined {
	const execution = token.split('.')[0];
	return execution === '' || execution === 'x' ? undefined : execution;
}

function isFree(lease: StoredRow, now: number): boolean {
	const until = String(lease.until ?? '');
	return until === '' || Date.parse(until) <= now;
}
