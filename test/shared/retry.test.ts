import {
	backoffDelay,
	MIN_RETRY_AFTER_WAIT_MS,
	nextRetryDelay,
	parseRetryAfter,
	retriesNetworkFailure,
} from '../../nodes/shared/retry';

describe('Retry-After is honoured in both of its forms', () => {
	it('reads delta-seconds', () => {
		expect(parseRetryAfter('3')).toBe(3000);
		expect(parseRetryAfter('0')).toBe(0);
		expect(parseRetryAfter(['2'])).toBe(2000);
	});

	it('reads an HTTP date as the time left until it', () => {
		const now = Date.parse('2026-11-23T10:00:00Z');
		expect(parseRetryAfter('Mon, 23 Nov 2026 10:00:07 GMT', now)).toBe(7000);
		expect(parseRetryAfter('Mon, 23 Nov 2026 09:59:00 GMT', now)).toBe(0);
	});

	it('ignores what it cannot read', () => {
		expect(parseRetryAfter(undefined)).toBeUndefined();
		expect(parseRetryAfter('')).toBeUndefined();
		expect(parseRetryAfter('soon')).toBeUndefined();
	});
});

describe('backoff is exponential with full jitter', () => {
	it('stays between zero and the doubling ceiling', () => {
		expect(backoffDelay(1, () => 1)).toBe(500);
		expect(backoffDelay(2, () => 1)).toBe(1000);
		expect(backoffDelay(4, () => 1)).toBe(4000);
		expect(backoffDelay(4, () => 0)).toBe(0);
		expect(backoffDelay(4, () => 0.5)).toBe(2000);
	});

	it('never grows past 30 seconds', () => {
		expect(backoffDelay(30, () => 1)).toBe(30_000);
	});
});

describe('Max Attempts bounds failures the service gives no Retry-After for', () => {
	const policy = { maxAttempts: 3, maxTotalWaitMs: 5_000 };

	it('backs off while attempts are left', () => {
		expect(nextRetryDelay(policy, { unguidedFailures: 2, waitedMs: 0 }, undefined, () => 1)).toBe(1_000);
	});

	it('stops when the attempts are used up', () => {
		expect(nextRetryDelay(policy, { unguidedFailures: 3, waitedMs: 0 }, undefined)).toBeUndefined();
	});

	it('stops when the backoff would pass the total cap', () => {
		expect(nextRetryDelay(policy, { unguidedFailures: 1, waitedMs: 4_800 }, undefined, () => 1)).toBeUndefined();
	});
});

describe('a Retry-After is waited out within the time budget, whatever the attempts', () => {
	const policy = { maxAttempts: 3, maxTotalWaitMs: 5_000 };

	it('waits what the service asked rather than backoff', () => {
		expect(nextRetryDelay(policy, { unguidedFailures: 0, waitedMs: 0 }, 1_500, () => 1)).toBe(1_500);
	});

	it('uses up no attempt: it goes on after Max Attempts throttled answers', () => {
		expect(nextRetryDelay(policy, { unguidedFailures: 3, waitedMs: 0 }, 1_000)).toBe(1_000);
	});

	it('stops when the next wait would pass the total cap', () => {
		expect(nextRetryDelay(policy, { unguidedFailures: 0, waitedMs: 4_000 }, 1_500)).toBeUndefined();
		expect(nextRetryDelay(policy, { unguidedFailures: 0, waitedMs: 3_500 }, 1_500)).toBe(1_500);
	});

	it('spends at least half a second of the budget on "Retry-After: 0", so it cannot go on for ever', () => {
		expect(nextRetryDelay(policy, { unguidedFailures: 0, waitedMs: 0 }, 0)).toBe(MIN_RETRY_AFTER_WAIT_MS);
		expect(nextRetryDelay(policy, { unguidedFailures: 0, waitedMs: 5_000 - MIN_RETRY_AFTER_WAIT_MS + 1 }, 0)).toBeUndefined();
	});

	it('retries nothing after a Retry-After when the budget is 0', () => {
		expect(nextRetryDelay({ maxAttempts: 5, maxTotalWaitMs: 0 }, { unguidedFailures: 0, waitedMs: 0 }, 0)).toBeUndefined();
	});
});

describe('a request that is not idempotent is sent again only if it never reached the service', () => {
	it.each(['ECONNREFUSED', 'EAI_AGAIN'])('retries %s for any request', (code) => {
		expect(retriesNetworkFailure(code, false)).toBe(true);
		expect(retriesNetworkFailure(code, true)).toBe(true);
	});

	it.each(['ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET'])(
		'retries %s for a lookup only: the service may have acted on the request',
		(code) => {
			expect(retriesNetworkFailure(code, true)).toBe(true);
			expect(retriesNetworkFailure(code, false)).toBe(false);
		},
	);

	it('never retries a host name that does not resolve, nor an unknown failure', () => {
		expect(retriesNetworkFailure('ENOTFOUND', true)).toBe(false);
		expect(retriesNetworkFailure(undefined, true)).toBe(false);
	});
});
