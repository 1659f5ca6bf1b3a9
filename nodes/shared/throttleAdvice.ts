import type { INodeProperties } from 'n8n-workflow';

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
