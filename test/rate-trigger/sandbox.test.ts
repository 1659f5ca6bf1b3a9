/**
 * Registration against the sandbox's real POST /webhook, and the sandbox's rate shop deliveries
 * answered by the node's webhook() on a small local HTTP server, as n8n's webhook server would.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { TravelPricingRateTrigger } from '../../nodes/RateTrigger/TravelPricingRateTrigger.node';
import { startSandbox, type Sandbox } from '../../platform/sandbox';
import { hookContext, sendOverHttp, webhookContext, type TriggerSetup } from './fakeContexts';

const trigger = new TravelPricingRateTrigger();
const hooks = trigger.webhookMethods.default;
const DEMO_SHOP = 1;

let sandbox: Sandbox;
let receiver: http.Server;
let receiverUrl: string;
let parameters: IDataObject;
let emitted: INodeExecutionData[];

function triggerSetup(overrides: TriggerSetup = {}): TriggerSetup {
	return {
		credentials: { baseUrl: sandbox.baseUrl, accessToken: sandbox.credentials.accessToken },
		webhookUrl: `${receiverUrl}/webhook/5f0c1d2e-hook/rate-records`,
		parameters,
		send: sendOverHttp,
		...overrides,
	};
}

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	// Each delivery is handled like n8n's webhook process would: no static data at hand.
	receiver = http.createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const context = webhookContext(triggerSetup({ staticData: {} }), {
				headers: request.headers,
				rawBody: Buffer.concat(chunks),
				response,
			});
			void trigger.webhook.call(context).then((result) => {
				emitted.push(...(result.workflowData?.[0] ?? []));
				// What n8n does for an "on received" webhook that left the answer to it.
				if (!result.noWebhookResponse) {
					response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result.webhookResponse));
				}
			});
		});
	});
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

afterAll(async () => {
	await new Promise<void>((resolve) => receiver.close(() => resolve()));
	await sandbox.close();
});

beforeEach(() => {
	sandbox.reset();
	parameters = { registration: 'automatic', authentication: 'generatedSecret' };
	emitted = [];
});

describe('create() registers with the service', () => {
	it('POSTs the node URL and a bearer secret to /webhook, and checkExists agrees afterwards', async () => {
		const staticData: IDataObject = {};
		expect(await hooks.checkExists.call(hookContext(triggerSetup({ staticData })))).toBe(false);
		expect(await hooks.create.call(hookContext(triggerSetup({ staticData })))).toBe(true);

		const [registration] = sandbox.webhooks();
		expect(registration).toMatchObject({ endpoint: `${receiverUrl}/webhook/5f0c1d2e-hook/rate-records`, authType: 'bearer', account: 'demo' });
		expect(registration.token).toMatch(/^[A-Za-z0-9_-]{43}$/);

		expect(await hooks.checkExists.call(hookContext(triggerSetup({ staticData })))).toBe(true);
		expect(await hooks.checkExists.call(hookContext(triggerSetup({ staticData, webhookUrl: `${receiverUrl}/webhook/other/rate-records` })))).toBe(false);
	});

	it('registers header authentication with the headerName field', async () => {
		parameters = { registration: 'automatic', authentication: 'header', headerName: 'X-Rate-Key', token: 'k-123' };
		await hooks.create.call(hookContext(triggerSetup()));
		expect(sandbox.webhooks()[0]).toMatchObject({ authType: 'header', headerName: 'X-Rate-Key', token: 'k-123' });
	});

	it('fails with the service\'s 401 when the access token is refused', async () => {
		const expired = triggerSetup({ credentials: { baseUrl: sandbox.baseUrl, accessToken: sandbox.credentials.expiredToken } });
		await expect(hooks.create.call(hookContext(expired))).rejects.toThrow('Authentication failed');
		expect(sandbox.webhooks()).toEqual([]);
	});
});

describe('the service\'s deliveries start the workflow through webhook()', () => {
	it('answers every delivery 200 at once and emits one item per record', async () => {
		await hooks.create.call(hookContext(triggerSetup()));
		await sandbox.runShop({ shopId: DEMO_SHOP, records: 30, perDelivery: 10 });

		const deliveries = sandbox.deliveries();
		expect(deliveries).toHaveLength(3);
		for (const delivery of deliveries) {
			expect(delivery.status).toBe(200);
			expect(JSON.parse(delivery.responseBody ?? '')).toEqual({ received: 10, emitted: 10 });
		}
		expect(emitted.map((item) => item.json.recordId).sort()).toEqual(deliveries.flatMap((delivery) => delivery.recordIds).sort());
	});

	it('emits only the records the filters keep, single-record deliveries included', async () => {
		parameters = { ...parameters, filters: { larOnly: true } };
		await hooks.create.call(hookContext(triggerSetup()));
		await sandbox.runShop({ shopId: DEMO_SHOP, records: 20, perDelivery: 1 });

		const delivered = sandbox.deliveries().flatMap((delivery) => (Array.isArray(delivery.body) ? delivery.body : [delivery.body]));
		const lowest = delivered.filter((record) => record.isLAR);
		expect(lowest.length).toBeGreaterThan(0);
		expect(lowest.length).toBeLessThan(delivered.length);
		expect(emitted.map((item) => item.json.recordId).sort()).toEqual(lowest.map((record) => record.recordId).sort());
		expect(sandbox.deliveries().every((delivery) => delivery.status === 200)).toBe(true);
	});

	it('answers 401 and emits nothing when the service sends a secret this node did not register', async () => {
		await fetch(`${sandbox.baseUrl}/webhook`, {
			method: 'POST',
			headers: { authorization: `Bearer ${sandbox.credentials.accessToken}`, 'content-type': 'application/json' },
			body: JSON.stringify({ endpoint: `${receiverUrl}/webhook/5f0c1d2e-hook/rate-records`, authType: 'bearer', token: 'not-the-generated-secret' }),
		});
		await sandbox.runShop({ shopId: DEMO_SHOP, records: 5, perDelivery: 5 });

		expect(sandbox.deliveries().map((delivery) => delivery.status)).toEqual([401]);
		expect(emitted).toEqual([]);
	});
});
