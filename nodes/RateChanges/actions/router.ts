import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import * as checkParity from './checkParity.operation';
import * as compareWithMyHotel from './compareWithMyHotel.operation';
import * as detectChanges from './detectChanges.operation';
import * as digest from './digest.operation';
import { changesTableField, ratesTableField, recordOptionsField, type Operation } from './fields';

/**
 * Rate Changes' operations: one file each, holding its fields and its execute. A new operation is
 * a new `<name>.operation.ts` and one entry here (docs/development.md, "Map of the code").
 */

interface OperationModule {
	properties: INodeProperties[];
	execute: (this: IExecuteFunctions) => Promise<INodeExecutionData[]>;
}

const operations: Record<Operation, OperationModule> = { detectChanges, compareWithMyHotel, checkParity, digest };

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
	],
};

export const properties: INodeProperties[] = [
	operationField,
	detectChanges.rateFieldField,
	...detectChanges.properties,
	...compareWithMyHotel.properties,
	...checkParity.properties,
	...digest.properties,
	ratesTableField,
	changesTableField,
	recordOptionsField,
];

export async function route(context: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const operation = context.getNodeParameter('operation', 0) as Operation;
	return [await operations[operation].execute.call(context)];
}
