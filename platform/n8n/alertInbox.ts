import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Stands in for Slack: records every alert posted to it and answers 200. */
export interface AlertInbox {
	url: string;
	alerts: Array<{ path: string; body: Record<string, unknown> }>;
	close(): Promise<void>;
}

export async function startAlertInbox(path = '/rate-alerts'): Promise<AlertInbox> {
	const alerts: AlertInbox['alerts'] = [];
	const server = http.createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			alerts.push({ path: request.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown> });
			response.writeHead(200, { 'content-type': 'application/json' });
			response.end('{"ok":true}');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}${path}`,
		alerts,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
