import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { mapWithConcurrency } from './concurrency';
import { parsePositiveInteger } from './fields';
import { runPerItem } from './itemOutcomes';
import { numberOption, optionFields, pageSizeOption, requestOptionsFrom } from './options';
import { throttleAdvice } from './throttleAdvice';
import type { RequestSettings } from './transport';

/**
 * Paged listings (events, airports): the Return All, Limit and Page Size the user sets, and the
 * reading of the pages they ask for.
 */

/** What the user asked of a paged listing (events, airports). */
export interface Paging {
	/** Undefined when Return All is on. */
	limit?: number;
	pageSize: number;
}

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

/** The Options collection of a paged listing (events, airports). */
export const listingOptionFields: INodeProperties[] = optionFields({ concurrency: true, pageSize: true });

export const LISTING_THROTTLE_ADVICE = throttleAdvice(listingOptionFields);

/** Reads Return All, Limit and Page Size of one item, each checked. */
export function pagingFrom(returnAll: unknown, limit: unknown, options: IDataObject): Paging {
	return {
		limit: returnAll === true ? undefined : parsePositiveInteger('Limit', limit),
		pageSize: numberOption(options, pageSizeOption),
	};
}

/** One page of a page-numbered listing (airports, events), whatever the endpoint calls its fields. */
export interface Page<T> {
	records: T[];
	totalRecords: number;
	totalPages: number;
	/** The page size the service applied, which may be smaller than the one asked for. */
	pageSize: number;
}

export interface PagerOptions {
	/** Stop after this many records; undefined reads every page. */
	limit?: number;
	/** Pages asked for at once after the first: the node's Concurrency, which its request limiter
	 * also holds across items, so no more are queued than can be sent. */
	concurrency: number;
}

/** What one item's listing is read with: its Return All, Limit and Page Size and the node's request settings. */
export type ListingSettings = Paging & RequestSettings;

/**
 * The flow of a paged listing node (Airports, Event Impact): each item's own query, with its
 * Return All, Limit, Page Size and request options, read and checked before the first request;
 * then every item's listing at once, within the node's Concurrency. Output stays in item order.
 */
export async function runListing<TQuery>(
	context: IExecuteFunctions,
	readQuery: (itemIndex: number) => TQuery,
	list: (query: TQuery, settings: ListingSettings) => Promise<readonly object[]>,
): Promise<INodeExecutionData[]> {
	return await runPerItem(
		context,
		(itemIndex) => {
			const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
			return {
				query: readQuery(itemIndex),
				paging: pagingFrom(
					context.getNodeParameter('returnAll', itemIndex, false),
					context.getNodeParameter('limit', itemIndex, 50),
					options,
				),
				...requestOptionsFrom(options),
			};
		},
		async ({ query, paging, retry }, limiter, itemIndex) =>
			await list(query, { ...paging, retry, limiter, throttleAdvice: LISTING_THROTTLE_ADVICE, itemIndex }),
	);
}

/**
 * One item's listing read with the shared pager: all of it or the first `limit`, the pages after
 * the first asked for as many at once as the node's Concurrency lets through. `fetchPage` gets the
 * page number and the page size to ask for.
 */
export async function readListing<T>(
	settings: ListingSettings,
	fetchPage: (pageNumber: number, pageSize: number) => Promise<Page<T>>,
): Promise<T[]> {
	const { limit, limiter } = settings;
	// Asking for fewer than a page when fewer are wanted keeps a small limit to one small request.
	const pageSize = limit === undefined ? settings.pageSize : Math.min(settings.pageSize, limit);
	return await fetchPages(async (pageNumber) => await fetchPage(pageNumber, pageSize), {
		limit,
		concurrency: limiter?.size ?? 1,
	});
}

/**
 * Reads page 1 to learn the total, then fetches only the pages still needed, several at once,
 * and returns the records in the service's order.
 */
export async function fetchPages<T>(
	fetchPage: (pageNumber: number) => Promise<Page<T>>,
	options: PagerOptions,
): Promise<T[]> {
	const { limit } = options;
	const first = await fetchPage(1);
	const records = [...first.records];
	if (limit !== undefined && records.length >= limit) return records.slice(0, limit);

	const pageSize = first.pageSize > 0 ? first.pageSize : first.records.length;
	let lastPage = first.totalPages;
	if (limit !== undefined && pageSize > 0) lastPage = Math.min(lastPage, Math.ceil(limit / pageSize));
	if (lastPage <= 1) return records;

	const pageNumbers = Array.from({ length: lastPage - 1 }, (_, index) => index + 2);
	const pages = await mapWithConcurrency(pageNumbers, options.concurrency, fetchPage);
	for (const page of pages) records.push(...page.records);
	return limit === undefined ? records : records.slice(0, limit);
}
