import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { TravelPricingRateTrigger } from '../../nodes/RateTrigger/TravelPricingRateTrigger.node';
import { ACCESS_TOKEN_CREDENTIAL } from '../../nodes/shared/credentialNames';
import { generatedSecret } from '../../nodes/RateTrigger/deliveryAuth';
import {
	hookContext,
	PRODUCTION_URL,
	RecordedResponse,
	TEST_URL,
	webhookContext,
	type TriggerSetup,
} from './fakeContexts';
import { rateRecord } from '../harness/rateRecords';

const trigger = new TravelPricingRateTrigger();
const hooks = trigger.webhookMethods.default;
const credentials = { baseUrl: 'https://api.example', accessToken: 'demo-access-token' };
const secret = generatedSecret(credentials.accessToken, '5f0c1d2e-hook');

function setup(overrides: TriggerSetup = {}): TriggerSetup {
	return { credentials, staticData: {}, parameters: { registration: 'automatic', authentication: 'generatedSecret' }, ...overrides };
}

async function deliver(
	triggerSetup: TriggerSetup,
	delivery: { headers?: Record<string, string>; body?: unknown; rawBody?: Buffer },
): Promise<{ result: IWebhookResponseData; response: RecordedResponse }> {
	const response = new RecordedResponse();
	const result = await trigger.webhook.call(webhookContext(triggerSetup, { ...delivery, response }));
	return { result, response };
}

describe('the node is a webhook trigger n8n can register', () => {
	it('declares one POST webhook answered on receipt at the path rate-records, with the body the node returns', () => {
		// n8n (2.8 to 2.41) answers with a truthy responseData as it is, and a missing one means the
		// literal "firstEntryJson"; only a falsy one lets the node's webhookResponse through.
		expect(trigger.description.webhooks).toEqual([
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', responseData: '', path: 'rate-records' },
		]);
		expect(trigger.description.name).toBe('travelPricingRateTrigger');
		expect(trigger.description.inputs).toEqual([]);
	});

	it('requires the travelPricingApi credential for automatic registration', () => {
		expect(ACCESS_TOKEN_CREDENTIAL).toBe('travelPricingApi');
		expect(trigger.description.credentials).toEqual([
			{ name: ACCESS_TOKEN_CREDENTIAL, required: true, displayOptions: { show: { registration: ['automatic'] } } },
		]);
	});

	it('keeps user-entered secrets in password fields', () => {
		const secretFields = trigger.description.properties.filter((property) => ['password', 'token'].includes(property.name));
		expect(secretFields.length).toBeGreaterThan(0);
		for (const field of secretFields) expect(field.typeOptions?.password).toBe(true);
	});
});

describe('activation registers the node\'s own URL with POST /webhook', () => {
	it('registers the production URL with the generated secret as a bearer token', async () => {
		const context = hookContext(setup());
		expect(await hooks.checkExists.call(context)).toBe(false);
		expect(await hooks.create.call(context)).toBe(true);
		expect(context.requests).toHaveLength(1);
		expect(context.requests[0]).toMatchObject({
			method: 'POST',
			url: 'https://api.example/webhook',
			body: { endpoint: PRODUCTION_URL, authType: 'bearer', token: secret },
		});
	});

	it('registers the test URL while n8n listens for a test event', async () => {
		const context = hookContext(setup({ webhookUrl: TEST_URL, mode: 'manual', activation: 'manual' }));
		await hooks.create.call(context);
		expect(context.requests[0].body).toMatchObject({ endpoint: TEST_URL, authType: 'bearer', token: secret });
	});

	it.each([
		[{ authentication: 'basic', userName: 'feed', password: 'pw' }, { authType: 'basic', userName: 'feed', password: 'pw' }],
		[{ authentication: 'bearer', token: 'my-token' }, { authType: 'bearer', token: 'my-token' }],
		[{ authentication: 'header', headerName: 'X-Rate-Key', token: 'k' }, { authType: 'header', headerName: 'X-Rate-Key', token: 'k' }],
		[{ authentication: 'none' }, { authType: 'none' }],
	])('registers %j as %j', async (authParameters, expected) => {
		const context = hookContext(setup({ parameters: { registration: 'automatic', ...authParameters } }));
		await hooks.create.call(context);
		expect(context.requests[0].body).toEqual({ endpoint: PRODUCTION_URL, ...expected });
	});

	it('fails activation with the service\'s reason when registration is refused, and remembers nothing', async () => {
		const staticData: IDataObject = {};
		const context = hookContext(
			setup({ staticData, send: async () => ({ statusCode: 401, headers: {}, body: { error: true, status: 401, message: 'invalid token' } }) }),
		);
		await expect(hooks.create.call(context)).rejects.toThrow(NodeApiError);
		expect(staticData).toEqual({});
	});
});

describe('checkExists answers from what this node registered', () => {
	it('is true after create with the same URL and secret, so a restart registers nothing', async () => {
		const staticData: IDataObject = {};
		await hooks.create.call(hookContext(setup({ staticData })));
		const restarted = hookContext(setup({ staticData, activation: 'init' }));
		expect(await hooks.checkExists.call(restarted)).toBe(true);
		expect(restarted.requests).toEqual([]);
	});

	it('keeps only the URL and a fingerprint in static data, never a secret', async () => {
		const staticData: IDataObject = {};
		await hooks.create.call(hookContext(setup({ staticData, parameters: { registration: 'automatic', authentication: 'bearer', token: 'my-token' } })));
		expect(Object.keys(staticData).sort()).toEqual(['registeredEndpoint', 'registrationFingerprint']);
		const stored = JSON.stringify(staticData);
		for (const secretText of ['my-token', secret, credentials.accessToken]) expect(stored).not.toContain(secretText);
	});

	it('is false when the URL changed', async () => {
		const staticData: IDataObject = {};
		await hooks.create.call(hookContext(setup({ staticData })));
		expect(await hooks.checkExists.call(hookContext(setup({ staticData, webhookUrl: 'https://new-host.example/webhook/5f0c1d2e-hook/rate-records' })))).toBe(false);
	});

	it('is false when the secret or the authentication changed', async () => {
		const staticData: IDataObject = {};
		const bearer = { registration: 'automatic', authentication: 'bearer', token: 'one' };
		await hooks.create.call(hookContext(setup({ staticData, parameters: bearer })));
		expect(await hooks.checkExists.call(hookContext(setup({ staticData, parameters: bearer })))).toBe(true);
		expect(await hooks.checkExists.call(hookContext(setup({ staticData, parameters: { ...bearer, token: 'two' } })))).toBe(false);
		expect(await hooks.checkExists.call(hookContext(setup({ staticData, parameters: { registration: 'automatic', authentication: 'none' } })))).toBe(false);
	});

	it('is false when the credential\'s access token changed, since the generated secret changes with it', async () => {
		const staticData: IDataObject = {};
		await hooks.create.call(hookContext(setup({ staticData })));
		const rotated = hookContext(setup({ staticData, credentials: { ...credentials, accessToken: 'rotated-token' } }));
		expect(await hooks.checkExists.call(rotated)).toBe(false);
	});
});

describe('deactivation forgets the registration', () => {
	it('clears static data and returns true, so the next activation registers again', async () => {
		const staticData: IDataObject = {};
		await hooks.create.call(hookContext(setup({ staticData })));
		const context = hookContext(setup({ staticData }));
		expect(await hooks.delete.call(context)).toBe(true);
		expect(staticData).toEqual({});
		expect(context.requests).toEqual([]);
		expect(await hooks.checkExists.call(hookContext(setup({ staticData })))).toBe(false);
	});
});

describe('manual registration skips the service', () => {
	const manual = { registration: 'manual', authentication: 'bearer', token: 'typed-by-hand' };

	it('reports the webhook as existing, so n8n never calls create, and sends nothing', async () => {
		const context = hookContext(setup({ parameters: manual, credentials: undefined }));
		expect(await hooks.checkExists.call(context)).toBe(true);
		expect(await hooks.create.call(context)).toBe(true);
		expect(context.requests).toEqual([]);
	});

	it('verifies deliveries with the secret the user registered by hand', async () => {
		const manualSetup = setup({ parameters: manual, credentials: undefined });
		const { result } = await deliver(manualSetup, { headers: { authorization: 'Bearer typed-by-hand' }, body: rateRecord() });
		expect(result.webhookResponse).toEqual({ received: 1, emitted: 1 });
	});

	it('refuses a generated secret, which nobody could copy', async () => {
		const context = hookContext(setup({ parameters: { registration: 'manual', authentication: 'generatedSecret' } }));
		await expect(hooks.checkExists.call(context)).rejects.toThrow('Generated Secret needs Automatic registration');
	});
});

describe('bad settings stop activation with the field and value named', () => {
	it('names a malformed filter', async () => {
		const context = hookContext(setup({ parameters: { registration: 'automatic', authentication: 'none', filters: { hotelCodes: '100001, abc' } } }));
		const error = await hooks.checkExists.call(context).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toBe('Invalid Hotel Codes "100001, abc": "abc" is not a whole number; separate codes with commas');
	});

	it.each([
		[{ maxAttempts: 0 }, 'Invalid Max Attempts "0": must be a whole number from 1 to 10'],
		[{ maxAttempts: 'many' }, 'Invalid Max Attempts "many": must be a whole number from 1 to 10'],
		[{ maxRetryWaitSeconds: -1 }, 'Invalid Max Retry Wait (Seconds) "-1": must be a number of 0 or more'],
	])('names a bad retry option %j when activation starts, before anything is registered', async (options, message) => {
		for (const registration of ['automatic', 'manual']) {
			const context = hookContext(setup({ parameters: { registration, authentication: 'none', options } }));
			const error = await hooks.checkExists.call(context).catch((caught: unknown) => caught);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect((error as Error).message).toBe(message);
			expect((error as NodeOperationError).description).toMatch(/^Fix the "Max (Attempts|Retry Wait \(Seconds\))" field of the trigger/);
			await expect(hooks.create.call(context)).rejects.toThrow(message);
			expect(context.requests).toEqual([]);
		}
	});

	it('names a missing bearer token without registering anything', async () => {
		const context = hookContext(setup({ parameters: { registration: 'automatic', authentication: 'bearer', token: '' } }));
		await expect(hooks.create.call(context)).rejects.toThrow('Invalid Token (empty): is required');
		expect(context.requests).toEqual([]);
	});
});

describe('each delivery is answered at once and starts the workflow only for wanted records', () => {
	const authorized = { authorization: `Bearer ${secret}` };

	it('returns one item per record and leaves n8n to answer received and emitted once the execution exists', async () => {
		const { result, response } = await deliver(setup(), { headers: authorized, body: [rateRecord({ recordId: 'a' }), rateRecord({ recordId: 'b' })] });
		expect(result.webhookResponse).toEqual({ received: 2, emitted: 2 });
		expect(result.noWebhookResponse).toBeUndefined();
		expect(response.ended).toBe(false);
		expect(result.workflowData).toEqual([[{ json: rateRecord({ recordId: 'a' }) }, { json: rateRecord({ recordId: 'b' }) }]]);
	});

	it('verifies the generated secret without static data, as a separate webhook process in queue mode must', async () => {
		const { result } = await deliver(setup({ staticData: {} }), { headers: authorized, body: rateRecord() });
		expect(result.webhookResponse).toEqual({ received: 1, emitted: 1 });
	});

	it('answers 401 and starts nothing for a wrong secret', async () => {
		const { result, response } = await deliver(setup(), { headers: { authorization: 'Bearer guessed' }, body: rateRecord() });
		expect(response.status).toBe(401);
		expect(result).toEqual({ noWebhookResponse: true });
	});

	it('answers 400 with the reason and starts nothing for an invalid record', async () => {
		const { result, response } = await deliver(setup(), { headers: authorized, body: rateRecord({ checkIn: 'soon' }) });
		expect(response.status).toBe(400);
		expect(response.json()).toMatchObject({ message: expect.stringContaining('checkIn must be an ISO 8601 timestamp') });
		expect(result.workflowData).toBeUndefined();
	});

	it('lets invalid records through, marked, when the user chose so', async () => {
		const passing = setup({ parameters: { registration: 'automatic', authentication: 'generatedSecret', options: { passInvalidRecords: true } } });
		const { result } = await deliver(passing, { headers: authorized, body: rateRecord({ checkIn: 'soon' }) });
		expect(result.workflowData?.[0][0].json._validationErrors).toEqual(['checkIn must be an ISO 8601 timestamp such as 2025-03-01T00:00:00Z']);
	});

	it('answers 200 and starts nothing when the filters drop every record', async () => {
		const filtered = setup({ parameters: { registration: 'automatic', authentication: 'generatedSecret', filters: { hotelCodes: '999999' } } });
		const { result, response } = await deliver(filtered, { headers: authorized, body: [rateRecord(), rateRecord()] });
		expect(response.status).toBe(200);
		expect(response.json()).toEqual({ received: 2, emitted: 0 });
		expect(result).toEqual({ noWebhookResponse: true });
	});

	it('reads a body n8n did not parse from the raw bytes', async () => {
		const { result } = await deliver(setup(), { headers: authorized, rawBody: Buffer.from(JSON.stringify(rateRecord())) });
		expect(result.webhookResponse).toEqual({ received: 1, emitted: 1 });
	});

	it('answers 400 and starts nothing for a JSON string holding a record, as n8n hands it over parsed', async () => {
		const text = JSON.stringify(rateRecord());
		const { result, response } = await deliver(setup(), { headers: authorized, body: text, rawBody: Buffer.from(JSON.stringify(text)) });
		expect(response.status).toBe(400);
		expect(response.json()).toMatchObject({ message: 'The delivery must be a rate record or an array of rate records, not a string' });
		expect(result).toEqual({ noWebhookResponse: true });
	});

	it('checks the header named for Header Auth', async () => {
		const header = setup({ parameters: { registration: 'automatic', authentication: 'header', headerName: 'X-Rate-Key', token: 'k-123' } });
		expect((await deliver(header, { headers: { 'x-rate-key': 'k-123' }, body: rateRecord() })).result.webhookResponse).toEqual({ received: 1, emitted: 1 });
		expect((await deliver(header, { headers: { 'x-rate-key': 'k-124' }, body: rateRecord() })).response.status).toBe(401);
	});
});
