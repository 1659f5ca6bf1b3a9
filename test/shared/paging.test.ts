import { mapWithConcurrency } from '../../nodes/shared/concurrency';
import { fetchPages, type Page } from '../../nodes/shared/paging';

/** A listing of `total` numbered records served `pageSize` at a time, recording each page asked. */
function listing(total: number, pageSize: number) {
	const asked: number[] = [];
	let inFlight = 0;
	let maxInFlight = 0;
	const fetchPage = async (pageNumber: number): Promise<Page<number>> => {
		asked.push(pageNumber);
		inFlight++;
		maxInFlight = Math.max(maxInFlight, inFlight);
		// Later pages answer sooner, so order can only be kept on purpose.
		await new Promise((resolve) => setTimeout(resolve, 30 - Math.min(pageNumber, 29)));
		inFlight--;
		const start = (pageNumber - 1) * pageSize;
		const records = Array.from({ length: Math.max(0, Math.min(pageSize, total - start)) }, (_, i) => start + i + 1);
		return { records, totalRecords: total, totalPages: Math.ceil(total / pageSize), pageSize };
	};
	return { fetchPage, asked, maxInFlight: () => maxInFlight };
}

describe('the pager reads every page once, in order', () => {
	it('returns exactly the total, without gaps or duplicates', async () => {
		const source = listing(1_005, 100);
		const records = await fetchPages(source.fetchPage, { concurrency: 4 });
		expect(records).toEqual(Array.from({ length: 1_005 }, (_, i) => i + 1));
		expect([...source.asked].sort((a, b) => a - b)).toEqual(Array.from({ length: 11 }, (_, i) => i + 1));
	});

	it('keeps no more pages in flight than its concurrency', async () => {
		const source = listing(2_000, 100);
		await fetchPages(source.fetchPage, { concurrency: 3 });
		expect(source.maxInFlight()).toBe(3);
	});

	it('asks for one page when everything fits on it', async () => {
		const source = listing(42, 100);
		expect(await fetchPages(source.fetchPage, { concurrency: 4 })).toHaveLength(42);
		expect(source.asked).toEqual([1]);
	});
});

describe('a limit makes no more requests than it needs', () => {
	it('stops after the page that reaches the limit', async () => {
		const source = listing(10_000, 100);
		const records = await fetchPages(source.fetchPage, { limit: 250, concurrency: 5 });
		expect(records).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
		expect([...source.asked].sort((a, b) => a - b)).toEqual([1, 2, 3]);
	});

	it('needs only the first page for a small limit', async () => {
		const source = listing(10_000, 100);
		expect(await fetchPages(source.fetchPage, { limit: 7, concurrency: 5 })).toHaveLength(7);
		expect(source.asked).toEqual([1]);
	});

	it('follows the page size the service applied when it is smaller than asked', async () => {
		const source = listing(1_000, 50);
		const records = await fetchPages(source.fetchPage, { limit: 120, concurrency: 5 });
		expect(records).toHaveLength(120);
		expect([...source.asked].sort((a, b) => a - b)).toEqual([1, 2, 3]);
	});
});

describe('bounded concurrency keeps input order', () => {
	it('returns results in input order whatever order they finish in', async () => {
		const results = await mapWithConcurrency([50, 10, 30, 0, 20], 2, async (ms, index) => {
			await new Promise((resolve) => setTimeout(resolve, ms));
			return index;
		});
		expect(results).toEqual([0, 1, 2, 3, 4]);
	});

	it('starts no new task once one has failed, so a failed search sends no further pages', async () => {
		const started: number[] = [];
		const run = mapWithConcurrency([0, 1, 2, 3, 4, 5, 6, 7], 2, async (page) => {
			started.push(page);
			await new Promise((resolve) => setTimeout(resolve, 10));
			if (page === 2) throw new Error('page 2 failed');
			return page;
		});
		await expect(run).rejects.toThrow('page 2 failed');
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect(started).toEqual([0, 1, 2, 3]);
	});

	it('handles an empty input', async () => {
		expect(await mapWithConcurrency([], 4, async () => 1)).toEqual([]);
	});
});
