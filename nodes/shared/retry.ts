/**
 * When to send a request again, and how long to wait first. Pure, so the policy can be tested
 * without HTTP.
 *
 * Two kinds of failure are told apart. When the service says when to come back (a 429 or 503 with
 * Retry-After), the node waits that long without using up an attempt: only the time budget (Max
 * Retry Wait) bounds those waits, so a service that throttles a share of a long read does not fail
 * it at random. A failure without such guidance (a 5xx, a dropped connection, a 429 without
 * Retry-After) uses up one of Max Attempts and is retried after an exponential backoff, which
 * counts against the same budget.
 */

export interface RetryPolicy {
	/** Attempts in all, the first included, for failures the service gives no Retry-After for. */
	maxAttempts: number;
	/** The most this request may spend waiting between attempts, in milliseconds. */
	maxTotalWaitMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 5, maxTotalWaitMs: 60_000 };

const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 30_000;

/** The shortest wait after a Retry-After, so "Retry-After: 0" still spends the budget and a
 * service that never relents cannot keep the node sending without pause. */
export const MIN_RETRY_AFTER_WAIT_MS = 500;

/** Throttling and passing gateway trouble are worth another try; 400, 401, 403 and 404 never
 * change on their own. */
export const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);

/** A 500 may have come after the service acted, so it is retried only for idempotent requests
 * (lookups, searches, a PUT that replaces a whole configuration), never for creating a schedule
 * or a webhook. */
export const RETRYABLE_STATUSES_IDEMPOTENT = new Set([...RETRYABLE_STATUSES, 500]);

/** Failures before the request left: the connection was refused or the host name did not
 * resolve, so nothing reached the service and any request may be sent again. */
export const NOT_SENT_NETWORK_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

/** The connection broke while the request was out: the service may have read and acted on it. */
export const BROKEN_CONNECTION_CODES = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED', 'UND_ERR_SOCKET']);

/** Passing network trouble. ENOTFOUND is left out: a host name that does not resolve is almost
 * always a wrong Base URL, which waiting does not fix. */
const PASSING_NETWORK_CODES = new Set(['ECONNREFUSED', 'EAI_AGAIN', ...BROKEN_CONNECTION_CODES]);

/**
 * Whether a request that failed with this socket code may be sent again: passing trouble, and,
 * unless sending twice does what sending once does, only when the request certainly never arrived.
 */
export function retriesNetworkFailure(code: string | undefined, idempotent: boolean): boolean {
	if (code === undefined || !PASSING_NETWORK_CODES.has(code)) return false;
	return idempotent || NOT_SENT_NETWORK_CODES.has(code);
}

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

/**
 * Exponential backoff with full jitter: a random wait between 0 and base * 2^(attempt - 1), capped,
 * so the wait after the first failure (attempt 1) is at most the base.
 */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
	const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.max(0, attempt - 1));
	return Math.round(random() * ceiling);
}

/** What a request has spent so far. */
export interface RetryState {
	/** Failures without a Retry-After, the one just seen included. */
	unguidedFailures: number;
	/** Milliseconds already spent waiting between attempts. */
	waitedMs: number;
}

/**
 * The wait before the next attempt, or undefined when the policy says stop. After a Retry-After
 * the wait is what the service asked (at least MIN_RETRY_AFTER_WAIT_MS) and only the time budget
 * can stop it; without one, Max Attempts stops it too, and the wait is backoff.
 */
export function nextRetryDelay(
	policy: RetryPolicy,
	state: RetryState,
	retryAfterMs: number | undefined,
	random: () => number = Math.random,
): number | undefined {
	if (retryAfterMs === undefined && state.unguidedFailures >= policy.maxAttempts) return undefined;
	const delay =
		retryAfterMs === undefined
			? backoffDelay(state.unguidedFailures, random)
			: Math.max(retryAfterMs, MIN_RETRY_AFTER_WAIT_MS);
	if (state.waitedMs + delay > policy.maxTotalWaitMs) return undefined;
	return delay;
}
