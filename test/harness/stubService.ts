import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubService {
	baseUrl: string;
	/** Paths of the requests received, in order. */
	paths: string[];
	close(): Promise<void>;
}

/**
 * A service that answers every request with one fixed status and body: for the answers the sandbox
 * has no reason to give (a 400 to a body the node already checked, a 403 where the spec lists none).
 */
export async function startStubService(status: number, body: unknown): Promise<StubService> {
	const paths: string[] = [];
	const server = http.createServer((request, response) => {
		paths.push(request.url ?? '');
		request.resume();
		request.on('end', () => {
			response.writeHead(status, { 'content-type': 'application/json' });
			response.end(JSON.stringify(body));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}`,
		paths,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
