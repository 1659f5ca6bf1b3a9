import * as crypto from 'crypto';

// Wrapped so the test can see the buffers that reach the constant-time comparison.
jest.mock('crypto', () => {
	const actual = jest.requireActual<typeof import('crypto')>('crypto');
	return { ...actual, timingSafeEqual: jest.fn(actual.timingSafeEqual) };
});

import {
	deliveryAuthFrom,
	generatedSecret,
	isAuthenticDelivery,
	registrationFingerprint,
	secretsMatch,
	webhookRegistration,
	type DeliveryAuth,
} from '../../nodes/RateTrigger/deliveryAuth';
import { FieldError } from '../../nodes/shared/errors';

const basic = (userName: string, password: string) =>
	`Basic ${Buffer.from(`${userName}:${password}`).toString('base64')}`;

describe('a generated secret is derived, never stored', () => {
	it('is the same for the same access token and webhook ID, so a separate webhook process can recompute it', () => {
		expect(generatedSecret('token-a', 'hook-1')).toBe(generatedSecret('token-a', 'hook-1'));
	});

	it('differs for another webhook or another access token', () => {
		const secret = generatedSecret('token-a', 'hook-1');
		expect(generatedSecret('token-a', 'hook-2')).not.toBe(secret);
		expect(generatedSecret('token-b', 'hook-1')).not.toBe(secret);
	});

	it('is URL-safe text long enough to resist guessing and does not contain the access token', () => {
		const secret = generatedSecret('demo-access-token', 'hook-1');
		expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
		expect(secret).not.toContain('demo-access-token');
	});

	it('is registered as a bearer token', () => {
		const auth = deliveryAuthFrom({ authentication: 'generatedSecret' }, () => 'derived');
		expect(webhookRegistration('https://n8n.example/webhook/x/rate-records', auth)).toEqual({
			endpoint: 'https://n8n.example/webhook/x/rate-records',
			authType: 'bearer',
			token: 'derived',
		});
	});
});

describe('each authentication choice becomes the POST /webhook body of spec 4.6', () => {
	const endpoint = 'https://n8n.example/webhook/abc/rate-records';

	it('basic sends userName and password', () => {
		const auth = deliveryAuthFrom({ authentication: 'basic', userName: 'feed', password: 'p:w d' }, () => '');
		expect(webhookRegistration(endpoint, auth)).toEqual({ endpoint, authType: 'basic', userName: 'feed', password: 'p:w d' });
	});

	it('bearer sends the token', () => {
		const auth = deliveryAuthFrom({ authentication: 'bearer', token: 't0k3n' }, () => '');
		expect(webhookRegistration(endpoint, auth)).toEqual({ endpoint, authType: 'bearer', token: 't0k3n' });
	});

	it('header sends headerName (our name for the field the spec leaves open) and the key as token', () => {
		const auth = deliveryAuthFrom({ authentication: 'header', headerName: 'X-Rate-Key', token: 'k' }, () => '');
		expect(webhookRegistration(endpoint, auth)).toEqual({ endpoint, authType: 'header', headerName: 'X-Rate-Key', token: 'k' });
	});

	it('none sends no credentials', () => {
		expect(webhookRegistration(endpoint, deliveryAuthFrom({ authentication: 'none' }, () => ''))).toEqual({
			endpoint,
			authType: 'none',
		});
	});
});

describe('authentication settings are checked before anything is registered', () => {
	it.each([
		[{ authentication: 'basic', userName: '', password: 'x' }, 'User Name'],
		[{ authentication: 'basic', userName: 'a:b', password: 'x' }, 'User Name'],
		[{ authentication: 'basic', userName: 'a', password: '' }, 'Password'],
		[{ authentication: 'bearer', token: '   ' }, 'Token'],
		[{ authentication: 'header', headerName: 'X Key', token: 'k' }, 'Header Name'],
		[{ authentication: 'header', headerName: 'X-Key', token: '' }, 'Header Value'],
	] as const)('%j names the field %s', (parameters, field) => {
		expect(() => deliveryAuthFrom(parameters, () => '')).toThrow(FieldError);
		try {
			deliveryAuthFrom(parameters, () => '');
		} catch (error) {
			expect((error as FieldError).field).toBe(field);
		}
	});

	it('never puts a secret into the error', () => {
		try {
			deliveryAuthFrom({ authentication: 'header', headerName: 'Bad Name', token: 'super-secret-key' }, () => '');
		} catch (error) {
			expect((error as Error).message).not.toContain('super-secret-key');
		}
	});
});

describe('a delivery is let in only with the registered authentication', () => {
	const bearer: DeliveryAuth = { type: 'bearer', token: 'right-token' };
	const basicAuth: DeliveryAuth = { type: 'basic', userName: 'feed', password: 'pa:ss' };
	const header: DeliveryAuth = { type: 'header', headerName: 'X-API-Key', token: 'right-key' };

	it('accepts the right bearer token, whatever the case of the scheme word', () => {
		expect(isAuthenticDelivery({ authorization: 'Bearer right-token' }, bearer)).toBe(true);
		expect(isAuthenticDelivery({ authorization: 'bearer   right-token ' }, bearer)).toBe(true);
	});

	it('refuses a wrong, longer, shorter, empty or missing bearer token', () => {
		for (const authorization of ['Bearer wrong-token', 'Bearer right-token-and-more', 'Bearer r', 'Bearer ', 'right-token', 'Basic right-token']) {
			expect(isAuthenticDelivery({ authorization }, bearer)).toBe(false);
		}
		expect(isAuthenticDelivery({}, bearer)).toBe(false);
	});

	it('accepts the right basic credentials, a colon inside the password included', () => {
		expect(isAuthenticDelivery({ authorization: basic('feed', 'pa:ss') }, basicAuth)).toBe(true);
	});

	it('refuses wrong basic credentials and malformed basic headers', () => {
		expect(isAuthenticDelivery({ authorization: basic('feed', 'pa:sS') }, basicAuth)).toBe(false);
		expect(isAuthenticDelivery({ authorization: basic('feed', 'pa:ss ') }, basicAuth)).toBe(false);
		expect(isAuthenticDelivery({ authorization: 'Basic !!!' }, basicAuth)).toBe(false);
		expect(isAuthenticDelivery({ authorization: 'Bearer pa:ss' }, basicAuth)).toBe(false);
	});

	it('reads the named header case-insensitively, as Node.js lower-cases header names', () => {
		expect(isAuthenticDelivery({ 'x-api-key': 'right-key' }, header)).toBe(true);
		expect(isAuthenticDelivery({ 'x-api-key': 'wrong-key' }, header)).toBe(false);
		expect(isAuthenticDelivery({ authorization: 'right-key' }, header)).toBe(false);
	});

	it('refuses a header sent twice', () => {
		expect(isAuthenticDelivery({ 'x-api-key': ['right-key', 'right-key'] }, header)).toBe(false);
	});

	it('lets everything in with None', () => {
		expect(isAuthenticDelivery({}, { type: 'none' })).toBe(true);
	});
});

describe('secrets are compared in constant time', () => {
	it('compares digests of equal length, so secrets of unequal length neither throw nor match', () => {
		const spy = crypto.timingSafeEqual as jest.MockedFunction<typeof crypto.timingSafeEqual>;
		spy.mockClear();
		expect(secretsMatch('short', 'a-much-longer-expected-secret')).toBe(false);
		expect(secretsMatch('x'.repeat(10_000), 'short')).toBe(false);
		expect(secretsMatch('', 'short')).toBe(false);
		expect(secretsMatch(undefined, 'short')).toBe(false);
		expect(secretsMatch('same', 'same')).toBe(true);
		for (const [presented, expected] of spy.mock.calls) {
			expect((presented as Buffer).length).toBe(32);
			expect((expected as Buffer).length).toBe(32);
		}
		expect(spy).toHaveBeenCalledTimes(5);
	});

	it('does not accept a missing secret even when the expected one is empty', () => {
		expect(secretsMatch(undefined, '')).toBe(false);
	});
});

describe('a registration fingerprint tells whether the service must be told again', () => {
	const registration = webhookRegistration('https://n8n.example/webhook/a/rate-records', { type: 'bearer', token: 't' });
	const fingerprint = registrationFingerprint(registration, 'https://api.example', 'access');

	it('stays the same for the same URL, secret, service and account', () => {
		expect(registrationFingerprint({ ...registration }, 'https://api.example', 'access')).toBe(fingerprint);
	});

	it('changes with the URL, the secret, the auth type, the service address or the account', () => {
		expect(registrationFingerprint({ ...registration, endpoint: 'https://n8n.example/webhook-test/a/rate-records' }, 'https://api.example', 'access')).not.toBe(fingerprint);
		expect(registrationFingerprint({ ...registration, token: 'u' }, 'https://api.example', 'access')).not.toBe(fingerprint);
		expect(registrationFingerprint({ ...registration, authType: 'header', headerName: 'X' }, 'https://api.example', 'access')).not.toBe(fingerprint);
		expect(registrationFingerprint(registration, 'https://other.example', 'access')).not.toBe(fingerprint);
		expect(registrationFingerprint(registration, 'https://api.example', 'other-access')).not.toBe(fingerprint);
	});

	it('does not contain the secret', () => {
		const withSecret = webhookRegistration('https://n8n.example/x', { type: 'basic', userName: 'u', password: 'hunter2' });
		expect(registrationFingerprint(withSecret, 'https://api.example', 'access')).not.toContain('hunter2');
	});
});
