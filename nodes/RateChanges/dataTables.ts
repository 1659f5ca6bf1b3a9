import {
	NodeApiError,
	NodeOperationError,
	sleep,
	type IDataObject,
	type IExecuteFunctions,
	type IHttpRequestMethods,
	type JsonObject,
} from 'n8n-workflow';

import { httpAnswer, type RequestLimiter } from '../shared/concurrency';
import { N8N_API_CREDENTIAL, N8N_API_CREDENTIAL_DISPLAY_NAME } from '../shared/credentialNames';
import {
	DEFAULT_RETRY_POLICY,
	nextRetryDelay,
	parseRetryAfter,
	retriesNetworkFailure,
	RETRYABLE_STATUSES_IDEMPOTENT,
	RETRYABLE_STATUSES,
} from '../shared/retry';
import { findNetworkCode, joinUrl, serviceReason } from '../shared/transport';

/**
 * n8n's Data Tables, reached through n8n's public REST API (/api/v1/data-tables), the one way a
 * community node may use them: n8n's in-process data table proxy serves only n8n's own nodes.
 * The API key goes on the wire through the credential (httpRequestWithAuthentication), to the
 * credential's Base URL only, and appears in no message.
 */

export type ColumnType = 'string' | 'number' | 'boolean' | 'date';

export interface ColumnSpec {
	name: string;
	type: ColumnType;
}

export interface TableSpec {
	/** The node field that names the table, for messages ("Rates Table"). */
	field: string;
	name: string;
	columns: readonly ColumnSpec[];
}

export type Row = IDataObject & { id: number };

/** The conditions n8n's public API takes (its OpenAPI schema has no isEmpty; eq null is IS NULL). */
export type FilterCondition = 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte';

export interface RowFilter {
	type: 'and' | 'or';
	filters: Array<{ columnName: string; condition: FilterCondition; value?: string | number | boolean | null }>;
}

/** n8n's public API answers at most 250 rows a page. */
const ROWS_PER_PAGE = 250;

/** Rows per insert request: well under n8n's request body limit (16 MB by default). */
const ROWS_PER_INSERT = 500;

interface FullResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	body: unknown;
}

interface TableListing {
	data: Array<{ id: string; name: string; columns?: Array<{ name: string; type: string }> }>;
	nextCursor?: string | null;
}

interface RowListing {
	data: Row[];
	nextCursor?: string | null;
}

interface RequestOptions {
	qs?: IDataObject;
	body?: IDataObject;
	/** Sending it twice does what sending it once does: then a 500 or a broken connection is retried too. */
	idempotent: boolean;
	/** What the request is about, for a 404: "data table travel_pricing_rates". */
	subject?: string;
}

/** The Data Tables of one n8n, for one node execution. */
export class DataTables {
	/** Table names by id, for messages. */
	private readonly names = new Map<string, string>();

	constructor(
		private readonly context: IExecuteFunctions,
		private readonly limiter: RequestLimiter,
	) {}

	/**
	 * The id of the table, created with its columns when no table has its name. An existing table
	 * must have every column with its type (extra columns are the user's and stay untouched).
	 */
	async ensureTable(spec: TableSpec): Promise<string> {
		const id = await this.findOrCreateTable(spec);
		this.names.set(id, spec.name);
		return id;
	}

	private async findOrCreateTable(spec: TableSpec): Promise<string> {
		const existing = await this.findTable(spec.name);
		if (existing) {
			checkColumns(this.context, spec, existing.columns ?? []);
			return existing.id;
		}
		try {
			const created = await this.send<{ id: string }>('POST', '/data-tables', {
				body: { name: spec.name, columns: spec.columns.map(({ name, type }) => ({ name, type })) },
				idempotent: false,
			});
			return created.id;
		} catch (error) {
			// Executions that start at once all find no table and all create it: n8n lets one through
			// and refuses the others (409, or 500 from the database's unique name), which use that one.
			const raced = await this.findTable(spec.name);
			if (!raced) throw error as NodeApiError;
			checkColumns(this.context, spec, raced.columns ?? []);
			return raced.id;
		}
	}

	/** Every row matching the filter, page by page. */
	async findRows(tableId: string, filter: RowFilter, sortBy = 'id:asc'): Promise<Row[]> {
		const rows: Row[] = [];
		let cursor: string | undefined;
		do {
			const page = await this.send<RowListing>('GET', `/data-tables/${tableId}/rows`, {
				subject: this.subject(tableId),
				qs: { filter: JSON.stringify(filter), sortBy, limit: ROWS_PER_PAGE, ...(cursor ? { cursor } : {}) },
				idempotent: true,
			});
			rows.push(...page.data);
			cursor = page.nextCursor ?? undefined;
		} while (cursor);
		return rows;
	}

	async insertRows(tableId: string, rows: readonly IDataObject[]): Promise<void> {
		for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
			await this.send('POST', `/data-tables/${tableId}/rows`, {
				subject: this.subject(tableId),
				body: { data: rows.slice(start, start + ROWS_PER_INSERT) as IDataObject[], returnType: 'count' },
				idempotent: false,
			});
		}
	}

	/**
	 * Updates the rows the filter matches and returns them as they now are. n8n runs the filter and
	 * the change as one statement (Postgres: UPDATE … WHERE … RETURNING) or in one serialisable
	 * transaction (SQLite), so a filter that names a row's current state is a compare-and-set:
	 * of two executions that read the same state, only one gets the row back.
	 */
	async updateRows(tableId: string, filter: RowFilter, data: IDataObject, returnData = true): Promise<Row[]> {
		const updated = await this.send<Row[] | boolean>('PATCH', `/data-tables/${tableId}/rows/update`, {
				subject: this.subject(tableId),
			body: { filter: filter as unknown as IDataObject, data, returnData },
			// Sent again after a lost answer, a compare-and-set matches nothing the second time.
			idempotent: true,
		});
		return Array.isArray(updated) ? updated : [];
	}

	private subject(tableId: string): string {
		return `the data table "${this.names.get(tableId) ?? tableId}"`;
	}

	private async findTable(name: string): Promise<TableListing['data'][number] | undefined> {
		const listing = await this.send<TableListing>('GET', '/data-tables', {
			qs: { filter: JSON.stringify({ name }), limit: 250 },
			idempotent: true,
		});
		// The name filter may match by substring on some versions: only the exact name counts.
		return listing.data.find((table) => table.name === name);
	}

	private async send<T>(method: IHttpRequestMethods, path: string, options: RequestOptions): Promise<T> {
		const context = this.context;
		const { baseUrl } = await context.getCredentials<{ baseUrl: string }>(N8N_API_CREDENTIAL);
		const url = joinUrl(baseUrl, `/api/v1${path}`);
		const retryable = options.idempotent ? RETRYABLE_STATUSES_IDEMPOTENT : RETRYABLE_STATUSES;
		let waitedMs = 0;
		let unguidedFailures = 0;
		for (;;) {
			let response: FullResponse | undefined;
			let networkCode: string | undefined;
			try {
				response = (await this.limiter.run(
					async () =>
						await context.helpers.httpRequestWithAuthentication.call(context, N8N_API_CREDENTIAL, {
							method,
							url,
							qs: options.qs,
							body: options.body,
							json: true,
							returnFullResponse: true,
							ignoreHttpStatusErrors: true,
						}),
					httpAnswer,
				)) as FullResponse;
			} catch (error) {
				networkCode = findNetworkCode(error);
				if (!retriesNetworkFailure(networkCode, options.idempotent)) throw unreachable(context, baseUrl, networkCode);
			}
			if (response && response.statusCode < 300) return response.body as T;
			const retryAfterMs = response ? parseRetryAfter(response.headers['retry-after']) : undefined;
			if (retryAfterMs === undefined) unguidedFailures++;
			const canRetry = response === undefined || retryable.has(response.statusCode);
			const delay = canRetry ? nextRetryDelay(DEFAULT_RETRY_POLICY, { unguidedFailures, waitedMs }, retryAfterMs) : undefined;
			if (delay === undefined) {
				if (response === undefined) throw unreachable(context, baseUrl, networkCode);
				throw statusError(context, method, path, response, options.subject);
			}
			await sleep(delay);
			waitedMs += delay;
		}
	}
}

function unreachable(context: IExecuteFunctions, baseUrl: string, code: string | undefined): NodeApiError {
	return new NodeApiError(context.getNode(), { networkError: code ?? 'unknown' } as JsonObject, {
		message: `Could not reach n8n's API at ${baseUrl.trim()} (${code ?? 'network error'})`,
		description: `Check the n8n Base URL field of the "${N8N_API_CREDENTIAL_DISPLAY_NAME}" credential: the address at which this n8n reaches itself, such as http://localhost:5678.`,
	});
}

function statusError(
	context: IExecuteFunctions,
	method: string,
	path: string,
	response: FullResponse,
	subject = 'the data table',
): NodeApiError {
	const status = response.statusCode;
	const reason = serviceReason(response.body);
	const credential = `the "${N8N_API_CREDENTIAL_DISPLAY_NAME}" credential`;
	let message: string;
	let description: string;
	switch (status) {
		case 401:
			message = 'n8n refused the API key';
			description = `Check the API Key field of ${credential}; create a key under Settings > n8n API.`;
			break;
		case 403:
			message = `The n8n API key may not do this (${method} ${path})`;
			description = `Give the key of ${credential} the data table scopes (dataTable:list, dataTable:create, dataTable:read, dataTableRow:read, dataTableRow:create, dataTableRow:update), or use a key without scopes.`;
			break;
		case 404:
			// n8n 1.x answers this 404 too: its public API has no Data Tables at all.
			message =
				path === '/data-tables'
					? "n8n's public API has no Data Tables at this address: Rate Changes needs n8n 2.8 or later"
					: `${subject.charAt(0).toUpperCase()}${subject.slice(1)} was not found`;
			description =
				path === '/data-tables'
					? `Rate Changes keeps its tables in n8n's Data Tables through n8n's public API, which has them from n8n 2.8 on (n8n 1.x has none). Check that this n8n is 2.8 or later, the n8n Base URL of ${credential}, and that the public API is enabled (N8N_PUBLIC_API_DISABLED is not true).`
					: 'It may have been deleted while the node ran; run the node again to create it.';
			break;
		default:
			message = `n8n's Data Tables API failed with HTTP ${status}${reason ? `: ${reason}` : ''}`;
			description = `${method} ${path} did not succeed.`;
	}
	return new NodeApiError(context.getNode(), { status, body: response.body as JsonObject } as JsonObject, {
		message,
		description,
		httpCode: String(status),
	});
}

/** An existing table must have the node's columns with their types; it says which to fix. */
function checkColumns(context: IExecuteFunctions, spec: TableSpec, columns: ReadonlyArray<{ name: string; type: string }>): void {
	const types = new Map(columns.map((column) => [column.name, column.type]));
	const problems = spec.columns.flatMap(({ name, type }) => {
		const actual = types.get(name);
		if (actual === undefined) return [`no column "${name}" (${type})`];
		return actual === type ? [] : [`column "${name}" is ${actual}, not ${type}`];
	});
	if (problems.length === 0) return;
	throw new NodeOperationError(context.getNode(), `The data table "${spec.name}" (${spec.field}) does not have the columns this node keeps: ${problems.join('; ')}`, {
		description: `Name a new table in "${spec.field}" (the node creates it), or add the missing columns in n8n's Data Tables screen. docs/nodes/rate-changes.md lists every column.`,
	});
}
