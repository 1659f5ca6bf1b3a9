import type { AccountId, CredentialKind } from '../types';
import { ApiError } from './errors';

/** Demo credentials; printed by the CLI and documented in docs/sandbox.md. */
export const CREDENTIALS = {
	accessToken: 'demo-access-token',
	apiKey: 'demo-airports-key',
	expiredToken: 'expired-access-token',
	otherAccountToken: 'other-account-token',
	/** Airports key of an expired account (sandbox extra). */
	expiredApiKey: 'expired-airports-key',
	/** Airports key of the other account (sandbox extra). */
	otherAccountApiKey: 'other-airports-key',
} as const;

const BEARER_TOKENS: Record<string, AccountId> = {
	[CREDENTIALS.accessToken]: 'demo',
	[CREDENTIALS.otherAccountToken]: 'other',
};
const API_KEYS: Record<string, AccountId> = {
	[CREDENTIALS.apiKey]: 'demo',
	[CREDENTIALS.otherAccountApiKey]: 'other',
};
const EXPIRED = new Set<string>([CREDENTIALS.expiredToken, CREDENTIALS.expiredApiKey]);

export type AuthScheme = 'bearer' | 'apiKey';

export interface AuthOutcome {
	kind: CredentialKind;
	account: AccountId | null;
	/** Identifies the credential for rate limiting without keeping the secret in logs. */
	limiterKey: string | null;
}

/**
 * Spec part 5: `Authorization: Bearer <token>` everywhere but airports, which takes the bare API key.
 * The wrong form for an endpoint (a Bearer prefix on airports, a bare token elsewhere) is a failed authentication.
 */
export function identify(header: string | undefined, scheme: AuthScheme): AuthOutcome {
	if (!header || header.trim() === '') return { kind: 'missing', account: null, limiterKey: null };
	const value = header.trim();
	const bearer = /^Bearer\s+(\S+)$/i.exec(value);
	const secret = scheme === 'bearer' ? bearer?.[1] : bearer ? undefined : value;
	if (secret === undefined) return { kind: 'invalid', account: null, limiterKey: null };
	if (EXPIRED.has(secret)) return { kind: 'expired', account: null, limiterKey: null };
	const account = (scheme === 'bearer' ? BEARER_TOKENS : API_KEYS)[secret];
	if (!account) return { kind: 'invalid', account: null, limiterKey: null };
	return { kind: scheme, account, limiterKey: `${scheme}:${account}` };
}

export function authError(outcome: AuthOutcome, scheme: AuthScheme): ApiError {
	const expected = scheme === 'bearer' ? 'Authorization: Bearer <access token>' : 'Authorization: <API key> (no scheme word)';
	switch (outcome.kind) {
		case 'missing':
			return new ApiError(401, `authentication required: send ${expected}`);
		case 'expired':
			return new ApiError(401, 'account validity expired');
		default:
			return new ApiError(401, `authentication failed: expected ${expected}`);
	}
}
