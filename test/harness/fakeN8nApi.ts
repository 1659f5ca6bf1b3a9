import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { ColumnSpec } from '../../nodes/RateChanges/dataTables';

/**
 * A stand-in for n8n's public Data Tables API (/api/v1/data-tables), as little of it as the Rate
 * Changes node and the "Travel Pricing n8n API" credential test need to be checked in-process:
 * the tables it is given, no stored rows, writes counted and forgotten. It records every request.
 * That the node works against n8n's real API is proven by the e2e suite, which runs it in n8n.
 */

export interface FakeRequest {
	method: string;
	/** The path, without the query. */
	path: string;
	query: Record<string, string>;
	/** The X-N8N-API-KEY header as it arrived. */
	apiKey: string | undefined;
	body: unknown;
}

export interface FakeN8nApi {
	baseUrl: string;
	/** The key it accepts; any other is answered 401, as n8n does. */
	apiKey: string;
	requests: FakeRequest[];
	/** Resolves once no request has come for a moment: a node's requests still in flight when it failed have arrived. */
	settled(): Promise<void>;
	close(): Promise<void>;
}

const SETTLED_AFTER_MS = 200;

/** `tables`: each table's columns by its name. */
export async function startFakeN8nApi(tables: Record<string, readonly ColumnSpec[]> = {}): Promise<FakeN8nApi> {
	const apiKey = 'n8n_api_fake-secret-4f7e9a51';
	const requests: FakeRequest[] = [];
	let lastRequestAt = Date.now();
	const tableIds = new Map(Object.keys(tables).map((name, index) => [`table-${index + 1}`, name]));

	function answer(request: FakeRequest): { status: number; body: unknown } {
		if (request.apiKey !== apiKey) return { status: 401, body: { message: 'unauthorized' } };
		if (request.method === 'GET' && request.path === '/api/v1/data-tables') {
			const name = request.query.filter ? (JSON.parse(request.query.filter) as { name?: string }).name : undefined;
			const data = [...tableIds]
				.filter(([, tableName]) => name === undefined || tableName === name)
				.map(([id, tableName]) => ({ id, name: tableName, columns: tables[tableName].map(({ name: column, type }) => ({ name: column, type })) }));
			return { status: 200, body: { data, nextCursor: null } };
		}
		const rows = /^\/api\/v1\/data-tables\/([^/]+)\/rows(\/update)?$/.exec(request.path);
		if (!rows || !tableIds.has(rows[1])) return { status: 404, body: { message: 'Not Found' } };
		if (request.method === 'GET' && !rows[2]) return { status: 200, body: { data: [], nextCursor: null } };
		if (request.method === 'POST' && !rows[2]) return { status: 200, body: { count: ((request.body as { data?: unknown[] }).data ?? []).length } };
		if (request.method === 'PATCH' && rows[2]) return { status: 200, body: [] };
		return { status: 404, body: { message: 'Not Found' } };
	}

	const server = http.createServer((incoming, response) => {
		lastRequestAt = Date.now();
		const chunks: Buffer[] = [];
		incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
		incoming.on('end', () => {
			const url = new URL(incoming.url ?? '/', 'http://fake');
			const text = Buffer.concat(chunks).toString('utf8');
			const request: FakeRequest = {
				method: incoming.method ?? 'GET',
				path: url.pathname,
				query: Object.fromEntries(url.searchParams),
				apiKey: incoming.headers['x-n8n-api-key'] as string | undefined,
				body: text ? (JSON.parse(text) as unknown) : undefined,
			};
			requests.push(request);
			const { status, body } = answer(request);
			response.writeHead(status, { 'content-type': 'application/json' });
			response.end(JSON.stringify(body));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}`,
		apiKey,
		requests,
		settled: async () => {
			while (Date.now() - lastRequestAt < SETTLED_AFTER_MS) {
				await new Promise((resolve) => setTimeout(resolve, SETTLED_AFTER_MS - (Date.now() - lastRequestAt)));
			}
		},
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
