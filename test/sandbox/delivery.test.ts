import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { DeliveryClient, postWithRetries, RETRY_DELAYS_MS } from '../../platform/sandbox/delivery';
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

describe('retrying a delivery, as a service that delivers webhooks does (the sandbox’s choice: the spec shows no retries)', () => {
	const client = new DeliveryClient();
	afterAll(() => client.close());

	/** A receiver that answers the n-th attempt (from 0) with answers[n], or leaves it unanswered for null. */
	async function answering(answers: Array<number | null>) {
		let attempt = 0;
		const target = await receiver((_reused, request, response) => {
			const status = answers[Math.min(attempt++, answers.length - 1)];
			request.resume();
			if (status !== null) request.on('end', () => response.writeHead(status).end(String(status)));
		});
		return { ...target, attempts: () => attempt };
	}

	async function post(answers: Array<number | null>, retries = RETRY_DELAYS_MS.length, timeoutMs = 2_000) {
		const target = await answering(answers);
		const slept: number[] = [];
		try {
			const result = await postWithRetries(client, target.webhook, '{}', { timeoutMs, retries, sleep: async (ms) => void slept.push(ms) });
			return { ...result, slept, received: target.attempts() };
		} finally {
			await target.close();
		}
	}

	test('a 500 is posted again after 1 s, and the next answer is the delivery’s', async () => {
		const { outcome, attempts, slept } = await post([500, 200]);
		expect(outcome).toMatchObject({ status: 200 });
		expect(attempts.map((attempt) => attempt.status)).toEqual([500, 200]);
		expect(slept).toEqual([1_000]);
	});

	test('an attempt left unanswered past the timeout is posted again, though the receiver may have acted on it', async () => {
		const { outcome, attempts, received } = await post([null, 200], 3, 300);
		expect(outcome).toMatchObject({ status: 200 });
		expect(attempts).toEqual([expect.objectContaining({ status: null, error: 'no answer within 300 ms' }), expect.objectContaining({ status: 200 })]);
		expect(received).toBe(2);
	});

	test('a 429 is retried; a 404 or a 401 is final: the receiver refused it, and would again', async () => {
		expect((await post([429, 200])).attempts).toHaveLength(2);
		for (const status of [404, 401]) {
			const { outcome, attempts, slept } = await post([status, 200]);
			expect({ outcome: outcome.status, attempts: attempts.length, slept }).toEqual({ outcome: status, attempts: 1, slept: [] });
		}
	});

	test('after 1 s, 3 s and 9 s it gives up: four attempts at most, the last answer kept', async () => {
		const { outcome, attempts, slept } = await post([503]);
		expect(outcome).toMatchObject({ status: 503 });
		expect(attempts).toHaveLength(4);
		expect(slept).toEqual([1_000, 3_000, 9_000]);
	});

	test('retries 0 turns retrying off, for a test that counts deliveries exactly', async () => {
		const { attempts, slept } = await post([500, 200], 0);
		expect(attempts).toHaveLength(1);
		expect(slept).toEqual([]);
	});
});
