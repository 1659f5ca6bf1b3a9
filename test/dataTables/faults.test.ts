import axios, { AxiosError } from 'axios';

import { startDataTablesApi, type DataTablesApi, type RequestInfo } from '../../platform/dataTables';

const COLUMNS = [{ name: 'stay', type: 'string' as const }];

describe('faults injected per request, as a plain HTTP client sees them', () => {
	let api: DataTablesApi;
	let tableId: string;

	beforeEach(async () => {
		api = await startDataTablesApi();
		tableId = api.seed('rates', COLUMNS);
	});

	afterEach(async () => api.close());

	const http = () => axios.create({ baseURL: api.apiUrl, headers: { 'x-n8n-api-key': api.apiKey }, validateStatus: () => true });
	const insert = (stay: string) => http().post(`/data-tables/${tableId}/rows`, { data: [{ stay }] });

	async function failure(request: Promise<unknown>): Promise<AxiosError> {
		try {
			await request;
		} catch (error) {
			if (error instanceof AxiosError) return error;
			throw error;
		}
		throw new Error('expected the request to fail');
	}

	describe('refused', () => {
		it('ends the attempt in a real ECONNREFUSED and applies nothing; the next attempt goes through', async () => {
			api.failNext({ match: { operation: 'insertRows' }, fault: 'refused' });
			const error = await failure(insert('a'));
			expect(error.code).toBe('ECONNREFUSED');
			expect(api.rows('rates')).toEqual([]);
			expect(api.requests[0]).toMatchObject({ operation: 'insertRows', fault: 'refused', committed: false });
			expect((await insert('a')).status).toBe(200);
			expect(api.rows('rates')).toHaveLength(1);
		});

		it('is ECONNREFUSED for fetch too', async () => {
			api.failNext({ fault: 'refused' });
			const error = await fetch(`${api.apiUrl}/data-tables`, { headers: { 'x-n8n-api-key': api.apiKey } }).catch((caught: unknown) => caught);
			expect(((error as Error & { cause?: { code?: string } }).cause ?? {}).code).toBe('ECONNREFUSED');
		});

		it('refuses only the request it matched while others run at the same time', async () => {
			api.failNext({ match: { where: (request) => JSON.stringify(request.body).includes('"c"') }, fault: 'refused' });
			const results = await Promise.allSettled(['a', 'b', 'c', 'd', 'e'].map((stay) => insert(stay)));
			expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
			expect(api.rows('rates').map((row) => row.stay).sort()).toEqual(['a', 'b', 'd', 'e']);
		});
	});

	describe('lostAfterCommit', () => {
		it('applies the write, then drops the connection without an answer', async () => {
			api.failNext({ match: { operation: 'insertRows' }, fault: 'lostAfterCommit' });
			const error = await failure(insert('a'));
			expect(error.code).toBe('ECONNRESET');
			expect(error.message).toBe('socket hang up');
			expect(api.rows('rates').map((row) => row.stay)).toEqual(['a']);
			expect(api.requests[0]).toMatchObject({ fault: 'lostAfterCommit', committed: true });
			expect(api.requests[0].status).toBeUndefined();
		});
	});

	describe('500s', () => {
		it('error500AfterCommit applies the write and answers 500', async () => {
			api.failNext({ fault: 'error500AfterCommit' });
			const answer = await insert('a');
			expect([answer.status, answer.data]).toEqual([500, { message: 'Internal server error' }]);
			expect(api.rows('rates')).toHaveLength(1);
			expect(api.requests[0].committed).toBe(true);
		});

		it('error500BeforeCommit answers 500 and applies nothing', async () => {
			api.failNext({ fault: 'error500BeforeCommit' });
			expect((await insert('a')).status).toBe(500);
			expect(api.rows('rates')).toEqual([]);
			expect(api.requests[0].committed).toBe(false);
		});
	});

	describe('sizeLimit', () => {
		it('answers n8n\'s size limit refusal and applies nothing', async () => {
			api.failNext({ fault: 'sizeLimit' });
			const answer = await insert('a');
			// The sizeLimit fault answers with the limit itself, 2.41.1's default of 200 MiB.
			expect([answer.status, answer.data]).toEqual([400, { message: 'Validation error with data table request: Data table size limit exceeded: 200MB used, limit is 200MB' }]);
			expect(api.rows('rates')).toEqual([]);
		});
	});

	describe('latency', () => {
		it('holds the request while others are answered, and settled() waits for it', async () => {
			api.failNext({ match: { operation: 'insertRows' }, fault: { kind: 'latency', ms: 300 } });
			const started = Date.now();
			const answered: string[] = [];
			const slow = insert('slow').then(() => {
				answered.push('insert');
				return Date.now() - started;
			});
			await http().get(`/data-tables/${tableId}/rows`);
			answered.push('read');
			await api.settled();
			expect(api.rows('rates')).toHaveLength(1);
			expect(await slow).toBeGreaterThanOrEqual(300);
			expect(answered).toEqual(['read', 'insert']);
		});
	});

	describe('choosing requests', () => {
		it('nth and times pick the nth matching request and those after it', async () => {
			api.failNext({ match: { operation: 'insertRows', nth: 2 }, fault: 'error500BeforeCommit', times: 2 });
			const statuses = [];
			for (const stay of ['a', 'b', 'c', 'd']) statuses.push((await insert(stay)).status);
			expect(statuses).toEqual([200, 500, 500, 200]);
		});

		it('match by method, path and table name', async () => {
			api.failNext({ match: { method: 'get', path: /\/rows$/, tableName: 'rates' }, fault: 'error500BeforeCommit' });
			expect((await insert('a')).status).toBe(200);
			expect((await http().get(`/data-tables/${tableId}/rows`)).status).toBe(500);
		});

		it('a plan is asked for every request no rule took, with its index', async () => {
			api.plan((_request, index) => (index % 2 === 1 ? 'error500BeforeCommit' : undefined));
			const statuses = [];
			for (const stay of ['a', 'b', 'c']) statuses.push((await insert(stay)).status);
			expect(statuses).toEqual([200, 500, 200]);
		});

		it('onRequest is awaited before each request is handled', async () => {
			const seen: Array<[number, RequestInfo['operation']]> = [];
			api.onRequest(async (request, index) => {
				seen.push([index, request.operation]);
				if (index === 1) api.failNext({ fault: 'error500BeforeCommit' });
			});
			expect((await http().get('/data-tables')).status).toBe(200);
			expect((await insert('a')).status).toBe(500);
			expect(seen).toEqual([
				[0, 'listTables'],
				[1, 'insertRows'],
			]);
		});
	});
});
