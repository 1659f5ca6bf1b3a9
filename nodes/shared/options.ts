import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { RequestLimiter } from './concurrency';
import { parseDecimal, parseWholeNumber } from './fields';
import type { RetryPolicy } from './retry';

/** The default of every node's Concurrency (docs/benchmarks.md, benchmark 1b, for how it was chosen). */
export const DEFAULT_CONCURRENCY = 10;

// The defaults match DEFAULT_RETRY_POLICY; the lint rule wants literals here.
const maxAttemptsOption: INodeProperties = {
	displayName: 'Max Attempts',
	name: 'maxAttempts',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 10, numberPrecision: 0 },
	default: 5,
	description:
		'How many times to send a request that fails without the service saying when to try again (a temporary failure, a broken connection, a 429 without Retry-After), the first time included. A 429 with Retry-After is waited out within Max Retry Wait and uses up no attempt.',
};

const maxRetryWaitOption: INodeProperties = {
	displayName: 'Max Retry Wait (Seconds)',
	name: 'maxRetryWaitSeconds',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: 60,
	description:
		'The longest one request may spend waiting to be sent again, all waits together. When the service answers 429 with Retry-After, the node waits as long as it says (at least half a second) and tries again, for as long as this budget lasts. 0 turns retries after a Retry-After off.',
};

/** Options every node offers inside its "Options" collection, so a user can tune retries. */
export const retryOptionFields: INodeProperties[] = [maxAttemptsOption, maxRetryWaitOption];

/** For every node that can send more than one request in one execution. */
export const concurrencyOption: INodeProperties = {
	displayName: 'Concurrency',
	name: 'concurrency',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 50, numberPrecision: 0 },
	default: DEFAULT_CONCURRENCY,
	description:
		'The most requests this node has in flight at once, across all input items (and all pages of each). Lower it if the service answers 429 (too many requests).',
};

export const DEFAULT_PAGE_SIZE = 100;

/** For every node that reads a paged listing (events, airports). */
export const pageSizeOption: INodeProperties = {
	displayName: 'Page Size',
	name: 'pageSize',
	type: 'number',
	typeOptions: { minValue: 1, numberPrecision: 0 },
	default: DEFAULT_PAGE_SIZE,
	description:
		'How many records to ask for per request. The service may send fewer per page; paging follows what it sends.',
};

/**
 * A node's Options collection: the shared request options it has (the retry options always,
 * Concurrency where it can send several requests at once, Page Size where it reads pages) and its
 * own, in name order as n8n lists the options a user can add.
 */
export function optionFields(
	shared: { concurrency?: boolean; pageSize?: boolean },
	own: INodeProperties[] = [],
): INodeProperties[] {
	return [
		...(shared.concurrency ? [concurrencyOption] : []),
		...(shared.pageSize ? [pageSizeOption] : []),
		...retryOptionFields,
		...own,
	].sort((a, b) => a.displayName.localeCompare(b.displayName));
}

/**
 * One numeric option of a node's Options collection, read by the shared whole-number or decimal
 * rule and checked against the bounds its own field shows the user (so the editor and the check
 * cannot drift apart). An expression may hand over a number as text ("3"); anything else that is
 * not a number in range is an input error naming the option, found before the item sends a request.
 */
export function numberOption(options: IDataObject, field: INodeProperties): number {
	const value = options[field.name];
	if (value === undefined) return field.default as number;
	const { minValue: min, maxValue: max, numberPrecision } = field.typeOptions ?? {};
	const read = numberPrecision === 0 ? parseWholeNumber : parseDecimal;
	return read(field.displayName, value, { min, max });
}

/** Max Attempts and Max Retry Wait of one item, checked. */
export function retryPolicyFrom(options: IDataObject): RetryPolicy {
	return {
		maxAttempts: numberOption(options, maxAttemptsOption),
		maxTotalWaitMs: numberOption(options, maxRetryWaitOption) * 1000,
	};
}

/** The retry options and Concurrency of one item, checked: what every node that sends several
 * requests reads from its Options collection. */
export function requestOptionsFrom(options: IDataObject): { retry: RetryPolicy; concurrency: number } {
	return { retry: retryPolicyFrom(options), concurrency: numberOption(options, concurrencyOption) };
}

/**
 * The limiter of one node execution. Concurrency belongs to the node, not to an item: when an
 * expression gives items different values, the smallest holds, so no item's limit is passed.
 */
export function requestLimiter(concurrencies: readonly number[]): RequestLimiter {
	const size = concurrencies.reduce((smallest, value) => Math.min(smallest, value), Infinity);
	return new RequestLimiter(Number.isFinite(size) ? size : DEFAULT_CONCURRENCY);
}

/**
 * What to tell a user whose requests the service keeps answering 429, naming only the options the
 * node has (its Options collection).
 */
export function throttleAdvice(optionFields: readonly INodeProperties[]): string {
	const has = (name: string) => optionFields.some((field) => field.name === name);
	const changes = [
		has('concurrency') ? 'lower "Concurrency"' : undefined,
		has('batchSize') ? 'raise "Batch Size" (more hotel codes per request, so fewer requests)' : undefined,
		has('pageSize') ? 'raise "Page Size" (fewer pages, so fewer requests)' : undefined,
		has('maxRetryWaitSeconds') ? 'raise "Max Retry Wait (Seconds)" so the node waits longer' : undefined,
	].filter((change): change is string => change !== undefined);
	const advice =
		changes.length === 0
			? 'Wait a while before running it again.'
			: `In the node's options, ${changes.slice(0, -1).join(', ')}${changes.length > 1 ? ' or ' : ''}${changes[changes.length - 1]}.`;
	return `The service is rate-limiting this account. ${advice}`;
}
