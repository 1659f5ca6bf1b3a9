import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { credentialsFor, runWorkflow, type CredentialSet, useSandbox, VALID_SHOP_UPDATE_BODY } from '../harness';
import { PROBE_NODE_TYPE, TransportProbe } from './probe';

const sandbox = useSandbox();

beforeEach(() => {
	sandbox.resetFaults();
	sandbox.clearRequests();
});

/** Sends one request through the transport from inside the engine; returns its output or error. */
async function probe(parameters: INodeParameters, credentials: CredentialSet = credentialsFor(sandbox)) {
	const run = await runWorkflow(
		{
			nodes: [
				{ id: '1', name: 'Items', type: 'harness.items', typeVersion: 1, position: [0, 0], parameters: { items: '[{}]' } },
				{
					id: '2',
					name: 'Probe',
					type: PROBE_NODE_TYPE,
					typeVersion: 1,
					position: [200, 0],
					parameters,
					credentials: {
						travelPricingApi: { id: 'a', name: 'Travel Pricing API' },
						travelPricingAirportsApi: { id: 'b', name: 'Travel Pricing Airports API' },
					},
				},
			],
			connections: { Items: { main: [[{ node: 'Probe', type: 'main', index: 0 }]] } },
		},
		{ credentials, extraNodeTypes: { [PROBE_NODE_TYPE]: new TransportProbe() } },
	);
	const task = run.data.resultData.runData.Probe?.[0];
	return { output: task?.data?.main?.[0]?.[0]?.json as IDataObject | undefined, error: task?.error };
}

function expectNoSecret(value: unknown) {
	const text = JSON.stringify(value) + String((value as Error | undefined)?.message) + String((value as { description?: string } | undefined)?.description);
	for (const secret of [sandbox.credentials.accessToken, sandbox.credentials.apiKey, 'wrong-token-4f9a']) {
		expect(text).not.toContain(secret);
	}
}

describe('throttling is retried after the Retry-After the service gives', () => {
	it('waits the announced second, then succeeds', async () => {
		sandbox.setFaults({ endpoints: { airports: { p429: 1, retryAfterSeconds: 1, times: 1 } } });
		const { output, error } = await probe({ method: 'GET', endpoint: '/api/v1/references/airports', qs: '{"page":1,"size":2}' });
		expect(error).toBeUndefined();
		expect(output?.airports).toHaveLength(2);

		const [first, second] = sandbox.requests({ endpoint: 'airports' });
		expect([first.status, second.status]).toEqual([429, 200]);
		expect(Date.parse(second.at) - Date.parse(first.at)).toBeGreaterThanOrEqual(1000);
	});

	it('says how often and how long it tried when the service never relents', async () => {
		sandbox.setFaults({ endpoints: { eventimpact: { p429: 1, retryAfterSeconds: 0 } } });
		const { error } = await probe({ method: 'POST', endpoint: '/eventimpact/', body: '{"eventStatusCode":0}', maxAttempts: 3, maxTotalWaitMs: 2000 });
		// "Retry-After: 0" still costs half a second of the budget per retry, and no attempt.
		expect(error?.message).toBe('The service kept answering 429 Too Many Requests (5 attempts over 2.0 s)');
		expect(sandbox.requests({ endpoint: 'eventimpact' })).toHaveLength(5);
	});

	it('counts Max Attempts only for failures without a Retry-After', async () => {
		sandbox.setFaults({ endpoints: { hotelinfo: { p500: 1 } } });
		const { error } = await probe({ method: 'POST', endpoint: '/hotelinfo', body: '{"hotelcode":100001}', maxAttempts: 3 });
		expect(error?.message).toMatch(/HTTP 500/);
		expect(error?.description).toMatch(/^Gave up after 3 attempts/);
		expect(sandbox.requests({ endpoint: 'hotelinfo' })).toHaveLength(3);
	});

	it('gives up before waiting longer than the total wait it may spend', async () => {
		sandbox.setFaults({ endpoints: { eventimpact: { p429: 1, retryAfterSeconds: 30 } } });
		const { error } = await probe({ method: 'POST', endpoint: '/eventimpact/', body: '{"eventStatusCode":0}', maxTotalWaitMs: 2000 });
		expect(error?.message).toMatch(/429/);
		expect(sandbox.requests({ endpoint: 'eventimpact' })).toHaveLength(1);
	});
});

describe('server failures are retried only where repeating is harmless', () => {
	it('retries a 500 on a lookup', async () => {
		sandbox.setFaults({ endpoints: { hotelinfo: { p500: 1, times: 2 } } });
		const { output, error } = await probe({ method: 'POST', endpoint: '/hotelinfo', body: '{"hotelcode":100001}' });
		expect(error).toBeUndefined();
		expect(output?.hotelcode).toBe(100001);
		expect(sandbox.requests({ endpoint: 'hotelinfo' }).map((r) => r.status)).toEqual([500, 500, 200]);
	});

	it('does not repeat a request that creates something after a 500', async () => {
		sandbox.setFaults({ endpoints: { webhook: { p500: 1, times: 1 } } });
		const { error } = await probe({
			method: 'POST',
			endpoint: '/webhook',
			body: '{"endpoint":"http://127.0.0.1:9/x","authType":"none"}',
			idempotent: false,
		});
		expect(error?.message).toMatch(/HTTP 500/);
		expect(sandbox.requests({ endpoint: 'webhook' })).toHaveLength(1);
	});
});

describe('a connection that breaks once the request was sent', () => {
	it('is not sent again when the request creates something', async () => {
		sandbox.setFaults({ endpoints: { webhook: { pDrop: 1, times: 1 } } });
		const { error } = await probe({
			method: 'POST',
			endpoint: '/webhook',
			body: '{"endpoint":"http://127.0.0.1:9/x","authType":"none"}',
			idempotent: false,
		});
		expect(error?.message).toBe('The connection broke after POST /webhook was sent: the request may have reached the service');
		expect(error?.description).toMatch(/\(ECONNRESET\).*did not send the request again.*Check in the service whether it took effect/);
		expect(sandbox.requests({ endpoint: 'webhook' })).toHaveLength(1);
		expect(sandbox.webhooks()).toHaveLength(1);
	});

	it('is sent again when sending twice does what sending once does', async () => {
		sandbox.setFaults({ endpoints: { shops: { pDrop: 1, times: 1 } } });
		const { output, error } = await probe({ method: 'PUT', endpoint: '/shops/7', body: JSON.stringify(VALID_SHOP_UPDATE_BODY) });
		expect(error).toBeUndefined();
		expect(output?.message).toBeDefined();
		expect(sandbox.requests({ endpoint: 'shops' }).map((request) => request.dropped ?? false)).toEqual([true, false]);
	});
});

describe('client errors are never retried and say what to do', () => {
	it("a 400 carries the service's own reason", async () => {
		const { error } = await probe({ method: 'POST', endpoint: '/schedule', body: '{"schedulename":"x"}', idempotent: false });
		expect(error?.message).toMatch(/^The service rejected the request: .*rateshopid/);
		expect(sandbox.requests({ endpoint: 'schedule' })).toHaveLength(1);
	});

	it('a 401 says to check the token or the account validity', async () => {
		const credentials = credentialsFor(sandbox);
		credentials.travelPricingApi = { baseUrl: sandbox.baseUrl, accessToken: 'wrong-token-4f9a' };
		const { error } = await probe({ method: 'POST', endpoint: '/hotelinfo', body: '{"hotelcode":100001}' }, credentials);
		expect(error?.message).toBe('Authentication failed');
		expect(error?.description).toMatch(/access token .*"Travel Pricing API".*validity/);
		expect(sandbox.requests()).toHaveLength(1);
		expectNoSecret(error);
	});

	it('a 401 on airports names the API key credential', async () => {
		const credentials = credentialsFor(sandbox);
		credentials.travelPricingAirportsApi = { baseUrl: sandbox.baseUrl, apiKey: 'wrong-token-4f9a' };
		const { error } = await probe({ method: 'GET', endpoint: '/api/v1/references/airports' }, credentials);
		expect(error?.description).toMatch(/API key .*"Travel Pricing Airports API"/);
		expectNoSecret(error);
	});

	it('a 403 names the resource the account may not change', async () => {
		const { error } = await probe({ method: 'PUT', endpoint: '/shops/901', body: JSON.stringify(VALID_SHOP_UPDATE_BODY), idempotent: false });
		expect(error?.message).toBe('Access denied to shop 901');
		expect(sandbox.requests({ endpoint: 'shops' })).toHaveLength(1);
	});

	it('a 404 names the resource that does not exist', async () => {
		const { error } = await probe({ method: 'PUT', endpoint: '/shops/4242', body: JSON.stringify(VALID_SHOP_UPDATE_BODY), idempotent: false });
		expect(error?.message).toMatch(/not found/);
		expect(sandbox.requests({ endpoint: 'shops' })).toHaveLength(1);
	});
});

describe('no secret appears in any error', () => {
	it('keeps the token out of network errors', async () => {
		const credentials = { travelPricingApi: { baseUrl: 'http://127.0.0.1:9', accessToken: sandbox.credentials.accessToken } };
		const { error } = await probe({ method: 'POST', endpoint: '/hotelinfo', body: '{"hotelcode":1}', maxAttempts: 1 }, credentials);
		expect(error?.message).toMatch(/refused the connection/);
		expect(error?.description).toMatch(/Check the Base URL/);
		expectNoSecret(error);
	});

	it('keeps the token out of every service error', async () => {
		for (const parameters of [
			{ method: 'POST', endpoint: '/schedule', body: '{}', idempotent: false },
			{ method: 'PUT', endpoint: '/shops/901', body: JSON.stringify(VALID_SHOP_UPDATE_BODY), idempotent: false },
			{ method: 'GET', endpoint: '/hoteldemanddata/1', maxAttempts: 1 },
		]) {
			const { error } = await probe(parameters);
			expect(error).toBeDefined();
			expectNoSecret(error);
		}
	});
});
