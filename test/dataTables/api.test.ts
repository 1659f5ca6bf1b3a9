import { startDataTablesApi, type DataTablesApi } from '../../platform/dataTables';
import { apiClient, eq, filterOf, type ApiClient } from './client';

type TableJson = { id: string; name: string; columns: Array<{ name: string; type: string; index: number; dataTableId?: string }>; sizeBytes?: number };
type Listing<T> = { data: T[]; nextCursor: string | null };
type RowJson = Record<string, unknown> & { id: number };

const RATE_COLUMNS = [
	{ name: 'stay', type: 'string' },
	{ name: 'rate', type: 'number' },
	{ name: 'reported', type: 'boolean' },
	{ name: 'changedAt', type: 'date' },
] as const;

describe.each(['2.8.4', '2.41.1'] as const)('n8n %s', (version) => {
	let api: DataTablesApi;
	let client: ApiClient;

	beforeAll(async () => {
		api = await startDataTablesApi({ version });
		client = apiClient(api);
	});

	afterEach(() => api.reset());

	afterAll(async () => api.close());

	async function createRates(name = 'rates'): Promise<string> {
		const created = await client.post<TableJson>('/data-tables', { name, columns: RATE_COLUMNS });
		expect(created.status).toBe(201);
		return created.body.id;
	}

	describe('API keys', () => {
		it('refuse a missing and a wrong key with 401, as n8n words it', async () => {
			expect(await apiClient(api, null).get('/data-tables')).toEqual({ status: 401, body: { message: "'X-N8N-API-KEY' header required" } });
			expect(await apiClient(api, 'nope').get('/data-tables')).toEqual({ status: 401, body: { message: 'unauthorized' } });
		});
	});

	describe('tables', () => {
		it('are created with their columns and listed by a name filter that matches any part of the name in any case', async () => {
			const id = await createRates('Travel_Pricing_Rates');
			await client.post('/data-tables', { name: 'other', columns: [] });
			const listed = await client.get<Listing<TableJson>>('/data-tables', { filter: { name: 'pricing' } });
			expect(listed.body.data.map((table) => table.id)).toEqual([id]);
			expect(listed.body.data[0].columns.map((column) => column.name)).toEqual(['changedAt', 'rate', 'reported', 'stay']);
			expect(listed.body.data[0].columns[0].dataTableId).toBeUndefined();
			const fetched = await client.get<TableJson>(`/data-tables/${id}`);
			expect(fetched.body.columns.every((column) => column.dataTableId === id)).toBe(true);
			expect('sizeBytes' in fetched.body).toBe(version === '2.41.1');
		});

		it('refuse a second table of the same name (409), also when renaming a table to its own name', async () => {
			const id = await createRates();
			const message = "Data table with name 'rates' already exists in this project";
			expect(await client.post('/data-tables', { name: 'rates', columns: [] })).toEqual({ status: 409, body: { message } });
			expect(await client.patch(`/data-tables/${id}`, { name: 'rates' })).toEqual({ status: 409, body: { message } });
			expect((await client.patch<TableJson>(`/data-tables/${id}`, { name: 'renamed' })).body.name).toBe('renamed');
		});

		it('refuse a column named like a system column, in the words of the version', async () => {
			const answer = await client.post('/data-tables', { name: 't', columns: [{ name: 'ID', type: 'string' }] });
			const message = version === '2.41.1' ? 'Column name "ID" is reserved as a system column name.' : 'SQLITE_ERROR: duplicate column name: ID';
			expect(answer).toEqual({ status: 400, body: { message } });
		});

		it('are deleted with 204, and then not found', async () => {
			const id = await createRates();
			expect((await client.delete(`/data-tables/${id}`)).status).toBe(204);
			expect(await client.get(`/data-tables/${id}`)).toEqual({ status: 404, body: { message: `Could not find the data table: '${id}'` } });
		});

		it('have column endpoints on 2.41 only', async () => {
			const id = await createRates();
			const added = await client.post<{ name: string; index: number; id: string }>(`/data-tables/${id}/columns`, { name: 'currency', type: 'string', index: 0 });
			if (version === '2.8.4') {
				expect(added).toEqual({ status: 404, body: { message: 'not found' } });
				return;
			}
			expect(added.status).toBe(201);
			const listed = await client.get<Array<{ name: string; index: number }>>(`/data-tables/${id}/columns`);
			expect(listed.body.map((column) => `${column.index}:${column.name}`)).toEqual(['0:currency', '1:stay', '2:rate', '3:reported', '4:changedAt']);
			await client.patch(`/data-tables/${id}/columns/${added.body.id}`, { name: 'ccy' });
			await client.post(`/data-tables/${id}/rows`, { data: [{ ccy: 'EUR' }] });
			expect(api.rows('rates')[0]).toMatchObject({ ccy: 'EUR', stay: null });
		});
	});

	describe('rows', () => {
		it('are inserted with each return type', async () => {
			const id = await createRates();
			expect((await client.post(`/data-tables/${id}/rows`, { data: [{ stay: 'a' }, { stay: 'b' }] })).body).toEqual({ success: true, insertedRows: 2 });
			expect((await client.post(`/data-tables/${id}/rows`, { data: [{ stay: 'c' }], returnType: 'id' })).body).toEqual([{ id: 3 }]);
			const all = await client.post<RowJson[]>(`/data-tables/${id}/rows`, { data: [{ stay: 'd', rate: '12.5', reported: 'true', changedAt: '2025-07-01' }], returnType: 'all' });
			expect(all.body).toEqual([
				{ stay: 'd', rate: 12.5, reported: true, changedAt: '2025-07-01T00:00:00.000Z', id: 4, createdAt: expect.any(String), updatedAt: expect.any(String) },
			]);
		});

		it('get one more than the highest id on SQLite, so ids of deleted last rows come back; Postgres never gives one twice', async () => {
			const id = await createRates();
			await client.post(`/data-tables/${id}/rows`, { data: [{ stay: 'a' }, { stay: 'b' }, { stay: 'c' }] });
			await client.delete(`/data-tables/${id}/rows/delete`, { filter: filterOf({ columnName: 'id', condition: 'gte', value: 2 }) });
			expect((await client.post(`/data-tables/${id}/rows`, { data: [{ stay: 'd' }], returnType: 'id' })).body).toEqual([{ id: 2 }]);
			const postgres = await startDataTablesApi({ version, database: 'postgres' });
			const tableId = postgres.seed('rates', [{ name: 'stay', type: 'string' }], [{ stay: 'a' }, { stay: 'b' }]);
			const other = apiClient(postgres);
			await other.delete(`/data-tables/${tableId}/rows/delete`, { filter: filterOf(eq('stay', 'b')) });
			expect((await other.post(`/data-tables/${tableId}/rows`, { data: [{ stay: 'c' }], returnType: 'id' })).body).toEqual([{ id: 3 }]);
			await postgres.close();
		});

		it('are checked before any is written: an unknown column or a value that does not fit refuses the whole request', async () => {
			const id = await createRates();
			const answer = await client.post(`/data-tables/${id}/rows`, { data: [{ stay: 'a' }, { rate: 'abc' }] });
			expect(answer).toEqual({
				status: 400,
				body: { message: "Validation error with data table request: value 'abc' does not match column type 'number': 'rate' expects a number but we got 'abc'" },
			});
			expect(api.rows('rates')).toEqual([]);
		});

		it('are read 100 a page by default, at most 250 when asked for more by a cursor, with the cursor as long as rows remain', async () => {
			api.seed('many', [{ name: 'n', type: 'number' }], Array.from({ length: 600 }, (_, n) => ({ n })));
			const [table] = api.tables();
			expect((await client.get<Listing<RowJson>>(`/data-tables/${table.id}/rows`)).body.data).toHaveLength(100);
			expect(await client.get(`/data-tables/${table.id}/rows`, { limit: 251 })).toEqual({ status: 400, body: { message: 'request/query/limit must be <= 250' } });
			const big = Buffer.from(JSON.stringify({ limit: 1000, offset: 0 })).toString('base64');
			const seen: number[] = [];
			let cursor: string | null = big;
			let pages = 0;
			while (cursor) {
				const page: Listing<RowJson> = (await client.get<Listing<RowJson>>(`/data-tables/${table.id}/rows`, { cursor })).body;
				seen.push(...page.data.map((row) => row.n as number));
				cursor = page.nextCursor;
				pages++;
			}
			expect(pages).toBe(3);
			expect(seen).toEqual(Array.from({ length: 600 }, (_, n) => n));
			const first = await client.get<Listing<RowJson>>(`/data-tables/${table.id}/rows`, { limit: 250 });
			expect(JSON.parse(Buffer.from(first.body.nextCursor as string, 'base64').toString())).toEqual({ limit: 250, offset: 250 });
		});

		it('take no offset parameter, refuse a bad cursor, and read every row with limit 0', async () => {
			api.seed('few', [{ name: 'n', type: 'number' }], [{ n: 1 }, { n: 2 }]);
			const [table] = api.tables();
			expect(await client.get(`/data-tables/${table.id}/rows`, { offset: 1 })).toEqual({ status: 400, body: { message: "Unknown query parameter 'offset'" } });
			expect(await client.get(`/data-tables/${table.id}/rows`, { cursor: 'xyz' })).toEqual({ status: 400, body: { message: 'An invalid cursor was provided' } });
			expect((await client.get<Listing<RowJson>>(`/data-tables/${table.id}/rows`, { limit: 0 })).body.data).toHaveLength(2);
		});

		it('are sorted by a column then by id, empty cells first ascending (SQLite)', async () => {
			api.seed('sorted', [{ name: 'rate', type: 'number' }], [{ rate: 2 }, { rate: null }, { rate: 1 }, { rate: 2 }]);
			const [table] = api.tables();
			const order = async (sortBy: string) => (await client.get<Listing<RowJson>>(`/data-tables/${table.id}/rows`, { sortBy })).body.data.map((row) => row.id);
			expect(await order('rate:asc')).toEqual([2, 3, 1, 4]);
			expect(await order('rate:DESC')).toEqual([1, 4, 3, 2]);
			expect(await client.get(`/data-tables/${table.id}/rows`, { sortBy: 'rate' })).toEqual({
				status: 400,
				body: { message: 'Invalid sort format, expected <columnName>:<asc/desc>' },
			});
		});

		it('refuse a filter that is not url-encoded, as n8n\'s validator does', async () => {
			const id = await createRates();
			const raw = await client.call('GET', `/data-tables/${id}/rows?filter=${JSON.stringify(filterOf(eq('stay', 'a')))}`);
			expect(raw).toEqual({ status: 400, body: { message: "Parameter 'filter' must be url encoded. Its value may not contain reserved characters." } });
		});
	});

	describe('update', () => {
		it('answers the rows it changed with returnData, [] when none matched, and true without', async () => {
			const id = await createRates();
			await client.post(`/data-tables/${id}/rows`, { data: [{ stay: 'a', rate: 100, reported: false }] });
			const cas = { filter: filterOf(eq('stay', 'a'), eq('reported', false)), data: { reported: true }, returnData: true };
			const first = await client.patch<RowJson[]>(`/data-tables/${id}/rows/update`, cas);
			expect(first.body).toEqual([expect.objectContaining({ id: 1, stay: 'a', reported: true })]);
			expect((await client.patch(`/data-tables/${id}/rows/update`, cas)).body).toEqual([]);
			expect((await client.patch(`/data-tables/${id}/rows/update`, { ...cas, returnData: false })).body).toBe(true);
		});

		it('is a compare-and-set: of two concurrent updates naming the same state, exactly one changes the row', async () => {
			const id = await createRates();
			await client.post(`/data-tables/${id}/rows`, { data: [{ stay: 'a', rate: 100, reported: false }] });
			api.failNext({ match: { operation: 'updateRows' }, fault: { kind: 'latency', ms: 50 }, times: 2 });
			const claim = (rate: number) =>
				client.patch<RowJson[]>(`/data-tables/${id}/rows/update`, { filter: filterOf(eq('reported', false)), data: { reported: true, rate }, returnData: true });
			const [one, two] = await Promise.all([claim(1), claim(2)]);
			const winners = [one.body, two.body].filter((rows) => rows.length === 1);
			expect(winners).toHaveLength(1);
			expect(api.rows('rates')[0].rate).toBe(winners[0][0].rate);
		});

		it('refuses an empty filter, empty data and an unknown column', async () => {
			const id = await createRates();
			const path = `/data-tables/${id}/rows/update`;
			expect((await client.patch(path, { filter: filterOf(), data: { rate: 1 } })).body).toEqual({ message: 'request/body/filter/filters must NOT have fewer than 1 items' });
			expect((await client.patch(path, { filter: filterOf(eq('stay', 'a')), data: {} })).body).toEqual({ message: 'data must not be empty' });
			expect((await client.patch(path, { filter: filterOf(eq('stay', 'a')), data: { id: 9 } })).body).toEqual({
				message: "Validation error with data table request: unknown column name 'id'",
			});
		});
	});

	describe('upsert', () => {
		it('updates the matching rows, or inserts the data alone (not the filter\'s values), answering an array', async () => {
			const id = await createRates();
			const path = `/data-tables/${id}/rows/upsert`;
			const inserted = await client.post<RowJson[]>(path, { filter: filterOf(eq('stay', 'a')), data: { rate: 5 }, returnData: true });
			expect(inserted.body).toEqual([expect.objectContaining({ id: 1, stay: null, rate: 5 })]);
			await client.post(`/data-tables/${id}/rows`, { data: [{ stay: 'b', rate: 1 }] });
			const updated = await client.post<RowJson[]>(path, { filter: filterOf(eq('stay', 'b')), data: { rate: 7 }, returnData: true });
			expect(updated.body).toEqual([expect.objectContaining({ id: 2, stay: 'b', rate: 7 })]);
			expect((await client.post(path, { filter: filterOf(eq('stay', 'c')), data: { stay: 'c' } })).body).toBe(true);
			expect(api.rows('rates').map((row) => row.stay)).toEqual([null, 'b', 'c']);
		});
	});

	describe('delete', () => {
		it('answers the deleted rows with returnData, true without, and needs a filter', async () => {
			const id = await createRates();
			await client.post(`/data-tables/${id}/rows`, { data: [{ stay: 'a' }, { stay: 'b' }, { stay: 'c' }] });
			const path = `/data-tables/${id}/rows/delete`;
			const deleted = await client.delete<RowJson[]>(path, { filter: filterOf(eq('stay', 'a')), returnData: 'true' });
			expect(deleted.body.map((row) => row.stay)).toEqual(['a']);
			expect((await client.delete(path, { filter: filterOf(eq('stay', 'b')) })).body).toBe(true);
			expect(await client.delete(path)).toEqual({ status: 400, body: { message: "request/query must have required property 'filter'" } });
			expect(await client.delete(path, { filter: filterOf() })).toEqual({ status: 400, body: { message: 'At least one filter condition is required for delete operations' } });
			const dryRun = await client.delete<RowJson[]>(path, { filter: filterOf(eq('stay', 'c')), dryRun: 'true' });
			expect(dryRun.body.map((row) => row.dryRunState)).toEqual(['before', 'after']);
			expect(api.rows('rates').map((row) => row.stay)).toEqual(['c']);
		});
	});

	describe('filters by version', () => {
		it('take isEmpty on reads from 2.41 on', async () => {
			const id = await createRates();
			await client.post(`/data-tables/${id}/rows`, { data: [{ stay: '' }, { stay: 'a' }] });
			const answer = await client.get<Listing<RowJson>>(`/data-tables/${id}/rows`, { filter: filterOf({ columnName: 'stay', condition: 'isEmpty', value: null }) });
			if (version === '2.8.4') expect(answer).toEqual({ status: 400, body: { message: 'Invalid filter fields' } });
			else expect(answer.body.data.map((row) => row.id)).toEqual([1]);
		});
	});
});

describe('scopes', () => {
	it('are checked on 2.41 (403 "Forbidden") and not on 2.8.4 unless asked', async () => {
		const grants = { keys: [{ key: 'reader', scopes: ['dataTable:list'] }] };
		for (const [version, enforceScopes, status] of [
			['2.41.1', undefined, 403],
			['2.8.4', undefined, 201],
			['2.8.4', true, 403],
		] as const) {
			const api = await startDataTablesApi({ version, enforceScopes, ...grants });
			const answer = await apiClient(api, 'reader').post('/data-tables', { name: 't', columns: [] });
			expect([version, answer.status]).toEqual([version, status]);
			await api.close();
		}
	});
});
