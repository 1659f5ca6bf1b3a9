import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

import { ApiError, INTERNAL_ERROR_MESSAGE } from './errors';
import { FaultBook, type FaultKind, type FaultPlan, type FaultRule, type RequestInfo } from './faults';
import { handle, type Answer } from './handlers';
import { checkRequest, route, type Operation, type RoutedRequest } from './operations';
import { rowJson } from './rows';
import { DEFAULT_SIZE_CACHE_MS, sizerFactory, type SizeModelName, type SizeStatus } from './size';
import { DataTableStore, newId, type TableSize } from './store';
import type { ApiVersion, ColumnType, RowJson } from './types';
import type { JsonScalar } from './values';
import { NEWEST_VERSION, VERSIONS } from './versions';

export interface ApiKeyGrant {
	key: string;
	/** The scopes it was created with; without, every scope. Checked as the version checks them (`enforceScopes`). */
	scopes?: readonly string[];
}

export interface DataTablesApiOptions {
	/** The n8n version to answer as, where versions differ (default the newest, 2.41.1). */
	version?: ApiVersion;
	/** The database n8n runs on: how values compare and sort, database error texts, and the size model (default 'sqlite', n8n's default). */
	database?: SizeModelName;
	/** The key the stand-in accepts (default a random one), with its scopes. */
	apiKey?: string;
	scopes?: readonly string[];
	/** More keys, each with its scopes. */
	keys?: readonly ApiKeyGrant[];
	/** Whether a key's scopes are checked (403 "Forbidden"): default as the version does without a licence (2.41 yes, 2.8.4 no). */
	enforceScopes?: boolean;
	/** N8N_DATA_TABLES_MAX_SIZE_BYTES (default the version's: 50 MiB on 2.8.4, 200 MiB on 2.41.1). */
	maxSizeBytes?: number;
	/** N8N_DATA_TABLES_SIZE_CHECK_CACHE_DURATION_MS (default 5000). */
	sizeCacheMs?: number;
	/** The zone n8n reads dates without an offset in (its process zone; default UTC). */
	timezone?: string;
	/** The owner's personal project, as the limits route names it. */
	projectName?: string;
	/** How long without requests makes settled() resolve (default 200 ms). */
	settleMs?: number;
	/** The clock of createdAt and updatedAt (default the real one). */
	now?: () => Date;
}

export interface LoggedRequest extends RequestInfo {
	/** The answer's status; undefined when the connection was dropped or refused. */
	status?: number;
	answer?: unknown;
	fault?: FaultKind;
	/** Whether the request changed the tables (a write applied, whatever the client then saw). */
	committed: boolean;
}

export interface TableSummary {
	id: string;
	name: string;
	columns: Array<{ name: string; type: ColumnType }>;
	rowCount: number;
}

export interface DataTablesApi {
	/** The n8n base URL (the credential's "n8n Base URL"); the API is under /api/v1. */
	baseUrl: string;
	apiUrl: string;
	apiKey: string;
	version: ApiVersion;
	database: SizeModelName;
	/** Every request so far, in arrival order. */
	requests: LoggedRequest[];
	failNext(rule: FaultRule): void;
	/** A function asked for every request no failNext rule took (undefined: none). */
	plan(plan: FaultPlan | undefined): void;
	/** Called (and awaited) as each request arrives, before it is handled. */
	onRequest(hook: ((request: RequestInfo, index: number) => void | Promise<void>) | undefined): void;
	/** A table with columns (and rows), made directly: no request, no fault. Returns its id. */
	seed(name: string, columns: ReadonlyArray<{ name: string; type: ColumnType }>, rows?: ReadonlyArray<Record<string, JsonScalar>>): string;
	/** A table's rows as the API would return them, in id order. */
	rows(tableName: string): RowJson[];
	tables(): TableSummary[];
	/** The size model's bytes now for one table, or all of them. */
	sizeBytes(tableName?: string): number;
	/** What n8n's /rest/data-tables-global/limits would answer now (its cached figures). */
	limits(): { totalBytes: number; quotaStatus: SizeStatus; dataTables: Record<string, TableSize> };
	/** Postgres' VACUUM on every table (the size model reuses dead rows' space from then on). */
	vacuum(): void;
	/** Resolves once no request is in flight and none has arrived for a moment. */
	settled(): Promise<void>;
	/** Gives a key other scopes, as editing it in n8n's Settings > n8n API does (default the stand-in's key). */
	setScopes(scopes: readonly string[] | undefined, key?: string): void;
	/** Back to no tables, no requests, no faults. */
	reset(): void;
	close(): Promise<void>;
}

export const PROJECT_NAME = 'Stand-in Owner <owner@stand-in.test>';

/** n8n's internal route with the Data Tables' sizes (answered without signing in here). */
export const LIMITS_PATH = '/rest/data-tables-global/limits';

const API_PREFIX = '/api/v1';

/** A port nothing listens on: a listener opened and closed again (another process could take it meanwhile, which is unlikely). */
async function closedPort(): Promise<number> {
	const listener = net.createServer();
	await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
	const { port } = listener.address() as AddressInfo;
	await new Promise<void>((resolve) => listener.close(() => resolve()));
	return port;
}

/** n8n's public Data Tables API on 127.0.0.1 at a free port, in this process. */
export async function startDataTablesApi(options: DataTablesApiOptions = {}): Promise<DataTablesApi> {
	const version = options.version ?? NEWEST_VERSION;
	const behaviour = VERSIONS[version];
	const database = options.database ?? 'sqlite';
	const apiKey = options.apiKey ?? `n8n_api_stand-in-${randomBytes(8).toString('hex')}`;
	const grants = new Map<string, readonly string[] | undefined>([[apiKey, options.scopes], ...(options.keys ?? []).map((grant): [string, readonly string[] | undefined] => [grant.key, grant.scopes])]);
	const enforceScopes = options.enforceScopes ?? behaviour.scopesEnforcedByDefault;
	const projectId = newId();
	const settleMs = options.settleMs ?? 200;
	const newStore = (): DataTableStore =>
		new DataTableStore({
			behaviour,
			dialect: database,
			zone: options.timezone ?? 'UTC',
			sizer: sizerFactory(database, version),
			maxSizeBytes: options.maxSizeBytes ?? behaviour.defaultMaxSizeBytes,
			sizeCacheMs: options.sizeCacheMs ?? DEFAULT_SIZE_CACHE_MS,
			projectId,
			projectName: options.projectName ?? PROJECT_NAME,
			now: options.now ?? (() => new Date()),
		});
	let store = newStore();
	const faults = new FaultBook();
	const requests: LoggedRequest[] = [];
	let hook: ((request: RequestInfo, index: number) => void | Promise<void>) | undefined;
	let lastArrival = Date.now();
	let inFlight = 0;
	const refusedPort = await closedPort();

	function answer(incoming: http.IncomingMessage, url: URL, routed: RoutedRequest | undefined, text: string): Answer {
		// n8n parses every request's body before any route sees it; a JSON body it cannot read ends
		// in Express' error page.
		let body: unknown = {};
		if (text) {
			try {
				body = JSON.parse(text);
			} catch {
				return { status: 500, html: errorPage('ResponseError: Failed to parse request body') };
			}
		}
		if (url.pathname === LIMITS_PATH && incoming.method === 'GET') return { status: 200, body: { data: store.sizes() } };
		if (!url.pathname.startsWith(`${API_PREFIX}/`)) return { status: 404, body: { message: 'not found' } };
		const found = routed ?? route(behaviour, incoming.method ?? 'GET', url.pathname.slice(API_PREFIX.length));
		const key = incoming.headers['x-n8n-api-key'];
		if (typeof key !== 'string') throw new ApiError(401, "'X-N8N-API-KEY' header required");
		if (!grants.has(key)) throw new ApiError(401, 'unauthorized');
		const query = checkRequest(found, url.search.slice(1), body);
		const scopes = grants.get(key);
		if (enforceScopes && scopes && !scopes.includes(found.spec.scope)) throw new ApiError(403, 'Forbidden');
		return handle({ store, behaviour, projectId }, found, query, body);
	}

	function describe(index: number, incoming: http.IncomingMessage, url: URL, text: string): { info: RequestInfo; routed?: RoutedRequest } {
		let routed: RoutedRequest | undefined;
		try {
			routed = url.pathname.startsWith(`${API_PREFIX}/`) ? route(behaviour, incoming.method ?? 'GET', url.pathname.slice(API_PREFIX.length)) : undefined;
		} catch {
			routed = undefined;
		}
		let body: unknown = text;
		try {
			body = text ? JSON.parse(text) : undefined;
		} catch {
			// Logged as sent.
		}
		const tableId = routed?.params.dataTableId;
		const info: RequestInfo = {
			index,
			method: incoming.method ?? 'GET',
			path: url.pathname,
			query: Object.fromEntries(url.searchParams),
			body,
			operation: routed?.spec.operation as Operation | undefined,
			tableName: tableId ? store.tables.get(tableId)?.name : undefined,
		};
		return { info, routed };
	}

	async function serve(incoming: http.IncomingMessage, response: http.ServerResponse, text: string): Promise<void> {
		const url = new URL(incoming.url ?? '/', 'http://stand-in');
		const index = requests.length;
		const { info, routed } = describe(index, incoming, url, text);
		const logged: LoggedRequest = { ...info, committed: false };
		requests.push(logged);
		await hook?.(info, index);
		const fault = faults.faultFor(info);
		logged.fault = fault?.kind;
		if (fault?.kind === 'latency') await sleep(fault.ms);
		if (fault?.kind === 'refused') {
			// The attempt the client makes next goes to a port nothing listens on: a real ECONNREFUSED.
			response.writeHead(307, { location: `http://127.0.0.1:${refusedPort}${incoming.url ?? '/'}`, connection: 'close' });
			response.end();
			return;
		}
		const before = fault?.kind === 'error500BeforeCommit' ? new ApiError(500, INTERNAL_ERROR_MESSAGE) : fault?.kind === 'sizeLimit' ? store.guard.refusal() : undefined;
		let result: Answer;
		try {
			if (before) throw before;
			result = answer(incoming, url, routed, text);
		} catch (error) {
			if (!(error instanceof ApiError)) throw error;
			result = { status: error.status, body: { message: error.message } };
		}
		logged.committed = Boolean(routed?.spec.writes) && result.status < 300 && !isDryRun(info);
		if (fault?.kind === 'lostAfterCommit') {
			incoming.socket.destroy();
			return;
		}
		if (fault?.kind === 'error500AfterCommit') result = { status: 500, body: { message: INTERNAL_ERROR_MESSAGE } };
		logged.status = result.status;
		logged.answer = result.body ?? result.html;
		if (result.html !== undefined) {
			response.writeHead(result.status, { 'content-type': 'text/html; charset=utf-8' });
			response.end(result.html);
			return;
		}
		if (result.body === undefined) {
			response.writeHead(result.status);
			response.end();
			return;
		}
		response.writeHead(result.status, { 'content-type': 'application/json; charset=utf-8' });
		response.end(JSON.stringify(result.body));
	}

	const server = http.createServer((incoming, response) => {
		lastArrival = Date.now();
		inFlight++;
		const chunks: Buffer[] = [];
		incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
		incoming.on('end', () => {
			serve(incoming, response, Buffer.concat(chunks).toString('utf8'))
				.catch((error: unknown) => {
					response.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
					response.end(JSON.stringify({ message: `Stand-in failure: ${error instanceof Error ? error.message : String(error)}` }));
				})
				.finally(() => {
					inFlight--;
					lastArrival = Date.now();
				});
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	const baseUrl = `http://127.0.0.1:${port}`;

	const tableNamed = (name: string): string => {
		const table = store.tableByName(name);
		if (!table) throw new Error(`The stand-in has no data table named "${name}"`);
		return table.id;
	};

	return {
		baseUrl,
		apiUrl: `${baseUrl}${API_PREFIX}`,
		apiKey,
		version,
		database,
		requests,
		failNext: (rule) => faults.add(rule),
		plan: (plan) => faults.setPlan(plan),
		onRequest: (next) => {
			hook = next;
		},
		seed: (name, columns, rows = []) => {
			const table = store.createTable(name, columns);
			if (rows.length > 0) store.insertRows(table.id, rows, 'count');
			return table.id;
		},
		rows: (tableName) => {
			const table = store.table(tableNamed(tableName));
			return [...table.rows.values()].map((row) => rowJson(table, row));
		},
		tables: () =>
			[...store.tables.values()].map((table) => ({
				id: table.id,
				name: table.name,
				columns: table.columns.map(({ name, type }) => ({ name, type })),
				rowCount: table.rows.size,
			})),
		sizeBytes: (tableName) =>
			tableName === undefined ? [...store.tables.keys()].reduce((sum, id) => sum + store.tableBytes(id), 0) : store.tableBytes(tableNamed(tableName)),
		limits: () => store.sizes(),
		vacuum: () => store.vacuum(),
		settled: async () => {
			while (inFlight > 0 || Date.now() - lastArrival < settleMs) {
				await sleep(Math.max(10, settleMs - (Date.now() - lastArrival)));
			}
		},
		setScopes: (scopes, key = apiKey) => {
			grants.set(key, scopes);
		},
		reset: () => {
			store = newStore();
			faults.clear();
			requests.length = 0;
			hook = undefined;
		},
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** Express' error page, as n8n answers errors outside its API's handlers (without the stack trace). */
function errorPage(error: string): string {
	return `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>${error}</pre>\n</body>\n</html>\n`;
}

/** A dry run changes nothing, whatever its answer. */
function isDryRun(request: RequestInfo): boolean {
	const body = request.body as { dryRun?: unknown } | undefined;
	return body?.dryRun === true || request.query.dryRun === 'true';
}
