import { sizeLimitMessage, startDataTablesApi, type DataTablesApi } from '../../platform/dataTables';
import { SizeGuard } from '../../platform/dataTables/size';
import { PostgresTableSizer, tupleBytes } from '../../platform/dataTables/size/postgres';
import { leafCell, recordBytes, SqliteTableSizer } from '../../platform/dataTables/size/sqlite';
import type { Cell, Column, ColumnType, Row, Table } from '../../platform/dataTables/types';
import { apiClient, eq, filterOf } from './client';

function tableWith(types: ColumnType[]): Table {
	const columns: Column[] = types.map((type, index) => ({ id: `c${index}`, name: `c${index}`, type, index, createdAt: new Date(0), updatedAt: new Date(0) }));
	return { id: 't', name: 't', projectId: 'p', createdAt: new Date(0), updatedAt: new Date(0), columns, rows: new Map(), nextRowId: 1 };
}

function rowOf(id: number, cells: Cell[]): Row {
	return { id, cells: new Map(cells.map((cell, index) => [`c${index}`, cell])), createdAt: new Date(0), updatedAt: new Date(0) };
}

describe('the SQLite model', () => {
	const text = tableWith(['string']);

	it('sizes a record as SQLite\'s format does: header, rowid as NULL, texts, the two timestamps', () => {
		// Header: its own length, id (NULL), a 1000-byte text (2-byte type), two 23-byte texts; then the bytes.
		expect(recordBytes(text, rowOf(1, ['x'.repeat(1000)]))).toBe(6 + 1000 + 46);
		expect(leafCell(1, 1052)).toEqual({ bytes: 2 + 1 + 1052 + 2, overflowPages: 0 });
		expect(leafCell(1, 20_000).overflowPages).toBe(4);
	});

	it('keeps whole numbers as integers of the smallest size, and booleans in no bytes', () => {
		const numbers = tableWith(['number', 'boolean']);
		const sized = (cells: Cell[]) => recordBytes(numbers, rowOf(1, cells));
		expect(sized([0, true])).toBe(sized([null, null]));
		expect(sized([100, false]) - sized([0, false])).toBe(1);
		expect(sized([2 ** 40, false]) - sized([0, false])).toBe(6);
		expect(sized([0.5, false]) - sized([0, false])).toBe(8);
	});

	it('matches what n8n reported for 800 rows of a 1000-byte text: 268 pages of 4096 bytes', () => {
		const sizer = new SqliteTableSizer(text);
		expect(sizer.bytes()).toBe(4096);
		for (let id = 1; id <= 800; id++) sizer.insert(rowOf(id, ['x'.repeat(1000)]));
		expect(sizer.bytes()).toBe(268 * 4096);
		for (let id = 1; id <= 800; id++) sizer.remove(id);
		expect(sizer.bytes()).toBe(4096);
	});

	it('grows when rows outgrow their pages, and not when they shrink', () => {
		const sizer = new SqliteTableSizer(text);
		for (let id = 1; id <= 500; id++) sizer.insert(rowOf(id, ['short']));
		const before = sizer.bytes();
		for (let id = 1; id <= 500; id++) sizer.update(rowOf(id, ['a much longer text than before, for every row of the table']));
		const grown = sizer.bytes();
		expect(grown).toBeGreaterThan(before);
		for (let id = 1; id <= 500; id++) sizer.update(rowOf(id, ['x']));
		expect(sizer.bytes()).toBe(grown);
	});
});

describe('the Postgres model', () => {
	const table = tableWith(['string', 'number', 'boolean', 'date']);

	it('sizes a tuple: header padded to 8 with a null bitmap when a cell is empty, cells aligned, and a line pointer', () => {
		// 24 header; id 4, text 'abc' 1 + 3, double 8, boolean 1, pad to 8, date 8, createdAt 8, updatedAt 8.
		expect(tupleBytes(table, rowOf(1, ['abc', 1.5, true, new Date(0)])).bytes).toBe(24 + 48 + 4);
		expect(tupleBytes(table, rowOf(1, ['abc', null, null, null])).bytes).toBe(24 + 8 + 16 + 4);
		// 5000 bytes: two chunks of 1996 and one of 1008, each a tuple with a 36-byte head, padded, and a pointer.
		expect(tupleBytes(table, rowOf(1, ['y'.repeat(5000), null, null, null])).toast).toEqual([2036, 2036, 1052]);
	});

	it('keeps dead row versions until vacuum, then reuses their space; the table never shrinks', () => {
		const sizer = new PostgresTableSizer(table, 'relation');
		for (let id = 1; id <= 1000; id++) sizer.insert(rowOf(id, [`hotel-${id}`, id, true, null]));
		sizer.commit();
		const inserted = sizer.bytes();
		for (let id = 1; id <= 1000; id++) sizer.remove(id);
		sizer.commit();
		expect(sizer.bytes()).toBe(inserted);
		for (let id = 1001; id <= 2000; id++) sizer.insert(rowOf(id, [`hotel-${id}`, id, true, null]));
		sizer.commit();
		const doubled = sizer.bytes();
		expect(doubled).toBeGreaterThanOrEqual(inserted * 1.9);
		sizer.vacuum();
		for (let id = 2001; id <= 2900; id++) sizer.insert(rowOf(id, [`hotel-${id}`, id, true, null]));
		expect(sizer.bytes()).toBe(doubled);
	});

	it('adds the index, the free space map and TOAST for 2.41\'s pg_total_relation_size', () => {
		const heapOnly = new PostgresTableSizer(table, 'relation');
		const total = new PostgresTableSizer(table, 'totalRelation');
		// An empty table: no heap page, the primary key's and the TOAST index's metapages.
		expect([heapOnly.bytes(), total.bytes()]).toEqual([0, 16384]);
		for (let id = 1; id <= 100; id++) {
			const row = rowOf(id, [`hotel-${id}`, id % 7 === 0 ? id + 0.25 : id, id % 2 === 0, new Date('2024-05-06T07:08:09.123Z')]);
			heapOnly.insert(row);
			total.insert(row);
		}
		// As n8n 2.8.4 and 2.41.1 on Postgres reported for these 100 rows: 2 heap pages; then 3 map, 2 index and 1 TOAST index pages.
		expect([heapOnly.bytes(), total.bytes()]).toEqual([2 * 8192, 8 * 8192]);
	});
});

describe('n8n\'s size check', () => {
	it('caches the measure for its duration and drops it on reset', () => {
		let measured = 100;
		let now = 0;
		const guard = new SizeGuard(() => measured, 1000, 5000, 800, () => now);
		expect(guard.totalBytes()).toBe(100);
		measured = 2000;
		now = 4999;
		expect(guard.totalBytes()).toBe(100);
		now = 5000;
		expect(guard.totalBytes()).toBe(2000);
		measured = 10;
		guard.reset();
		expect(guard.totalBytes()).toBe(10);
		expect([guard.status(799), guard.status(800), guard.status(1000)]).toEqual(['ok', 'warn', 'error']);
	});

	it('words the refusal in whole MiB, rounded', () => {
		expect(sizeLimitMessage(1_097_728, 1_048_576)).toBe('Data table size limit exceeded: 1MB used, limit is 1MB');
		expect(sizeLimitMessage(200_000, 100_000)).toBe('Data table size limit exceeded: 0MB used, limit is 0MB');
	});
});

describe('the size limit through the API', () => {
	let api: DataTablesApi;

	beforeAll(async () => {
		api = await startDataTablesApi({ maxSizeBytes: 1024 * 1024 });
	});

	afterAll(async () => api.close());

	it('refuses inserts, updates and upserts once the total reaches the limit, before writing, and lets the crossing write and deletes through', async () => {
		const client = apiClient(api);
		const table = (await client.post<{ id: string }>('/data-tables', { name: 'size', columns: [{ name: 's', type: 'string' }] })).body.id;
		const batch = { data: Array.from({ length: 50 }, () => ({ s: 'x'.repeat(1000) })) };
		let accepted = 0;
		for (;;) {
			const answer = await client.post(`/data-tables/${table}/rows`, batch);
			if (answer.status !== 200) {
				expect(answer).toEqual({ status: 400, body: { message: `Validation error with data table request: ${sizeLimitMessage(api.sizeBytes(), 1024 * 1024)}` } });
				break;
			}
			accepted++;
		}
		// As n8n 2.8.4 and 2.41.1 did: 16 batches go through, the 16th crossing the limit.
		expect(accepted).toBe(16);
		expect(api.rows('size')).toHaveLength(800);
		expect(api.sizeBytes('size')).toBe(1_097_728);
		const change = { filter: filterOf(eq('s', 'nothing')), data: { s: 'y' } };
		expect((await client.patch(`/data-tables/${table}/rows/update`, change)).status).toBe(400);
		expect((await client.post(`/data-tables/${table}/rows/upsert`, { ...change, dryRun: true })).status).toBe(400);
		expect((await client.delete(`/data-tables/${table}/rows/delete`, { filter: filterOf({ columnName: 'id', condition: 'lte', value: 400 }) })).body).toBe(true);
		const limits = (await (await fetch(`${api.baseUrl}/rest/data-tables-global/limits`)).json()) as { data: { totalBytes: number; quotaStatus: string } };
		// 800 rows less 400: under 80 % of the limit again.
		expect(limits.data).toEqual(expect.objectContaining({ totalBytes: api.sizeBytes(), quotaStatus: 'ok' }));
		expect(api.sizeBytes()).toBeLessThan(0.8 * 1024 * 1024);
	});
});
