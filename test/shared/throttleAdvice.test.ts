import { concurrencyOption, pageSizeOption, retryOptionFields } from '../../nodes/shared/options';
import { throttleAdvice } from '../../nodes/shared/throttleAdvice';

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
