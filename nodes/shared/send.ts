import {
	NodeOperationError,
	sleep,
	type IExecuteFunctions,
	type IHookFunctions,
	type IHttpRequestOptions,
	type ILoadOptionsFunctions,
	type IWebhookFunctions,
} from 'n8n-workflow';

import { httpAnswer, type RequestLimiter } from './concurrency';
import {
	BROKEN_CONNECTION_CODES,
	DEFAULT_RETRY_POLICY,
	RETRYABLE_STATUSES,
	RETRYABLE_STATUSES_IDEMPOTENT,
	nextRetryDelay,
	parseRetryAfter,
	retriesNetworkFailure,
	type RetryPolicy,
} from './retry';

/**
 * The one request loop of the package: the service's API (transport.ts) and n8n's own (Rate
 * Changes' Data Tables) both send through it. It takes a slot of the node's Concurrency for each
 * attempt, retries by status and socket code within the retry policy, waits out Retry-After, stops
 * when the execution is cancelled, and knows which failures may have come after the other side
 * acted: those are never sent again blindly. What each failure means to the user is the caller's
 * to say (SendError carries what happened).
 */

export type SendContext = IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions | IWebhookFunctions;

export interface FullResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	body: unknown;
}

export interface SendOptions {
	credentialType: string;
	request: IHttpRequestOptions;
	/** Sending it twice does what sending it once does: a 500 or a broken connection is retried too. */
	idempotent: boolean;
	/**
	 * For a write that is not idempotent: whether an attempt whose answer never came (or came as a
	 * 5xx) took effect after all. With it, such a write is sent again only when it did not, and
	 * counts as done when it did; without it, the loop stops with "may have reached".
	 */
	confirm?: () => Promise<boolean>;
	limiter?: RequestLimiter;
	retry?: RetryPolicy;
	itemIndex?: number;
}

export interface SendOutcome {
	/** The answer of the last attempt; none when `confirm` found the write done. */
	response?: FullResponse;
	/** An attempt before the last may have taken effect: its answer was lost, or was a 5xx. */
	uncertain: boolean;
}

export type SendFailure =
	| { kind: 'status'; response: FullResponse }
	| { kind: 'network'; code: string | undefined }
	/** A write that is not idempotent lost its answer (or got a 5xx) and has no `confirm`. */
	| { kind: 'mayHaveArrived'; code: string | undefined; response?: FullResponse };

/** Why the loop gave up, for the caller to word; never holds the request, so never a secret. */
export class SendError extends Error {
	constructor(
		readonly failure: SendFailure,
		readonly attempts: number,
		readonly waitedMs: number,
	) {
		super(failure.kind);
		this.name = 'SendError';
	}
}

const CREDENTIAL_CHECK_DESCRIPTION = "The credential's check of its key, before any request: nothing was sent.";

/**
 * A credential's own check (its preAuthentication) refused it before anything was sent: its
 * message is the user's, and nothing is retried. n8n hands it on wrapped in its NodeApiError,
 * which keeps the message and the description but (n8n-workflow 2.8) not the error itself: so it
 * is known by its description. Its message names no socket code, which n8n's error would swap for
 * its own words.
 */
export class CredentialCheckError extends Error {
	readonly description = CREDENTIAL_CHECK_DESCRIPTION;

	constructor(message: string) {
		super(message);
		this.name = 'CredentialCheckError';
	}
}

/**
 * A 500 may come after the server acted (a gateway's 502, 503 and 504, which docs/requests.md
 * retries for every request, are taken as not having reached it).
 */
function mayHaveActed(status: number): boolean {
	return status === 500;
}

export async function send(context: SendContext, options: SendOptions): Promise<SendOutcome> {
	const policy = options.retry ?? DEFAULT_RETRY_POLICY;
	const retryable = options.idempotent ? RETRYABLE_STATUSES_IDEMPOTENT : RETRYABLE_STATUSES;
	const abortSignal = 'getExecutionCancelSignal' in context ? context.getExecutionCancelSignal() : undefined;
	const request: IHttpRequestOptions = { ...options.request, json: true, returnFullResponse: true, ignoreHttpStatusErrors: true };
	const attempt = async () =>
		(await context.helpers.httpRequestWithAuthentication.call(context, options.credentialType, request)) as FullResponse;

	let waitedMs = 0;
	let unguidedFailures = 0;
	let uncertain = false;
	for (let attempts = 1; ; attempts++) {
		if (abortSignal?.aborted) throw cancelled(context, options.itemIndex);
		let response: FullResponse | undefined;
		let networkCode: string | undefined;
		try {
			response = await (options.limiter ? options.limiter.run(attempt, httpAnswer) : attempt());
		} catch (error) {
			if (error instanceof NodeOperationError) throw new NodeOperationError(context.getNode(), error, { itemIndex: options.itemIndex });
			const refusal = credentialCheckRefusal(error);
			if (refusal) throw new NodeOperationError(context.getNode(), refusal.message, { itemIndex: options.itemIndex, description: refusal.description });
			networkCode = findNetworkCode(error);
		}
		if (response && response.statusCode < 300) return { response, uncertain };

		const brokenAfterSending = response === undefined && networkCode !== undefined && BROKEN_CONNECTION_CODES.has(networkCode);
		const actedMaybe = brokenAfterSending || (response !== undefined && mayHaveActed(response.statusCode));
		if (actedMaybe && !options.idempotent) {
			if (!options.confirm) throw new SendError({ kind: 'mayHaveArrived', code: networkCode, response }, attempts, waitedMs);
			if (await options.confirm()) return { uncertain: true };
		}
		uncertain ||= actedMaybe;

		const retryAfterMs = response ? parseRetryAfter(response.headers['retry-after']) : undefined;
		if (retryAfterMs === undefined) unguidedFailures++;
		const canRetry =
			response === undefined
				? retriesNetworkFailure(networkCode, options.idempotent || options.confirm !== undefined)
				: retryable.has(response.statusCode) || (actedMaybe && options.confirm !== undefined);
		const delay = canRetry ? nextRetryDelay(policy, { unguidedFailures, waitedMs }, retryAfterMs) : undefined;
		if (delay === undefined) {
			const failure: SendFailure = response ? { kind: 'status', response } : { kind: 'network', code: networkCode };
			throw new SendError(failure, attempts, waitedMs);
		}
		// `sleep`, not `sleepWithAbort`: n8n-workflow 2.40 no longer exports the latter, and the
		// package runs against whichever n8n-workflow the user's n8n ships.
		await sleep(delay);
		waitedMs += delay;
	}
}

function cancelled(context: SendContext, itemIndex: number | undefined): NodeOperationError {
	return new NodeOperationError(context.getNode(), 'The execution was cancelled', {
		itemIndex,
		description: 'Nothing more was sent. What was sent before the cancel stays done.',
	});
}

function credentialCheckRefusal(error: unknown): { message: string; description: string } | undefined {
	for (const link of causeChain(error)) {
		const { message, description } = link as { message?: unknown; description?: unknown };
		if (description === CREDENTIAL_CHECK_DESCRIPTION && typeof message === 'string') return { message, description };
	}
	return undefined;
}

/** The error and the errors it wraps (`cause`), n8n's NodeApiError around the HTTP client's: a few levels at most. */
function* causeChain(error: unknown): Generator<object> {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
		yield current;
		current = (current as { cause?: unknown }).cause;
	}
}

/** Finds a socket error code (ECONNRESET...) on the error n8n threw or anywhere in its causes. */
export function findNetworkCode(error: unknown): string | undefined {
	for (const link of causeChain(error)) {
		// n8n's NodeApiError keeps the socket code as its httpCode and drops the axios error.
		for (const code of [(link as { code?: unknown }).code, (link as { httpCode?: unknown }).httpCode]) {
			if (typeof code === 'string' && /^E[A-Z_]+$|^UND_ERR/.test(code)) return code;
		}
	}
	return undefined;
}

export function joinUrl(baseUrl: string, endpoint: string): string {
	return `${baseUrl.trim().replace(/\/+$/, '')}${endpoint.startsWith('/') ? '' : '/'}${endpoint}`;
}
