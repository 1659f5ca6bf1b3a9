/**
 * Adaptive Concurrency in the real engine against the real sandbox: every record comes back with
 * and without the sandbox's rate limit, and under the limit the service answers fewer 429s than
 * it does to a fixed Concurrency of 10. Counts only, no times: the bounds hold on a loaded machine.
 */
import type { INodeParameters } from 'n8n-workflow';

import { credentialsFor, runNode, useSandbox } from '../harness';

const sandbox = useSandbox();

beforeEach(() => {
	sandbox.reset();
});

/** Benchmark 1b's shape: one event search per item, 50 items, the node's default Limit of 50. */
const ITEMS = Array.from({ length: 50 }, (_, index) => ({ city: ['Berlin', 'Tokyo', 'Paris', 'London', 'Madrid'][index % 5] }));

async function searchPerItem(options: INodeParameters, credentialId?: string) {
	sandbox.clearRequests();
	const result = await runNode({
		nodeType: 'travelPricingEventImpact',
		parameters: { returnAll: false, limit: 50, simplify: false, filters: { city: '={{ $json.city }}' }, options },
		items: ITEMS,
		credentials: credentialsFor(sandbox),
		credentialId,
	});
	const requests = sandbox.requests({ endpoint: 'eventimpact' });
	return {
		result,
		answered: requests.filter((request) => request.status === 200).length,
		throttled: requests.filter((request) => request.status === 429).length,
	};
}

/** The events each city has, as many as Limit 50 lets through. */
function expectedCount(): number {
	return ITEMS.reduce((sum, { city }) => sum + Math.min(50, sandbox.data.events.filter((event) => event.city === city).length), 0);
}

/** The sandbox's rate limit counts in a fixed one-second window: let the last one close. */
const nextWindow = async () => await new Promise((resolve) => setTimeout(resolve, 1100));

describe('Adaptive returns every record', () => {
	it('without a rate limit: one answer per item, never more than Concurrency in flight', async () => {
		sandbox.setFaults({ latencyMs: 20 });
		sandbox.resetStats();
		const { result, answered, throttled } = await searchPerItem({ concurrency: 8 });

		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(expectedCount());
		expect(answered).toBe(ITEMS.length);
		expect(throttled).toBe(0);
		expect(sandbox.stats().maxInFlight).toBeLessThanOrEqual(8);
	});

	it('Return All over many pages, with the default options', async () => {
		sandbox.setFaults({ latencyMs: 20 });
		const result = await runNode({
			nodeType: 'travelPricingEventImpact',
			parameters: { returnAll: true, simplify: false, filters: {}, options: { pageSize: 100 } },
			items: [{}, {}],
			credentials: credentialsFor(sandbox),
		});

		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.id)).toEqual([...sandbox.data.events, ...sandbox.data.events].map((event) => event.id));
	});
});

describe('under the sandbox\'s 20 requests/s, fewer 429s than a fixed Concurrency of 10', () => {
	it('returns every record either way, and the service refuses Adaptive less often', async () => {
		sandbox.setFaults({ latencyMs: 20, rateLimitPerSecond: 20 });
		await nextWindow();
		const fixed = await searchPerItem({ concurrency: 10, concurrencyMode: 'fixed' });
		await nextWindow();
		const adaptive = await searchPerItem({});

		for (const side of [fixed, adaptive]) {
			expect(side.result.error).toBeUndefined();
			expect(side.result.items).toHaveLength(expectedCount());
			expect(side.answered).toBe(ITEMS.length);
		}
		// 50 searches in windows of 20 refuse some either way; Fixed keeps sending into a closed
		// window, Adaptive halves and waits out the Retry-After before sending again.
		expect(fixed.throttled).toBeGreaterThan(0);
		expect(adaptive.throttled).toBeLessThan(fixed.throttled);
	});
});

describe('the next execution with the same credential starts where the last one left off', () => {
	it('the first sends its 50 searches in rounds from 4; the second sends all 50 at once', async () => {
		// Answers slow enough that all 50 are out before the first comes back, also on a busy
		// machine: at 50 ms, with another n8n running beside the suite, the first answers arrived
		// while the last requests were still being sent, and at most 33 were out at once.
		sandbox.setFaults({ latencyMs: 300 });
		sandbox.resetStats();
		const first = await searchPerItem({}, 'carried-over');
		const firstInFlight = sandbox.stats().maxInFlight;
		sandbox.resetStats();
		const second = await searchPerItem({}, 'carried-over');

		for (const side of [first, second]) {
			expect(side.result.items).toHaveLength(expectedCount());
			expect(side.throttled).toBe(0);
		}
		// Rounds of 4, 8, 16: no more than 32 out at once. The second starts at the first's limit.
		expect(firstInFlight).toBeLessThanOrEqual(32);
		expect(sandbox.stats().maxInFlight).toBeGreaterThan(firstInFlight);
		expect(sandbox.stats().maxInFlight).toBeGreaterThanOrEqual(40);
	});
});
