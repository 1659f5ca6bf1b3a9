import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import * as calendarSource from './calendarSource';
import * as checkParity from './checkParity.operation';
import * as compareWithMyHotel from './compareWithMyHotel.operation';
import * as detectChanges from './detectChanges.operation';
import * as digest from './digest.operation';
import * as rateCalendar from './rateCalendar.operation';
import * as suggestRates from './suggestRates.operation';
import { changesTableField, ratesTableField, recordOptionsField, type Operation } from './fields';

/**
 * Rate Changes' operations: one file each, holding its fields and its execute. A new operation is
 * a new `<name>.operation.ts` and one entry here (docs/development.md, "Map of the code").
 */

interface OperationModule {
	properties: INodeProperties[];
	execute: (this: IExecuteFunctions) => Promise<INodeExecutionData[]>;
}

const operations: Record<Operation, OperationModule> = { detectChanges, compareWithMyHotel, checkParity, digest, rateCalendar, suggestRates };

export const operationField: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	default: 'detectChanges',
	options: [
		{
			name: 'Check Parity',
			value: 'checkParity',
			description: "Compare a hotel's total for the same stay and room across websites against a reference website: win, meet or loss, with the severity of each loss",
			action: 'Check rate parity',
		},
		{
			name: 'Compare With My Hotel',
			value: 'compareWithMyHotel',
			description: "Where your hotel's rate stands among the other hotels for each stay-night of the incoming records: rank, lowest, median, highest, cheapest competitor",
			action: 'Compare with my hotel',
		},
		{
			name: 'Detect Changes',
			value: 'detectChanges',
			description: 'Compare each incoming rate record with the last one of its stay, keep it, and put out the changes worth an alert',
			action: 'Detect rate changes',
		},
		{
			name: 'Digest',
			value: 'digest',
			description: 'Sum up every change not reported yet: one item per shop (or hotel) with a ready text and HTML table',
			action: 'Build a digest of rate changes',
		},
		{
			name: 'Rate Calendar',
			value: 'rateCalendar',
			description: "Each date of a window: your rate against the comp set's median, price index, events, demand, outliers and what moved since the last calendar, with a ready text and HTML month grid",
			action: 'Build a rate calendar',
		},
		{
			name: 'Suggest Rates',
			value: 'suggestRates',
			description: 'A suggested rate for each date by your rules (anchor, event and demand uplifts, bounds, rounding), each with its reason, for a person to approve; sets no price',
			action: 'Suggest rates for approval',
		},
	],
};

export const properties: INodeProperties[] = [
	operationField,
	detectChanges.rateFieldField,
	...detectChanges.properties,
	...compareWithMyHotel.properties,
	...checkParity.properties,
	...digest.properties,
	...calendarSource.properties,
	...rateCalendar.properties,
	...suggestRates.properties,
	ratesTableField,
	changesTableField,
	recordOptionsField,
];

export async function route(context: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const operation = context.getNodeParameter('operation', 0) as Operation;
	return [await operations[operation].execute.call(context)];
}
