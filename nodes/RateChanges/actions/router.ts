import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { requestLimiter, RequestLimiter } from '../../shared/concurrency';
import { concurrencyFrom } from '../../shared/options';
import { Store } from '../storage/store';

import * as calendarFields from './calendarFields';
import * as checkParity from './checkParity.operation';
import * as compareWithMyHotel from './compareWithMyHotel.operation';
import * as detectChanges from './detectChanges.operation';
import * as digest from './digest.operation';
import * as rateCalendar from './rateCalendar.operation';
import * as rateHistory from './rateHistory.operation';
import * as suggestRates from './suggestRates.operation';
import { changesTableField, optionsOf, rateChangesConcurrencyOption, rateFieldField, ratesTableField, readSettings, recordOptionsField, RECORD_OPERATIONS } from './fields';

/**
 * Rate Changes' operations: one file each, holding its option in the Operation field, its fields and
 * its execute. A new operation is a new `<name>.operation.ts` and one entry here; the Operation
 * field, the node's subtitle and the `Operation` type follow from this list, and
 * test/package/operations.test.ts fails until its test, its schemas and its docs are there too
 * (docs/development.md, "Map of the code").
 */
const operations = [detectChanges, compareWithMyHotel, checkParity, digest, rateCalendar, suggestRates, rateHistory];

export type Operation = (typeof operations)[number]['option']['value'];

export const OPERATIONS: Operation[] = operations.map(({ option }) => option.value);

export const operationField: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	default: 'detectChanges',
	options: operations.map(({ option }) => ({ ...option })).sort((a, b) => a.name.localeCompare(b.name)),
};

/** Each operation's name in sentence case under the node on the canvas ("Compare with my hotel"). */
export const subtitle = `={{ ${JSON.stringify(
	Object.fromEntries(operations.map(({ option }) => [option.value, option.name.charAt(0) + option.name.slice(1).toLowerCase()])),
)}[$parameter["operation"]] }}`;

/**
 * The panel shows the fields in this order: the fields two operations share first, so that each
 * operation's own fields follow them, then the tables and the record operations' options.
 */
export const properties: INodeProperties[] = [
	operationField,
	rateFieldField,
	...calendarFields.properties,
	...operations.flatMap((operation) => operation.properties),
	ratesTableField,
	changesTableField,
	recordOptionsField,
];

/**
 * The requests to n8n one execution has in flight: the record operations' Concurrency option (they
 * take deliveries many at once); Digest, Rate Calendar and Suggest Rates read a few tables once a
 * run, 4 at a time; Rate History reads two.
 */
const ONCE_A_RUN_CONCURRENCY = 4;

export async function route(context: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const chosen = context.getNodeParameter('operation', 0) as Operation;
	const operation = operations.find(({ option }) => option.value === chosen)!;
	const limiter = RECORD_OPERATIONS.includes(chosen)
		? requestLimiter(context.getNode(), [readSettings(context, () => concurrencyFrom(optionsOf(context), rateChangesConcurrencyOption))])
		: new RequestLimiter(ONCE_A_RUN_CONCURRENCY);
	// Opened once, before any request: the operation opens its tables through it (storage/store.ts).
	return [await operation.execute.call(context, Store.open(context, limiter))];
}
