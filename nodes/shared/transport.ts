import {
	NodeApiError,
	type IDataObject,
	type IExecuteFunctions,
	type IHookFunctions,
	type IHttpRequestMethods,
	type ILoadOptionsFunctions,
	type INode,
	type IWebhookFunctions,
	type JsonObject,
} from 'n8n-workflow';

import type { RequestLimiter } from './concurrency';
import {
	ACCESS_TOKEN_CREDENTIAL,
	ACCESS_TOKEN_CREDENTIAL_DISPLAY_NAME,
	AIRPORTS_CREDENTIAL,
	AIRPORTS_CREDENTIAL_DISPLAY_NAME,
} from './credentialNames';
import type { RetryPolicy } from './retry';
import { joinUrl, send, SendError, type FullResponse } from './send';

export { findNetworkCode, joinUrl } from './send';

export type TravelPricingContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IWebhookFunctions;

/** The airports reference (spec 4.7), the one endpoint that takes the API key. */
export const AIRPORTS_PATH = '/api/v1/references/airports';

/** How a node's requests are sent: shared by every request of one item (or one execution). */
export interface RequestSettings {
	retry?: RetryPolicy;
	/** The node execution's Concurrency: each send takes one of its slots, and its answer may
	 * move the adaptive limit. */
	limiter?: RequestLimiter;
	/** What a 429 that outlasts the retries tells the user to change (see throttleAdvice). */
	throttleAdvice?: string;
	itemIndex?: number;
}

export interface ApiRequestOptions extends RequestSettings {
	body?: IDataObject | IDataObject[];
	qs?: IDataObject;
	/** True where sending twice does what sending once does (lookups, searches, a PUT that
	 * replaces a whole configuration): a 500 is then retried too (see retry.ts). */
	idempotent?: boolean;
	/** What 403 and 404 name, for example "shop 42". */
	resource?: string;
}

/** Spec part 5: the airports reference takes the API key; every other endpoint the access token. */
export function credentialFor(endpoint: string): string {
	return endpoint.startsWith(AIRPORTS_PATH) ? AIRPORTS_CREDENTIAL : ACCESS_TOKEN_CREDENTIAL;
}


/**
 * The one function that talks to the service: picks the credential by endpoint, retries
 * throttling and passing failures within the policy (retry.ts), and turns every failure into a
 * NodeApiError a user can act on. A request that is not idempotent is sent again only when it
 * certainly never reached the service. The credential itself puts the secret on the wire, so none
 * passes through here.
 */
export async function apiRequest<T = unknown>(
	this: TravelPricingContext,
	method: IHttpRequestMethods,
	endpoint: string,
	options: ApiRequestOptions = {},
): Promise<T> {
	const credentialType = credentialFor(endpoint);
	const credentials = await this.getCredentials<{ baseUrl: string }>(credentialType);
	try {
		const { response } = await send(this, {
			credentialType,
			request: {
				method,
				url: joinUrl(credentials.baseUrl, endpoint),
				qs: options.qs,
				body: options.body,
				headers: { Accept: 'application/json' },
			},
			idempotent: options.idempotent === true,
			limiter: options.limiter,
			retry: options.retry,
			itemIndex: options.itemIndex,
		});
		return response?.body as T;
	} catch (error) {
		if (!(error instanceof SendError)) throw error as NodeApiError;
		const { failure, attempts, waitedMs } = error;
		switch (failure.kind) {
			case 'status':
				throw statusError(this.getNode(), failure.response, credentialType, options, attempts, waitedMs);
			case 'mayHaveArrived':
				if (failure.response) throw statusError(this.getNode(), failure.response, credentialType, options, attempts, waitedMs);
				throw mayHaveArrivedError(this.getNode(), method, endpoint, failure.code ?? 'network error', options.itemIndex);
			default:
				throw networkError(this.getNode(), failure.code, options.itemIndex, attempts, waitedMs);
		}
	}
}

/** The service's own reason from an error body; the spec leaves the body's shape open. */
export function serviceReason(body: unknown): string | undefined {
	if (typeof body === 'string') return body.trim() || undefined;
	if (!body || typeof body !== 'object') return undefined;
	const fields = body as Record<string, unknown>;
	for (const key of ['message', 'reason', 'error_description', 'detail', 'error', 'errors']) {
		const value = fields[key];
		if (typeof value === 'string' && value.trim() !== '') return value.trim();
		if (Array.isArray(value) && value.length > 0) return value.map((entry) => serviceReason(entry) ?? JSON.stringify(entry)).join('; ');
		if (value && typeof value === 'object') {
			const nested = serviceReason(value);
			if (nested) return nested;
		}
	}
	return undefined;
}

function statusError(
	node: INode,
	response: FullResponse,
	credentialType: string,
	options: ApiRequestOptions,
	attempts: number,
	waitedMs: number,
): NodeApiError {
	const status = response.statusCode;
	const reason = serviceReason(response.body);
	const resource = options.resource ?? 'the requested resource';
	const credentialName =
		credentialType === AIRPORTS_CREDENTIAL ? AIRPORTS_CREDENTIAL_DISPLAY_NAME : ACCESS_TOKEN_CREDENTIAL_DISPLAY_NAME;
	const tries = `${attempts} ${attempts === 1 ? 'attempt' : 'attempts'} over ${(waitedMs / 1000).toFixed(1)} s`;

	let message: string;
	let description: string | undefined;
	switch (status) {
		case 400:
			message = `The service rejected the request: ${reason ?? 'bad request'}`;
			description = 'Check the fields named in the message.';
			break;
		case 401:
			message = 'Authentication failed';
			description = `Check the ${credentialType === AIRPORTS_CREDENTIAL ? 'API key' : 'access token'} in the "${credentialName}" credential, and that the account's validity has not expired.`;
			break;
		case 403:
			message = `Access denied to ${resource}`;
			description = `This account may not change ${resource}.`;
			break;
		case 404:
			message = `${capitalize(resource)} was not found`;
			description = `Check the ID: the service has no ${resource}.`;
			break;
		case 429:
			message = `The service kept answering 429 Too Many Requests (${tries})`;
			description = options.throttleAdvice ?? 'The service is rate-limiting this account. Wait a while before trying again.';
			break;
		default:
			message = `The service failed with HTTP ${status}${reason ? `: ${reason}` : ''}`;
			description = attempts > 1 ? `Gave up after ${tries}.` : undefined;
	}
	return new NodeApiError(node, { status, body: response.body as JsonObject } as JsonObject, {
		message,
		description,
		httpCode: String(status),
		itemIndex: options.itemIndex,
	});
}

/**
 * Built from the socket code alone: the original error holds the request, Authorization header
 * included. n8n turns well-known codes (ECONNREFUSED...) into its own plain-language message.
 */
function networkError(
	node: INode,
	code: string | undefined,
	itemIndex: number | undefined,
	attempts = 1,
	waitedMs = 0,
): NodeApiError {
	const tries = attempts > 1 ? `Tried ${attempts} times over ${(waitedMs / 1000).toFixed(1)} s. ` : '';
	return new NodeApiError(node, { networkError: code ?? 'unknown' } as JsonObject, {
		message: `Could not reach the service (${code ?? 'network error'})`,
		description: `${tries}Check the Base URL in the credential and that the service is reachable from n8n.`,
		itemIndex,
	});
}

/**
 * A request that changes something (creates a schedule, registers a webhook) lost its connection
 * after it was sent. The service may have acted on it, so it is not sent again: the user checks.
 */
function mayHaveArrivedError(
	node: INode,
	method: string,
	endpoint: string,
	code: string,
	itemIndex: number | undefined,
): NodeApiError {
	return new NodeApiError(node, { networkError: code } as JsonObject, {
		// No socket code in the message: n8n would swap it for its own, which advises retrying.
		message: `The connection broke after ${method} ${endpoint} was sent: the request may have reached the service`,
		description: `The connection was lost (${code}) before the answer came. The node did not send the request again, so it cannot be done twice. Check in the service whether it took effect (for example, whether the schedule now exists) before running this item again.`,
		itemIndex,
	});
}

function capitalize(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}
