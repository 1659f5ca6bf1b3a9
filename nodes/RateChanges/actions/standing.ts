import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { ReportedChange } from '../rules/alert';
import { latestByStay, type Observation, type RateField } from '../rules/observation';
import type { RowFilter } from '../storage/dataTables';
import type { DayCell } from '../storage/monthCells';
import { emptyPositionMonth, positionMonthRow, readPositionMonth, type PositionKind, type PositionMonth } from '../storage/positionMonths';
import { dayOf, readStayMonth, storedStays } from '../storage/stayMonths';
import type { JournalAlert, MonthPlan, MonthRows, Store, StoredRow } from '../storage/store';
import { positionsTable, ratesTable } from '../storage/tables';

import type { RecordSettings } from './fields';
import { withRecordStore, type Batch, type ObservedItem, type RecordOperation, type RecordRun, type Records } from './records';

/**
 * What Compare With My Hotel and Check Parity share: each works out, for every stay-night (or
 * stay) its records touch, where things stand, from the rates table Detect Changes keeps and the
 * incoming records (newer than the table when Detect Changes has not stored them yet), and
 * remembers it in the positions table. A shop arrives in many deliveries, and the pass works each
 * stay-night out again with every record of its run that has arrived (see RUN_MS): the first batch
 * whose records show an alert alerts, once a run; an older run changes nothing. Neither sends a
 * request to the service.
 */

export interface StandingSettings extends RecordSettings {
	positionsTable: string;
}

/** The records of one stay-night (or stay), and where they are remembered. */
export interface Group {
	/** The stay-night's own key, for the alert keys. */
	key: string;
	/** The positions month row that remembers it. */
	monthKey: string;
	hotelCode: number;
	/** What to read of the rates table for it (one read serves every group with the same filter). */
	rateFilter: RowFilter;
	/** Whether a stored or incoming stay belongs to it. */
	holds: (stay: Observation) => boolean;
	items: ObservedItem[];
}

export interface Worked<TStanding> {
	standing: TStanding;
	/** What is remembered of it until the next shop. */
	state: string;
}

/** What the stay-night alerts, now that it is known whether this execution claimed it. */
export interface Verdict {
	/** It comes out whatever was claimed (a position feed). */
	always: boolean;
	/** It comes out as an alert: from this execution if its write gets in (and it confirms its alerts). */
	alerting: boolean;
	alerts: ReportedChange[];
	item: IDataObject;
}

export interface StandingKind<TStanding> {
	operation: 'compareWithMyHotel' | 'checkParity';
	kind: PositionKind;
	groupOf: (observation: Observation) => Omit<Group, 'items'> | undefined;
	work: (group: Group, stays: readonly Observation[]) => Worked<TStanding>;
	/**
	 * `mayAlert`: the run has not alerted the stay-night yet. `complete`: this batch sees at least as
	 * many of the run's rates as any batch before it, and as many as the last run ended with: a
	 * change of rank or of parity state, which later records can move either way, alerts only then
	 * (an undercut or a loss, which more records never take back, alerts from any view).
	 */
	verdict: (group: Group, worked: Worked<TStanding>, previous: DayCell<string> | undefined, mayAlert: boolean, complete: boolean) => Verdict;
}

/** A stay-night's alert key: its positions row, its day, the kind and the collection time of its first record. */
function alertKey(alert: JournalAlert): string {
	return [alert.block, alert.checkIn, alert.dtCollected].join('|');
}

function groupsOf<TStanding>(kind: StandingKind<TStanding>, records: Records): Group[] {
	const groups = new Map<string, Group>();
	for (const item of records.observed) {
		const target = kind.groupOf(item.observation);
		if (!target) continue;
		const group = groups.get(target.key) ?? { ...target, items: [] };
		group.items.push(item);
		groups.set(target.key, group);
	}
	return [...groups.values()];
}

function first(group: Group): Observation {
	return group.items[0].observation;
}

function newestCollected(group: Group): string {
	return group.items.map(({ observation }) => observation.dtCollected).sort().at(-1) as string;
}

/** The key the alerts of a stay-night carry: its positions row, its day, the collection time of its first record. */
function groupAlertKey(group: Group): string {
	return [group.monthKey, first(group).checkIn, first(group).dtCollected].join('|');
}

/**
 * A run of a shop: the records of a stay-night collected within this long of the first one the node
 * worked it out from. A shop collects its comp set over minutes (each record carries its own
 * `dtCollected`) and every run of a shop carries the same `shopId`; a daily or twice-daily shop's
 * next run is a new one. Shops less than 6 hours apart count as one run.
 */
export const RUN_MS = 6 * 3_600_000;

/**
 * What a positions day remembers: the state the last run ended with and the rates it saw
 * (`beforeSeen`), this run's state (worked out from `seen` rates, the most any batch of the run
 * saw), and whether this run alerted.
 */
interface RunCell {
	before: string | undefined;
	now: string;
	alerted: boolean;
	seen: number;
	beforeSeen: number;
}

/**
 * `before~now~1~seen~beforeSeen`, `?` for a stay-night never worked out before; a value without `~`
 * is a run's state alone. A cell written before `beforeSeen` was kept reads it as 0: its run is
 * judged from its largest view, as it was.
 */
function readRunCell(value: string): RunCell {
	const parts = value.split('~');
	if (parts.length < 3) return { before: undefined, now: value, alerted: false, seen: 0, beforeSeen: 0 };
	const count = (part: string | undefined) => Number(part ?? 0) || 0;
	return { before: parts[0] === '?' ? undefined : parts[0], now: parts[1], alerted: parts[2] === '1', seen: count(parts[3]), beforeSeen: count(parts[4]) };
}

function runCellText({ before, now, alerted, seen, beforeSeen }: RunCell): string {
	return [before ?? '?', now, alerted ? '1' : '', String(seen), String(beforeSeen)].join('~');
}

function msOf(time: string): number {
	return Date.parse(time);
}

/**
 * A positions month with this batch's stay-nights in it. Each stay-night is worked out again with
 * every record of its run that has arrived, and alerts at most once a run: the first batch whose
 * records show an undercut or a parity loss alerts, and no later one of the same run does; a new
 * rank or parity state alerts only from a complete view (see `complete` in StandingKind); the same
 * records again are the same run and alert nothing. A run is compared with the state the run
 * before it ended with. Records of an older run change nothing.
 */
function planMonth<TStanding>(
	kind: StandingKind<TStanding>,
	month: PositionMonth,
	monthGroups: readonly Group[],
	worked: ReadonlyMap<string, Worked<TStanding> & { seen: number }>,
	verdicts: Map<string, Verdict>,
): MonthPlan {
	const days = new Map(month.days);
	const alerts: JournalAlert[] = [];
	for (const group of monthGroups) {
		const day = dayOf(first(group).checkIn);
		const stored = month.days.get(day);
		const collected = newestCollected(group);
		const result = worked.get(group.key) as Worked<TStanding> & { seen: number };
		const cell = stored && readRunCell(stored.value);
		const older = stored !== undefined && msOf(collected) <= msOf(stored.dtCollected) - RUN_MS;
		const newRun = stored === undefined || msOf(collected) >= msOf(stored.dtCollected) + RUN_MS;
		const before = newRun ? cell?.now : cell?.before;
		const beforeSeen = (newRun ? cell?.seen : cell?.beforeSeen) ?? 0;
		const mayAlert = !older && (newRun || !cell?.alerted);
		// Less than an earlier batch of the run saw (the same records again, in smaller deliveries, with no rates table behind them).
		const largest = newRun || result.seen >= (cell?.seen ?? 0);
		// A change of rank or of parity state is judged from the whole comp set: once the run's view
		// holds as many rates as the last run ended with (every hotel and website of it has reported).
		const complete = largest && result.seen >= beforeSeen;
		const verdict = kind.verdict(group, result, before === undefined ? undefined : { value: before, dtCollected: stored?.dtCollected ?? collected }, mayAlert, complete);
		verdicts.set(group.key, verdict);
		alerts.push(...verdict.alerts.map((alert) => ({ ...alert, block: month.key })));
		if (older) continue;
		const alerted = (!newRun && cell?.alerted === true) || verdict.alerting;
		const state = largest ? { now: result.state, seen: result.seen } : { now: (cell as RunCell).now, seen: (cell as RunCell).seen };
		days.set(day, { value: runCellText({ before, ...state, alerted, beforeSeen }), dtCollected: newRun ? collected : (stored as DayCell<string>).dtCollected });
	}
	const moved = [...days].some(([day, cell]) => month.days.get(day)?.value !== cell.value || month.days.get(day)?.dtCollected !== cell.dtCollected);
	return { key: month.key, alerts, data: moved ? positionMonthRow({ ...month, days }) : undefined };
}

/**
 * The stay-nights that come out: an alert with rows in the changes table from whoever confirmed
 * them; one without (a change of parity state that is no loss) from the execution whose write got
 * in; a position feed always.
 */
function standingItems(groups: readonly Group[], verdicts: ReadonlyMap<string, Verdict>, owned: readonly JournalAlert[], written: (monthKey: string) => boolean) {
	const ownedByGroup = new Map<string, JournalAlert[]>();
	for (const alert of owned) ownedByGroup.set(alertKey(alert), [...(ownedByGroup.get(alertKey(alert)) ?? []), alert]);
	return groups.flatMap((group) => {
		const verdict = verdicts.get(group.key) as Verdict;
		const mine = ownedByGroup.get(groupAlertKey(group)) ?? [];
		const out = verdict.always || mine.length > 0 || (verdict.alerting && verdict.alerts.length === 0 && written(group.monthKey));
		if (!out) return [];
		return [{ at: Math.min(...group.items.map(({ itemIndex }) => itemIndex)), item: { json: verdict.item, pairedItem: group.items.map(({ itemIndex }) => ({ item: itemIndex })) } }];
	});
}

export async function runStanding<TStanding>(
	store: Store,
	settings: StandingSettings,
	records: Records,
	rateField: RateField,
	kind: StandingKind<TStanding>,
): Promise<INodeExecutionData[]> {
	const operation: RecordOperation = {
		name: kind.operation,
		rateField,
		tables: [ratesTable(settings.ratesTable), positionsTable(settings.positionsTable)],
		ofRecords: (batch) => {
			const keys = new Set(groupsOf(kind, batch).map(groupAlertKey));
			return (alert) => keys.has(alertKey(alert));
		},
		run: async (batch) => await standOnce(store, settings, kind, batch, groupsOf(kind, batch.records)),
	};
	return await withRecordStore(store, settings, records, operation);
}

/** One batch of records: the stay-nights they touch worked out, claimed and remembered. */
async function standOnce<TStanding>(store: Store, settings: StandingSettings, kind: StandingKind<TStanding>, batch: Batch, groups: readonly Group[]): Promise<RecordRun> {
	const rates = await store.monthRows(ratesTable(settings.ratesTable));
	const positions = await store.monthRows(positionsTable(settings.positionsTable));
	await batch.tidy([positions]);
	const stays = await readStays(rates, groups);
	const worked = new Map(
		groups.map((group) => {
			const run = ofThisRun(group, latestByStay(stays.get(JSON.stringify(group.rateFilter)) ?? [], group.items.map(({ observation }) => observation)));
			return [group.key, { ...kind.work(group, run), seen: run.length }];
		}),
	);

	const byMonth = new Map<string, Group[]>();
	for (const group of groups) byMonth.set(group.monthKey, [...(byMonth.get(group.monthKey) ?? []), group]);
	const verdicts = new Map<string, Verdict>();
	const plan = (monthKey: string, row: StoredRow | undefined): MonthPlan => {
		const monthGroups = byMonth.get(monthKey) as Group[];
		const month = row ? readPositionMonth(row) : emptyPositionMonth(monthKey, kind.kind, monthGroups[0].hotelCode, first(monthGroups[0]).checkIn.slice(0, 7));
		return planMonth(kind, month, monthGroups, worked, verdicts);
	};
	const stored = await positions.read([...byMonth.keys()]);
	const alerting = { journal: batch.journal, operation: kind.operation, pinned: batch.pinned };
	const result = await store.writeInRounds({ rows: positions, keys: [...byMonth.keys()], stored, plan, alerting });
	const contested = new Set(result.contested);
	return {
		alerts: result.alerts,
		contested: groups.filter((group) => contested.has(group.monthKey)).flatMap((group) => group.items),
		output: (owned) =>
			standingItems(
				groups.filter((group) => !contested.has(group.monthKey)),
				verdicts,
				owned,
				(monthKey) => result.written.get(monthKey)?.data !== undefined,
			),
	};
}

/** The stays of the group's stay-night collected in its run: never a rate of an earlier shop beside this one's. */
function ofThisRun(group: Group, stays: readonly Observation[]): Observation[] {
	const from = msOf(newestCollected(group)) - RUN_MS;
	return stays.filter((stay) => group.holds(stay) && msOf(stay.dtCollected) > from);
}

/** The stored stays every group needs, one read per distinct filter. */
async function readStays(rates: MonthRows, groups: readonly Group[]): Promise<Map<string, Observation[]>> {
	const filters = new Map(groups.map((group) => [JSON.stringify(group.rateFilter), group.rateFilter]));
	const read = await Promise.all(
		[...filters].map(async ([key, filter]) => [key, [...(await rates.readWhere(filter)).values()].flatMap((row) => storedStays(readStayMonth(row)))] as const),
	);
	return new Map(read);
}
