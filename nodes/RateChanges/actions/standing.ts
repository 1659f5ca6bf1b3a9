import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { ReportedChange } from '../rules/alert';
import { latestByStay, type Observation, type RateField } from '../rules/observation';
import type { RowFilter } from '../storage/dataTables';
import type { DayCell } from '../storage/monthCells';
import { emptyPositionMonth, positionMonthRow, readPositionMonth, type PositionKind, type PositionMonth } from '../storage/positionMonths';
import { dayOf, readStayMonth, storedStays } from '../storage/stayMonths';
import type { JournalAlert, MonthPlan, MonthRows, Store, StoredRow } from '../storage/store';
import { allStaged } from '../storage/queue';
import { positionsTable, queueTable, ratesTable } from '../storage/tables';

import type { RecordSettings } from './fields';
import { readStagedRecord, withRecordStore, type Batch, type ObservedItem, type RecordOperation, type RecordRun, type Records } from './records';

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

/**
 * What a run of a stay-night has alerted so far, and whether it was judged: kept in its positions
 * day until the next run, so that each alert comes out once a run and a run never judged from a
 * complete view is judged when the next one begins.
 */
export interface RunMarks {
	/** A change of rank, or of parity state, alerted. */
	changed: boolean;
	/** An undercut alerted. */
	undercut: boolean;
	/** A complete view of the run was worked out: its rank or parity state was judged. */
	judged: boolean;
	/** The websites whose parity loss alerted. */
	losses: number[];
}

export const NO_MARKS: RunMarks = { changed: false, undercut: false, judged: false, losses: [] };

/** How a batch sees the run of a stay-night. */
export interface RunView {
	/** The state the run before ended with. */
	previous: DayCell<string> | undefined;
	/** What the run alerted before this batch. */
	marks: RunMarks;
	/**
	 * This batch sees at least as many of the run's rates as any batch before it, and as many as
	 * the last run ended with: a change of rank or of parity state, which later records can move
	 * either way, is judged only then (an alert that more records never take back, from any view).
	 */
	complete: boolean;
	/** The records are of a run older than the one remembered: they alert nothing. */
	stale: boolean;
}

/** What the stay-night alerts, now that it is known whether this execution claimed it. */
export interface Verdict {
	/** It comes out whatever was claimed (a position feed). */
	always: boolean;
	/** It comes out as an alert: from this execution if its write gets in (and it confirms its alerts). */
	alerting: boolean;
	alerts: ReportedChange[];
	item: IDataObject;
	/** What the run has alerted once this batch's alerts are out. */
	marks: RunMarks;
}

/** The run before, as its positions day remembers it, judged when the next run begins. */
export interface EndedRun {
	/** The state the run before it ended with. */
	before: string;
	/** The state it ended with: worked out from the most of its records any batch saw. */
	now: string;
	marks: RunMarks;
	/** When its first batch's newest record was collected. */
	dtCollected: string;
}

export interface StandingKind<TStanding> {
	operation: 'compareWithMyHotel' | 'checkParity';
	kind: PositionKind;
	groupOf: (observation: Observation) => Omit<Group, 'items'> | undefined;
	work: (group: Group, stays: readonly Observation[]) => Worked<TStanding>;
	verdict: (group: Group, worked: Worked<TStanding>, run: RunView) => Verdict;
	/**
	 * A run that was never judged from a complete view (its comp set came smaller than the last
	 * one's), judged from the most of it any batch saw, when the stay-night's next run begins: its
	 * alerts (the batch's records own them) and the item that says so; nothing when it changed nothing.
	 */
	late: (group: Group, ended: EndedRun) => { alerts: ReportedChange[]; item: IDataObject } | undefined;
	/** The item of a run judged late, from its alerts: the same whether this execution judged it or resolved them for one that died. */
	lateItem: (group: Group, alerts: readonly ReportedChange[]) => IDataObject;
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
 * saw), and what this run alerted.
 */
interface RunCell {
	before: string | undefined;
	now: string;
	marks: RunMarks;
	seen: number;
	beforeSeen: number;
}

/**
 * `r` a change alerted, `u` an undercut, `c` judged, then `:` and the websites whose loss alerted
 * (`rc:4.5`); `-` none yet. A cell written before the marks were kept says `1` (the run alerted)
 * or nothing: read as judged, since its largest view may be part of the comp set (the rule then),
 * and a judgement late from it could alert a rank the finished shop never had.
 */
function readMarks(text: string): RunMarks {
	if (text === '1') return { changed: true, undercut: true, judged: true, losses: [] };
	if (text === '') return { ...NO_MARKS, judged: true };
	const [flags, websites = ''] = text.replace('-', '').split(':');
	return {
		changed: flags.includes('r'),
		undercut: flags.includes('u'),
		judged: flags.includes('c'),
		losses: websites === '' ? [] : websites.split('.').map(Number),
	};
}

function marksText({ changed, undercut, judged, losses }: RunMarks): string {
	const flags = `${changed ? 'r' : ''}${undercut ? 'u' : ''}${judged ? 'c' : ''}`;
	if (losses.length > 0) return `${flags}:${losses.join('.')}`;
	return flags === '' ? '-' : flags;
}

/**
 * `before~now~marks~seen~beforeSeen`, `?` for a stay-night never worked out before; a value without
 * `~` is a run's state alone. A cell written before `beforeSeen` was kept reads it as 0: its run is
 * judged from its largest view, as it was.
 */
function readRunCell(value: string): RunCell {
	const parts = value.split('~');
	if (parts.length < 3) return { before: undefined, now: value, marks: NO_MARKS, seen: 0, beforeSeen: 0 };
	const count = (part: string | undefined) => Number(part ?? 0) || 0;
	return { before: parts[0] === '?' ? undefined : parts[0], now: parts[1], marks: readMarks(parts[2]), seen: count(parts[3]), beforeSeen: count(parts[4]) };
}

function runCellText({ before, now, marks, seen, beforeSeen }: RunCell): string {
	return [before ?? '?', now, marksText(marks), String(seen), String(beforeSeen)].join('~');
}

function msOf(time: string): number {
	return Date.parse(time);
}

/** A stay-night as a batch worked it out: this run's verdict, and the run before judged late. */
interface Planned {
	verdict: Verdict;
	late?: { alerts: ReportedChange[]; item: IDataObject };
}

/**
 * A positions month with this batch's stay-nights in it. Each stay-night is worked out again with
 * every record of its run that has arrived, and each alert comes out once a run (RunMarks): an
 * alert that more records never take back from the first batch that shows it; a new rank or
 * parity state only from a complete view (see RunView); the same records again are the same run
 * and alert nothing. A run is compared with the state the run before it ended with, and a run
 * never judged is judged when the next one begins (`late`). Records of an older run change nothing.
 */
function planMonth<TStanding>(
	kind: StandingKind<TStanding>,
	month: PositionMonth,
	monthGroups: readonly Group[],
	worked: ReadonlyMap<string, Worked<TStanding> & { seen: number }>,
	verdicts: Map<string, Planned>,
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
		const ended = newRun && cell?.before !== undefined && !cell.marks.judged ? kind.late(group, { ...(cell as RunCell & { before: string }), dtCollected: (stored as DayCell<string>).dtCollected }) : undefined;
		const before = newRun ? cell?.now : cell?.before;
		const beforeSeen = (newRun ? cell?.seen : cell?.beforeSeen) ?? 0;
		const marks = newRun ? NO_MARKS : (cell as RunCell).marks;
		// Less than an earlier batch of the run saw (the same records again, in smaller deliveries, with no rates table behind them).
		const largest = newRun || result.seen >= (cell?.seen ?? 0);
		// A change of rank or of parity state is judged from the whole comp set: once the run's view
		// holds as many rates as the last run ended with (every hotel and website of it has reported).
		const complete = largest && result.seen >= beforeSeen;
		const previous = before === undefined ? undefined : { value: before, dtCollected: stored?.dtCollected ?? collected };
		const verdict = kind.verdict(group, result, { previous, marks, complete, stale: older });
		verdicts.set(group.key, { verdict, late: ended });
		alerts.push(...[...(ended?.alerts ?? []), ...verdict.alerts].map((alert) => ({ ...alert, block: month.key })));
		if (older) continue;
		const state = largest ? { now: result.state, seen: result.seen } : { now: (cell as RunCell).now, seen: (cell as RunCell).seen };
		const judged = { ...verdict.marks, judged: verdict.marks.judged || complete };
		days.set(day, { value: runCellText({ before, ...state, marks: judged, beforeSeen }), dtCollected: newRun ? collected : (stored as DayCell<string>).dtCollected });
	}
	const moved = [...days].some(([day, cell]) => month.days.get(day)?.value !== cell.value || month.days.get(day)?.dtCollected !== cell.dtCollected);
	return { key: month.key, alerts, data: moved ? positionMonthRow({ ...month, days }) : undefined };
}

/**
 * The stay-nights that come out: an alert with rows in the changes table from whoever confirmed
 * them; one without (a change of parity state that is no loss) from the execution whose write got
 * in; a position feed always.
 */
function standingItems(
	groups: readonly Group[],
	verdicts: ReadonlyMap<string, Planned>,
	owned: readonly JournalAlert[],
	written: (monthKey: string) => boolean,
	lateItemOf: StandingKind<unknown>['lateItem'],
) {
	const ownedByGroup = new Map<string, JournalAlert[]>();
	for (const alert of owned) ownedByGroup.set(alertKey(alert), [...(ownedByGroup.get(alertKey(alert)) ?? []), alert]);
	return groups.flatMap((group) => {
		const { verdict, late } = verdicts.get(group.key) as Planned;
		const mine = ownedByGroup.get(groupAlertKey(group)) ?? [];
		// A late judgement's alerts name the run they judge in previousCollected; a run's own never do.
		const lateMine = mine.filter((alert) => alert.previousCollected !== null);
		const at = Math.min(...group.items.map(({ itemIndex }) => itemIndex));
		const pairedItem = group.items.map(({ itemIndex }) => ({ item: itemIndex }));
		// Judged by this batch: its item, once this execution owns its alerts (or, with none, its write got in).
		// Resolved for an execution that died having judged it: an item from the alerts.
		const judgedHere = late !== undefined && (lateMine.length > 0 || (late.alerts.length === 0 && written(group.monthKey)));
		const lateItem = judgedHere ? late.item : lateMine.length > 0 ? lateItemOf(group, lateMine) : undefined;
		const out = verdict.always || mine.length > lateMine.length || (verdict.alerting && verdict.alerts.length === 0 && written(group.monthKey));
		return [...(lateItem ? [{ at, item: { json: lateItem, pairedItem } }] : []), ...(out ? [{ at, item: { json: verdict.item, pairedItem } }] : [])];
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
		run: async (batch) => await standOnce(store, settings, kind, batch, groupsOf(kind, batch.records), rateField),
	};
	return await withRecordStore(store, settings, records, operation);
}

/** One batch of records: the stay-nights they touch worked out, claimed and remembered. */
async function standOnce<TStanding>(store: Store, settings: StandingSettings, kind: StandingKind<TStanding>, batch: Batch, groups: readonly Group[], rateField: RateField): Promise<RecordRun> {
	const rates = await store.monthRows(ratesTable(settings.ratesTable));
	const positions = await store.monthRows(positionsTable(settings.positionsTable));
	await batch.tidy([positions]);
	// The staged records before the rates table: a record leaves the queue only once its pass wrote
	// it to the rates table, so read in this order it is in one of the two, whenever it moves.
	const staged = await stagedRecords(store, settings, rateField);
	const stays = await readStays(rates, groups);
	hintWithoutDetectChanges(store, settings, kind.operation, groups, stays, staged);
	const worked = new Map(
		groups.map((group) => {
			const run = ofThisRun(group, [...(stays.get(JSON.stringify(group.rateFilter)) ?? []), ...staged.map(({ observation }) => observation), ...group.items.map(({ observation }) => observation)]);
			return [group.key, { ...kind.work(group, run), seen: run.length }];
		}),
	);

	const byMonth = new Map<string, Group[]>();
	for (const group of groups) byMonth.set(group.monthKey, [...(byMonth.get(group.monthKey) ?? []), group]);
	const verdicts = new Map<string, Planned>();
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
				kind.lateItem,
			),
	};
}

/**
 * The stays of the group's stay-night collected in its run, the latest of each: never a rate of an
 * earlier shop beside this one's, nor of a later one (a rates table or a queue a shop ahead).
 */
function ofThisRun(group: Group, stays: readonly Observation[]): Observation[] {
	const newest = msOf(newestCollected(group));
	return latestByStay(stays.filter((stay) => group.holds(stay) && msOf(stay.dtCollected) > newest - RUN_MS && msOf(stay.dtCollected) < newest + RUN_MS));
}

/**
 * The records staged in the queue table and not compared yet: Detect Changes' records its pass has
 * not written to the rates table (another execution holds it), and those other batches of this
 * node's pass hold. With them, the last batch of a run sees every record of it that has arrived,
 * where the rates table alone lags a pass behind. A record that does not read is left out.
 */
async function stagedRecords(store: Store, settings: StandingSettings, rateField: RateField): Promise<Array<{ operation: string; observation: Observation }>> {
	const rows = await allStaged(store.api, await store.api.ensureTable(queueTable(settings.changesTable)));
	return rows.flatMap(({ operation, items }) =>
		items.flatMap((json) => {
			const read = readStagedRecord(json, rateField);
			return 'value' in read ? [{ operation, observation: read.value }] : [];
		}),
	);
}

const collection = (stay: Observation) => `${stay.stayKey}|${stay.dtCollected}`;

/**
 * Records of the batch that no Detect Changes has stored or staged: a record through Detect
 * Changes on the same Rates Table and Changes Table is in one of them before this node runs (the
 * shipped examples place them so). Without it, a batch sees only the records delivered with it, a
 * part of the shop when records arrive one a POST: the execution says so in its hints.
 */
function hintWithoutDetectChanges(store: Store, settings: StandingSettings, operation: StandingKind<unknown>['operation'], groups: readonly Group[], stored: ReadonlyMap<string, Observation[]>, staged: ReadonlyArray<{ operation: string; observation: Observation }>): void {
	const stayed = new Map<string, string>();
	for (const stay of [...stored.values()].flat()) stayed.set(stay.stayKey, stay.dtCollected);
	const detected = new Set(staged.filter(({ operation }) => operation === 'detectChanges').map(({ observation }) => collection(observation)));
	const unseen = groups.some((group) =>
		group.items.some(({ observation }) => !detected.has(collection(observation)) && !((stayed.get(observation.stayKey) ?? '') >= observation.dtCollected)),
	);
	if (!unseen) return;
	const name = operation === 'compareWithMyHotel' ? 'Compare With My Hotel' : 'Check Parity';
	store.context.addExecutionHints({
		message: `${name} got records that no Detect Changes had stored in the Rates Table "${settings.ratesTable}": put Detect Changes (same Rates Table and Changes Table) before it, as the example workflows do, so that each stay-night is worked out from the whole shop. Without it only the records delivered together are compared, and with one record a POST that is a part of the shop.`,
		type: 'warning',
		location: 'outputPane',
	});
}

/** The stored stays every group needs, one read per distinct filter. */
async function readStays(rates: MonthRows, groups: readonly Group[]): Promise<Map<string, Observation[]>> {
	const filters = new Map(groups.map((group) => [JSON.stringify(group.rateFilter), group.rateFilter]));
	const read = await Promise.all(
		[...filters].map(async ([key, filter]) => [key, [...(await rates.readWhere(filter)).values()].flatMap((row) => storedStays(readStayMonth(row)))] as const),
	);
	return new Map(read);
}
