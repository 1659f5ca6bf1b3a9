import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry';

// The defaults match DEFAULT_RETRY_POLICY; the lint rule wants literals here.
/** Options every node offers inside its "Options" collection, so a user can tune retries. */
export const retryOptionFields: INodeProperties[] = [
	{
		displayName: 'Max Attempts',
		name: 'maxAttempts',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 10 },
		default: 5,
		description:
			'How many times to send a request that the service answers with 429 (too many requests) or a temporary failure, the first time included',
	},
	{
		displayName: 'Max Retry Wait (Seconds)',
		name: 'maxRetryWaitSeconds',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 60,
		description:
			'The longest a request may spend waiting between retries in all. The service\'s Retry-After is honoured within it.',
	},
];

export function retryPolicyFrom(options: IDataObject): RetryPolicy {
	return {
		maxAttempts: Number(options.maxAttempts ?? DEFAULT_RETRY_POLICY.maxAttempts),
		maxTotalWaitMs: Number(options.maxRetryWaitSeconds ?? DEFAULT_RETRY_POLICY.maxTotalWaitMs / 1000) * 1000,
	};
}
