import type { ServerResponse } from 'node:http';

/** Writes a JSON answer; `json` lets large cached bodies skip re-serialisation. */
export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}, json?: string): void {
	const text = json ?? (body === undefined ? '' : JSON.stringify(body));
	response.writeHead(status, {
		'content-type': 'application/json; charset=utf-8',
		'content-length': Buffer.byteLength(text),
		...headers,
	});
	response.end(text);
}
