import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

import { CHANGES_COLUMNS, RATES_COLUMNS } from '../../nodes/RateChanges/storage/tables';
import { startDataTablesApi, type ApiVersion, type DataTablesApi, type SizeModelName } from '../../platform/dataTables';
import { E2E_OWNER, e2eVersions, ensureN8n, N8nInstance, printProgress, publicApiHasDataTables } from '../../platform/n8n';
import { startPostgres, type ServiceProcess } from '../../platform/queue';
import { queryString } from '../dataTables/client';
import { describeVersions } from './describeVersions';

/**
 * The Data Tables stand-in (platform/dataTables) against a real n8n of the same version: one
 * sequence of public API calls runs against each, and their answers must be the same once ids,
 * times and the project's name are replaced by placeholders. Then both take the same rows of a
 * few shapes and the stand-in's size model must be within TOLERANCE of what n8n reports on its
 * limits route; then both are filled to a small size limit and must refuse at the same request.
 *
 * n8n runs on SQLite (its default); N8N_DATA_TABLES_DATABASES=sqlite,postgres adds a run on
 * Postgres (started as the queue suite starts it).
 */

const MAX_SIZE_BYTES = 4 * 1024 * 1024;

/** How far the model may be from n8n's figure for a table: SQLite's model is exact on every shape measured; Postgres' within 6 % (README.md). */
const TOLERANCE: Record<SizeModelName, number> = { sqlite: 0.01, postgres: 0.06 };

const LIMITED_SCOPES = ['dataTable:list', 'dataTableRow:read'];

function databases(): SizeModelName[] {
	const wanted = process.env.N8N_DATA_TABLES_DATABASES?.split(',').map((name) => name.trim());
	return (wanted ?? ['sqlite']).filter((name): name is SizeModelName => name === 'sqlite' || name === 'postgres');
}

interface Answer {
	status: number;
	body: unknown;
}

interface LimitsBody {
	data: { totalBytes: number; quotaStatus: string; dataTables: Record<string, { name: string; sizeBytes: number }> };
}

/** One side of the comparison: its public API, its keys and its limits route. */
interface Side {
	apiUrl: string;
	apiKey: string;
	limitedKey: string;
	limits(): Promise<Answer>;
}

async function send(side: Side, method: string, path: string, body?: unknown, key: string | null = side.apiKey, rawBody?: string): Promise<Answer> {
	const headers: Record<string, string> = {};
	if (key !== null) headers['x-n8n-api-key'] = key;
	if (body !== undefined || rawBody !== undefined) headers['content-type'] = 'application/json';
	const response = await fetch(`${side.apiUrl}${path}`, { method, headers, body: rawBody ?? (body === undefined ? undefined : JSON.stringify(body)) });
	const text = await response.text();
	let parsed: unknown = text;
	try {
		parsed = text ? JSON.parse(text) : undefined;
	} catch {
		// Kept as text.
	}
	return { status: response.status, body: parsed };
}

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/**
 * An answer with ids replaced by placeholders in order of appearance (so that which id is which
 * still has to agree), times by "<time>", the owner's project name by "<project>", an HTML error
 * page by its error; on Postgres, table lists' columns sorted by name (Postgres gives them in no
 * set order).
 */
function normalised(answer: Answer, ids: Map<string, string>, database: SizeModelName): Answer {
	const register = (value: unknown): void => {
		if (typeof value === 'string' && /^[A-Za-z0-9]{16}$/.test(value) && !ids.has(value)) ids.set(value, `<id${ids.size + 1}>`);
	};
	const collect = (value: unknown): void => {
		if (Array.isArray(value)) value.forEach(collect);
		else if (value && typeof value === 'object') {
			for (const [key, inner] of Object.entries(value)) {
				if (['id', 'projectId', 'dataTableId'].includes(key)) register(inner);
				collect(inner);
			}
		}
	};
	collect(answer.body);
	const replaceIds = (text: string): string => text.replace(/[A-Za-z0-9]{16}/g, (token) => ids.get(token) ?? token);
	const walk = (value: unknown, key?: string): unknown => {
		if (typeof value === 'string') {
			if (ISO_TIME.test(value)) return '<time>';
			// Express' error page: the error's first line, not its stack (with n8n's file paths).
			if (value.startsWith('<!DOCTYPE html>')) return /<pre>(.*?)(<br>|<\/pre>)/s.exec(value)?.[1] ?? value;
			if (key === 'projectName') return '<project>';
			return replaceIds(value);
		}
		if (Array.isArray(value)) {
			const items = value.map((item) => walk(item));
			if (key === 'columns' && database === 'postgres') return [...items].sort((a, b) => String((a as { name: string }).name).localeCompare(String((b as { name: string }).name)));
			return items;
		}
		if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([inner, item]) => [replaceIds(inner), walk(item, inner)]));
		return value;
	};
	return { status: answer.status, body: walk(answer.body) };
}

const where = (...filters: Array<[string, string, unknown]>) => ({
	type: 'and',
	filters: filters.map(([columnName, condition, value]) => ({ columnName, condition, value })),
});

const either = (...filters: Array<[string, string, unknown]>) => ({ ...where(...filters), type: 'or' });

/**
 * The calls both sides get, each answer recorded under its step's name. Later calls use the ids
 * earlier answers gave on that side.
 */
async function conversation(side: Side): Promise<Map<string, Answer>> {
	const answers = new Map<string, Answer>();
	const step = async (name: string, method: string, path: string, body?: unknown, key?: string | null, rawBody?: string): Promise<Answer> => {
		const answer = await send(side, method, path, body, key, rawBody);
		answers.set(name, answer);
		return answer;
	};
	const idOf = (answer: Answer): string => (answer.body as { id: string }).id;
	// Distinct change times keep the table list's default order (newest change first) free of ties.
	const pause = () => sleep(15);

	await step('no key', 'GET', '/data-tables', undefined, null);
	await step('wrong key', 'GET', '/data-tables', undefined, 'n8n_api_wrong');
	await step('limited key creates a table', 'POST', '/data-tables', { name: 'made_by_limited_key', columns: [] }, side.limitedKey);
	await pause();
	const rates = idOf(
		await step('create rates', 'POST', '/data-tables', {
			name: 'Stand_In_Rates',
			columns: [
				{ name: 'stay', type: 'string' },
				{ name: 'hotel', type: 'number' },
				{ name: 'rate', type: 'number' },
				{ name: 'reported', type: 'boolean' },
				{ name: 'seen', type: 'date' },
			],
		}),
	);
	await pause();
	await step('create archive', 'POST', '/data-tables', { name: 'rates archive', columns: [{ name: 'note', type: 'string' }] });
	await pause();
	await step('create duplicate name', 'POST', '/data-tables', { name: 'Stand_In_Rates', columns: [] });
	await step('create reserved column', 'POST', '/data-tables', { name: 'reserved', columns: [{ name: 'updatedAt', type: 'string' }] });
	await step('create json column', 'POST', '/data-tables', { name: 'json', columns: [{ name: 'j', type: 'json' }] });
	await step('create bad column name', 'POST', '/data-tables', { name: 'bad', columns: [{ name: '9lives', type: 'string' }] });
	await step('create without columns', 'POST', '/data-tables', { name: 'no columns' });
	await step('create blank name', 'POST', '/data-tables', { name: '   ', columns: [] });
	await step('create twice the same column', 'POST', '/data-tables', { name: 'twice', columns: [{ name: 'a', type: 'string' }, { name: 'a', type: 'number' }] });
	await pause();

	await step('list', 'GET', '/data-tables');
	await step('list by name part, any case', 'GET', `/data-tables${queryString({ filter: { name: 'RATES' } })}`);
	await step('list by name with _ as a wildcard', 'GET', `/data-tables${queryString({ filter: { name: 'in_rates' } })}`);
	const firstPage = await step('list one a page', 'GET', `/data-tables${queryString({ limit: 1 })}`);
	await step('list next page', 'GET', `/data-tables${queryString({ cursor: (firstPage.body as { nextCursor: string }).nextCursor })}`);
	await step('list sorted by name', 'GET', `/data-tables${queryString({ sortBy: 'name:asc' })}`);
	await step('list sorted badly', 'GET', `/data-tables${queryString({ sortBy: 'rows:asc' })}`);
	await step('list filtered by an unknown field', 'GET', `/data-tables${queryString({ filter: { nom: 'x' } })}`);
	await step('list limit above 250', 'GET', `/data-tables${queryString({ limit: 300 })}`);
	await step('get', 'GET', `/data-tables/${rates}`);
	await step('get unknown', 'GET', '/data-tables/AAAAAAAAAAAAAAAA');
	await step('get malformed id', 'GET', '/data-tables/abc');
	await step('rename', 'PATCH', `/data-tables/${rates}`, { name: 'Stand_In_Rates_2' });
	await step('rename to its own name', 'PATCH', `/data-tables/${rates}`, { name: 'Stand_In_Rates_2' });
	await step('method not allowed', 'PUT', `/data-tables/${rates}`, { name: 'x' });
	await step('unknown path', 'GET', `/data-tables/${rates}/nothing`);

	const path = `/data-tables/${rates}/rows`;
	await step('insert, count', 'POST', path, { data: [{ stay: '2025-07-01', hotel: 101, rate: 100.5, reported: false, seen: '2024-01-02T03:04:05.678Z' }] });
	await step('insert, ids', 'POST', path, {
		data: [
			{ stay: '2025-07-02', hotel: 102, rate: 80, reported: true },
			{ stay: 'Abc_d', hotel: '103', rate: '120', reported: 'TRUE', seen: '2024-05-06T07:08:09+02:00' },
		],
		returnType: 'id',
	});
	await step('insert, all', 'POST', path, {
		data: [{ stay: '', hotel: 104, rate: -3, reported: 0 }, { stay: null, hotel: 105 }, { stay: 'x%y', hotel: 106, rate: 0, reported: true }, { stay: 42, hotel: 107, rate: 1e6 }],
		returnType: 'all',
	});
	await step('insert an unknown column', 'POST', path, { data: [{ nope: 1 }] });
	await step('insert a wrong number', 'POST', path, { data: [{ rate: 'abc' }] });
	await step('insert a wrong boolean', 'POST', path, { data: [{ reported: 'yes' }] });
	await step('insert a wrong date', 'POST', path, { data: [{ seen: 'not a date' }] });
	await step('insert an object', 'POST', path, { data: [{ stay: { a: 1 } }] });
	await step('insert nothing', 'POST', path, { data: [] });
	await step('insert with an unknown return type', 'POST', path, { data: [{ stay: 'z' }], returnType: 'rows' });
	await step('insert an id', 'POST', path, { data: [{ id: 99, stay: 'z' }] });
	await step('insert into an unknown table', 'POST', '/data-tables/AAAAAAAAAAAAAAAA/rows', { data: [{ stay: 'z' }] });
	await step('insert invalid JSON', 'POST', path, undefined, undefined, '{"data": [');

	const read = (name: string, query: Record<string, unknown>) => step(name, 'GET', `${path}${queryString(query)}`);
	await read('rows', {});
	const conditions: Array<[string, unknown]> = [
		['eq text', where(['stay', 'eq', 'Abc_d'])],
		['eq null', where(['stay', 'eq', null])],
		['neq null', where(['rate', 'neq', null])],
		['neq text (empty cells too)', where(['stay', 'neq', 'Abc_d'])],
		['eq number as text', where(['hotel', 'eq', '103'])],
		['eq text as number', where(['stay', 'eq', 42])],
		['gt', where(['rate', 'gt', 0])],
		['gte', where(['rate', 'gte', 0])],
		['lt', where(['rate', 'lt', 80])],
		['lte', where(['rate', 'lte', 80])],
		['gt text', where(['stay', 'gt', '2025'])],
		['like anywhere', where(['stay', 'like', 'bc'])],
		['like case', where(['stay', 'like', 'abc'])],
		['like with %', where(['stay', 'like', '2025%'])],
		['like with _', where(['stay', 'like', 'c_d'])],
		['like a %', where(['stay', 'like', 'x%y'])],
		['ilike', where(['stay', 'ilike', 'ABC'])],
		['ilike with _', where(['stay', 'ilike', 'C_D'])],
		['eq boolean as text', where(['reported', 'eq', 'false'])],
		['neq boolean', where(['reported', 'neq', true])],
		['eq date', where(['seen', 'eq', '2024-01-02T03:04:05.678Z'])],
		['gt date', where(['seen', 'gt', '2024-01-02T00:00:00.000Z'])],
		['lt date', where(['seen', 'lt', '2024-03-01'])],
		['id', where(['id', 'gte', '5'])],
		['createdAt', where(['createdAt', 'gt', '2000-01-01'])],
		['or', either(['stay', 'eq', 'Abc_d'], ['hotel', 'eq', 101])],
		['and', where(['reported', 'eq', true], ['rate', 'gt', 50])],
		['isEmpty text', where(['stay', 'isEmpty', null])],
		['isNotEmpty text', where(['stay', 'isNotEmpty', null])],
		['isEmpty number', where(['rate', 'isEmpty', null])],
		['unknown column', where(['nope', 'eq', 1])],
		['wrong value', where(['rate', 'eq', 'abc'])],
		['gt null', where(['rate', 'gt', null])],
		['like null', where(['stay', 'like', null])],
		['like a number column', where(['rate', 'like', '1'])],
		['no condition', { filters: [{ columnName: 'hotel', value: 101 }] }],
		['nested group', { type: 'and', filters: [{ type: 'or', filters: [] }] }],
		['unknown condition', where(['stay', 'contains', 'a'])],
	];
	for (const [name, filter] of conditions) await read(`filter: ${name}`, { filter });
	await step('filter not url-encoded', 'GET', `${path}?filter=${JSON.stringify(where(['stay', 'eq', 'a']))}`);
	for (const sortBy of ['rate:asc', 'rate:DESC', 'stay:asc', 'hotel:desc', 'id:desc', 'rate:up', 'rate', 'nope:asc']) await read(`sort ${sortBy}`, { sortBy });
	await read('search', { search: 'abc' });
	await read('search a number', { search: '100.5' });
	await read('empty sortBy', { sortBy: '' });
	await read('unknown parameter', { offset: 2 });
	await read('limit 2', { limit: 2 });
	await read('limit 0', { limit: 0 });
	await read('limit -1', { limit: -1 });
	await read('limit 2.5', { limit: 2.5 });
	await read('limit abc', { limit: 'abc' });
	await read('cursor', { cursor: Buffer.from(JSON.stringify({ limit: 2, offset: 4 })).toString('base64') });
	await read('cursor beats limit', { cursor: Buffer.from(JSON.stringify({ limit: 2, offset: 4 })).toString('base64'), limit: 5 });
	await read('bad cursor', { cursor: 'xyz' });
	await step('rows of an unknown table', 'GET', '/data-tables/AAAAAAAAAAAAAAAA/rows');

	const paging = idOf(await step('create paging', 'POST', '/data-tables', { name: 'paging', columns: [{ name: 'n', type: 'number' }] }));
	await step('insert 600', 'POST', `/data-tables/${paging}/rows`, { data: Array.from({ length: 600 }, (_, n) => ({ n })) });
	await step('page by default', 'GET', `/data-tables/${paging}/rows`);
	let cursor: string | null = Buffer.from(JSON.stringify({ limit: 1000, offset: 0 })).toString('base64');
	for (let page = 1; cursor; page++) {
		const answer = await step(`page ${page} of a cursor asking 1000`, 'GET', `/data-tables/${paging}/rows${queryString({ cursor })}`);
		cursor = (answer.body as { nextCursor: string | null }).nextCursor;
	}
	await step('page 250 then cursor', 'GET', `/data-tables/${paging}/rows${queryString({ limit: 250, sortBy: 'n:desc', filter: where(['n', 'gte', 100]) })}`);

	const update = `/data-tables/${rates}/rows/update`;
	const claim = { filter: where(['stay', 'eq', '2025-07-01'], ['reported', 'eq', false]), data: { reported: true, rate: 99.5 }, returnData: true };
	await step('update as compare-and-set, matching', 'PATCH', update, claim);
	await step('update as compare-and-set, no longer matching', 'PATCH', update, claim);
	await step('update without returnData', 'PATCH', update, { filter: where(['hotel', 'eq', 102]), data: { seen: '2025-01-01T00:00:00Z' } });
	await step('update matching nothing without returnData', 'PATCH', update, { filter: where(['hotel', 'eq', 999]), data: { rate: 1 } });
	await step('update several', 'PATCH', update, { filter: where(['rate', 'lt', 50]), data: { stay: 'cheap' }, returnData: true });
	await step('update dry run', 'PATCH', update, { filter: where(['hotel', 'eq', 101]), data: { rate: 1 }, dryRun: true });
	await step('update with an empty filter', 'PATCH', update, { filter: { type: 'and', filters: [] }, data: { rate: 1 } });
	await step('update with empty data', 'PATCH', update, { filter: where(['hotel', 'eq', 101]), data: {} });
	await step('update an unknown column', 'PATCH', update, { filter: where(['hotel', 'eq', 101]), data: { nope: 1 } });
	await step('update a wrong value', 'PATCH', update, { filter: where(['hotel', 'eq', 101]), data: { rate: 'x' } });
	await step('update filtered by isEmpty', 'PATCH', update, { filter: where(['stay', 'isEmpty', null]), data: { rate: 1 } });
	await step('update a filter without value', 'PATCH', update, { filter: { filters: [{ columnName: 'stay', condition: 'eq' }] }, data: { rate: 1 } });
	await step('update an unknown table', 'PATCH', '/data-tables/AAAAAAAAAAAAAAAA/rows/update', { filter: where(['hotel', 'eq', 1]), data: { rate: 1 } });

	const upsert = `/data-tables/${rates}/rows/upsert`;
	await step('upsert updating', 'POST', upsert, { filter: where(['hotel', 'eq', 103]), data: { rate: 130 }, returnData: true });
	await step('upsert inserting', 'POST', upsert, { filter: where(['hotel', 'eq', 108]), data: { rate: 7 }, returnData: true });
	await step('upsert inserting without returnData', 'POST', upsert, { filter: where(['hotel', 'eq', 109]), data: { hotel: 109, stay: 'new' } });
	await step('upsert updating without returnData', 'POST', upsert, { filter: where(['hotel', 'eq', 109]), data: { rate: 9 } });
	await step('upsert dry run', 'POST', upsert, { filter: where(['hotel', 'eq', 999]), data: { rate: 4 }, dryRun: true });
	await read('rows after updates', {});

	const remove = `/data-tables/${rates}/rows/delete`;
	await step('delete with returnData', 'DELETE', `${remove}${queryString({ filter: where(['hotel', 'eq', 108]), returnData: true })}`);
	await step('delete without returnData', 'DELETE', `${remove}${queryString({ filter: where(['hotel', 'eq', 109]) })}`);
	await step('delete matching nothing', 'DELETE', `${remove}${queryString({ filter: where(['hotel', 'eq', 999]), returnData: true })}`);
	await step('delete dry run', 'DELETE', `${remove}${queryString({ filter: where(['hotel', 'eq', 107]), dryRun: true })}`);
	await step('delete without filter', 'DELETE', remove);
	await step('delete with an empty filter', 'DELETE', `${remove}${queryString({ filter: { type: 'and', filters: [] } })}`);
	await step('delete with returnData yes', 'DELETE', `${remove}${queryString({ filter: where(['hotel', 'eq', 999]), returnData: 'yes' })}`);
	await step('delete by isEmpty', 'DELETE', `${remove}${queryString({ filter: where(['stay', 'isEmpty', null]), returnData: true })}`);
	await step('limited key deletes', 'DELETE', `${remove}${queryString({ filter: where(['hotel', 'eq', 999]) })}`, undefined, side.limitedKey);
	await step('limited key reads', 'GET', path, undefined, side.limitedKey);
	await read('rows after deletes', {});

	const columns = `/data-tables/${rates}/columns`;
	await step('list columns', 'GET', columns);
	const added = await step('add a column', 'POST', columns, { name: 'currency', type: 'string', index: 1 });
	await step('add the same column', 'POST', columns, { name: 'currency', type: 'number' });
	await step('add a system column', 'POST', columns, { name: 'createdAt', type: 'date' });
	await step('add a badly named column', 'POST', columns, { name: '_x', type: 'string' });
	if (added.status === 201) {
		const columnId = idOf(added);
		await step('rename a column', 'PATCH', `${columns}/${columnId}`, { name: 'ccy' });
		await step('move a column', 'PATCH', `${columns}/${columnId}`, { index: 4 });
		await step('move a column too far', 'PATCH', `${columns}/${columnId}`, { index: 9 });
		await step('insert into the added column', 'POST', path, { data: [{ ccy: 'EUR', hotel: 110 }], returnType: 'all' });
		await read('rows with the added column', {});
		await step('delete a column', 'DELETE', `${columns}/${columnId}`);
		await step('delete an unknown column', 'DELETE', `${columns}/AAAAAAAAAAAAAAAA`);
	}
	await step('get after column changes', 'GET', `/data-tables/${rates}`);
	await step('clear rows', 'DELETE', `/data-tables/${paging}/rows/clear`);
	await step('delete paging table', 'DELETE', `/data-tables/${paging}`);
	await step('delete it again', 'DELETE', `/data-tables/${paging}`);
	answers.set('limits', await side.limits());
	return answers;
}

/** The tables both sides are given to measure, as the Rate Changes node fills them and a few other shapes. */
interface SizeStep {
	table: string;
	action: string;
	run(side: Side, tableId: string): Promise<void>;
}

/** Deterministic texts that do not compress (so that Postgres stores long ones as they are): SHA-256 digests in base64. */
function noise(length: number, seed: number): string {
	let text = '';
	for (let block = 0; text.length < length; block++) text += createHash('sha256').update(`${seed}:${block}`).digest('base64');
	return text.slice(0, length);
}

function stayRow(n: number): Record<string, unknown> {
	return {
		stayKey: `${1000 + (n % 40)}|${n % 7}|2025-08-${String(1 + (n % 28)).padStart(2, '0')}|1|2|STD`,
		hotelCode: 1000 + (n % 40),
		hotelName: `Hotel ${noise(8 + (n % 12), n)}`,
		websiteCode: n % 7,
		checkIn: `2025-08-${String(1 + (n % 28)).padStart(2, '0')}T00:00:00.000Z`,
		los: 1,
		guests: 2,
		roomType: 'STD',
		currency: 'EUR',
		shopId: 7,
	};
}

function rateRow(n: number): Record<string, unknown> {
	return {
		...stayRow(n),
		onsiteRate: 80 + (n % 300) + 0.5,
		netRate: n % 5 === 0 ? null : 70 + (n % 200),
		totalRate: 90 + (n % 310),
		dtCollected: '2025-07-30T06:00:00.000Z',
	};
}

function changeRow(n: number): Record<string, unknown> {
	return {
		...stayRow(n),
		rateField: 'onsiteRate',
		changeType: n % 3 === 0 ? 'decrease' : 'increase',
		previousRate: 100 + (n % 50),
		rate: 110 + (n % 60),
		change: 10 + (n % 10),
		changePercent: 9.5 + (n % 7) / 10,
		previousCollected: '2025-07-29T06:00:00.000Z',
		comparedWith: n % 4 === 0 ? 'hotel' : null,
		comparedRate: n % 4 === 0 ? 105 : null,
		severity: 'high',
		digestId: null,
		reportedAt: null,
	};
}

const insert = async (side: Side, tableId: string, rows: unknown[]): Promise<void> => {
	for (let start = 0; start < rows.length; start += 500) {
		const answer = await send(side, 'POST', `/data-tables/${tableId}/rows`, { data: rows.slice(start, start + 500) });
		if (answer.status !== 200) throw new Error(`Insert answered ${answer.status}: ${JSON.stringify(answer.body)}`);
	}
};

const patch = async (side: Side, tableId: string, body: unknown): Promise<void> => {
	const answer = await send(side, 'PATCH', `/data-tables/${tableId}/rows/update`, body);
	if (answer.status !== 200) throw new Error(`Update answered ${answer.status}: ${JSON.stringify(answer.body)}`);
};

/** One row per stay: many narrow rows, beside the month rows below. */
const STAY_COLUMNS = [
	{ name: 'stayKey', type: 'string' },
	{ name: 'hotelCode', type: 'number' },
	{ name: 'hotelName', type: 'string' },
	{ name: 'websiteCode', type: 'number' },
	{ name: 'checkIn', type: 'string' },
	{ name: 'los', type: 'number' },
	{ name: 'guests', type: 'number' },
	{ name: 'roomType', type: 'string' },
	{ name: 'currency', type: 'string' },
	{ name: 'shopId', type: 'number' },
];
const number = (name: string) => ({ name, type: 'number' });
const string = (name: string) => ({ name, type: 'string' });

/** A month row of the rates table as Rate Changes keeps it now: a month of stays packed in `rates`, long enough for Postgres to store it out of line. */
function monthRow(n: number, version = 0): Record<string, unknown> {
	return {
		block: `${1000 + (n % 40)}|${n % 7}|2025-${String(1 + (n % 12)).padStart(2, '0')}|1|2|STD`,
		hotelCode: 1000 + (n % 40),
		hotelName: `Hotel ${noise(8 + (n % 12), n)}`,
		websiteCode: n % 7,
		roomType: 'STD',
		los: 1,
		guests: 2,
		month: `2025-${String(1 + (n % 12)).padStart(2, '0')}`,
		currency: 'EUR',
		shopId: 7,
		latitude: 51.5 + (n % 10) / 100,
		longitude: -0.12,
		rates: noise(600 + ((n * 37) % 2400), n * 10 + version),
		collected: '2025-07-30T06:00:00.000Z',
		writers: `${4711 + version}.${noise(8, n + version)} 4700.${noise(8, n)}`,
	};
}

const SIZE_TABLES: Record<string, ReadonlyArray<{ name: string; type: string }>> = {
	size_rates: [...STAY_COLUMNS, number('onsiteRate'), number('netRate'), number('totalRate'), string('dtCollected')],
	size_changes: [
		...STAY_COLUMNS,
		...['rateField', 'changeType'].map(string),
		...['previousRate', 'rate', 'change', 'changePercent'].map(number),
		...['previousCollected', 'comparedWith'].map(string),
		number('comparedRate'),
		...['severity', 'digestId', 'reportedAt'].map(string),
	],
	size_months: RATES_COLUMNS,
	size_journal: CHANGES_COLUMNS,
	size_notes: [{ name: 'note', type: 'string' }],
	size_numbers: [
		{ name: 'amount', type: 'number' },
		{ name: 'flag', type: 'boolean' },
		{ name: 'at', type: 'date' },
	],
};

const SIZE_STEPS: SizeStep[] = [
	{ table: 'size_rates', action: 'insert 2000 rate rows', run: (side, id) => insert(side, id, Array.from({ length: 2000 }, (_, n) => rateRow(n))) },
	{
		table: 'size_rates',
		action: '100 compare-and-set updates, one a request',
		run: async (side, id) => {
			for (let n = 1; n <= 1000; n += 10) {
				await patch(side, id, { filter: where(['id', 'eq', n], ['dtCollected', 'eq', '2025-07-30T06:00:00.000Z']), data: { onsiteRate: 99.99, dtCollected: '2025-07-31T06:00:00.000Z' }, returnData: true });
			}
		},
	},
	{ table: 'size_rates', action: 'update 1000 rows at once', run: (side, id) => patch(side, id, { filter: where(['id', 'gt', 1000]), data: { netRate: 12.25, dtCollected: '2025-08-01T06:00:00.000Z' } }) },
	{ table: 'size_changes', action: 'insert 1500 change rows', run: (side, id) => insert(side, id, Array.from({ length: 1500 }, (_, n) => changeRow(n))) },
	{
		table: 'size_changes',
		action: 'report 500 (digestId, reportedAt set)',
		run: (side, id) => patch(side, id, { filter: where(['id', 'lte', 500]), data: { digestId: 'digest-2025-07-31-shop-7', reportedAt: '2025-07-31T07:00:00.000Z' } }),
	},
	{
		table: 'size_changes',
		action: 'delete 700',
		run: async (side, id) => {
			const answer = await send(side, 'DELETE', `/data-tables/${id}/rows/delete${queryString({ filter: where(['id', 'lte', 700]) })}`);
			if (answer.status !== 200) throw new Error(`Delete answered ${answer.status}`);
		},
	},
	{ table: 'size_changes', action: 'insert 300 more', run: (side, id) => insert(side, id, Array.from({ length: 300 }, (_, n) => changeRow(n + 2000))) },
	{ table: 'size_months', action: 'insert 400 month rows', run: (side, id) => insert(side, id, Array.from({ length: 400 }, (_, n) => monthRow(n))) },
	{
		table: 'size_months',
		action: 'rewrite 200 month rows, one a request',
		run: async (side, id) => {
			for (let n = 0; n < 200; n++) {
				const { rates, collected, writers } = monthRow(n * 2, 1);
				await patch(side, id, { filter: where(['id', 'eq', n * 2 + 1]), data: { rates, collected, writers }, returnData: true });
			}
		},
	},
	{
		table: 'size_journal',
		action: 'insert 300 entries of packed alerts',
		run: (side, id) =>
			insert(
				side,
				id,
				Array.from({ length: 300 }, (_, n) => ({ entry: `${5000 + n}.${noise(8, n)}`, state: 'confirmed', operation: 'detectChanges', monthTable: 'Xy12', alertCount: 1 + (n % 9), alerts: noise(120 + (n % 9) * 95, n), collectedTo: '2025-07-30T06:00:00.000Z', resolvedBy: `${5000 + n}.${noise(8, n)}`, digestId: null, reportedAt: null })),
			),
	},
	{ table: 'size_notes', action: 'insert 200 texts of 300 bytes', run: (side, id) => insert(side, id, Array.from({ length: 200 }, (_, n) => ({ note: noise(300, n) }))) },
	{ table: 'size_notes', action: 'insert 40 texts of 3000 bytes', run: (side, id) => insert(side, id, Array.from({ length: 40 }, (_, n) => ({ note: noise(3000, n) }))) },
	{ table: 'size_notes', action: 'insert 20 texts of 9000 bytes', run: (side, id) => insert(side, id, Array.from({ length: 20 }, (_, n) => ({ note: noise(9000, n) }))) },
	{
		table: 'size_numbers',
		action: 'insert 3000 numbers, flags, dates, some empty',
		run: (side, id) =>
			insert(
				side,
				id,
				Array.from({ length: 3000 }, (_, n) => ({ amount: n % 9 === 0 ? null : n % 2 ? n * 1000 : n + 0.5, flag: n % 3 === 0 ? null : n % 2 === 0, at: n % 4 === 0 ? null : `2025-0${1 + (n % 9)}-01T00:00:00Z` })),
			),
	},
];

async function tableSizes(side: Side): Promise<Map<string, number>> {
	const answer = await side.limits();
	const data = (answer.body as LimitsBody).data;
	return new Map(Object.values(data.dataTables).map((table) => [table.name, table.sizeBytes]));
}

function runCombinations(): Array<[string, SizeModelName]> {
	return e2eVersions()
		.filter(publicApiHasDataTables)
		.flatMap((version) => databases().map((database): [string, SizeModelName] => [version, database]));
}

describeVersions(
	runCombinations().map(([version, database]) => `${version} on ${database}`),
	'Data Tables stand-in against n8n %s',
	(label) => {
		const [version, database] = label.split(' on ') as [ApiVersion, SizeModelName];
		let n8n: N8nInstance;
		let postgres: ServiceProcess | undefined;
		let standIn: DataTablesApi;
		let real: Side;
		let model: Side;

		beforeAll(async () => {
			const runtime = await ensureN8n(version);
			postgres = database === 'postgres' ? await startPostgres() : undefined;
			const databaseEnv: Record<string, string> = postgres
				? {
						DB_TYPE: 'postgresdb',
						DB_POSTGRESDB_HOST: '127.0.0.1',
						DB_POSTGRESDB_PORT: String(postgres.port),
						DB_POSTGRESDB_DATABASE: 'n8n',
						DB_POSTGRESDB_USER: 'n8n',
						DB_POSTGRESDB_PASSWORD: '',
					}
				: {};
			n8n = await N8nInstance.create({ runtime, env: { ...databaseEnv, N8N_DATA_TABLES_MAX_SIZE_BYTES: String(MAX_SIZE_BYTES) } });
			await n8n.start();
			await n8n.setupOwner(E2E_OWNER);
			const scopes = (await n8n.request<{ data: string[] }>('GET', '/rest/api-keys/scopes')).body.data.filter((scope) => scope.startsWith('dataTable'));
			real = {
				apiUrl: `${n8n.baseUrl}/api/v1`,
				apiKey: await n8n.createApiKey('stand-in comparison', scopes),
				limitedKey: await n8n.createApiKey('stand-in comparison, limited', LIMITED_SCOPES),
				limits: async () => {
					const answer = await n8n.request('GET', '/rest/data-tables-global/limits');
					return { status: answer.status, body: answer.body };
				},
			};
			standIn = await startDataTablesApi({ version, database, maxSizeBytes: MAX_SIZE_BYTES, keys: [{ key: 'n8n_api_limited', scopes: LIMITED_SCOPES }] });
			model = {
				apiUrl: standIn.apiUrl,
				apiKey: standIn.apiKey,
				limitedKey: 'n8n_api_limited',
				limits: async () => send({ ...model, apiUrl: standIn.baseUrl }, 'GET', '/rest/data-tables-global/limits'),
			};
			printProgress(`n8n ${version} on ${database} at ${n8n.baseUrl}, stand-in at ${standIn.baseUrl}`);
		});

		afterAll(async () => {
			await standIn?.close();
			await n8n?.dispose();
			await postgres?.close();
		});

		it('answers the same sequence of calls as n8n does', async () => {
			const expected = await conversation(real);
			const actual = await conversation(model);
			const realIds = new Map<string, string>();
			const modelIds = new Map<string, string>();
			const mismatches = [...expected].flatMap(([step, answer]) => {
				const want = normalised(answer, realIds, database);
				const got = normalised(actual.get(step) ?? { status: 0, body: 'no answer' }, modelIds, database);
				return isDeepEqual(want, got) ? [] : [{ step, n8n: want, standIn: got }];
			});
			printProgress(`${expected.size} calls compared on n8n ${version} (${database}), ${mismatches.length} different`);
			expect(mismatches).toEqual([]);
		});

		it(`sizes tables within ${TOLERANCE[database] * 100} % of what n8n reports`, async () => {
			const ids = { real: new Map<string, string>(), model: new Map<string, string>() };
			for (const [name, columns] of Object.entries(SIZE_TABLES)) {
				for (const [side, key] of [
					[real, 'real'],
					[model, 'model'],
				] as const) {
					const created = await send(side, 'POST', '/data-tables', { name, columns });
					expect(created.status).toBe(201);
					ids[key].set(name, (created.body as { id: string }).id);
				}
			}
			const lines = ['table         step                                          n8n bytes   model bytes   off'];
			const offs: number[] = [];
			try {
				for (const step of SIZE_STEPS) {
					await step.run(real, ids.real.get(step.table) as string);
					await step.run(model, ids.model.get(step.table) as string);
					const measured = (await tableSizes(real)).get(step.table) as number;
					const estimated = standIn.sizeBytes(step.table);
					const off = (estimated - measured) / measured;
					offs.push(off);
					lines.push(`${step.table.padEnd(13)} ${step.action.padEnd(45)} ${String(measured).padStart(10)} ${String(estimated).padStart(13)} ${`${(off * 100).toFixed(1)} %`.padStart(8)}`);
				}
			} finally {
				printProgress(`sizes on n8n ${version} (${database}):\n${lines.join('\n')}`);
				// The size limit test after this one fills what is left below the limit.
				for (const name of Object.keys(SIZE_TABLES)) {
					await send(real, 'DELETE', `/data-tables/${ids.real.get(name)}`);
					await send(model, 'DELETE', `/data-tables/${ids.model.get(name)}`);
				}
			}
			for (const off of offs) expect(Math.abs(off)).toBeLessThanOrEqual(TOLERANCE[database]);
		});

		it('refuses writes at the size limit at the same request as n8n, with its message, and lets deletes through', async () => {
			async function fill(side: Side): Promise<Map<string, Answer>> {
				const answers = new Map<string, Answer>();
				const table = (await send(side, 'POST', '/data-tables', { name: 'filler', columns: [{ name: 's', type: 'string' }] })).body as { id: string };
				const batch = { data: Array.from({ length: 50 }, (_, n) => ({ s: noise(1000, n) })) };
				for (let round = 1; round <= 200; round++) {
					const answer = await send(side, 'POST', `/data-tables/${table.id}/rows`, batch);
					if (answer.status !== 200) {
						answers.set('refused insert', answer);
						answers.set('batches written', { status: 200, body: round - 1 });
						break;
					}
				}
				const change = { filter: where(['s', 'eq', 'nothing']), data: { s: 'y' } };
				answers.set('update at the limit', await send(side, 'PATCH', `/data-tables/${table.id}/rows/update`, change));
				answers.set('upsert dry run at the limit', await send(side, 'POST', `/data-tables/${table.id}/rows/upsert`, { ...change, dryRun: true }));
				answers.set('insert of an unknown column at the limit', await send(side, 'POST', `/data-tables/${table.id}/rows`, { data: [{ nope: 1 }] }));
				answers.set('create a table at the limit', await send(side, 'POST', '/data-tables', { name: 'late', columns: [] }));
				answers.set('delete at the limit', await send(side, 'DELETE', `/data-tables/${table.id}/rows/delete${queryString({ filter: where(['id', 'lte', 2000]) })}`));
				answers.set('insert after the delete', await send(side, 'POST', `/data-tables/${table.id}/rows`, { data: [{ s: 'fits again' }] }));
				const limits = (await side.limits()).body as LimitsBody;
				const sizes = Object.fromEntries(Object.values(limits.data.dataTables).map((table) => [table.name, table.sizeBytes]));
				answers.set('limits', { status: 200, body: { quotaStatus: limits.data.quotaStatus, totalBytes: limits.data.totalBytes, sizes } });
				return answers;
			}
			const expected = await fill(real);
			const actual = await fill(model);
			printProgress(`n8n ${version} (${database}) refused after ${String(expected.get('batches written')?.body)} batches: ${JSON.stringify(expected.get('refused insert')?.body)}`);
			const normaliseAll = (answers: Map<string, Answer>) => {
				const ids = new Map<string, string>();
				return Object.fromEntries([...answers].map(([step, answer]) => [step, normalised(answer, ids, database)]));
			};
			expect(normaliseAll(actual)).toEqual(normaliseAll(expected));
			expect((expected.get('refused insert')?.body as { message: string }).message).toMatch(
				/^Validation error with data table request: Data table size limit exceeded: \d+MB used, limit is 4MB$/,
			);
		});
	},
);

function isDeepEqual(a: unknown, b: unknown): boolean {
	try {
		expect(a).toEqual(b);
		return true;
	} catch {
		return false;
	}
}
