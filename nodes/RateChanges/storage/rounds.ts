import { sleep, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import { newToken, type JournalAlert } from './journal';
import type { MonthRows, StoredRow } from './monthRows';
import type { Store } from './tables';

/**
 * The rounds in which an operation writes its month rows (monthRows.ts) and its alerts
 * (journal.ts): each round writes the alerts first (tentative), then the rows. A row another
 * execution wrote in the meantime is read again and planned anew in the next round, with what is
 * there now. Once every round is done, the alerts of the rows that got in are confirmed, round by
 * round: an execution that fails in a later round leaves every round's entry tentative, so n8n's
 * Retry of it (or the digest) finds them all and puts their alerts out, the first round's too.
 */

/** What one month row becomes: its columns (none when nothing in it moves) and the alerts that write makes. */
export interface MonthPlan<TExtra = unknown> {
	key: string;
	data?: IDataObject;
	alerts: JournalAlert[];
	/** What the operation needs of its plan once the row got in (the position it worked out). */
	extra?: TExtra;
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
	/** Keys whose rows another writer wrote every round: nothing of them was written (the pass stages their records again). */
	contested: string[];
}

export async function writeInRounds<TExtra>(
	context: IExecuteFunctions,
	store: Store,
	rows: MonthRows,
	operation: string,
	stored: ReadonlyMap<string, StoredRow>,
	keys: readonly string[],
	plan: (key: string, stored: StoredRow | undefined) => Promise<MonthPlan<TExtra>> | MonthPlan<TExtra>,
): Promise<RoundsResult<TExtra>> {
	const result: RoundsResult<TExtra> = { written: new Map(), alerts: [], contested: [] };
	let pending = [...keys];
	let current = new Map(stored);
	const entries: Array<{ token: string; alerts: JournalAlert[] }> = [];
	for (let round = 1; pending.length > 0 && round <= MAX_ROUNDS; round++) {
		if (round > 1) {
			await sleep(Math.random() * ROUND_PAUSE_MS * round);
			// The entries tentative now, then the rows: an execution whose entry began after this one's
			// first look and whose write is in a row read now stays among that row's writers, whoever
			// writes it after (monthRows.ts), until its alerts are confirmed.
			await store.journal.tentative();
			current = await rows.read(pending);
		}
		const token = newToken(context);
		const plans = await Promise.all(pending.map(async (key) => await plan(key, current.get(key))));
		for (const unchanged of plans.filter((monthPlan) => monthPlan.data === undefined)) result.written.set(unchanged.key, unchanged);
		const writes = plans.filter((monthPlan) => monthPlan.data !== undefined);
		const alerts = writes.flatMap((monthPlan) => monthPlan.alerts);
		if (alerts.length > 0) await store.journal.begin(token, operation, rows.table, alerts);
		const { won, lost } = await rows.write(
			token,
			writes.map((monthPlan) => ({ key: monthPlan.key, stored: current.get(monthPlan.key), data: monthPlan.data as IDataObject })),
			store.journal.unconfirmed,
		);
		if (alerts.length > 0) entries.push({ token, alerts: alerts.filter((alert) => won.has(alert.block)) });
		for (const monthPlan of writes) if (won.has(monthPlan.key)) result.written.set(monthPlan.key, monthPlan);
		pending = [...lost.keys()];
	}
	for (const entry of entries) if (await store.journal.confirm(entry.token, entry.alerts)) result.alerts.push(...entry.alerts);
	result.contested = pending;
	return result;
}
