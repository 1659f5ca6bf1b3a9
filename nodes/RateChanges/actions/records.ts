import { NodeOperationError, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import { requestLimiter, type Settled } from '../../shared/concurrency';
import { checkItems, failedItem } from '../../shared/itemOutcomes';
import { keepTidy, type TidyTable } from '../storage/housekeeping';
import { newToken, type JournalAlert } from '../storage/journal';
import { confirmOrphans, findOrphans } from '../storage/orphans';
import { MAX_ROUNDS } from '../storage/rounds';
import { openJournal, type Store } from '../storage/tables';
import { newestPerStay, readObservation, type Observation, type RateField } from '../rules/observation';

import type { RecordSettings } from './fields';

/**
 * The flow the operations that read rate records share (Detect Changes, Compare With My Hotel,
 * Check Parity): every record read and checked before the first request; the store opened; the
 * alerts of executions that died with this execution's records resolved; the operation's own
 * writes; the day's clean-up; items out in item order.
 */

export interface ObservedItem {
	itemIndex: number;
	observation: Observation;
}

export interface Records {
	items: INodeExecutionData[];
	checked: Array<Settled<Observation>>;
	/** Every good record. */
	observed: ObservedItem[];
	/** Of several records of one stay, the newest (the first of equally new ones): the ones compared. */
	newest: ObservedItem[];
}

export function readRecords(context: IExecuteFunctions, rateField: RateField): Records {
	const items = context.getInputData();
	// Every item is read before the first request: a bad record stops the node at once, or with
	// "Continue" becomes an error item, and the others go on.
	const checked = checkItems(context, (itemIndex) => readObservation(items[itemIndex].json, rateField));
	const observed = checked.flatMap((read, itemIndex): ObservedItem[] => ('value' in read ? [{ itemIndex, observation: read.value }] : []));
	const newest = new Set(newestPerStay(observed).values());
	return { items, checked, observed, newest: observed.filter(({ itemIndex }) => newest.has(itemIndex)) };
}

/** What an operation did with its records. */
export interface RecordRun {
	/** The alerts it confirmed: its own. */
	alerts: JournalAlert[];
	/** Records it could not write: other executions wrote their rows every time it tried. */
	contested: ObservedItem[];
	/** Its items, each at the input item it comes first after, from the alerts it owns (its own, and those it resolved for the same records). */
	output: (owned: readonly JournalAlert[]) => Array<{ at: number; item: INodeExecutionData }>;
}

/** How an operation's alerts are told apart among records: how a retry finds the alerts of its own records. */
export interface RecordOperation {
	name: string;
	alertKey: (alert: JournalAlert) => string;
	/** The keys the execution's own records would give their alerts. */
	recordKeys: (records: Records) => Set<string>;
}

/** An alert's identity among an execution's records: the stay and the collection time of its record. */
export function stayIdentity(alert: Pick<JournalAlert, 'hotelCode' | 'websiteCode' | 'checkIn' | 'los' | 'guests' | 'roomType' | 'dtCollected'>): string {
	return [alert.hotelCode, alert.websiteCode, alert.checkIn, alert.los, alert.guests, alert.roomType, alert.dtCollected].join('|');
}

export function byIdentity(alerts: readonly JournalAlert[], identity: (alert: JournalAlert) => string): Map<string, JournalAlert[]> {
	const map = new Map<string, JournalAlert[]>();
	for (const alert of alerts) map.set(identity(alert), [...(map.get(identity(alert)) ?? []), alert]);
	return map;
}

export async function withRecordStore(
	context: IExecuteFunctions,
	settings: RecordSettings,
	records: Records,
	operation: RecordOperation,
	run: (store: Store, tidy: (tables: readonly TidyTable[]) => Promise<void>) => Promise<RecordRun>,
): Promise<INodeExecutionData[]> {
	if (records.observed.length === 0) return records.checked.flatMap((read, itemIndex) => ('error' in read ? [failedItem(context, read.error, itemIndex)] : []));
	const limiter = requestLimiter(context.getNode(), [settings]);
	const store = await openJournal(context, limiter, settings.changesTable);
	const mine = operation.recordKeys(records);
	const token = newToken(context);
	const orphans = await findOrphans(store, {
		operation: operation.name,
		sameRecords: (alert) => mine.has(operation.alertKey(alert)),
		retry: context.getMode() === 'retry',
		token,
	});
	const newestCollected = records.observed.map(({ observation }) => observation.dtCollected).sort().at(-1) as string;
	// The day's clean-up comes before the operation's writes, and the orphans found are confirmed
	// after them: once alerts are confirmed, nothing but handing out the items is left to the execution.
	const result = await run(store, async (tables) => await keepTidy(store, tables, newestCollected, settings.keepChangesDays));
	const resolved = await confirmOrphans(store, orphans, token);
	return inItemOrder(context, records, result, [...result.alerts, ...resolved]);
}

function inItemOrder(context: IExecuteFunctions, records: Records, result: RecordRun, owned: readonly JournalAlert[]): INodeExecutionData[] {
	const contested = new Set(result.contested.map(({ itemIndex }) => itemIndex));
	const byItem = new Map<number, INodeExecutionData[]>();
	for (const { at, item } of result.output(owned)) byItem.set(at, [...(byItem.get(at) ?? []), item]);
	return records.checked.flatMap((read, itemIndex): INodeExecutionData[] => {
		if ('error' in read) return [failedItem(context, read.error, itemIndex)];
		if (contested.has(itemIndex)) return [failedItem(context, contestedError(context, itemIndex), itemIndex)];
		return byItem.get(itemIndex) ?? [];
	});
}


/** A record whose row other executions wrote every time this one tried: it was not compared, and nothing of it was written. */
export function contestedError(context: IExecuteFunctions, itemIndex: number): NodeOperationError {
	return new NodeOperationError(context.getNode(), `The stay of item ${itemIndex} kept changing under this execution: it was not compared`, {
		itemIndex,
		description: `Other executions wrote the same stays ${MAX_ROUNDS} times while this one compared it. Nothing of this record was written: run it again. The other items were compared and kept.`,
	});
}
