import { backoffDelay, nextRetryDelay, parseRetryAfter } from '../../nodes/shared/retry';

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

describe('the retry policy caps attempts and total wait', () => {
	const policy = { maxAttempts: 3, maxTotalWaitMs: 5_000 };

	it('prefers the service Retry-After over backoff', () => {
		expect(nextRetryDelay(policy, 1, 0, 1_500, () => 1)).toBe(1_500);
	});

	it('stops when the attempts are used up', () => {
		expect(nextRetryDelay(policy, 3, 0, 0)).toBeUndefined();
	});

	it('stops when the next wait would pass the total cap', () => {
		expect(nextRetryDelay(policy, 1, 4_000, 1_500)).toBeUndefined();
		expect(nextRetryDelay(policy, 1, 3_500, 1_500)).toBe(1_500);
	});
});
