import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { parsePositiveInteger } from './integerFields';
import { concurrencyOption, numberOption, retryOptionFields, throttleAdvice } from './properties';

/** What the user asked of a paged listing (events, airports). */
export interface Paging {
	/** Undefined when Return All is on. */
	limit?: number;
	pageSize: number;
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

/** Page Size, for the node's Options collection (next to Concurrency and the retry options). */
export const pageSizeOption: INodeProperties = {
	displayName: 'Page Size',
	name: 'pageSize',
	type: 'number',
	typeOptions: { minValue: 1, numberPrecision: 0 },
	default: DEFAULT_PAGE_SIZE,
	description:
		'How many records to ask for per request. The service may send fewer per page; paging follows what it sends.',
};

/** The Options collection of a paged listing (events, airports), in name order. */
export const listingOptionFields: INodeProperties[] = [concurrencyOption, pageSizeOption, ...retryOptionFields].sort(
	(a, b) => a.displayName.localeCompare(b.displayName),
);

export const LISTING_THROTTLE_ADVICE = throttleAdvice(listingOptionFields);

/** Reads Return All, Limit and Page Size of one item, each checked. */
export function pagingFrom(returnAll: unknown, limit: unknown, options: IDataObject): Paging {
	return {
		limit: returnAll === true ? undefined : parsePositiveInteger('Limit', limit),
		pageSize: numberOption(options, pageSizeOption),
	};
}
