import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { ReportedChange } from '../rules/alert';
import { latestByStay, type Observation, type RateField } from '../rules/observation';
import type { RowFilter } from '../storage/dataTables';
import type { JournalAlert } from '../storage/journal';
import { legacyPositions } from '../storage/legacy';
import type { DayCell } from '../storage/monthCells';
import type { MonthRows, StoredRow } from '../storage/monthRows';
import { emptyPositionMonth, positionMonthRow, readPositionMonth, type PositionKind, type PositionMonth } from '../storage/positionMonths';
import { writeInRounds, type MonthPlan } from '../storage/rounds';
import { dayOf, readStayMonth, storedStays } from '../storage/stayMonths';
import type { TidyTable } from '../storage/housekeeping';
import { openMonthRows, positionsTable, ratesTable, type Store } from '../storage/tables';

import type { RecordSettings } from './fields';
import { withRecordStore, type ObservedItem, type RecordOperation, type RecordRun, type Records } from './records';

/**
 * What Compare With My Hotel and Check Parity share: each works out, for every stay-night (or
 * stay) its records touch, where things stand, from the rates table Detect Changes keeps and the
 * incoming records (newer than the table when Detect Changes has not stored them yet), and
 * remembers it in the positions table. A shop arrives in many deliveries, each its own execution:
 * the first execution of a newer shop to reach a stay-night claims it (the day of its month row
 * moves on to that shop's collection time, with a compare-and-set on the row), and only the one
 * that claims it alerts; later executions of the same shop bring the state up to date with what
 * they know more; an older shop changes nothing. Neither sends a request to the service.
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
	verdict: (group: Group, worked: Worked<TStanding>, previous: DayCell<string> | undefined, claimed: boolean) => Verdict;
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
 * A positions month with this execution's stay-nights in it: the first execution of a newer shop
 * claims a stay-night; one of the same shop only brings its state up to date; an older shop
 * changes nothing. Each stay-night's verdict is kept for the items.
 */
function planMonth<TStanding>(
	kind: StandingKind<TStanding>,
	month: PositionMonth,
	monthGroups: readonly Group[],
	worked: ReadonlyMap<string, Worked<TStanding>>,
	verdicts: Map<string, Verdict>,
): MonthPlan {
	const days = new Map(month.days);
	const alerts: JournalAlert[] = [];
	for (const group of monthGroups) {
		const day = dayOf(first(group).checkIn);
		const previous = month.days.get(day);
		const collected = newestCollected(group);
		const result = worked.get(group.key) as Worked<TStanding>;
		const claimed = previous === undefined || collected > previous.dtCollected;
		if (claimed || collected === previous.dtCollected) days.set(day, { value: result.state, dtCollected: collected });
		const verdict = kind.verdict(group, result, previous, claimed);
		verdicts.set(group.key, verdict);
		alerts.push(...verdict.alerts.map((alert) => ({ ...alert, block: month.key })));
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
	context: IExecuteFunctions,
	settings: StandingSettings,
	records: Records,
	rateField: RateField,
	kind: StandingKind<TStanding>,
): Promise<INodeExecutionData[]> {
	const operation: RecordOperation = {
		name: kind.operation,
		rateField,
		tables: [ratesTable(settings.ratesTable), positionsTable(settings.positionsTable)],
		alertKey,
		recordKeys: (batch) => new Set(groupsOf(kind, batch).map(groupAlertKey)),
		run: async (store, batch, tidy) => await standOnce(context, settings, kind, store, groupsOf(kind, batch), tidy),
	};
	return await withRecordStore(context, settings, records, operation);
}

/** One batch of records: the stay-nights they touch worked out, claimed and remembered. */
async function standOnce<TStanding>(
	context: IExecuteFunctions,
	settings: StandingSettings,
	kind: StandingKind<TStanding>,
	store: Store,
	groups: readonly Group[],
	tidy: (tables: readonly TidyTable[]) => Promise<void>,
): Promise<RecordRun> {
	const rates = await openMonthRows(store, ratesTable(settings.ratesTable));
	const positions = await openMonthRows(store, positionsTable(settings.positionsTable));
	await tidy([{ rows: positions.rows, legacy: positions.legacy, legacyDay: 'dtCollected' }]);
	const stays = await readStays(rates.rows, groups);
	const worked = new Map(groups.map((group) => [group.key, kind.work(group, latestByStay(stays.get(JSON.stringify(group.rateFilter)) ?? [], group.items.map(({ observation }) => observation)).filter(group.holds))]));

	const byMonth = new Map<string, Group[]>();
	for (const group of groups) byMonth.set(group.monthKey, [...(byMonth.get(group.monthKey) ?? []), group]);
	const verdicts = new Map<string, Verdict>();
	const plan = async (monthKey: string, row: StoredRow | undefined): Promise<MonthPlan> => {
		const monthGroups = byMonth.get(monthKey) as Group[];
		let month = row ? readPositionMonth(row) : emptyPositionMonth(monthKey, kind.kind, monthGroups[0].hotelCode, first(monthGroups[0]).checkIn.slice(0, 7));
		if (!row && positions.legacy) month = await legacyPositions(store.api, positions.legacy, month);
		return planMonth(kind, month, monthGroups, worked, verdicts);
	};
	const stored = await positions.rows.read([...byMonth.keys()]);
	const result = await writeInRounds(context, store, positions.rows, kind.operation, stored, [...byMonth.keys()], plan);
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

/** The stored stays every group needs, one read per distinct filter. */
async function readStays(rates: MonthRows, groups: readonly Group[]): Promise<Map<string, Observation[]>> {
	const filters = new Map(groups.map((group) => [JSON.stringify(group.rateFilter), group.rateFilter]));
	const read = await Promise.all(
		[...filters].map(async ([key, filter]) => [key, [...(await rates.readWhere(filter)).values()].flatMap((row) => storedStays(readStayMonth(row)))] as const),
	);
	return new Map(read);
}
