import type { TableHandle } from './dataTables';
import { ORPHAN_AFTER_MS, type Entry, type Journal, type JournalAlert } from './journal';
import { MonthRows, wroteBy } from './monthRows';
import type { Store } from './tables';

/**
 * Entries left tentative by an execution that stopped between its writes (n8n restarted, the
 * execution was cancelled, n8n's answers stayed lost). Their alerts count for exactly the month
 * rows whose `writers` name the entry's token: those writes got in, so their alerts happened and
 * must come out; the others never got in. Whoever resolves an entry confirms it by the same
 * compare-and-set its execution would have used, so its alerts come out once: from the execution
 * that resolved it when that one holds the same records (a retry, or the records delivered again),
 * else in the next digest. An entry is resolved once it is 10 minutes old, or at once by n8n's
 * Retry of its execution or by the pass that took the node's lease after its pass was over.
 */

export interface OrphanSearch {
	/** Only entries of this operation; all operations' when not given (Digest). */
	operation?: string;
	/** An entry this execution may resolve at once, old or not: its alerts are of this execution's own records and the execution is n8n's retry of a failed one. */
	sameRecords?: (alert: JournalAlert) => boolean;
	retry: boolean;
	/** An entry of an execution whose pass of the node is over (storage/queue.ts): resolved at once, as a retry's. */
	ended?: (entry: Entry) => boolean;
	token: string;
}

function isOrphan(entry: Entry, search: OrphanSearch, now: number): boolean {
	if (search.operation !== undefined && entry.operation !== search.operation) return false;
	const matches = search.sameRecords === undefined || entry.alerts.some(search.sameRecords);
	if (!matches) return false;
	return search.retry || search.ended?.(entry) === true || now - Date.parse(entry.createdAt) >= ORPHAN_AFTER_MS;
}

/** An orphan this execution may resolve: its entry, and the alerts whose rows name it. */
export interface Orphan {
	entry: Entry;
	happened: JournalAlert[];
}

/**
 * The orphans the search allows, with what happened of each, read now and confirmed later
 * (`confirmOrphans`): an execution confirms them once its own writes are done, so that one that
 * fails on the way leaves them to the next (n8n's next Retry of it), not confirmed and put out by
 * no one. A row keeps the tokens of tentative entries (monthRows.ts), so what happened stays true.
 */
export async function findOrphans(store: Store, search: OrphanSearch): Promise<Orphan[]> {
	const now = Date.now();
	const orphans = (await store.journal.tentative()).filter((entry) => isOrphan(entry, search, now));
	return await Promise.all(orphans.map(async (entry) => ({ entry, happened: await happenedOf(store.journal, entry) })));
}

/** Confirms the orphans in this execution's name; the alerts it now owns (another may have confirmed some first). */
export async function confirmOrphans(store: Store, orphans: readonly Orphan[], token: string): Promise<JournalAlert[]> {
	const owned = await Promise.all(orphans.map(async ({ entry, happened }) => ((await store.journal.confirm(entry.token, happened, token)) ? happened : [])));
	return owned.flat();
}

/** Resolves the orphans the search allows at once; the alerts this execution now owns. */
export async function resolveOrphans(store: Store, search: OrphanSearch): Promise<JournalAlert[]> {
	return await confirmOrphans(store, await findOrphans(store, search), search.token);
}

async function happenedOf(journal: Journal, entry: Entry): Promise<JournalAlert[]> {
	const table: TableHandle = { id: entry.monthTable, spec: { ...journal.table.spec, name: entry.monthTable } };
	const rows = await new MonthRows(journal.api, table).read([...new Set(entry.alerts.map((alert) => alert.block))]);
	return entry.alerts.filter((alert) => wroteBy(rows.get(alert.block), entry.token));
}
