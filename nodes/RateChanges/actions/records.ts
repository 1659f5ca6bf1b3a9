import { sleep, type IDataObject, type IExecuteFunctions, type INodeExecutionData, type NodeApiError } from 'n8n-workflow';

import type { Settled } from '../../shared/concurrency';
import { checkItems, failedItem } from '../../shared/itemOutcomes';
import { keepTidy, noteCleanupFailure, tidyOrNote, type TidiedTable } from '../storage/housekeeping';
import { PassQueue, type Staged } from '../storage/queue';
import type { TableSpec } from '../storage/dataTables';
import type { Journal, JournalAlert, Store } from '../storage/store';
import { queueTable } from '../storage/tables';
import { inCollectionOrder, readObservation, type Observation, type RateField } from '../rules/observation';

import type { RecordSettings } from './fields';

/**
 * The flow the operations that read rate records share (Detect Changes, Compare With My Hotel,
 * Check Parity): every record read and checked before the first request; the store opened; one
 * pass at a time per node (storage/queue.ts), each batch of it with the alerts of executions that
 * died with the same records resolved, the operation's own writes and the day's clean-up; the
 * execution's own items out in item order, then those of the records others staged.
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
	/** Each collection of a stay once (the first item of records of one stay collected at the same time), oldest first: what Detect Changes compares. */
	collections: ObservedItem[];
}

export function readRecords(context: IExecuteFunctions, rateField: RateField): Records {
	const items = context.getInputData();
	// Every item is read before the first request: a bad record stops the node at once, or with
	// "Continue" becomes an error item, and the others go on.
	const checked = checkItems(context, (itemIndex) => readObservation(items[itemIndex].json, rateField));
	return recordsOf(items, checked);
}

function recordsOf(items: INodeExecutionData[], checked: Array<Settled<Observation>>): Records {
	const observed = checked.flatMap((read, itemIndex): ObservedItem[] => ('value' in read ? [{ itemIndex, observation: read.value }] : []));
	return { items, checked, observed, collections: inCollectionOrder(observed) };
}

/** Records staged for the pass, checked when they were staged: read again the same way. Each item tells which staged row it came from, and where in it. */
function stagedRecords(staged: readonly Staged[], rateField: RateField): Records & { origins: Array<{ writer: string; position: number }> } {
	const origins = staged.flatMap(({ row, items: json }) => json.map((_, position) => ({ writer: String(row.writers ?? ''), position })));
	const items = staged.flatMap(({ items: json }) => json.map((record): INodeExecutionData => ({ json: record })));
	const records = recordsOf(
		items,
		items.map(({ json }) => readStagedRecord(json, rateField)),
	);
	return { ...records, origins };
}

/** A staged record read again, the same way it was checked when it was staged. */
export function readStagedRecord(json: IDataObject, rateField: RateField): Settled<Observation> {
	try {
		return { value: readObservation(json, rateField) };
	} catch (error) {
		return { error };
	}
}

/** What an operation did with its records. */
export interface RecordRun {
	/** The alerts it confirmed: its own. */
	alerts: JournalAlert[];
	/** Records it could not write: another node wrote their rows every time it tried. They are staged again for the pass's next batch. */
	contested: ObservedItem[];
	/** Its items, each at the input item it comes first after, from the alerts it owns (its own, and those it resolved for the same records). */
	output: (owned: readonly JournalAlert[]) => Array<{ at: number; item: INodeExecutionData }>;
}

/**
 * One batch of records as the operation writes it: the changes table its alerts go to, the tokens
 * of the entries tentative when the batch began (its month rows keep them among their writers,
 * storage/store.ts), and the day's clean-up of the tables it writes.
 */
export interface Batch {
	records: Records;
	journal: Journal;
	pinned: ReadonlySet<string>;
	tidy: (tables: readonly TidiedTable[]) => Promise<void>;
}

/** An operation that reads rate records: how its alerts are told apart, and its writes for one batch of records. */
export interface RecordOperation {
	name: string;
	/** The rate its records are read for (staged records are read again with it). */
	rateField: RateField;
	/** Whether an alert is one the batch's own records would give (or gave, in an execution that died). */
	ofRecords: (records: Records) => (alert: JournalAlert) => boolean;
	/** The tables its writes go to: opened (and checked) before anything is staged or written. */
	tables: TableSpec[];
	/** The operation's writes for one batch of records (the execution's own, or staged ones). */
	run: (batch: Batch) => Promise<RecordRun>;
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

/** A delivery of at most this many records is staged before the lease is looked at. */
const STAGE_FIRST_AT_MOST = 10;

/** How long a pass with nothing staged waits for more before it gives the lease back. */
const LINGER_MS = 100;

/** Between the batches of a pass whose records another node kept writing: a moment for that node's writes to land. */
const CONTESTED_PAUSE_MS = 250;

/**
 * One pass at a time per node (storage/queue.ts): the execution that takes the node's lease
 * compares its own records, then every batch other executions staged meanwhile, and puts out the
 * alerts of all of them; one that finds the lease held stages its records and puts out nothing of
 * its own (its records' alerts come out of the pass), never an error for another's writes.
 */
export async function withRecordStore(store: Store, settings: RecordSettings, records: Records, operation: RecordOperation): Promise<INodeExecutionData[]> {
	const { context } = store;
	// Without a pass of its own, an execution's items are its records' errors (with "Continue"), in item order.
	const errorsOnly = () => inItemOrder(context, records, new Map());
	if (records.observed.length === 0) return errorsOnly();
	const journal = await store.journal(settings.changesTable);
	const retry = context.getMode() === 'retry';
	// A table without the node's columns stops the execution here, before anything is written.
	for (const table of operation.tables) await store.api.ensureTable(table);
	const pass: Pass = { store, journal, settings, operation, queue: await openQueue(store, settings.changesTable, operation.name) };
	const { queue } = pass;
	const jsonOf = (batch: Records, observed: readonly ObservedItem[]) => observed.map(({ itemIndex }) => batch.items[itemIndex].json);
	// A delivery of a few records (the service posts one a POST) is staged before the lease is looked
	// at: while a shop arrives the lease is held, and staging then costs two requests in all. A batch
	// looks at the lease first, to compare its records without staging them.
	const stageFirst = records.observed.length <= STAGE_FIRST_AT_MOST;
	if (stageFirst || !(await queue.take(retry))) {
		// Staged before the lease is looked at (again): a holder that gives the lease back after this
		// look still finds these records when it looks for staged ones once more.
		const mine: Mine = { writer: await queue.stage(jsonOf(records, records.observed), retry), staged: records.observed, items: new Map() };
		if (!(await queue.take(retry))) return errorsOnly();
		const others = await holding(queue, async () => await drain(pass, mine));
		return [...inItemOrder(context, records, mine.items), ...others];
	}
	return await holding(queue, async () => {
		const own = await compare(pass, records, retry);
		const mine: Mine = { writer: await queue.stage(jsonOf(records, own.contested), retry), staged: own.contested, items: itemsByInput(own.run.output(own.owned)) };
		const others = await drain(pass, mine, true);
		return [...inItemOrder(context, records, mine.items), ...others];
	});
}

/** Runs the pass; one that fails gives the lease back, so that the next execution (or n8n's Retry) takes its records at once. */
async function holding(queue: PassQueue, pass: () => Promise<INodeExecutionData[]>): Promise<INodeExecutionData[]> {
	try {
		return await pass();
	} catch (error) {
		await queue.release().catch(() => undefined);
		throw error as NodeApiError;
	}
}

/** What a pass works with: the execution's store, its changes table, the node's queue, the operation and its settings. */
interface Pass {
	store: Store;
	journal: Journal;
	settings: RecordSettings;
	queue: PassQueue;
	operation: RecordOperation;
}

async function openQueue(store: Store, changesTableName: string, operationName: string): Promise<PassQueue> {
	const { context } = store;
	const table = await store.api.ensureTable(queueTable(changesTableName));
	// One lease per node of a workflow: its records are compared with its own settings, whoever holds it.
	const key = [operationName, context.getWorkflow().id ?? '', context.getNode().id ?? context.getNode().name].join('|');
	return new PassQueue(store.api, table, key, store.newToken());
}

interface Compared {
	run: RecordRun;
	owned: JournalAlert[];
	contested: ObservedItem[];
}

/** One batch of records through the operation, with the alerts of executions that died with the same records resolved. */
async function compare({ store, journal, settings, queue, operation }: Pass, records: Records, retry: boolean): Promise<Compared> {
	const { orphans, pinned } = await store.findOrphans(journal, {
		operation: operation.name,
		sameRecords: operation.ofRecords(records),
		retry,
		ended: (entry) => queue.ended(entry.token),
	});
	const newestCollected = records.observed.map(({ observation }) => observation.dtCollected).sort().at(-1) as string;
	// The day's clean-up comes before the operation's writes, and the orphans found are confirmed
	// after them: once alerts are confirmed, nothing but handing out the items is left to the execution.
	const tidy = async (tables: readonly TidiedTable[]) => await tidyOrNote(journal, async () => await keepTidy(journal, tables, newestCollected, settings.keepChangesDays));
	const run = await operation.run({ records, journal, pinned, tidy });
	const resolved = await store.confirmOrphans(journal, orphans);
	return { run, owned: [...run.alerts, ...resolved], contested: run.contested };
}

/**
 * The pass: batch after batch of staged records until none is left, then the lease given back and
 * the staged records looked at once more. Their items are paired with this execution's first item.
 * Once a batch's alerts are confirmed, nothing may fail the execution (they would come out of no
 * one): a later failure ends the pass with what it put out, and leaves the records it had not
 * compared staged for the next pass. `compared`: this execution already confirmed alerts of its own.
 */
async function drain(pass: Pass, mine: Mine, compared = false): Promise<INodeExecutionData[]> {
	const { queue } = pass;
	const output: INodeExecutionData[] = [];
	let batches = compared ? 1 : 0;
	try {
		await drainBatches(pass, { mine, output }, () => batches++);
	} catch (error) {
		if (batches === 0) throw error as NodeApiError;
	}
	await queue.release().catch(() => undefined);
	return output;
}

async function drainBatches(pass: Pass, { mine, output }: { mine: Mine; output: INodeExecutionData[] }, done: () => number): Promise<void> {
	const { journal, queue, operation } = pass;
	// Whether other executions staged records for this pass: deliveries are arriving at once.
	let arriving = false;
	for (let batch = 0; ; batch++) {
		let staged = await queue.staged();
		if (staged.length === 0 && arriving) {
			// While a shop arrives, the next record is a moment away: a pass that waits for it takes it in
			// its next batch, where giving the lease back and taking it again would cost four requests.
			arriving = false;
			await sleep(LINGER_MS);
			staged = await queue.staged();
		}
		if (staged.length === 0) {
			await queue.release();
			if ((await queue.staged()).length === 0 || !(await queue.take())) return;
			continue;
		}
		arriving = staged.length > 1 || batch > 0;
		const records = stagedRecords(staged, operation.rateField);
		const compared = await compare(pass, records, staged.some(({ retry }) => retry));
		// Records another node kept writing go back to the queue before their rows are removed: staged twice for a moment, never lost.
		await queue.stage(compared.contested.map(({ itemIndex }) => records.items[itemIndex].json), false);
		done();
		const contested = new Set(compared.contested.map(({ itemIndex }) => itemIndex));
		for (const { at, item } of compared.run.output(compared.owned)) {
			if (contested.has(at)) continue;
			const { writer, position } = records.origins[at];
			// This execution's own records come out at their own items; the others' after them.
			if (writer !== mine.writer) output.push({ ...item, pairedItem: { item: 0 } });
			else {
				const { itemIndex } = mine.staged[position];
				mine.items.set(itemIndex, [...(mine.items.get(itemIndex) ?? []), { ...item, pairedItem: { item: itemIndex } }]);
			}
		}
		// Staged rows left behind are compared again by a later pass, which finds them stored: no alert
		// twice. Not removing them is housekeeping that could not run, said in the next digest.
		await queue.remove(staged).catch(async (error: unknown) => await noteCleanupFailure(journal, error));
		if (!(await queue.renew().catch(() => false))) return;
		if (contested.size > 0) await sleep(CONTESTED_PAUSE_MS);
	}
}

/** The records this execution brought: the staged row that holds those it staged (in that order), and its items by input item. */
interface Mine {
	writer: string;
	staged: readonly ObservedItem[];
	items: Map<number, INodeExecutionData[]>;
}

function itemsByInput(output: ReadonlyArray<{ at: number; item: INodeExecutionData }>): Map<number, INodeExecutionData[]> {
	const byItem = new Map<number, INodeExecutionData[]>();
	for (const { at, item } of output) byItem.set(at, [...(byItem.get(at) ?? []), item]);
	return byItem;
}

function inItemOrder(context: IExecuteFunctions, records: Records, byItem: ReadonlyMap<number, INodeExecutionData[]>): INodeExecutionData[] {
	return records.checked.flatMap((read, itemIndex): INodeExecutionData[] => {
		if ('error' in read) return [failedItem(context, read.error, itemIndex)];
		return byItem.get(itemIndex) ?? [];
	});
}
