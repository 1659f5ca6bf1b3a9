import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { N8nRestClient } from '../../platform/n8n/rest';
import type { N8nRuntime } from '../../platform/n8n/runtime';

/**
 * npm start's shop commands answer once n8n's executions have ended (platform/n8n/demo.ts sets the
 * sandbox's settle to waitUntilIdle). This fake n8n counts the executions new or running as a
 * script says, one figure a request, then its last figure for good.
 */

function serveRunningCounts(counts: number[]): Promise<{ url: string; filters: string[]; close: () => Promise<void> }> {
	const filters: string[] = [];
	const server = http.createServer((request, response) => {
		const url = new URL(request.url ?? '/', 'http://localhost');
		filters.push(url.searchParams.get('filter') ?? '');
		const count = counts.length > 1 ? (counts.shift() as number) : counts[0];
		response.setHeader('content-type', 'application/json');
		response.end(JSON.stringify({ data: { count, results: [] } }));
	});
	return new Promise((resolve) =>
		server.listen(0, '127.0.0.1', () =>
			resolve({
				url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
				filters,
				close: () => new Promise((done) => server.close(() => done())),
			}),
		),
	);
}

const clientOf = (url: string) => new N8nRestClient(url, {} as N8nRuntime);

describe('waitUntilIdle', () => {
	it('returns once no execution has been new or running for the settle time, one that starts meanwhile waited for too', async () => {
		const n8n = await serveRunningCounts([3, 1, 0, 2, 0]);
		try {
			const started = Date.now();
			expect(await clientOf(n8n.url).waitUntilIdle({ settleMs: 600 })).toEqual({ ended: true, waitedSeconds: expect.any(Number), stillRunning: 0 });
			// Idle from the fifth answer on (the 0 before a 2 did not last), and then for the settle time.
			expect(n8n.filters.length).toBeGreaterThanOrEqual(5 + 2);
			expect(Date.now() - started).toBeGreaterThanOrEqual(4 * 250 + 600);
			expect(JSON.parse(n8n.filters[0])).toEqual({ status: ['new', 'running'] });
		} finally {
			await n8n.close();
		}
	});

	it('gives up after its time and says how many executions still run', async () => {
		const n8n = await serveRunningCounts([4]);
		try {
			expect(await clientOf(n8n.url).waitUntilIdle({ timeoutMs: 800 })).toEqual({ ended: false, waitedSeconds: 1, stillRunning: 4 });
		} finally {
			await n8n.close();
		}
	});
});
