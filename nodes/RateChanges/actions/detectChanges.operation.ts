import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { numberOption } from '../../shared/options';
import type { JournalAlert, MonthPlan, MonthRows, Store, StoredRow } from '../storage/store';
import {
	dayOf,
	emptyStayMonth,
	readStayMonth,
	stayMonthKey,
	stayMonthOf,
	stayMonthRow,
	storedRate,
	storedStay,
	withEarlierCollection,
	withObservation,
	type StayMonth,
} from '../storage/stayMonths';
import { writeHistory } from '../storage/stayHistory';
import { historyTable, ratesTable } from '../storage/tables';
import { compareWithStored, meetsRule, type ChangeRule, type Comparison, type Observation, type RateChange, type RateField } from '../rules/observation';

import { booleanField, keepHistoryOption, numberField, optionField, optionsOf, rateFieldField, readSettings, recordSettings, showFor, type RecordSettings } from './fields';
import { byIdentity, readRecords, stayIdentity, withRecordStore, type Batch, type ObservedItem, type RecordOperation } from './records';

/**
 * Detect Changes: each collection of a stay, in collection order, against the one before it (the
 * stored one for the first), the stored one moving on, and the records whose change is worth an
 * alert put out (docs/nodes/rate-changes.md).
 */

/** Its option in the Operation field (the router lists it). */
export const option = {
	name: 'Detect Changes',
	value: 'detectChanges',
	description: 'Compare each incoming rate record with the last one of its stay, keep it, and put out the changes worth an alert',
	action: 'Detect rate changes',
} as const;

const show = showFor(['detectChanges']);

const minChangePercent: INodeProperties = {
	displayName: 'Change At Least (%)',
	name: 'minChangePercent',
	type: 'number',
	typeOptions: { minValue: 0, numberPrecision: 2 },
	// 10 %: the move Infor's rate shopping calls a market change, so a first digest lists the moves
	// a revenue manager acts on and leaves the daily noise in the rates table.
	default: 10,
	displayOptions: show,
	description: 'Alert only on moves of at least this percentage of the previous rate. 0 alerts on any move.',
};

const minChangeAmount: INodeProperties = {
	displayName: 'Change At Least (Amount)',
	name: 'minChangeAmount',
	type: 'number',
	typeOptions: { minValue: 0, numberPrecision: 2 },
	default: 0,
	displayOptions: show,
	description: "Alert only on moves of at least this amount, in the record's currency. 0 alerts on any move. With both set, a move must pass both.",
};

const direction: INodeProperties = {
	displayName: 'Direction',
	name: 'direction',
	type: 'options',
	default: 'either',
	displayOptions: show,
	options: [
		{ name: 'Up or Down', value: 'either' },
		{ name: 'Up Only', value: 'up' },
		{ name: 'Down Only', value: 'down' },
	],
	description: 'Which moves of a rate alert',
};

const includeAvailability: INodeProperties = {
	displayName: 'Include Sold Out and Back On Sale',
	name: 'includeAvailability',
	type: 'boolean',
	default: true,
	displayOptions: show,
	description: 'Whether a stay newly sold out, or on sale again after being sold out, alerts',
};

const includeFirstSeen: INodeProperties = {
	displayName: 'Include First Seen',
	name: 'includeFirstSeen',
	type: 'boolean',
	default: false,
	displayOptions: show,
	description: 'Whether a stay seen for the first time alerts. Off, a first shop fills the rates table quietly instead of alerting on every rate.',
};

export const properties: INodeProperties[] = [
	minChangePercent,
	minChangeAmount,
	direction,
	includeAvailability,
	includeFirstSeen,
];

interface DetectSettings extends RecordSettings {
	rateField: RateField;
	rule: ChangeRule;
	/** 0: no history table. */
	keepHistoryDays: number;
}

function settings(context: IExecuteFunctions): DetectSettings {
	return {
		...recordSettings(context),
		rateField: optionField<RateField>(context, rateFieldField),
		keepHistoryDays: numberOption(optionsOf(context), keepHistoryOption),
		rule: {
			minPercent: numberField(context, minChangePercent),
			minAmount: numberField(context, minChangeAmount),
			direction: optionField<ChangeRule['direction']>(context, direction),
			includeAvailability: booleanField(context, includeAvailability),
			includeFirstSeen: booleanField(context, includeFirstSeen),
		},
	};
}

export async function execute(this: IExecuteFunctions, store: Store): Promise<INodeExecutionData[]> {
	const detect = readSettings(this, () => settings(this));
	return await withRecordStore(store, detect, readRecords(this, detect.rateField), detecting(store, detect));
}

/** An alert is its stay's at the collection time of the rate it moved to: one alert at most per collection. */
function detecting(store: Store, detect: DetectSettings): RecordOperation {
	return {
		name: 'detectChanges',
		rateField: detect.rateField,
		tables: [ratesTable(detect.ratesTable), ...(detect.keepHistoryDays > 0 ? [historyTable(detect.ratesTable)] : [])],
		// A record's alert, or the move from it to a stored collection of its stay seen once (see storeCollections).
		ofRecords: (records) => {
			const identities = new Set(records.collections.map(({ observation }) => stayIdentity(observation)));
			return (alert) => identities.has(stayIdentity(alert)) || (alert.previousCollected !== null && identities.has(stayIdentity({ ...alert, dtCollected: alert.previousCollected })));
		},
		run: async (batch) => {
			const { records } = batch;
			const rates = await store.monthRows(ratesTable(detect.ratesTable));
			const history = detect.keepHistoryDays > 0 ? await store.monthRows(historyTable(detect.ratesTable)) : undefined;
			await batch.tidy(history ? [rates, { rows: history, keepDays: detect.keepHistoryDays }] : [rates]);
			const { alerts, contested } = await storeCollections(store, batch, { rates, history }, detect);
			return {
				alerts,
				contested,
				// Each record whose stay alerted, as it came in, with what changed. The move to a stored
				// collection from a record collected before it comes out at that record, which brought it.
				output: (owned) => {
					const inBatch = new Set(records.collections.map(({ observation }) => stayIdentity(observation)));
					const byStay = byIdentity(owned, stayIdentity);
					const byPrevious = byIdentity(
						owned.filter((alert) => alert.previousCollected !== null && !inBatch.has(stayIdentity(alert))),
						(alert) => stayIdentity({ ...alert, dtCollected: alert.previousCollected as string }),
					);
					return records.collections.flatMap(({ itemIndex, observation }) => {
						const identity = stayIdentity(observation);
						const alerts = [...(byStay.get(identity) ?? []).slice(0, 1), ...(byPrevious.get(identity) ?? [])];
						return alerts.map((alert) => ({ at: itemIndex, item: { json: { ...records.items[itemIndex].json, websiteName: alert.websiteName ?? '', ...changeFields(alert) }, pairedItem: { item: itemIndex } } }));
					});
				},
			};
		},
	};
}

function changeFields(alert: JournalAlert): RateChange {
	const { changeType, previousRate, rate, change, changePercent, previousCollected } = alert;
	return { changeType: changeType as RateChange['changeType'], previousRate, rate, change, changePercent, previousCollected };
}

/**
 * Each collection of each stay into its stay month, oldest first, round by round, and the alerts
 * they make: one alert at most per collection, each compared with the collection before it. A
 * record collected before the stored one is stale, but where the stored one is the stay's only
 * collection (seenOnce): it is then that collection's previous rate, and the move between them
 * alerts as the stored collection's, once. With Keep History, each month's history row is written
 * first (storage/stayHistory.ts): a month whose history row another writer kept writing, or whose
 * rates row moved since it was read so that its history needs writing again, waits for the next
 * batch, its records staged again as a contested row's are.
 */
async function storeCollections(
	store: Store,
	batch: Batch,
	{ rates, history }: { rates: MonthRows; history?: MonthRows },
	detect: DetectSettings,
): Promise<{ alerts: JournalAlert[]; contested: ObservedItem[] }> {
	const { collections } = batch.records;
	const byMonth = new Map<string, Observation[]>();
	for (const { observation } of collections) {
		const key = stayMonthKey(stayMonthOf(observation));
		byMonth.set(key, [...(byMonth.get(key) ?? []), observation]);
	}
	const keys = [...byMonth.keys()];
	const stored = await rates.read(keys);
	// The history first: a rates row moves on only once the history holds what it moves past.
	const kept = history ? await writeHistory(store, history, byMonth, stored, keepFrom(batch, detect.keepHistoryDays)) : undefined;
	const waiting = new Set(kept?.contested);
	const startOf = (key: string, row: StoredRow | undefined): StayMonth => {
		if (row) return readStayMonth(row);
		const first = (byMonth.get(key) as Observation[])[0];
		return emptyStayMonth(stayMonthOf(first), first);
	};
	const plan = (key: string, row: StoredRow | undefined): MonthPlan => {
		if (kept && !kept.holds(key, row)) {
			waiting.add(key);
			return { key, alerts: [] };
		}
		let month = startOf(key, row);
		const alerts: JournalAlert[] = [];
		let moved = false;
		const alertOn = (observation: Observation, comparison: Comparison) => {
			if (comparison.kind === 'change' && meetsRule(comparison.change, detect.rule)) alerts.push(changeAlert(key, observation, comparison.change, detect.rateField));
		};
		// By day, the latest record of this batch collected before its stay's one stored collection:
		// the previous rate of that collection, compared once every such record of the day is in.
		const earlier = new Map<number, Observation>();
		const compareStoredWithEarlier = (day: number) => {
			const previous = earlier.get(day);
			const stay = storedStay(month, day);
			if (!previous || !stay) return;
			earlier.delete(day);
			alertOn({ ...stay, websiteName: previous.websiteName }, compareWithStored(stay, previous, detect.rateField));
			month = withEarlierCollection(month, day);
			moved = true;
		};
		for (const observation of byMonth.get(key) as Observation[]) {
			const day = dayOf(observation.checkIn);
			const stored = month.days.get(day);
			if (stored?.value.seenOnce && observation.dtCollected < stored.dtCollected) {
				const previous = earlier.get(day);
				if (previous) alertOn(observation, compareWithStored(observation, previous, detect.rateField));
				earlier.set(day, observation);
				continue;
			}
			compareStoredWithEarlier(day);
			const latest = month.days.get(day);
			const comparison = compareWithStored(observation, latest && storedRate(latest), detect.rateField);
			if (comparison.kind === 'stale') continue;
			month = withObservation(month, observation);
			moved = true;
			alertOn(observation, comparison);
		}
		for (const day of [...earlier.keys()]) compareStoredWithEarlier(day);
		return { key, alerts, data: moved ? stayMonthRow(withoutPastDays(month)) : undefined };
	};
	const writable = keys.filter((key) => !waiting.has(key));
	const result = await store.writeInRounds({ rows: rates, keys: writable, stored, plan, alerting: { journal: batch.journal, operation: 'detectChanges', pinned: batch.pinned } });
	const contested = new Set([...result.contested, ...waiting]);
	return { alerts: result.alerts, contested: collections.filter(({ observation }) => contested.has(stayMonthKey(stayMonthOf(observation)))) };
}

/** From when the history keeps entries: Keep History days before the newest record of the batch. */
function keepFrom(batch: Batch, keepHistoryDays: number): string {
	const newest = batch.records.observed.map(({ observation }) => observation.dtCollected).sort().at(-1) as string;
	return new Date(Date.parse(newest) - keepHistoryDays * 86_400_000).toISOString();
}

/** A stay whose check-in is two days before the newest collection of its month has passed: it goes from the row. */
function withoutPastDays(month: StayMonth): StayMonth {
	const newest = [...month.days.values()].map((day) => day.dtCollected).sort().at(-1);
	if (!newest) return month;
	const yesterday = new Date(Date.parse(`${newest.slice(0, 10)}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
	const days = new Map([...month.days].filter(([day]) => `${month.month}-${String(day).padStart(2, '0')}` >= yesterday));
	return { ...month, days };
}

function changeAlert(block: string, observation: Observation, change: RateChange, rateField: RateField): JournalAlert {
	const { shopId, hotelCode, hotelName, websiteCode, websiteName = '', checkIn, los, guests, roomType, currency, dtCollected } = observation;
	return { block, shopId, hotelCode, hotelName, websiteCode, websiteName, checkIn, los, guests, roomType, currency, rateField, ...change, comparedWith: '', comparedRate: null, severity: '', dtCollected };
}
