import http from 'node:http';
import https from 'node:https';
import type { StoredWebhook } from './webhooks';
import type { RateRecord, WebhookRegistration } from './types';

/** One POST of rate data to a receiver, and what the receiver answered. */
export interface Delivery {
	seq: number;
	runId: number;
	shopId: number;
	webhookId: number;
	endpoint: string;
	authType: WebhookRegistration['authType'];
	recordIds: string[];
	/** Exactly what was posted: one record object, or an array when perDelivery > 1. */
	body: RateRecord | RateRecord[];
	/** HTTP status answered by the receiver; null when no answer came (see `error`). */
	status: number | null;
	error?: string;
	/** The receiver's answer, cut to 1 KB. */
	responseBody?: string;
	at: string;
	durationMs: number;
	/** Every attempt, the last one's outcome being the delivery's: more than one when the sender retried. */
	attempts: DeliveryAttempt[];
}

/** One POST of a delivery and what came back. */
export interface DeliveryAttempt {
	at: string;
	status: number | null;
	error?: string;
	durationMs: number;
}

/** Each delivery not answered 200, as "status: error" ("no answer: socket hang up"), for a test's message. */
export function deliveryFailures(deliveries: Delivery[]): string[] {
	return deliveries.filter((delivery) => delivery.status !== 200).map((delivery) => `${delivery.status ?? 'no answer'}: ${delivery.error ?? ''}`);
}

/** Spec part 5: how each authType puts credentials on the delivery. */
export function authHeaders(registration: WebhookRegistration): Record<string, string> {
	switch (registration.authType) {
		case 'basic':
			return { authorization: `Basic ${Buffer.from(`${registration.userName}:${registration.password}`).toString('base64')}` };
		case 'bearer':
			return { authorization: `Bearer ${registration.token}` };
		case 'header':
			return { [String(registration.headerName)]: String(registration.token) };
		default:
			return {};
	}
}

const DELIVERY_TIMEOUT_MS = 10_000;

export interface DeliveryOutcome {
	status: number | null;
	error?: string;
	responseBody?: string;
}

/**
 * Posts JSON rate data to receivers over keep-alive connections. A receiver closes an idle
 * keep-alive connection when it likes (Node's servers after 5 s); a post that went out on such a
 * connection just as it closed fails with ECONNRESET before the receiver read it. That post is
 * sent once more on a new connection, as Node's documentation advises for this race (the receiver
 * never read it, so it is no retry); any other outcome is returned as it came, and
 * postWithRetries decides whether to post again.
 */
export class DeliveryClient {
	private readonly httpAgent = new http.Agent({ keepAlive: true });
	private readonly httpsAgent = new https.Agent({ keepAlive: true });

	async post(webhook: StoredWebhook, payload: string, timeoutMs = DELIVERY_TIMEOUT_MS): Promise<DeliveryOutcome> {
		const first = await this.attempt(webhook, payload, timeoutMs, true);
		if (!first.closedIdleConnection) return first.outcome;
		return (await this.attempt(webhook, payload, timeoutMs, false)).outcome;
	}

	private attempt(
		webhook: StoredWebhook,
		payload: string,
		timeoutMs: number,
		reuseConnection: boolean,
	): Promise<{ outcome: DeliveryOutcome; closedIdleConnection: boolean }> {
		const url = new URL(webhook.registration.endpoint);
		const secure = url.protocol === 'https:';
		const send = secure ? https.request : http.request;
		return new Promise((resolve) => {
			const request = send(
				url,
				{
					method: 'POST',
					// A retry takes a connection of its own: the pool may hold more that the receiver closed.
					agent: reuseConnection ? (secure ? this.httpsAgent : this.httpAgent) : false,
					timeout: timeoutMs,
					headers: {
						'content-type': 'application/json',
						'content-length': Buffer.byteLength(payload),
						'user-agent': 'travel-pricing-sandbox/1.0',
						...authHeaders(webhook.registration),
					},
				},
				(response) => {
					const chunks: Buffer[] = [];
					let size = 0;
					response.on('data', (chunk: Buffer) => {
						if (size < 1024) chunks.push(chunk);
						size += chunk.length;
					});
					response.on('end', () =>
						resolve({ outcome: { status: response.statusCode ?? null, responseBody: Buffer.concat(chunks).toString('utf8').slice(0, 1024) }, closedIdleConnection: false }),
					);
					response.on('error', (error) => resolve({ outcome: { status: response.statusCode ?? null, error: error.message }, closedIdleConnection: false }));
				},
			);
			request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
			request.on('error', (error: NodeJS.ErrnoException) =>
				resolve({ outcome: { status: null, error: error.message }, closedIdleConnection: request.reusedSocket && error.code === 'ECONNRESET' }),
			);
			request.end(payload);
		});
	}

	close(): void {
		this.httpAgent.destroy();
		this.httpsAgent.destroy();
	}
}

/**
 * How the sandbox's sender retries (the spec shows no retries; this is the sandbox's choice, as a
 * service that delivers webhooks does it): a delivery that got no answer (no answer within the
 * timeout, connection refused or reset), a 5xx or a 429 is posted again after 1 s, 3 s and 9 s,
 * so at most four attempts. Any other answer is final: a 2xx took it, and a 4xx refused it, which
 * sending it again would not change. `retries` 0 turns retrying off.
 */
export const RETRY_DELAYS_MS = [1_000, 3_000, 9_000];
export const DEFAULT_RETRIES = RETRY_DELAYS_MS.length;

/** Whether the sender posts a delivery again after this outcome. */
export function worthRetrying(outcome: DeliveryOutcome): boolean {
	return outcome.status === null || outcome.status === 429 || outcome.status >= 500;
}

/**
 * Posts a delivery, and again after each delay of RETRY_DELAYS_MS while the outcome is worth
 * retrying, at most `retries` times more. Resolves with the last outcome and every attempt.
 */
export async function postWithRetries(
	client: DeliveryClient,
	webhook: StoredWebhook,
	payload: string,
	options: { timeoutMs: number; retries: number; sleep?: (ms: number) => Promise<void> },
): Promise<{ outcome: DeliveryOutcome; attempts: DeliveryAttempt[] }> {
	const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
	const attempts: DeliveryAttempt[] = [];
	for (let attempt = 0; ; attempt++) {
		const startedAt = Date.now();
		const outcome = await client.post(webhook, payload, options.timeoutMs);
		attempts.push({ at: new Date(startedAt).toISOString(), status: outcome.status, ...(outcome.error ? { error: outcome.error } : {}), durationMs: Date.now() - startedAt });
		if (attempt >= Math.min(options.retries, RETRY_DELAYS_MS.length) || !worthRetrying(outcome)) return { outcome, attempts };
		await sleep(RETRY_DELAYS_MS[attempt]);
	}
}

/** Runs `tasks` with at most `concurrency` in flight. */
export async function runPool<T>(tasks: Array<() => Promise<T>>, concurrency: number): Promise<T[]> {
	const results: T[] = new Array(tasks.length);
	let next = 0;
	const worker = async (): Promise<void> => {
		while (next < tasks.length) {
			const index = next++;
			results[index] = await tasks[index]();
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, tasks.length)) }, worker));
	return results;
}
