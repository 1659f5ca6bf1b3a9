import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/**
 * n8n's Simplify switch, for the nodes whose items carry more than ten fields (n8n's UX
 * guidelines). It came with version 1.1 and is on there, so a node added to a workflow, and the
 * tool a model calls, put out the simplified item. Version 1 has no switch: workflows saved with
 * it keep putting out the service's whole record.
 */
export const SIMPLIFY_SINCE_VERSION = 1.1;

export function simplifyField(description: string): INodeProperties {
	return {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description,
		displayOptions: { show: { '@version': [{ _cnd: { gte: SIMPLIFY_SINCE_VERSION } }] } },
	};
}

/** Whether an item's output is simplified: on from version 1.1 unless the user turned it off. */
export function isSimplified(context: IExecuteFunctions, itemIndex: number): boolean {
	if (context.getNode().typeVersion < SIMPLIFY_SINCE_VERSION) return false;
	return context.getNodeParameter('simplify', itemIndex, true) as boolean;
}

/** A record cut down to the given fields, in their order; a field the record lacks stays absent. */
export function keepFields<TRecord extends object>(record: TRecord, fields: ReadonlyArray<keyof TRecord>): IDataObject {
	const kept: IDataObject = {};
	for (const field of fields) {
		if (field in record) kept[field as string] = (record as IDataObject)[field as string];
	}
	return kept;
}
