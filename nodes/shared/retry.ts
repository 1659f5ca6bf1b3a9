/**
 * How long to wait before the next attempt. Pure, so the policy can be tested without HTTP.
 */

export interface RetryPolicy {
	/** Attempts in all, the first included. */
	maxAttempts: number;
	/** The most this request may spend waiting between attempts, in milliseconds. */
	maxTotalWaitMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 5, maxTotalWaitMs: 60_000 };

const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 30_000;

/** Throttling and passing gateway trouble are worth another try; 400, 401, 403 and 404 never
 * change on their own. */
export const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);

/** A 500 may have come after the service acted, so it is retried only for idempotent requests
 * (lookups, searches, a PUT that replaces a whole configuration), never for creating a schedule
 * or a webhook. */
export const RETRYABLE_STATUSES_IDEMPOTENT = new Set([...RETRYABLE_STATUSES, 500]);

export const RETRYABLE_NETWORK_CODES = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'EPIPE',
	'ETIMEDOUT',
	'ECONNABORTED',
	'EAI_AGAIN',
	'UND_ERR_SOCKET',
]);

/**
 * `Retry-After` is either delta-seconds or an HTTP date (RFC 9110 10.2.3). Returns milliseconds,
 * or undefined when absent or unreadable.
 */
export function parseRetryAfter(header: unknown, now: number = Date.now()): number | undefined {
	const value = Array.isArray(header) ? header[0] : header;
	if (typeof value === 'number' && Number.isFinite(value)) return Math.max(0, value * 1000);
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	const text = value.trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
	const date = Date.parse(text);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - now);
}

/** Exponential backoff with full jitter: a random wait between 0 and base * 2^attempt. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
	const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.max(0, attempt - 1));
	return Math.round(random() * ceiling);
}

/**
 * The wait before attempt `attempt + 1`, or undefined when the policy says stop: attempts used up,
 * or the wait (the server's Retry-After if it gave one, else backoff) would pass the total cap.
 */
export function nextRetryDelay(
	policy: RetryPolicy,
	attempt: number,
	waitedMs: number,
	retryAfterMs: number | undefined,
	random: () => number = Math.random,
): number | undefined {
	if (attempt >= policy.maxAttempts) return undefined;
	const delay = retryAfterMs ?? backoffDelay(attempt, random);
	if (waitedMs + delay > policy.maxTotalWaitMs) return undefined;
	return delay;
}
