/**
 * The Rate Record Trigger gathers the service's deliveries (one record a POST, many in flight) into
 * one execution, and answers each delivery only once the execution holding its records exists.
 * Here the node runs behind a small HTTP server that does with its answer what n8n does for a
 * webhook answered "on received": no workflowData, nothing more (the node answered itself);
 * workflowData, an execution created, then the node's webhookResponse sent with 200 (or, when n8n
 * cannot create the execution, its error status). The same in a real n8n: test/e2e/gathering.e2e.test.ts.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject, WorkflowExecuteMode } from 'n8n-workflow';

import { TravelPricingRateTrigger } from '../../nodes/RateTrigger/TravelPricingRateTrigger.node';
import { rateRecord } from '../harness/rateRecords';
import { webhookContext, type TriggerSetup } from './fakeContexts';

const trigger = new TravelPricingRateTrigger();
const TOKEN = 'delivery-token';

interface Receiver {
	url: string;
	/** The items of each execution n8n created, in the order it created them. */
	executions: IDataObject[][];
	/** Makes n8n fail to create the next executions (its 500), as many as given. */
	failNext: (count: number) => void;
	close: () => Promise<void>;
}

/**
 * `perRequestMs`: the time n8n spends on each request before the node sees it (finding the webhook,
 * loading the workflow), one request after another, as a busy n8n on two cores does.
 */
async function startReceiver(setup: TriggerSetup, { perRequestMs = 0 } = {}): Promise<Receiver> {
	const executions: IDataObject[][] = [];
	let failing = 0;
	let busyUntil = Date.now();
	const server = http.createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const headers = request.headers as Record<string, string>;
			const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
			void (async () => {
				busyUntil = Math.max(busyUntil, Date.now()) + perRequestMs;
				await new Promise((resolve) => setTimeout(resolve, busyUntil - Date.now()));
				const result = await trigger.webhook.call(webhookContext(setup, { headers, body, response }));
				if (result.workflowData === undefined) return;
				if (failing > 0) {
					failing--;
					response.writeHead(500, { 'Content-Type': 'application/json' });
					response.end(JSON.stringify({ code: 0, message: 'Error in workflow' }));
					return;
				}
				executions.push(result.workflowData[0].map(({ json }) => json));
				response.writeHead(200, { 'Content-Type': 'application/json' });
				response.end(JSON.stringify(result.webhookResponse));
			})();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook/rate-records`,
		executions,
		failNext: (count) => (failing = count),
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

function gathering(overrides: Partial<TriggerSetup> = {}): TriggerSetup {
	return {
		typeVersion: 1.1,
		parameters: { registration: 'manual', authentication: 'bearer', token: TOKEN },
		...overrides,
	};
}

interface Answer {
	status: number;
	body: IDataObject;
	retryAfter: string | null;
}

async function post(url: string, body: unknown, token = TOKEN): Promise<Answer> {
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
		body: JSON.stringify(body),
	});
	return { status: response.status, body: (await response.json()) as IDataObject, retryAfter: response.headers.get('retry-after') };
}

/** One record a POST, `inFlight` POSTs at a time, each sender posting its next record once answered. */
async function deliverOneByOne(url: string, records: IDataObject[], inFlight: number): Promise<Array<{ record: IDataObject; answer: Answer }>> {
	const answers: Array<{ record: IDataObject; answer: Answer }> = [];
	let next = 0;
	const sender = async () => {
		while (next < records.length) {
			const record = records[next++];
			answers.push({ record, answer: await post(url, record) });
		}
	};
	await Promise.all(Array.from({ length: inFlight }, sender));
	return answers;
}

function shop(count: number, hotelCode = 100001): IDataObject[] {
	return Array.from({ length: count }, (_, index) => rateRecord({ hotelCode, recordId: `r${index}`, checkIn: `2026-12-${String((index % 28) + 1).padStart(2, '0')}T00:00:00Z` }) as IDataObject);
}

const idsOf = (executions: IDataObject[][]) => executions.flat().map((record) => record.recordId);

let receiver: Receiver | undefined;
afterEach(async () => {
	await receiver?.close();
	receiver = undefined;
});

describe('a shop of single-record deliveries starts a few executions, each record in exactly one', () => {
	it('gathers 200 deliveries, 20 in flight, into at most one execution per 10 records, answering each 200 with its own counts', async () => {
		receiver = await startReceiver(gathering());
		const records = shop(200);
		const answers = await deliverOneByOne(receiver.url, records, 20);

		expect(answers.map(({ answer }) => answer.status)).toEqual(records.map(() => 200));
		for (const { answer } of answers) expect(answer.body).toEqual({ received: 1, emitted: 1 });
		expect(receiver.executions.length).toBeLessThanOrEqual(20);
		expect(idsOf(receiver.executions).sort()).toEqual(records.map(({ recordId }) => recordId).sort());
	});

	it('gathers as well when n8n takes 60 ms for each request before the node sees it', async () => {
		receiver = await startReceiver(gathering(), { perRequestMs: 60 });
		const records = shop(100);
		await deliverOneByOne(receiver.url, records, 20);
		expect(receiver.executions.length).toBeLessThanOrEqual(10);
		expect(idsOf(receiver.executions).sort()).toEqual(records.map(({ recordId }) => recordId).sort());
	});

	it('starts its execution once it holds Records per Execution At Most', async () => {
		receiver = await startReceiver(gathering({ parameters: { ...gathering().parameters, options: { gatherRecords: 5 } } }));
		const records = shop(60);
		await deliverOneByOne(receiver.url, records, 20);

		expect(Math.max(...receiver.executions.map((items) => items.length))).toBeLessThanOrEqual(5);
		expect(idsOf(receiver.executions).sort()).toEqual(records.map(({ recordId }) => recordId).sort());
	});

	it('keeps one execution a delivery at node version 1, as saved workflows had it', async () => {
		receiver = await startReceiver(gathering({ typeVersion: 1 }));
		await deliverOneByOne(receiver.url, shop(30), 10);
		expect(receiver.executions).toHaveLength(30);
	});

	it('keeps one execution a delivery with Executions set to One per Delivery', async () => {
		receiver = await startReceiver(gathering({ parameters: { ...gathering().parameters, executions: 'perDelivery' } }));
		await deliverOneByOne(receiver.url, shop(30), 10);
		expect(receiver.executions).toHaveLength(30);
	});
});

describe('nothing answered 200 is lost', () => {
	it('answers every delivery of a gathering n8n could not start 503 with Retry-After, and a second try puts each record in one execution', async () => {
		receiver = await startReceiver(gathering());
		receiver.failNext(1);
		const records = shop(40);
		const first = await deliverOneByOne(receiver.url, records, 20);

		const refused = first.filter(({ answer }) => answer.status !== 200);
		expect(refused.length).toBeGreaterThan(1);
		for (const { answer } of refused) {
			expect(answer.status).toBeGreaterThanOrEqual(500);
			if (answer.status === 503) expect(answer.retryAfter).toBe('1');
		}
		const answered200 = first.filter(({ answer }) => answer.status === 200).map(({ record }) => record.recordId);
		expect(idsOf(receiver.executions).sort()).toEqual([...answered200].sort());

		// The service sends the refused ones again.
		const again = await deliverOneByOne(receiver.url, refused.map(({ record }) => record), 20);
		expect(again.every(({ answer }) => answer.status === 200)).toBe(true);
		expect(idsOf(receiver.executions).sort()).toEqual(records.map(({ recordId }) => recordId).sort());
	});
});

describe('what joins a gathering', () => {
	it('answers a refused delivery on its own, at once, while a gathering is open, and a filtered one 200 without joining', async () => {
		receiver = await startReceiver(gathering({ parameters: { ...gathering().parameters, filters: { hotelCodes: '100001' } } }));
		const url = receiver.url;
		const [kept, refused, filtered] = await Promise.all([
			post(url, shop(1)[0]),
			post(url, shop(1)[0], 'wrong-token'),
			post(url, shop(1, 100002)[0]),
		]);
		expect(kept).toMatchObject({ status: 200, body: { received: 1, emitted: 1 } });
		expect(refused.status).toBe(401);
		expect(filtered).toMatchObject({ status: 200, body: { received: 1, emitted: 0 } });
		expect(receiver.executions).toHaveLength(1);
		expect(receiver.executions[0].map((record) => record.hotelCode)).toEqual([100001]);
	});

	it('gathers a delivery of several records with single ones, each answered with its own counts', async () => {
		receiver = await startReceiver(gathering());
		const [batch, single] = await Promise.all([post(receiver.url, shop(3)), post(receiver.url, shop(1)[0])]);
		expect(batch.body).toEqual({ received: 3, emitted: 3 });
		expect(single.body).toEqual({ received: 1, emitted: 1 });
		expect(idsOf(receiver.executions)).toHaveLength(4);
	});

	it.each<[WorkflowExecuteMode, WorkflowExecuteMode]>([['manual', 'webhook']])(
		'keeps a test listen (%s) and production (%s) apart',
		async (test, production) => {
			const testReceiver = await startReceiver(gathering({ mode: test }));
			receiver = await startReceiver(gathering({ mode: production }));
			await Promise.all([...shop(3).map((record) => post(testReceiver.url, record)), ...shop(3).map((record) => post(receiver!.url, record))]);
			await testReceiver.close();
			expect(idsOf(testReceiver.executions)).toHaveLength(3);
			expect(idsOf(receiver.executions)).toHaveLength(3);
		},
	);
});

describe('settings are checked', () => {
	it('refuses a Gather For At Most outside 0.1 to 60 seconds, naming the field', async () => {
		const setup = gathering({ parameters: { ...gathering().parameters, options: { gatherForSeconds: 0 } } });
		const delivery = { headers: { authorization: `Bearer ${TOKEN}` }, body: shop(1)[0] };
		await expect(trigger.webhook.call(webhookContext(setup, delivery))).rejects.toThrow(/Invalid Gather For At Most \(Seconds\) "0"/);
	});
});
