import type { AuthType, WebhookRegistration } from '../types';
import { badRequest } from './errors';
import { optionalString, rejectUnknownFields, requireBody, requiredString } from './fields';
import type { ApiHandler } from './types';

/** authType is case-sensitive: only these lowercase words, as the spec writes them. */
export const AUTH_TYPES: readonly AuthType[] = ['none', 'basic', 'bearer', 'header'];

type CredentialField = 'userName' | 'password' | 'token' | 'headerName';

/** What each authType needs; `headerName` is our name for the field the spec leaves "not shown". */
const NEEDED: Record<AuthType, CredentialField[]> = {
	none: [],
	basic: ['userName', 'password'],
	bearer: ['token'],
	header: ['headerName', 'token'],
};
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers a delivery sets itself and a registration may not override. */
const RESERVED_HEADERS = ['content-type', 'content-length', 'host', 'transfer-encoding'];

export function parseWebhook(input: unknown): WebhookRegistration {
	const body = requireBody(input);
	rejectUnknownFields(body, ['endpoint', 'authType', 'userName', 'password', 'token', 'headerName']);
	const endpoint = requiredString(body, 'endpoint');
	let url: URL;
	try {
		url = new URL(endpoint);
	} catch {
		throw badRequest(`endpoint must be an absolute http(s) URL, got '${endpoint}'`);
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest(`endpoint must use http or https, got '${url.protocol}'`);
	const authType = requiredString(body, 'authType');
	if (!(AUTH_TYPES as readonly string[]).includes(authType)) throw badRequest(`authType must be one of ${AUTH_TYPES.join(', ')} (lowercase), got '${authType}'`);
	const registration: WebhookRegistration = { endpoint, authType: authType as AuthType };
	for (const field of ['userName', 'password', 'token', 'headerName'] as const) {
		const value = optionalString(body, field);
		if (value !== undefined) registration[field] = value;
	}
	for (const field of NEEDED[registration.authType]) {
		if (!registration[field]) throw badRequest(`${field} is required when authType is '${authType}'`);
	}
	const headerName = registration.headerName;
	if (registration.authType === 'header' && headerName !== undefined) {
		if (!HEADER_NAME.test(headerName)) throw badRequest(`headerName '${headerName}' is not a valid HTTP header name`);
		if (RESERVED_HEADERS.includes(headerName.toLowerCase())) throw badRequest(`headerName '${headerName}' is reserved`);
	}
	return registration;
}

/** POST /webhook: a one-time setup; answers 201 with a message. */
export const createWebhook: ApiHandler = (call, { webhooks, clock }) => {
	const registration = parseWebhook(call.body);
	webhooks.register(call.account, registration, new Date(clock.now()).toISOString());
	return { status: 201, body: { message: 'Webhook created successfully' } };
};
