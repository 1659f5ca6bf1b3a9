import { requestLimiter } from '../../nodes/shared/concurrency';
import { DEFAULT_CONCURRENCY } from '../../nodes/shared/options';

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
