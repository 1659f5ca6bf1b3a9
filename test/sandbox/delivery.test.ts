import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { DeliveryClient } from '../../platform/sandbox/delivery';
import type { StoredWebhook } from '../../platform/sandbox/webhooks';

/** A receiver; `onRequest` decides per request, knowing whether its connection served one before. */
async function receiver(onRequest: (reused: boolean, request: http.IncomingMessage, response: http.ServerResponse) => void) {
	const served = new WeakSet<Socket>();
	const server = http.createServer((request, response) => {
		const reused = served.has(request.socket);
		served.add(request.socket);
		onRequest(reused, request, response);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const webhook: StoredWebhook = {
		webhookId: 1,
		account: 'demo',
		createdAt: new Date(0).toISOString(),
		registration: { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, authType: 'none' },
	};
	return { webhook, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('posting a delivery', () => {
	const client = new DeliveryClient();
	afterAll(() => client.close());

	test('a post on a kept-alive connection the receiver just closed goes out once more on a new one', async () => {
		let acted = 0;
		// The receiver drops a reused connection unread: what a server closing it as idle looks like.
		const target = await receiver((reused, request, response) => {
			if (reused) {
				request.socket.destroy();
				return;
			}
			acted++;
			request.resume();
			request.on('end', () => response.end('ok'));
		});
		try {
			expect(await client.post(target.webhook, '{}')).toEqual({ status: 200, responseBody: 'ok' });
			expect(await client.post(target.webhook, '{}')).toEqual({ status: 200, responseBody: 'ok' });
			expect(acted).toBe(2);
		} finally {
			await target.close();
		}
	});

	test('a connection reset on a new connection is reported, not sent again', async () => {
		let attempts = 0;
		const target = await receiver((_reused, request) => {
			attempts++;
			request.socket.destroy();
		});
		try {
			const fresh = new DeliveryClient();
			const outcome = await fresh.post(target.webhook, '{}');
			fresh.close();
			expect(outcome).toEqual({ status: null, error: 'socket hang up' });
			expect(attempts).toBe(1);
		} finally {
			await target.close();
		}
	});
});
