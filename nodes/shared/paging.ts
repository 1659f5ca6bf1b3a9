import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { parsePositiveInteger } from './integerFields';
import { DEFAULT_PAGE_CONCURRENCY } from './pager';

/** What the user asked of a paged listing (events, airports). */
export interface Paging {
	/** Undefined when Return All is on. */
	limit?: number;
	pageSize: number;
	concurrency: number;
}

export const DEFAULT_PAGE_SIZE = 100;

/** Return All and Limit, the pair every n8n listing offers. */
export function returnAllFields(noun: string): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			hint: `Only as many pages are requested as it takes to collect this many ${noun}`,
			displayOptions: { show: { returnAll: [false] } },
		},
	];
}

/** Page Size and Concurrency, for the node's Options collection (next to the retry options). */
export const pagingOptionFields: INodeProperties[] = [
	{
		displayName: 'Concurrency',
		name: 'concurrency',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 20 },
		default: DEFAULT_PAGE_CONCURRENCY,
		description:
			'How many input items to search for at once, and how many pages of each search to request at once after the first page has told how many there are. Lower it if the service answers 429 (too many requests).',
	},
	{
		displayName: 'Page Size',
		name: 'pageSize',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: DEFAULT_PAGE_SIZE,
		description:
			'How many records to ask for per request. The service may send fewer per page; paging follows what it sends.',
	},
];

/** Reads Return All, Limit and the paging options of one item, each checked. */
export function pagingFrom(returnAll: unknown, limit: unknown, options: IDataObject): Paging {
	return {
		limit: returnAll === true ? undefined : parsePositiveInteger('Limit', limit),
		pageSize: parsePositiveInteger('Page Size', options.pageSize ?? DEFAULT_PAGE_SIZE),
		concurrency: parsePositiveInteger('Concurrency', options.concurrency ?? DEFAULT_PAGE_CONCURRENCY),
	};
}

/**
 * How many items' searches run at once: the Concurrency option of the first item, since the
 * items share one pool of requests. An unreadable value falls back to the default here and is
 * reported by that item's own pagingFrom.
 */
export function itemConcurrency(context: IExecuteFunctions): number {
	const value = Number(context.getNodeParameter('options.concurrency', 0, DEFAULT_PAGE_CONCURRENCY));
	return Number.isInteger(value) && value > 0 ? value : DEFAULT_PAGE_CONCURRENCY;
}
