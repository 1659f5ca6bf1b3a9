import { createHash, createHmac, timingSafeEqual } from 'crypto';

import { FieldError } from '../shared/errors';
import { parseRequiredText } from '../shared/fields';

export type WebhookAuthType = 'none' | 'basic' | 'bearer' | 'header';

export interface WebhookRegistration {
	endpoint: string;
	authType: WebhookAuthType;
	userName?: string;
	password?: string;
	token?: string;
	/** Not named by the spec: the header that carries `token` when authType is `header`. */
	headerName?: string;
}

/**
 * How the service proves a rate delivery is its own (spec part 5: the `authType` registered with
 * the webhook). The secrets here come from the node's parameters or are derived from the
 * credential; none is ever stored in workflow static data.
 */
export type DeliveryAuth =
	| { type: 'none' }
	| { type: 'basic'; userName: string; password: string }
	| { type: 'bearer'; token: string }
	| { type: 'header'; headerName: string; token: string };

/** The node's "Authentication" choices; a generated secret goes on the wire as `bearer`. */
export type DeliveryAuthChoice = 'generatedSecret' | 'basic' | 'bearer' | 'header' | 'none';

export interface DeliveryAuthParameters {
	authentication: DeliveryAuthChoice;
	userName?: string;
	password?: string;
	token?: string;
	headerName?: string;
}

/** Request headers as Node.js hands them over: lower-case names, repeated ones as arrays. */
export type DeliveryHeaders = Record<string, string | string[] | undefined>;

// RFC 9110 5.1: a field name is a token.
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const BEARER_PREFIX = /^Bearer[ \t]+/i;
const BASIC = /^Basic[ \t]+([A-Za-z0-9+/=_-]+)[ \t]*$/i;

/**
 * The secret the node hands the service when the user picks "Generated Secret". It is derived,
 * never stored: an HMAC of the node's webhook ID keyed with the credential's access token. The
 * webhook ID is part of both the production and the test URL and is all a separate webhook
 * process (n8n queue mode) needs to recompute it, while nobody without the token can.
 */
export function generatedSecret(accessToken: string, webhookId: string): string {
	return createHmac('sha256', accessToken)
		.update(`travelPricingRateTrigger:${webhookId}`)
		.digest('base64url');
}

/** Checks the user's choices and turns them into the authentication each delivery must carry. */
export function deliveryAuthFrom(
	parameters: DeliveryAuthParameters,
	derivedSecret: () => string,
): DeliveryAuth {
	switch (parameters.authentication) {
		case 'generatedSecret':
			return { type: 'bearer', token: derivedSecret() };
		case 'basic': {
			const userName = parseRequiredText('User Name', parameters.userName);
			// RFC 7617: the user-id ends at the first colon, so one inside it could never match.
			if (userName.includes(':')) {
				throw new FieldError('User Name', userName, 'must not contain a colon (:)');
			}
			return { type: 'basic', userName, password: requiredSecret('Password', parameters.password) };
		}
		case 'bearer':
			return { type: 'bearer', token: requiredSecret('Token', parameters.token) };
		case 'header': {
			const headerName = parseRequiredText('Header Name', parameters.headerName);
			if (!HEADER_NAME.test(headerName)) {
				throw new FieldError(
					'Header Name',
					headerName,
					'must be a single HTTP header name such as X-API-Key (letters, digits and - _ . only, no spaces)',
				);
			}
			return { type: 'header', headerName, token: requiredSecret('Header Value', parameters.token) };
		}
		case 'none':
			return { type: 'none' };
		default:
			throw new FieldError('Authentication', parameters.authentication, 'is not one of the offered choices');
	}
}

/** Secrets are taken as typed (spaces may be part of them) and never echoed in the error. */
function requiredSecret(field: string, value: unknown): string {
	if (typeof value !== 'string' || value.trim() === '') {
		throw new FieldError(field, '', 'is required');
	}
	return value;
}

/** The body of POST /webhook (spec 4.6); `headerName` is our answer to the spec's open question. */
export function webhookRegistration(endpoint: string, auth: DeliveryAuth): WebhookRegistration {
	switch (auth.type) {
		case 'none':
			return { endpoint, authType: 'none' };
		case 'basic':
			return { endpoint, authType: 'basic', userName: auth.userName, password: auth.password };
		case 'bearer':
			return { endpoint, authType: 'bearer', token: auth.token };
		case 'header':
			return { endpoint, authType: 'header', headerName: auth.headerName, token: auth.token };
	}
}

/**
 * What the node remembers about a registration instead of its secrets. Keyed with the access
 * token, so a weak user-typed password cannot be guessed back from it, and any change of URL,
 * secret, service address or account gives a different fingerprint.
 */
export function registrationFingerprint(
	registration: WebhookRegistration,
	serviceUrl: string,
	accessToken: string,
): string {
	const parts = [
		serviceUrl,
		registration.endpoint,
		registration.authType,
		registration.userName ?? '',
		registration.password ?? '',
		registration.token ?? '',
		registration.headerName ?? '',
	];
	return createHmac('sha256', accessToken).update(JSON.stringify(parts)).digest('hex');
}

/**
 * Compares a presented secret with the expected one in constant time. Both sides are hashed
 * first, so they always have the same length: `timingSafeEqual` neither throws on secrets of
 * different lengths nor reveals the expected length through its timing.
 */
export function secretsMatch(presented: string | undefined, expected: string): boolean {
	const presentedDigest = createHash('sha256')
		.update(presented ?? '')
		.digest();
	const expectedDigest = createHash('sha256').update(expected).digest();
	return timingSafeEqual(presentedDigest, expectedDigest) && presented !== undefined;
}

function singleHeader(headers: DeliveryHeaders, name: string): string | undefined {
	const value = headers[name.toLowerCase()];
	return typeof value === 'string' ? value : undefined;
}

function bearerToken(authorization: string | undefined): string | undefined {
	const prefix = authorization === undefined ? null : BEARER_PREFIX.exec(authorization);
	if (!authorization || !prefix) return undefined;
	return authorization.slice(prefix[0].length).trim();
}

/** Whether a delivery carries the authentication registered for it. */
export function isAuthenticDelivery(headers: DeliveryHeaders, auth: DeliveryAuth): boolean {
	switch (auth.type) {
		case 'none':
			return true;
		case 'bearer': {
			return secretsMatch(bearerToken(singleHeader(headers, 'authorization')), auth.token);
		}
		case 'basic': {
			const encoded = BASIC.exec(singleHeader(headers, 'authorization') ?? '')?.[1];
			const presented = encoded === undefined ? undefined : Buffer.from(encoded, 'base64').toString('utf8');
			return secretsMatch(presented, `${auth.userName}:${auth.password}`);
		}
		case 'header':
			return secretsMatch(singleHeader(headers, auth.headerName), auth.token);
	}
}

/** The challenge a 401 carries, so a person testing with curl sees which scheme is expected. */
export function authChallenge(auth: DeliveryAuth): Record<string, string> {
	if (auth.type === 'basic') return { 'WWW-Authenticate': 'Basic realm="rate-records", charset="UTF-8"' };
	if (auth.type === 'bearer') return { 'WWW-Authenticate': 'Bearer realm="rate-records"' };
	return {};
}
