import { NodeOperationError, type IExecuteFunctions } from 'n8n-workflow';

import type { RequestLimiter } from '../shared/concurrency';

import { DataTables, type RowFilter } from './dataTables';
import {
	compareWithStored,
	meetsRule,
	newestPerStay,
	type ChangeRule,
	type Observation,
	type RateChange,
	type RateField,
} from './rateChanges';
import { changeRow, changesTable, rateRow, ratesTable, storedStay, type StoredStay } from './tables';

export interface DetectSettings {
	rateField: RateField;
	rule: ChangeRule;
	ratesTable: string;
	changesTable: string;
}

export interface ObservedItem {
	itemIndex: number;
	observation: Observation;
}

export interface Alert extends ObservedItem {
	change: RateChange;
}

/**
 * Stay keys per read: each is one "stayKey eq …" condition in the filter n8n takes in the query
 * string, and 50 keep the address well under the 16 kB a Node.js server accepts.
 */
const KEYS_PER_READ = 50;

/** A stay written by another execution between our read and our write is read again, this often. */
const MAX_COMPARE_ROUNDS = 5;

/**
 * Detect Changes: every stay's newest record is compared with the stored one, and the stored one
 * moves on. How overlapping executions stay correct (docs/nodes/rate-changes.md, "Deliveries at
 * once"):
 * - a rate that moved is written with a compare-and-set on the stored row's id and dtCollected, so
 *   of two executions that compared against the same stored record only one writes, and only the
 *   one that wrote alerts; the other reads the stay again and compares with what is there now;
 * - a rate that did not move only advances dtCollected, many stays in one request;
 * - a stay seen for the first time is inserted. Two executions that both see a stay first at the
 *   same moment insert it twice: the lowest row id is the stay from then on.
 */
export async function detectChanges(
	context: IExecuteFunctions,
	limiter: RequestLimiter,
	settings: DetectSettings,
	observed: readonly ObservedItem[],
): Promise<{ alerts: Alert[]; contested: ObservedItem[] }> {
	const tables = new DataTables(context, limiter);
	const [ratesId, changesId] = await Promise.all([
		tables.ensureTable(ratesTable(settings.ratesTable)),
		tables.ensureTable(changesTable(settings.changesTable)),
	]);
	const newest = newestPerStay(observed);
	const candidates = observed.filter(({ itemIndex, observation }) => newest.get(observation.stayKey) === itemIndex);

	const readStays = async (stayKeys: readonly string[]): Promise<Map<string, StoredStay>> => {
		const chunks = chunk(stayKeys, KEYS_PER_READ);
		const rows = (await Promise.all(chunks.map(async (keys) => await tables.findRows(ratesId, anyStay(keys))))).flat();
		const stored = new Map<string, StoredStay>();
		// Rows come in id order: the first row of a stay is the one that counts.
		for (const row of rows) if (!stored.has(String(row.stayKey))) stored.set(String(row.stayKey), storedStay(row));
		return stored;
	};

	const alerts: Alert[] = [];
	const firstSeen: ObservedItem[] = [];
	const unchangedByTime = new Map<string, string[]>();
	let pending = candidates;
	let stored = await readStays(pending.map(({ observation }) => observation.stayKey));
	for (let round = 1; pending.length > 0 && round <= MAX_COMPARE_ROUNDS; round++) {
		const lost: ObservedItem[] = [];
		await Promise.all(
			pending.map(async (item) => {
				const previous = stored.get(item.observation.stayKey);
				const comparison = compareWithStored(item.observation, previous, settings.rateField);
				if (comparison.kind === 'stale') return;
				if (previous === undefined) {
					firstSeen.push(item);
					return;
				}
				if (comparison.kind === 'unchanged') {
					const keys = unchangedByTime.get(item.observation.dtCollected) ?? [];
					keys.push(item.observation.stayKey);
					unchangedByTime.set(item.observation.dtCollected, keys);
					return;
				}
				const written = await tables.updateRows(ratesId, sameState(previous), rateRow(item.observation));
				if (written.length === 0) lost.push(item);
				else if (comparison.kind === 'change') alerts.push({ ...item, change: comparison.change });
			}),
		);
		pending = lost;
		if (lost.length > 0 && round < MAX_COMPARE_ROUNDS) stored = await readStays(lost.map(({ observation }) => observation.stayKey));
	}

	await tables.insertRows(ratesId, firstSeen.map(({ observation }) => rateRow(observation)));
	for (const item of firstSeen) {
		const comparison = compareWithStored(item.observation, undefined, settings.rateField);
		if (comparison.kind === 'change') alerts.push({ ...item, change: comparison.change });
	}
	await Promise.all(
		[...unchangedByTime].flatMap(([dtCollected, stayKeys]) =>
			chunk(stayKeys, KEYS_PER_READ).map(async (keys) => await tables.updateRows(ratesId, anyStay(keys), { dtCollected }, false)),
		),
	);

	const reported = alerts.filter(({ change }) => meetsRule(change, settings.rule)).sort((a, b) => a.itemIndex - b.itemIndex);
	await tables.insertRows(changesId, reported.map(({ observation, change }) => changeRow(observation, change, settings.rateField)));
	return { alerts: reported, contested: pending };
}

/** A record whose stay other executions wrote every time this one tried: it was not compared, and nothing of it was written. */
export function contestedError(context: IExecuteFunctions, itemIndex: number): NodeOperationError {
	return new NodeOperationError(context.getNode(), `The stay of item ${itemIndex} kept changing under this execution: it was not compared`, {
		itemIndex,
		description: `Other executions wrote the same stay ${MAX_COMPARE_ROUNDS} times while this one compared it. Nothing of this record was written: run it again. The other items were compared and kept.`,
	});
}

function anyStay(stayKeys: readonly string[]): RowFilter {
	return { type: 'or', filters: stayKeys.map((value) => ({ columnName: 'stayKey', condition: 'eq', value })) };
}

/** The stored row exactly as it was read: the compare-and-set of a write. */
function sameState(previous: StoredStay): RowFilter {
	return {
		type: 'and',
		filters: [
			{ columnName: 'id', condition: 'eq', value: previous.id },
			{ columnName: 'dtCollected', condition: 'eq', value: previous.dtCollected },
		],
	};
}

function chunk<T>(values: readonly T[], size: number): T[][] {
	const chunks: T[][] = [];
	for (let start = 0; start < values.length; start += size) chunks.push(values.slice(start, start + size));
	return chunks;
}
