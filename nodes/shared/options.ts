import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { DEFAULT_CONCURRENCY, type ConcurrencyMode, type ConcurrencySettings } from './concurrency';
import { FieldError } from './errors';
import { parseDecimal, parseWholeNumber } from './fields';
import type { RetryPolicy } from './retry';

/**
 * The options every node shares in its Options collection: each one's field, and its reading,
 * checked against the bounds that same field shows the user.
 */

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
		'The most requests this node has in flight at once, across all input items (and all pages of each). With Concurrency Mode "Adaptive" the node starts where its last execution with the same credential left off (at 4 the first time) and grows toward this while the service answers well; with "Fixed" it keeps this many.',
};

/** Beside Concurrency: whether the requests in flight adapt to the service's answers. */
export const concurrencyModeOption: INodeProperties = {
	displayName: 'Concurrency Mode',
	name: 'concurrencyMode',
	type: 'options',
	options: [
		{
			name: 'Adaptive',
			value: 'adaptive',
			description:
				'Start where the last execution with the same credential left off (4 requests in flight the first time), add more while answers come back without 429 and without slowing down, halve on a 429 and pause for its Retry-After; never more than Concurrency',
		},
		{
			name: 'Fixed',
			value: 'fixed',
			description: 'Always up to Concurrency requests in flight, for a service that wants a set number',
		},
	],
	default: 'adaptive',
	description: 'How many requests the node keeps in flight, up to Concurrency',
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
		...(shared.concurrency ? [concurrencyOption, concurrencyModeOption] : []),
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

/** Concurrency Mode of one item, checked: an expression may give only one of its values. */
export function concurrencyModeFrom(options: IDataObject): ConcurrencyMode {
	const value = options[concurrencyModeOption.name] ?? concurrencyModeOption.default;
	if (value === 'adaptive' || value === 'fixed') return value;
	throw new FieldError(concurrencyModeOption.displayName, value, 'must be adaptive or fixed');
}

/** Concurrency and Concurrency Mode of one item, checked. */
export function concurrencyFrom(options: IDataObject, field: INodeProperties = concurrencyOption): ConcurrencySettings {
	return { concurrency: numberOption(options, field), concurrencyMode: concurrencyModeFrom(options) };
}

/** The retry options, Concurrency and Concurrency Mode of one item, checked: what every node that
 * sends several requests reads from its Options collection. */
export function requestOptionsFrom(options: IDataObject): { retry: RetryPolicy } & ConcurrencySettings {
	return { retry: retryPolicyFrom(options), ...concurrencyFrom(options) };
}
