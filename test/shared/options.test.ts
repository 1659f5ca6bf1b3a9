import { FieldError } from '../../nodes/shared/errors';
import {
	DEFAULT_CONCURRENCY,
	pageSizeOption,
	requestLimiter,
	requestOptionsFrom,
	retryPolicyFrom,
	throttleAdvice,
	concurrencyOption,
	numberOption,
	retryOptionFields,
} from '../../nodes/shared/options';

describe('numeric options are read against the bounds their fields show', () => {
	it('gives the default when the option was not added', () => {
		expect(retryPolicyFrom({})).toEqual({ maxAttempts: 5, maxTotalWaitMs: 60_000 });
		expect(requestOptionsFrom({}).concurrency).toBe(DEFAULT_CONCURRENCY);
		expect(numberOption({}, pageSizeOption)).toBe(100);
	});

	it('takes a number, or a number an expression gave as text', () => {
		expect(retryPolicyFrom({ maxAttempts: '3', maxRetryWaitSeconds: ' 2.5 ' })).toEqual({ maxAttempts: 3, maxTotalWaitMs: 2_500 });
		expect(retryPolicyFrom({ maxRetryWaitSeconds: '.5' }).maxTotalWaitMs).toBe(500);
		expect(requestOptionsFrom({ concurrency: 4 }).concurrency).toBe(4);
	});

	it.each([
		[{ maxAttempts: 'many' }, 'Max Attempts "many": must be a whole number from 1 to 10'],
		[{ maxAttempts: 0 }, 'Max Attempts "0": must be a whole number from 1 to 10'],
		[{ maxAttempts: 11 }, 'Max Attempts "11": must be a whole number from 1 to 10'],
		[{ maxAttempts: 2.5 }, 'Max Attempts "2.5": must be a whole number from 1 to 10'],
		[{ maxAttempts: '' }, 'Max Attempts (empty): is required'],
		[{ maxAttempts: '3.0' }, 'Max Attempts "3.0": must be a whole number from 1 to 10'],
		[{ maxRetryWaitSeconds: '0x10' }, 'Max Retry Wait (Seconds) "0x10": must be a number of 0 or more'],
		[{ maxRetryWaitSeconds: '1e3' }, 'Max Retry Wait (Seconds) "1e3": must be a number of 0 or more'],
		[{ maxRetryWaitSeconds: -1 }, 'Max Retry Wait (Seconds) "-1": must be a number of 0 or more'],
		[{ maxRetryWaitSeconds: Number.NaN }, 'Max Retry Wait (Seconds) "NaN": must be a number of 0 or more'],
		[{ maxRetryWaitSeconds: true }, 'Max Retry Wait (Seconds) "true": must be a number of 0 or more'],
	])('refuses %j', (options, message) => {
		expect(() => retryPolicyFrom(options)).toThrow(FieldError);
		expect(() => retryPolicyFrom(options)).toThrow(message);
	});

	it('refuses a Concurrency or Page Size that is not a whole number in range', () => {
		expect(() => requestOptionsFrom({ concurrency: 'abc' })).toThrow('Concurrency "abc": must be a whole number from 1 to 50');
		expect(() => requestOptionsFrom({ concurrency: 0 })).toThrow('must be a whole number from 1 to 50');
		expect(() => numberOption({ pageSize: '1e2' }, pageSizeOption)).toThrow('Page Size "1e2": must be a whole number of 1 or more');
	});
});

describe('one Concurrency for the whole node execution', () => {
	it('takes the smallest of the items\' values, or the default without any', () => {
		expect(requestLimiter([8, 3, 5]).size).toBe(3);
		expect(requestLimiter([]).size).toBe(DEFAULT_CONCURRENCY);
	});

	it('never has more than its size in flight, and serves waiting requests in order', async () => {
		const limiter = requestLimiter([2]);
		let inFlight = 0;
		let most = 0;
		const started: number[] = [];
		const send = async (index: number) =>
			await limiter.run(async () => {
				started.push(index);
				most = Math.max(most, ++inFlight);
				await new Promise((resolve) => setTimeout(resolve, 5));
				inFlight--;
				return index;
			});
		expect(await Promise.all([0, 1, 2, 3, 4, 5].map(send))).toEqual([0, 1, 2, 3, 4, 5]);
		expect(most).toBe(2);
		expect(started).toEqual([0, 1, 2, 3, 4, 5]);
	});

	it('gives the place back when a request fails', async () => {
		const limiter = requestLimiter([1]);
		await expect(limiter.run(async () => await Promise.reject(new Error('refused')))).rejects.toThrow('refused');
		expect(await limiter.run(async () => await Promise.resolve('next'))).toBe('next');
	});
});

describe('the 429 advice names only the options a node has', () => {
	it('names Max Retry Wait alone for a node with only the retry options', () => {
		expect(throttleAdvice(retryOptionFields)).toBe(
			'The service is rate-limiting this account. In the node\'s options, raise "Max Retry Wait (Seconds)" so the node waits longer.',
		);
	});

	it('names Concurrency and Page Size where the node has them', () => {
		const advice = throttleAdvice([concurrencyOption, pageSizeOption, ...retryOptionFields]);
		expect(advice).toBe(
			'The service is rate-limiting this account. In the node\'s options, lower "Concurrency", raise "Page Size" (fewer pages, so fewer requests) or raise "Max Retry Wait (Seconds)" so the node waits longer.',
		);
		expect(advice).not.toContain('Batch Size');
	});
});
