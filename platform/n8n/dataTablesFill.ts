import type { N8nRestClient } from './rest';

/**
 * n8n's Data Tables brought to their size limit (N8N_DATA_TABLES_MAX_SIZE_BYTES) the way a user's
 * own tables bring them there: a table of the user's filled through the public API until n8n
 * refuses an insert. n8n counts every data table of the instance together, so from then on it
 * refuses every insert and update of any table, Rate Changes' included.
 */

/** n8n's own figure of its Data Tables, as its Data tables screen reads it (signed in). */
export interface DataTablesUsage {
	totalBytes: number;
	/** 'ok', 'warn' from 80 %, 'error' at the limit. */
	quotaStatus: string;
	/** Each table's size, by name. */
	tables: Map<string, number>;
}

export async function dataTablesUsage(n8n: N8nRestClient): Promise<DataTablesUsage> {
	const response = await n8n.request<{ data: { totalBytes: number; quotaStatus: string; dataTables: Record<string, { name: string; sizeBytes: number }> } }>(
		'GET',
		'/rest/data-tables-global/limits',
	);
	if (response.status !== 200) throw new Error(`/rest/data-tables-global/limits answered ${response.status}: ${response.text.slice(0, 300)}`);
	const { totalBytes, quotaStatus, dataTables } = response.body.data;
	return { totalBytes, quotaStatus, tables: new Map(Object.values(dataTables).map((table) => [table.name, table.sizeBytes])) };
}

/** Characters of text a filler row holds: about four rows to a SQLite page. */
const FILLER_ROW_CHARS = 900;
const FILLER_ROWS_PER_INSERT = 50;

async function publicApi(n8n: N8nRestClient, apiKey: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
	const response = await fetch(`${n8n.baseUrl}/api/v1${path}`, {
		method,
		headers: { 'x-n8n-api-key': apiKey, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	let parsed: unknown = text;
	try {
		parsed = JSON.parse(text);
	} catch {
		// Not JSON: the caller gets the text.
	}
	return { status: response.status, body: parsed };
}

/**
 * Fills n8n's Data Tables to their limit with a table of the user's (`table`, created here) through
 * the public API with `apiKey` (scopes dataTable:create, dataTableRow:create and delete): rows of
 * text until n8n refuses an insert. With `roomBytes`, its first rows are then deleted until n8n
 * counts at least that much free below `limitBytes`. Resolves with n8n's refusal and the usage at
 * the end. Run it with N8N_DATA_TABLES_SIZE_CHECK_CACHE_DURATION_MS=0, or n8n answers from a size
 * up to 5 s old.
 */
export async function fillDataTables(
	n8n: N8nRestClient,
	apiKey: string,
	{ table = 'filler', limitBytes, roomBytes = 0 }: { table?: string; limitBytes: number; roomBytes?: number },
): Promise<{ refusal: string; usage: DataTablesUsage }> {
	const created = await publicApi(n8n, apiKey, 'POST', '/data-tables', { name: table, columns: [{ name: 'text', type: 'string' }] });
	if (created.status !== 201) throw new Error(`Creating the table "${table}" answered ${created.status}: ${JSON.stringify(created.body).slice(0, 300)}`);
	const tableId = (created.body as { id: string }).id;
	const rows = Array.from({ length: FILLER_ROWS_PER_INSERT }, (_, row) => ({ text: `${row} `.padEnd(FILLER_ROW_CHARS, 'x') }));
	let refusal: string | undefined;
	let inserted = 0;
	for (let batch = 0; refusal === undefined; batch++) {
		if (batch * FILLER_ROWS_PER_INSERT * FILLER_ROW_CHARS > 4 * limitBytes) throw new Error(`n8n took ${batch} batches of filler without refusing one: is N8N_DATA_TABLES_MAX_SIZE_BYTES ${limitBytes}?`);
		const answer = await publicApi(n8n, apiKey, 'POST', `/data-tables/${tableId}/rows`, { data: rows, returnType: 'count' });
		if (answer.status === 200) inserted += rows.length;
		else refusal = (answer.body as { message?: string }).message ?? JSON.stringify(answer.body);
	}
	let usage = await dataTablesUsage(n8n);
	for (let lastId = 0; limitBytes - usage.totalBytes < roomBytes; ) {
		lastId += 4;
		if (lastId > inserted) throw new Error(`Every filler row deleted, and still less than ${roomBytes} bytes free below ${limitBytes}: ${usage.totalBytes} used`);
		const filter = JSON.stringify({ type: 'and', filters: [{ columnName: 'id', condition: 'lte', value: lastId }] });
		const deleted = await publicApi(n8n, apiKey, 'DELETE', `/data-tables/${tableId}/rows/delete?filter=${encodeURIComponent(filter)}`);
		if (deleted.status !== 200) throw new Error(`Deleting filler rows answered ${deleted.status}: ${JSON.stringify(deleted.body).slice(0, 300)}`);
		usage = await dataTablesUsage(n8n);
	}
	return { refusal, usage };
}
