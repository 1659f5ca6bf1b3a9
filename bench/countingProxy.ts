import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxiedRequest {
	method: string;
	/** The path without its query string: /api/v1/data-tables/:id/rows. */
	path: string;
	status: number;
	/** From the request's arrival to the end of n8n's answer (performance.now()). */
	startedAt: number;
	ms: number;
}

export interface CountingProxy {
	/** The address to give a client instead of n8n's: http://127.0.0.1:<port>. */
	url: string;
	/** Every request answered since the last clear, in the order they finished. */
	requests(): ProxiedRequest[];
	clear(): void;
	close(): Promise<void>;
}

/**
 * A pass-through HTTP proxy in front of n8n: n8n logs no line per public API request, so the
 * requests Rate Changes sends to n8n's Data Tables are counted here, on their way. One kept-alive
 * connection pool to n8n, bodies streamed both ways, nothing changed.
 */
export async function startCountingProxy(target: string): Promise<CountingProxy> {
	const upstream = new URL(target);
	const agent = new http.Agent({ keepAlive: true });
	let answered: ProxiedRequest[] = [];
	const server = http.createServer((request, response) => {
		const startedAt = performance.now();
		const record = (status: number): void => {
			answered.push({
				method: request.method ?? '',
				path: (request.url ?? '').split('?')[0],
				status,
				startedAt,
				ms: performance.now() - startedAt,
			});
		};
		const forwarded = http.request(
			{
				host: upstream.hostname,
				port: upstream.port,
				method: request.method,
				path: request.url,
				headers: { ...request.headers, host: upstream.host },
				agent,
			},
			(reply) => {
				response.writeHead(reply.statusCode ?? 502, reply.headers);
				reply.pipe(response);
				reply.on('end', () => record(reply.statusCode ?? 0));
			},
		);
		forwarded.on('error', (error) => {
			record(502);
			response.writeHead(502, { 'content-type': 'text/plain' });
			response.end(`proxy: ${error.message}`);
		});
		request.pipe(forwarded);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		requests: () => [...answered],
		clear: () => {
			answered = [];
		},
		close: async () => {
			agent.destroy();
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
