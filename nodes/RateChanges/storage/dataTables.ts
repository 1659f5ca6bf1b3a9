import { createHash } from 'crypto';

import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type IHttpRequestMethods,
	type JsonObject,
} from 'n8n-workflow';

import type { RequestLimiter } from '../../shared/concurrency';
import { N8N_API_CREDENTIAL, N8N_API_CREDENTIAL_DISPLAY_NAME } from '../../shared/credentialNames';
import { NOT_SENT_NETWORK_CODES } from '../../shared/retry';
import { joinUrl, send, SendError, type FullResponse } from '../../shared/send';
import { serviceReason } from '../../shared/transport';

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

/** A table as this execution found it. */
export interface TableHandle {
	id: string;
	spec: TableSpec;
}

export type Row = IDataObject & { id: number; createdAt?: string };

/** The conditions of n8n's row filter the node uses; `eq` with null is IS NULL. */
export type FilterCondition = 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte' | 'like';

export type RowCondition = { columnName: string; condition: FilterCondition; value: string | number | boolean | null };

/** n8n's row filter: one level of conditions, all (and) or any (or). */
export interface RowFilter {
	type: 'and' | 'or';
	filters: RowCondition[];
}

export function eq(columnName: string, value: string | number | null): RowCondition {
	return { columnName, condition: 'eq', value };
}

export function allOf(...filters: RowCondition[]): RowFilter {
	return { type: 'and', filters };
}

export function anyOf(filters: RowCondition[]): RowFilter {
	return { type: 'or', filters };
}

/** The most rows one read asks for; newer n8n answers at most 250 whatever is asked, and paging follows its cursor. */
const ROWS_PER_PAGE = 250;

/** Rows per insert request: well under n8n's request body limit (16 MB by default). */
export const ROWS_PER_INSERT = 200;

/** How long one request may wait for n8n's answer before it counts as lost. */
const ANSWER_TIMEOUT_MS = 60_000;

/** What n8n answers, at its size limit, to every insert and update (its own words, from its DataTableSizeValidator). */
const SIZE_LIMIT_REASON = /data table size limit exceeded/i;

interface RequestOptions {
	qs?: IDataObject;
	body?: IDataObject;
	idempotent: boolean;
	confirm?: () => Promise<boolean>;
	/** The table, for messages. */
	table?: TableHandle;
}

/** The Data Tables of one n8n, for one node execution. */
export class DataTables {
	constructor(
		private readonly context: IExecuteFunctions,
		private readonly limiter: RequestLimiter,
	) {}

	/**
	 * Every data table the key may list: read once per execution with `fresh` (their sizes), else
	 * as this n8n process listed them within LISTING_KEPT_MS. An execution that only stages a record
	 * then sends two requests, not three; a table missing from a kept listing is looked for afresh
	 * (ensureTable), and one deleted since is dropped from it at n8n's 404.
	 */
	async listTables(options: { fresh?: boolean } = {}): Promise<ListedTable[]> {
		const key = await this.listingKey();
		const kept = keptListings.get(key);
		if (!options.fresh && this.listing === undefined && kept && Date.now() - kept.at < LISTING_KEPT_MS) this.listing = kept.tables;
		if (this.listing === undefined || (options.fresh && !this.fresh)) {
			this.fresh = true;
			this.listing = this.readListing();
			keptListings.set(key, { tables: this.listing, at: Date.now() });
			// A listing that failed is not kept.
			this.listing.catch(() => keptListings.delete(key));
		}
		return await this.listing;
	}

	private listing?: Promise<ListedTable[]>;
	/** Whether this execution's listing was read by this execution. */
	private fresh = false;

	/** Listings are kept per n8n and API key (hashed: the key itself is kept nowhere). */
	private async listingKey(): Promise<string> {
		const { baseUrl, apiKey } = await this.context.getCredentials<{ baseUrl: string; apiKey: string }>(N8N_API_CREDENTIAL);
		return `${baseUrl.trim()}|${createHash('sha256').update(String(apiKey)).digest('base64url')}`;
	}

	private async readListing(): Promise<ListedTable[]> {
		const tables: ListedTable[] = [];
		let cursor: string | undefined;
		do {
			const page = await this.send<TableListing>('GET', '/data-tables', { qs: { limit: ROWS_PER_PAGE, ...(cursor ? { cursor } : {}) }, idempotent: true });
			tables.push(...(page?.data ?? []));
			cursor = page?.nextCursor ?? undefined;
		} while (cursor);
		return tables;
	}

	/** The table of that name, as listed when this execution first asked. */
	async findTable(name: string): Promise<ListedTable | undefined> {
		return (await this.listTables()).find((table) => table.name === name);
	}

	/**
	 * The table the spec names, created with its columns when no table has its name. An existing
	 * table must have every column with its type (extra columns are the user's and stay untouched).
	 */
	async ensureTable(spec: TableSpec): Promise<TableHandle> {
		const existing = await this.findTable(spec.name);
		if (existing) return this.handle(spec, existing);
		try {
			const created = await this.send<{ id: string }>('POST', '/data-tables', {
				body: { name: spec.name, columns: spec.columns.map(({ name, type }) => ({ name, type })) },
				idempotent: false,
				confirm: async () => (await this.freshTable(spec.name)) !== undefined,
			});
			if (created?.id) return { id: created.id, spec };
		} catch (error) {
			// Executions that start at once all find no table and all create it: n8n lets one through
			// and refuses the others (409, or an error from the database's unique name), which use that one.
			const raced = error instanceof NodeApiError && !(error instanceof DataTablesFullError) ? await this.freshTable(spec.name) : undefined;
			if (!raced) throw error as NodeApiError;
			return this.handle(spec, raced);
		}
		const table = await this.freshTable(spec.name);
		if (!table) throw new NodeOperationError(this.context.getNode(), `The data table "${spec.name}" (${spec.field}) could not be created`);
		return this.handle(spec, table);
	}

	/**
	 * The table of that name where n8n has it, never created: a listing kept from before another
	 * execution made it lacks it, so n8n is then asked afresh.
	 */
	async existingTable(name: string): Promise<ListedTable | undefined> {
		return (await this.findTable(name)) ?? (await this.freshTable(name));
	}

	/** The table as n8n lists it now, not as this execution first found it. */
	private async freshTable(name: string): Promise<ListedTable | undefined> {
		this.listing = undefined;
		this.fresh = false;
		return (await this.listTables({ fresh: true })).find((table) => table.name === name);
	}

	/** A table n8n no longer has (deleted while the node ran): the next listing is read afresh. */
	private async forgetListing(): Promise<void> {
		keptListings.delete(await this.listingKey());
	}

	private handle(spec: TableSpec, table: ListedTable): TableHandle {
		const columns = new Map((table.columns ?? []).map((column) => [column.name, column.type]));
		checkColumns(this.context, spec, columns);
		return { id: table.id, spec };
	}

	/** Every row matching the filter, page by page, in id order. */
	async readRows(table: TableHandle, filter: RowFilter): Promise<Row[]> {
		const rows: Row[] = [];
		let cursor: string | undefined;
		do {
			const page = await this.send<{ data: Row[]; nextCursor?: string | null }>('GET', `/data-tables/${table.id}/rows`, {
				table,
				qs: { ...(filter.filters.length > 0 ? { filter: JSON.stringify(filter) } : {}), sortBy: 'id:asc', limit: ROWS_PER_PAGE, ...(cursor ? { cursor } : {}) },
				idempotent: true,
			});
			rows.push(...(page?.data ?? []));
			cursor = page?.nextCursor ?? undefined;
		} while (cursor);
		return rows;
	}

	/**
	 * Inserts rows, `ROWS_PER_INSERT` a request. An insert whose answer is lost is sent again only
	 * when `inserted` says its rows are not there: rows carry something that tells them apart.
	 */
	async insertRows(table: TableHandle, rows: readonly IDataObject[], inserted: (batch: readonly IDataObject[]) => Promise<boolean>): Promise<void> {
		for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
			const batch = rows.slice(start, start + ROWS_PER_INSERT);
			await this.send('POST', `/data-tables/${table.id}/rows`, {
				table,
				body: { data: batch as IDataObject[], returnType: 'count' },
				idempotent: false,
				confirm: async () => await inserted(batch),
			});
		}
	}

	/**
	 * Updates the rows the filter matches and returns them as they now are. n8n runs the filter and
	 * the change as one statement (Postgres: UPDATE … WHERE … RETURNING) or in one transaction
	 * (SQLite), so a filter that names a row's current state is a compare-and-set: of two
	 * executions that read the same state, only one gets the row back. `uncertain`: an attempt
	 * before the last may have been applied (its answer was lost), so an empty answer may be this
	 * very update, done already: the caller reads the row to tell. With `applied`, that is asked at
	 * once after a lost answer (or a 500), and the update is sent again only when it says no.
	 */
	async updateRows(table: TableHandle, filter: RowFilter, data: IDataObject, applied?: () => Promise<boolean>): Promise<{ rows: Row[]; uncertain: boolean }> {
		const { body, uncertain } = await this.sendWithOutcome<Row[] | boolean>('PATCH', `/data-tables/${table.id}/rows/update`, {
			table,
			body: { filter: filter as unknown as IDataObject, data, returnData: true },
			idempotent: applied === undefined,
			confirm: applied,
		});
		return { rows: Array.isArray(body) ? body : [], uncertain };
	}

	/** Deletes the rows the filter matches; sending it twice deletes nothing more. */
	async deleteRows(table: TableHandle, filter: RowFilter): Promise<void> {
		await this.send('DELETE', `/data-tables/${table.id}/rows/delete`, { table, qs: { filter: JSON.stringify(filter) }, idempotent: true });
	}

	/** Deletes rows by id, IDS_PER_DELETE a request, the requests at once. */
	async deleteIds(table: TableHandle, ids: readonly number[]): Promise<void> {
		const removals: Array<Promise<void>> = [];
		for (let start = 0; start < ids.length; start += IDS_PER_DELETE) removals.push(this.deleteRows(table, anyOf(ids.slice(start, start + IDS_PER_DELETE).map((id) => eq('id', id)))));
		await Promise.all(removals);
	}

	private async send<T>(method: IHttpRequestMethods, path: string, options: RequestOptions): Promise<T | undefined> {
		return (await this.sendWithOutcome<T>(method, path, options)).body;
	}

	private async sendWithOutcome<T>(method: IHttpRequestMethods, path: string, options: RequestOptions): Promise<{ body?: T; uncertain: boolean }> {
		const context = this.context;
		const { baseUrl } = await context.getCredentials<{ baseUrl: string }>(N8N_API_CREDENTIAL);
		try {
			const { response, uncertain } = await send(context, {
				credentialType: N8N_API_CREDENTIAL,
				request: { method, url: joinUrl(baseUrl, `/api/v1${path}`), qs: options.qs, body: options.body, timeout: ANSWER_TIMEOUT_MS },
				idempotent: options.idempotent,
				confirm: options.confirm,
				limiter: this.limiter,
			});
			return { body: response?.body as T | undefined, uncertain };
		} catch (error) {
			if (!(error instanceof SendError)) throw error as NodeOperationError;
			if (error.failure.kind === 'status' && error.failure.response.statusCode === 404) await this.forgetListing();
			throw n8nApiError(context, baseUrl, method, path, error, options.table);
		}
	}
}

/** Ids per delete request: each is one "id eq …" condition of the filter in the query string. */
const IDS_PER_DELETE = 50;

/** How long an n8n process keeps a listing of the tables for its executions. */
const LISTING_KEPT_MS = 5 * 60_000;

/** The listings this n8n process keeps, by n8n and API key. */
const keptListings = new Map<string, { tables: Promise<ListedTable[]>; at: number }>();

/** A table as n8n lists it; `sizeBytes` is n8n's own figure of its size, where n8n gives it (not 2.8). */
export interface ListedTable {
	id: string;
	name: string;
	columns?: Array<{ name: string; type: string }>;
	sizeBytes?: number;
}

interface TableListing {
	data: ListedTable[];
	nextCursor?: string | null;
}

/** n8n refused a write because its Data Tables are full (N8N_DATA_TABLES_MAX_SIZE_BYTES). */
export class DataTablesFullError extends NodeApiError {}

function n8nApiError(context: IExecuteFunctions, baseUrl: string, method: string, path: string, error: SendError, table: TableHandle | undefined): NodeApiError {
	const { failure, attempts } = error;
	const request = `${method} ${path}`;
	if (failure.kind === 'status') return statusError(context, request, failure.response, table);
	const code = failure.code ?? 'network error';
	if (failure.kind === 'network' && (failure.code === undefined || NOT_SENT_NETWORK_CODES.has(failure.code))) {
		return new NodeApiError(context.getNode(), { networkError: code } as JsonObject, {
			message: `Could not reach n8n's API at ${baseUrl.trim()} (${code})`,
			description: `Check the n8n Base URL field of the "${N8N_API_CREDENTIAL_DISPLAY_NAME}" credential: the address at which this n8n reaches itself, such as http://localhost:5678.`,
		});
	}
	// n8n was reached: the answer was lost after the request left, so n8n may have done it.
	return new NodeApiError(context.getNode(), { networkError: code } as JsonObject, {
		// No socket code in the message: n8n would swap it for its own, which advises checking the address.
		message: `n8n's answer to ${request} was lost${attempts > 1 ? ` ${attempts} times` : ''}: n8n may have stored it`,
		description:
			'n8n was reached, but its answer never came back (a restart, a timeout or a proxy in between). Retry the execution once n8n answers again (Executions, Retry): Rate Changes recognises what it already stored, and puts out every alert it held back, once.',
	});
}

function statusError(context: IExecuteFunctions, request: string, response: FullResponse, table: TableHandle | undefined): NodeApiError {
	const status = response.statusCode;
	const reason = serviceReason(response.body);
	const errorResponse = { status, body: response.body as JsonObject } as JsonObject;
	if (status === 400 && reason && SIZE_LIMIT_REASON.test(reason)) {
		return new DataTablesFullError(context.getNode(), errorResponse, { message: `n8n's Data Tables are full: ${reason}`, description: FULL_DESCRIPTION, httpCode: String(status) });
	}
	const { message, description } = statusText(status, request, reason, table);
	return new NodeApiError(context.getNode(), errorResponse, { message, description, httpCode: String(status) });
}

function statusText(status: number, request: string, reason: string | undefined, table: TableHandle | undefined): { message: string; description: string } {
	const credential = `the "${N8N_API_CREDENTIAL_DISPLAY_NAME}" credential`;
	switch (status) {
		case 401:
			return { message: 'n8n refused the API key', description: `Check the API Key field of ${credential}; create a key under Settings > n8n API.` };
		case 403: {
			const scope = SCOPE_OF_REQUEST.get(request.replace(TABLE_IN_PATH, ' /data-tables/{id}'));
			return {
				message: `The n8n API key may not do this (${request})${scope ? `: it lacks the scope ${scope}` : ''}`,
				description: `Give the key of ${credential} the data table scopes (${DATA_TABLE_SCOPES.join(', ')}), or use a key without scopes.`,
			};
		}
		case 404:
			// n8n 1.x answers this 404 too: its public API has no Data Tables at all.
			if (request.endsWith(' /data-tables')) {
				return {
					message: "n8n's public API has no Data Tables at this address: Rate Changes needs n8n 2.8 or later",
					description: `Rate Changes keeps its tables in n8n's Data Tables through n8n's public API, which has them from n8n 2.8 on (n8n 1.x has none). Check that this n8n is 2.8 or later, the n8n Base URL of ${credential}, and that the public API is enabled (N8N_PUBLIC_API_DISABLED is not true).`,
				};
			}
			return {
				message: `${table ? `The data table "${table.spec.name}"` : 'The data table'} was not found`,
				description: 'It may have been deleted while the node ran; run the node again to create it.',
			};
		default:
			return { message: `n8n's Data Tables API failed with HTTP ${status}${reason ? `: ${reason}` : ''}`, description: `${request} did not succeed.` };
	}
}

/** What to do at n8n's size limit: the variable, what can go, and that a retry puts out what was held back. */
export const FULL_DESCRIPTION =
	"n8n refuses every insert and update once all data tables of this n8n together reach N8N_DATA_TABLES_MAX_SIZE_BYTES. Rate Changes stopped before it moved a stored rate it could not also record as a change. Make room: on self-hosted n8n raise N8N_DATA_TABLES_MAX_SIZE_BYTES and restart n8n; or delete rows you no longer need in n8n's Data tables screen (Rate Changes' own tables clean themselves: past months, and changes older than Keep Changes). Then retry the failed executions (Executions, Retry): they put out the alerts held back, once.";

/**
 * The scopes an API key needs where n8n's plan offers scopes, each with the request of Rate Changes
 * n8n asks it of (a table's id as {id}): what Rate Changes sends, nothing more. A refusal names the
 * scope to add (the clean-up's, which fails nothing, is said in the next digest), and the
 * credential's check tries each on its request (keyScopes.ts).
 */
export const SCOPE_REQUESTS = {
	'dataTable:list': 'GET /data-tables',
	'dataTable:create': 'POST /data-tables',
	'dataTableRow:read': 'GET /data-tables/{id}/rows',
	'dataTableRow:create': 'POST /data-tables/{id}/rows',
	'dataTableRow:update': 'PATCH /data-tables/{id}/rows/update',
	'dataTableRow:delete': 'DELETE /data-tables/{id}/rows/delete',
} as const;

export type DataTableScope = keyof typeof SCOPE_REQUESTS;

export const DATA_TABLE_SCOPES = Object.keys(SCOPE_REQUESTS) as readonly DataTableScope[];

const SCOPE_OF_REQUEST = new Map<string, DataTableScope>(DATA_TABLE_SCOPES.map((scope) => [SCOPE_REQUESTS[scope], scope]));

const TABLE_IN_PATH = / \/data-tables\/[^/]+/;

/** An existing table must have the node's columns with their types; it says which to fix. */
function checkColumns(context: IExecuteFunctions, spec: TableSpec, columns: ReadonlyMap<string, string>): void {
	const problems = spec.columns.flatMap(({ name, type }) => {
		const actual = columns.get(name);
		if (actual === undefined) return [`no column "${name}" (${type})`];
		return actual === type ? [] : [`column "${name}" is ${actual}, not ${type}`];
	});
	if (problems.length === 0) return;
	throw new NodeOperationError(context.getNode(), `The data table "${spec.name}" (${spec.field}) does not have the columns this node keeps: ${problems.join('; ')}`, {
		description: `Name a new table in "${spec.field}" (the node creates it), or add the missing columns in n8n's Data Tables screen. The node's reference page (docs/nodes/rate-changes-reference.md) lists every column.`,
	});
}
