import type { IDataObject } from 'n8n-workflow';

import type { Observation } from '../rules/observation';

import { numberText, textNumber, type DayCell } from './monthCells';
import type { MonthRows, StoredRow } from './monthRows';
import { checkInOf, dayOf, readStayMonth, readStayMonthHead, stayMonthHeadRow, stayMonthKey, stayMonthOf, storedStay, type StayMonth, type StayMonthKey, type StayRates } from './stayMonths';
import type { MonthPlan, Store } from './store';

/**
 * The history table (`<Rates Table>_history`): one row per stay month, as the rates table has,
 * holding for each day of the month every rate its stay had since Keep History days ago, each
 * with the collection time of the first record that showed it. A record that shows the rate the
 * stay already had adds nothing, so a shop that moves nothing writes nothing here: the history of
 * a stay is its first rate and each change after it (docs/nodes/rate-changes-reference.md,
 * "Rate history").
 *
 * Entries are kept in collection order: a record collected between two entries goes between
 * them, the same record twice is one entry, and a record that shows the rate of the entry before
 * it adds nothing. A record never removes an entry: one that arrives late and shows the rate of
 * the entry after it leaves that entry where it is, since a record collected later still, arriving
 * later still, may fall between them. So a redelivery adds nothing, a write sent twice (a lost
 * answer, a retry) writes the same text, and the history of records arriving in any order holds
 * every rate at the time it was first collected. Since a record that repeats the latest rate
 * writes nothing here, every write of a day also carries the stay's latest record as the rates
 * table has it (`withRecords`'s caller adds it): a late record that differs from the rates around
 * it then lies between them, and the rate after it starts again at that latest record (at the
 * first record after the late one, where the stay had only one record between them: the case of
 * two shops that overlap).
 *
 * `history`: one word per day, in day order, `DD=<entry>,<entry>…`, oldest first; an entry is
 * `<ms>:<onsite>/<net>/<total>[#<currency>]`, `<ms>` the collection time in milliseconds since
 * 1970 in base 36, the rates as the rates table writes them (`=` for a total equal to the onsite
 * rate, nothing for an unknown rate, 0 for sold out) and the currency only where it is not the
 * row's.
 */

/** One rate of a stay's history: from `dtCollected` on, until the next entry (the shape rules/history.ts reads). */
export type HistoryEntry = DayCell<Omit<StayRates, 'seenOnce'>>;

export interface HistoryMonth extends StayMonthKey {
	key: string;
	hotelName: string;
	currency: string;
	/** By day of the month, the stay's entries, oldest first. */
	days: Map<number, HistoryEntry[]>;
}

export function emptyHistoryMonth(key: StayMonthKey, observation: Pick<Observation, 'hotelName' | 'currency'>): HistoryMonth {
	return { ...key, key: stayMonthKey(key), hotelName: observation.hotelName, currency: observation.currency, days: new Map() };
}

export function readHistoryMonth(row: StoredRow): HistoryMonth {
	const head = readStayMonthHead(row);
	return { ...head, days: unpackHistory(text(row.history), head.currency) };
}

export function historyMonthRow(month: HistoryMonth): IDataObject {
	return { ...stayMonthHeadRow(month), history: packHistory(month.days, month.currency) };
}

/** Whether two entries show the same rate: same currency and the same three rates. */
export function sameRates(a: HistoryEntry['value'], b: HistoryEntry['value']): boolean {
	return a.currency === b.currency && a.onsiteRate === b.onsiteRate && a.netRate === b.netRate && a.totalRate === b.totalRate;
}

export function entryOf(observation: Observation): HistoryEntry {
	const { onsiteRate, netRate, totalRate, currency, dtCollected } = observation;
	return { value: { onsiteRate, netRate, totalRate, currency }, dtCollected };
}

/**
 * Whether a record may change its stay's history, told from the stay's latest rate as the rates
 * table has it: not when it is newer than that and shows the same rate (the common case, a shop
 * that moved nothing), so such a record costs no write of the history table.
 */
export function changesHistory(observation: Observation, latest: DayCell<StayRates> | undefined): boolean {
	if (latest === undefined || observation.dtCollected <= latest.dtCollected) return true;
	return !sameRates(entryOf(observation).value, latest.value);
}

/**
 * The records of a stay month that may change its history, told from the month as the rates table
 * has it (none when it has no row yet): each stay's records in collection order, each against the
 * latest before it, the stored one and then the month's own newer records.
 */
export function historyRecords(month: StayMonth | undefined, observations: readonly Observation[]): Observation[] {
	const latest = new Map<number, DayCell<StayRates>>(month?.days ?? []);
	return observations.filter((observation) => {
		const day = dayOf(observation.checkIn);
		const before = latest.get(day);
		if (before === undefined || observation.dtCollected > before.dtCollected) latest.set(day, { value: { ...entryOf(observation).value, seenOnce: false }, dtCollected: observation.dtCollected });
		return changesHistory(observation, before);
	});
}

/**
 * The month with the records in it and the entries collected before `keepFrom` (ISO 8601) gone,
 * all but the last of each day before it: the rate a stay had when the kept history begins.
 * `changed`: whether the month's text differs from before.
 */
export function withRecords(month: HistoryMonth, observations: readonly Observation[], keepFrom: string): { month: HistoryMonth; changed: boolean } {
	const before = packHistory(month.days, month.currency);
	const days = new Map(month.days);
	for (const observation of observations) {
		const day = dayOf(observation.checkIn);
		days.set(day, inserted(days.get(day) ?? [], entryOf(observation)));
	}
	for (const [day, entries] of days) days.set(day, pruned(entries, keepFrom));
	const next = { ...month, days };
	return { month: next, changed: packHistory(days, month.currency) !== before };
}

/** What a batch's history write leaves for its rates write. */
export interface HistoryWrite {
	/** Months whose history row another writer wrote every round: their records wait for the next batch, their rates rows too. */
	contested: Set<string>;
	/**
	 * Whether the rates row of a month, as it is now, may be written: every record that may change
	 * the history against it is in the history written, and the days they touch still hold the
	 * latest records that write carried. Else the row moved since it was read, and the month waits
	 * for the next batch, which writes its history first again.
	 */
	holds: (key: string, ratesRow: StoredRow | undefined) => boolean;
}

/**
 * The history rows of a batch's stay months (`byMonth`, each month's records in collection order),
 * written before their rates rows (`stored`, as read before the first round), so that no rate moves
 * on in the rates table before its history holds it: a record whose rates row got in is in the
 * history, and one whose history got in but not its rates is compared again and written again, the
 * same text. Only months with a record that may change the history are read or written (an
 * unchanged shop sends nothing here). Entries before `keepFrom` are pruned on the way.
 */
export async function writeHistory(store: Store, history: MonthRows, byMonth: ReadonlyMap<string, readonly Observation[]>, stored: ReadonlyMap<string, StoredRow>, keepFrom: string): Promise<HistoryWrite> {
	const read = new Map([...byMonth.keys()].map((key) => [key, ratesMonth(stored.get(key))]));
	const records = new Map([...byMonth].flatMap(([key, observations]) => {
		const changing = historyRecords(read.get(key), observations);
		return changing.length > 0 ? [[key, changing] as const] : [];
	}));
	const keys = [...records.keys()];
	const plan = (key: string, row: StoredRow | undefined): MonthPlan => {
		const observations = records.get(key) as Observation[];
		const month = row ? readHistoryMonth(row) : emptyHistoryMonth(stayMonthOf(observations[0]), observations[0]);
		// Each day's latest record as the rates row has it: a late record then lies between the rates around it.
		const rates = read.get(key);
		const latest = rates ? [...new Set(observations.map(({ checkIn }) => dayOf(checkIn)))].flatMap((day) => storedStay(rates, day) ?? []) : [];
		const { month: next, changed } = withRecords(month, [...observations, ...latest], keepFrom);
		return { key, alerts: [], data: changed ? historyMonthRow(next) : undefined };
	};
	const contested = keys.length > 0 ? (await store.writeInRounds({ rows: history, keys, stored: await history.read(keys), plan })).contested : [];
	return {
		contested: new Set(contested),
		holds: (key, ratesRow) => {
			const [before, now] = [read.get(key), ratesMonth(ratesRow)];
			const written = new Set(records.get(key));
			return historyRecords(now, byMonth.get(key) ?? []).every((observation) => {
				const day = dayOf(observation.checkIn);
				return written.has(observation) && now?.days.get(day)?.dtCollected === before?.days.get(day)?.dtCollected;
			});
		},
	};
}

function ratesMonth(row: StoredRow | undefined): StayMonth | undefined {
	return row ? readStayMonth(row) : undefined;
}

/** The entries with one more record among them, in collection order: none when it repeats the rate of the entry before it; no entry removed. */
function inserted(entries: readonly HistoryEntry[], entry: HistoryEntry): HistoryEntry[] {
	if (entries.some((kept) => kept.dtCollected === entry.dtCollected)) return [...entries];
	const after = entries.findIndex((kept) => kept.dtCollected > entry.dtCollected);
	const at = after < 0 ? entries.length : after;
	const previous = entries[at - 1];
	if (previous !== undefined && sameRates(previous.value, entry.value)) return [...entries];
	return [...entries.slice(0, at), entry, ...entries.slice(at)];
}

function pruned(entries: readonly HistoryEntry[], keepFrom: string): HistoryEntry[] {
	const firstKept = entries.findIndex((entry) => entry.dtCollected >= keepFrom);
	if (firstKept < 0) return entries.slice(-1);
	return entries.slice(Math.max(0, firstKept - 1));
}

/** Each day's stay of the month, by check-in date. */
export function historyByCheckIn(month: HistoryMonth): Map<string, HistoryEntry[]> {
	return new Map([...month.days].map(([day, entries]) => [checkInOf(month.month, day), entries]));
}

function packHistory(days: ReadonlyMap<number, readonly HistoryEntry[]>, rowCurrency: string): string {
	return [...days.entries()]
		.filter(([, entries]) => entries.length > 0)
		.sort(([a], [b]) => a - b)
		.map(([day, entries]) => `${String(day).padStart(2, '0')}=${entries.map((entry) => packEntry(entry, rowCurrency)).join(',')}`)
		.join(' ');
}

function packEntry({ value, dtCollected }: HistoryEntry, rowCurrency: string): string {
	const { onsiteRate, netRate, totalRate, currency } = value;
	const total = totalRate !== null && totalRate === onsiteRate ? '=' : numberText(totalRate);
	const rates = `${numberText(onsiteRate)}/${numberText(netRate)}/${total}`;
	return `${Date.parse(dtCollected).toString(36)}:${currency === rowCurrency ? rates : `${rates}#${currency}`}`;
}

/** The days of a history text; an entry that does not read is left out rather than stopping the node. */
function unpackHistory(history: string, rowCurrency: string): Map<number, HistoryEntry[]> {
	const days = new Map<number, HistoryEntry[]>();
	if (history === '') return days;
	for (const word of history.split(' ')) {
		const match = /^(\d{2})=(.+)$/.exec(word);
		if (!match) continue;
		const entries = match[2].split(',').flatMap((packed) => unpackEntry(packed, rowCurrency) ?? []);
		if (entries.length > 0) days.set(Number(match[1]), entries);
	}
	return days;
}

function unpackEntry(packed: string, rowCurrency: string): HistoryEntry | undefined {
	const match = /^([0-9a-z]+):([^#]*)(?:#([A-Z]{3}))?$/.exec(packed);
	if (!match) return undefined;
	const ms = parseInt(match[1], 36);
	if (!Number.isFinite(ms)) return undefined;
	const [onsite = '', net = '', total = ''] = match[2].split('/');
	const onsiteRate = textNumber(onsite);
	return {
		value: { onsiteRate, netRate: textNumber(net), totalRate: total === '=' ? onsiteRate : textNumber(total), currency: match[3] ?? rowCurrency },
		dtCollected: new Date(ms).toISOString(),
	};
}

function text(value: unknown): string {
	return value === null || value === undefined ? '' : String(value);
}
