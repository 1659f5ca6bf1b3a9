import { sleep, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import type { RequestLimiter } from '../../shared/concurrency';

import { DataTables, type TableHandle, type TableSpec } from './dataTables';
import { Journal, newToken, ORPHAN_AFTER_MS, type Entry, type JournalAlert } from './journal';
import { MonthRows, wroteBy, type StoredRow } from './monthRows';
import { changesTable } from './tables';

/** What an operation meets of the tables behind the door: the changes table, its alerts and entries, a table of month rows and its rows. */
export type { Entry, Journal, JournalAlert } from './journal';
export type { MonthRows, StoredRow } from './monthRows';

/**
 * The one door to what Rate Changes keeps in n8n's Data Tables, opened once per execution by the
 * router (actions/router.ts) and passed to the operation. Through it an operation opens its tables,
 * reads its month rows, writes them in rounds with the journal entries of their alerts, and
 * resolves the entries executions left behind:
 *
 * - A **round** writes the alerts its writes will make first (a `tentative` entry of the changes
 *   table, journal.ts), then the month rows (each a compare-and-set on the row's `writers`,
 *   monthRows.ts). A row another execution wrote in the meantime is read again and planned anew
 *   in the next round, with what is there now; one another wrote every round is **contested**:
 *   nothing of it is written, and the caller decides (a pass stages its records again, a calendar
 *   says so). Once every round is done, the alerts of the rows that got in are confirmed, round by
 *   round: an execution that fails in a later round leaves every round's entry tentative, so n8n's
 *   Retry of it (or the digest) finds them all and puts their alerts out, the first round's too.
 * - A row keeps among its `writers` the tokens of entries still tentative (**pinned**): the
 *   caller passes the ones it read, and every later round reads them again before it reads its
 *   rows, so an entry left by an execution that died between its writes and its confirm can still
 *   be told true or false, however many write the row after it.
 * - An **orphan** is an entry left tentative by an execution that stopped between its writes (n8n
 *   restarted, the execution was cancelled, n8n's answers stayed lost). Its alerts count for
 *   exactly the month rows whose `writers` name the entry's token: those writes got in, so their
 *   alerts happened and must come out; the others never got in. Whoever resolves an entry
 *   confirms it by the same compare-and-set its execution would have used, so its alerts come out
 *   once: from the execution that resolved it when that one holds the same records (a retry, or
 *   the records delivered again), else in the next digest. An entry is resolved once it is 10
 *   minutes old, or at once by n8n's Retry of its execution or by the pass that took the node's
 *   lease after its pass was over.
 */
export class Store {
	constructor(
		readonly context: IExecuteFunctions,
		readonly api: DataTables,
	) {}

	static open(context: IExecuteFunctions, limiter: RequestLimiter): Store {
		return new Store(context, new DataTables(context, limiter));
	}

	/** A token for one round of writes of this execution (journal.ts). */
	newToken(): string {
		return newToken(this.context);
	}

	/** The changes table, created when missing. */
	async journal(changesTableName: string): Promise<Journal> {
		return new Journal(this.api, await this.api.ensureTable(changesTable(changesTableName)));
	}

	/** A table of month rows, created when missing; one without the node's columns stops the execution here. */
	async monthRows(spec: TableSpec): Promise<MonthRows> {
		return new MonthRows(this.api, await this.api.ensureTable(spec));
	}

	/** Writes month rows in rounds (see the class). */
	async writeInRounds<TExtra>(rounds: Rounds<TExtra>): Promise<RoundsResult<TExtra>> {
		const { rows, plan, alerting } = rounds;
		const result: RoundsResult<TExtra> = { written: new Map(), alerts: [], contested: [] };
		let pending = [...rounds.keys];
		let current = new Map(rounds.stored);
		const pinned = new Set(alerting?.pinned);
		const entries: Array<{ token: string; alerts: JournalAlert[] }> = [];
		for (let round = 1; pending.length > 0 && round <= MAX_ROUNDS; round++) {
			if (round > 1) {
				await sleep(Math.random() * ROUND_PAUSE_MS * round);
				// The entries tentative now, then the rows: an execution whose entry began after this one's
				// first look and whose write is in a row read now stays among that row's writers, whoever
				// writes it after, until its alerts are confirmed.
				if (alerting) for (const entry of await alerting.journal.tentative()) pinned.add(entry.token);
				current = await rows.read(pending);
			}
			const token = this.newToken();
			const plans = await Promise.all(pending.map(async (key) => await plan(key, current.get(key))));
			for (const unchanged of plans.filter((monthPlan) => monthPlan.data === undefined)) result.written.set(unchanged.key, unchanged);
			const writes = plans.filter((monthPlan) => monthPlan.data !== undefined);
			const alerts = writes.flatMap((monthPlan) => monthPlan.alerts);
			if (alerting && alerts.length > 0) await alerting.journal.begin(token, alerting.operation, rows.table, alerts);
			const { won, lost } = await rows.write(
				token,
				writes.map((monthPlan) => ({ key: monthPlan.key, stored: current.get(monthPlan.key), data: monthPlan.data as IDataObject })),
				pinned,
			);
			if (alerting && alerts.length > 0) entries.push({ token, alerts: alerts.filter((alert) => won.has(alert.block)) });
			for (const monthPlan of writes) if (won.has(monthPlan.key)) result.written.set(monthPlan.key, monthPlan);
			pending = [...lost.keys()];
		}
		for (const entry of entries) if (await alerting?.journal.confirm(entry.token, entry.alerts)) result.alerts.push(...entry.alerts);
		result.contested = pending;
		return result;
	}

	/**
	 * The orphans the search allows, with what happened of each, read now and confirmed later
	 * (`confirmOrphans`): an execution confirms them once its own writes are done, so that one that
	 * fails on the way leaves them to the next (n8n's next Retry of it), not confirmed and put out by
	 * no one. With them, the tokens of every entry tentative now: what the execution's writes pin.
	 */
	async findOrphans(journal: Journal, search: OrphanSearch): Promise<OrphanScan> {
		const now = Date.now();
		const tentative = await journal.tentative();
		const orphans = await Promise.all(
			tentative.filter((entry) => isOrphan(entry, search, now)).map(async (entry) => ({ entry, happened: await happenedOf(journal, entry) })),
		);
		return { orphans, pinned: new Set(tentative.map((entry) => entry.token)) };
	}

	/** Confirms the orphans in this execution's name; the alerts it now owns (another may have confirmed some first). */
	async confirmOrphans(journal: Journal, orphans: readonly Orphan[]): Promise<JournalAlert[]> {
		const token = this.newToken();
		const owned = await Promise.all(orphans.map(async ({ entry, happened }) => ((await journal.confirm(entry.token, happened, token)) ? happened : [])));
		return owned.flat();
	}

	/** Resolves the orphans the search allows at once; the alerts this execution now owns. */
	async resolveOrphans(journal: Journal, search: OrphanSearch): Promise<JournalAlert[]> {
		return await this.confirmOrphans(journal, (await this.findOrphans(journal, search)).orphans);
	}
}

/** What one month row becomes: its columns (none when nothing in it moves) and the alerts that write makes. */
export interface MonthPlan<TExtra = unknown> {
	key: string;
	data?: IDataObject;
	alerts: JournalAlert[];
	/** What the operation needs of its plan once the row got in (the position it worked out). */
	extra?: TExtra;
}

/** Where the alerts of a round's writes go. */
export interface Alerting {
	journal: Journal;
	/** The operation whose entries they are. */
	operation: string;
	/** Tokens of entries tentative when the execution last read them (`findOrphans`): kept in every row's writers. */
	pinned: ReadonlySet<string>;
}

export interface Rounds<TExtra> {
	rows: MonthRows;
	keys: readonly string[];
	/** The rows of the keys as read before the first round (a key not stored has none). */
	stored: ReadonlyMap<string, StoredRow>;
	plan: (key: string, stored: StoredRow | undefined) => Promise<MonthPlan<TExtra>> | MonthPlan<TExtra>;
	/** Where the alerts go; none for writes that make no alerts (Rate Calendar's memory). */
	alerting?: Alerting;
}

/** A row other executions wrote every time this one tried is left, this many rounds on. */
export const MAX_ROUNDS = 8;

/** Between rounds a random pause, longer each round, so executions that keep meeting on the same rows fall out of step. */
const ROUND_PAUSE_MS = 40;

export interface RoundsResult<TExtra> {
	/** The plans whose rows got in (or needed no write). */
	written: Map<string, MonthPlan<TExtra>>;
	/** The alerts this execution confirmed: the ones it puts out. */
	alerts: JournalAlert[];
	/** Keys whose rows another writer wrote every round: nothing of them was written. */
	contested: string[];
}

export interface OrphanSearch {
	/** Only entries of this operation; all operations' when not given (Digest). */
	operation?: string;
	/** An entry this execution may resolve at once, old or not: its alerts are of this execution's own records and the execution is n8n's retry of a failed one. */
	sameRecords?: (alert: JournalAlert) => boolean;
	retry: boolean;
	/** An entry of an execution whose pass of the node is over (storage/queue.ts): resolved at once, as a retry's. */
	ended?: (entry: Entry) => boolean;
}

/** An orphan this execution may resolve: its entry, and the alerts whose rows name it. */
export interface Orphan {
	entry: Entry;
	happened: JournalAlert[];
}

export interface OrphanScan {
	orphans: Orphan[];
	/** The tokens of every entry tentative when read. */
	pinned: ReadonlySet<string>;
}

function isOrphan(entry: Entry, search: OrphanSearch, now: number): boolean {
	if (search.operation !== undefined && entry.operation !== search.operation) return false;
	const matches = search.sameRecords === undefined || entry.alerts.some(search.sameRecords);
	if (!matches) return false;
	return search.retry || search.ended?.(entry) === true || now - Date.parse(entry.createdAt) >= ORPHAN_AFTER_MS;
}

async function happenedOf(journal: Journal, entry: Entry): Promise<JournalAlert[]> {
	const table: TableHandle = { id: entry.monthTable, spec: { ...journal.table.spec, name: entry.monthTable } };
	const rows = await new MonthRows(journal.api, table).read([...new Set(entry.alerts.map((alert) => alert.block))]);
	return entry.alerts.filter((alert) => wroteBy(rows.get(alert.block), entry.token));
}
