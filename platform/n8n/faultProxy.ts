import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { route, type Operation } from '../dataTables/operations';
import { VERSIONS, NEWEST_VERSION } from '../dataTables/versions';
import { createPrng } from '../sandbox/prng';

/**
 * A proxy in front of a real n8n that, now and then, loses the answer to a write n8n has already
 * committed, as a restart, a timeout or a load balancer between Rate Changes and n8n does: the
 * request goes on to n8n unchanged and n8n does it; then, for a write the plan picks and n8n took
 * (2xx), the client gets no answer (the socket is closed: "socket hang up") or a 500 in its place.
 * Everything else, and any write n8n refused, passes through as n8n answered it. Point the Rate
 * Changes credential's Base URL at `url`.
 */

/** What the client gets instead of n8n's answer to a write n8n committed. */
export type ProxyFault = 'lostAfterCommit' | 'error500AfterCommit';

/** What the plan sees of a request: its place among all requests, and its Data Tables operation. */
export interface ProxiedRequest {
	/** 0 for the first request the proxy got. */
	index: number;
	method: string;
	/** The path without the query, as sent (/api/v1/data-tables/…). */
	path: string;
	/** Undefined for anything that is not a route of n8n's public Data Tables API. */
	operation?: Operation;
	/** Method, path, query and body: the same for each attempt of one request. */
	key: string;
}

export interface ProxyLogEntry extends Omit<ProxiedRequest, 'key'> {
	/** n8n's status; null when n8n could not be reached (the client got a 502). */
	status: number | null;
	/** The fault the client got instead of n8n's answer. */
	fault?: ProxyFault;
}

export type ProxyPlan = (request: ProxiedRequest) => ProxyFault | undefined;

export interface FaultProxy {
	/** The proxy's address, what the credential's Base URL names. */
	url: string;
	/** Every request so far, in the order they came. */
	log(): ProxyLogEntry[];
	/** How many faults each operation got, by fault. */
	injected(): Record<string, Partial<Record<ProxyFault, number>>>;
	/** Replaces the plan (undefined: no faults from now on). */
	plan(plan: ProxyPlan | undefined): void;
	close(): Promise<void>;
}

export interface WriteFaults {
	/** One write in `shares[operation]` of each operation gets a fault: `{ updateRows: 7 }` is one update in 7. */
	shares: Partial<Record<Operation, number>>;
	/** The kinds of fault, taken in turn. */
	faults: readonly ProxyFault[];
	/**
	 * One fault in `stuckOneIn` is stuck: the same request (method, path, query and body) gets it
	 * again at each of its next `stuckFor` attempts, as an n8n behind a flapping load balancer
	 * answers for a while, so the client's retries run out and the execution fails.
	 */
	stuckOneIn?: number;
	stuckFor?: number;
	/** The seed of the draws: the same run of requests gets the same faults. */
	seed?: number;
}

/** A plan that gives a share of each kind of write a fault, drawn from a seeded sequence. */
export function shareOfWrites({ shares, faults, stuckOneIn, stuckFor = 5, seed = 1 }: WriteFaults): ProxyPlan {
	const random = createPrng(seed);
	const stuck = new Map<string, { fault: ProxyFault; left: number }>();
	let given = 0;
	return ({ operation, key }) => {
		const held = stuck.get(key);
		if (held) {
			if (--held.left <= 0) stuck.delete(key);
			return held.fault;
		}
		const oneIn = operation === undefined ? undefined : shares[operation];
		if (oneIn === undefined || !random.chance(1 / oneIn)) return undefined;
		const fault = faults[given++ % faults.length];
		if (stuckOneIn !== undefined && random.chance(1 / stuckOneIn)) stuck.set(key, { fault, left: stuckFor - 1 });
		return fault;
	};
}

/** Hop-by-hop headers, which belong to one connection and are not passed on. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade']);

/** The public API route of a path, whatever n8n version: the newest has every route the older ones have. */
function operationOf(method: string, path: string): Operation | undefined {
	if (!path.startsWith('/api/v1/')) return undefined;
	try {
		return route(VERSIONS[NEWEST_VERSION], method, path.slice('/api/v1'.length)).spec.operation;
	} catch {
		return undefined;
	}
}

function forward(target: URL, incoming: http.IncomingMessage, body: Buffer): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer } | undefined> {
	const headers = Object.fromEntries(Object.entries(incoming.headers).filter(([name]) => !HOP_BY_HOP.has(name) && name !== 'host'));
	return new Promise((resolve) => {
		const request = http.request(
			new URL(incoming.url ?? '/', target),
			{ method: incoming.method, headers: { ...headers, host: target.host, 'content-length': body.length } },
			(response) => {
				const chunks: Buffer[] = [];
				response.on('data', (chunk: Buffer) => chunks.push(chunk));
				response.on('end', () => resolve({ status: response.statusCode ?? 502, headers: response.headers, body: Buffer.concat(chunks) }));
				response.on('error', () => resolve(undefined));
			},
		);
		request.on('error', () => resolve(undefined));
		request.end(body);
	});
}

export async function startFaultProxy(target: string, initialPlan?: ProxyPlan): Promise<FaultProxy> {
	const targetUrl = new URL(target);
	const entries: ProxyLogEntry[] = [];
	let plan = initialPlan;
	const server = http.createServer((incoming, outgoing) => {
		const chunks: Buffer[] = [];
		incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
		incoming.on('end', () => {
			const method = incoming.method ?? 'GET';
			const url = incoming.url ?? '/';
			const path = url.split('?')[0];
			const body = Buffer.concat(chunks);
			const request: ProxiedRequest = { index: entries.length, method, path, operation: operationOf(method, path), key: `${method} ${url} ${body.toString('utf8')}` };
			const entry: ProxyLogEntry = { index: request.index, method, path, operation: request.operation, status: null };
			entries.push(entry);
			// Chosen when the request comes, so that the plan sees requests in the order they came.
			const fault = plan?.(request);
			void forward(targetUrl, incoming, body).then((answer) => {
				if (!answer) {
					outgoing.writeHead(502, { 'content-type': 'text/plain' }).end('Bad Gateway');
					return;
				}
				entry.status = answer.status;
				const committed = answer.status >= 200 && answer.status < 300;
				if (fault && committed) {
					entry.fault = fault;
					if (fault === 'lostAfterCommit') {
						incoming.socket.destroy();
						return;
					}
					// What a proxy or n8n itself answers when something failed after the write.
					outgoing.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Internal Server Error' }));
					return;
				}
				const headers = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !HOP_BY_HOP.has(name) && name !== 'content-length'));
				outgoing.writeHead(answer.status, { ...headers, 'content-length': answer.body.length }).end(answer.body);
			});
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		log: () => entries.map((entry) => ({ ...entry })),
		injected: () => {
			const counts: Record<string, Partial<Record<ProxyFault, number>>> = {};
			for (const { operation, fault } of entries) {
				if (!fault) continue;
				const byFault = (counts[operation ?? 'other'] ??= {});
				byFault[fault] = (byFault[fault] ?? 0) + 1;
			}
			return counts;
		},
		plan: (next) => {
			plan = next;
		},
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
