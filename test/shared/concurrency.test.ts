import type { INode } from 'n8n-workflow';

import { DEFAULT_CONCURRENCY, requestLimiter, RequestLimiter, type ConcurrencySettings } from '../../nodes/shared/concurrency';
import { concurrencyFrom } from '../../nodes/shared/options';

const fixed = (concurrency: number): ConcurrencySettings => ({ concurrency, concurrencyMode: 'fixed' });
const adaptive = (concurrency: number): ConcurrencySettings => ({ concurrency, concurrencyMode: 'adaptive' });

/** A node with one credential, as n8n hands it to the node's code. */
const NODE = { credentials: { travelPricingApi: { id: '1', name: 'Travel Pricing' } } } as unknown as INode;

describe('one Concurrency for the whole node execution', () => {
	it('takes the smallest of the items\' values, or the default without any', () => {
		expect(requestLimiter(NODE, [adaptive(8), adaptive(3), adaptive(5)]).size).toBe(3);
		expect(requestLimiter(NODE, []).size).toBe(DEFAULT_CONCURRENCY);
	});

	it('reads Concurrency Mode as Adaptive by default, and refuses anything but its two values', () => {
		expect(concurrencyFrom({})).toEqual({ concurrency: DEFAULT_CONCURRENCY, concurrencyMode: 'adaptive' });
		expect(concurrencyFrom({ concurrency: 4, concurrencyMode: 'fixed' })).toEqual({ concurrency: 4, concurrencyMode: 'fixed' });
		expect(() => concurrencyFrom({ concurrencyMode: 'fast' })).toThrow('Concurrency Mode "fast": must be adaptive or fixed');
	});

	it('is Adaptive unless an item asks for Fixed', () => {
		expect(requestLimiter(NODE, []).mode).toBe('adaptive');
		expect(requestLimiter(NODE, [adaptive(8), adaptive(3)]).mode).toBe('adaptive');
		expect(requestLimiter(NODE, [adaptive(8), fixed(9)]).mode).toBe('fixed');
	});
});

describe('Fixed: always Concurrency in flight, as before adaptive existed', () => {
	it('never has more than its size in flight, and serves waiting requests in order', async () => {
		const limiter = requestLimiter(NODE, [fixed(2)]);
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

	it('keeps its size whatever the service answers, and never pauses', async () => {
		const limiter = new RequestLimiter(10, 'fixed');
		await limiter.run(async () => await Promise.resolve({ statusCode: 429 }), () => ({ status: 429, retryAfterMs: 60_000 }));
		expect(limiter.limit).toBe(10);
		const before = Date.now();
		expect(await limiter.run(async () => await Promise.resolve('next'))).toBe('next');
		expect(Date.now() - before).toBeLessThan(1000);
	});

	it('gives the place back when a request fails', async () => {
		const limiter = requestLimiter(NODE, [fixed(1)]);
		await expect(limiter.run(async () => await Promise.reject(new Error('refused')))).rejects.toThrow('refused');
		expect(await limiter.run(async () => await Promise.resolve('next'))).toBe('next');
	});
});
