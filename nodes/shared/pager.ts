import { mapWithConcurrency } from './concurrency';

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
