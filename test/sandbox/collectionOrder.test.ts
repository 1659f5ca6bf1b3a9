import { client, deliveredRecords, START, useSubscribedSandbox } from './frozenSandbox';
import type { RateRecord, RunSummary } from '../../platform/sandbox';

// A frozen clock: every time below follows from START and the options alone.
const { sandbox, control, receiver } = useSubscribedSandbox();

const MINUTE = 60_000;

function recNumber(record: RateRecord): number {
	return Number(/-rec(\d+)$/.exec(record.recordId)?.[1]);
}

/** The records one run delivered, in the order the receiver got them. */
function arrivedFrom(run: RunSummary): RateRecord[] {
	return deliveredRecords(receiver).filter((record) => record.recordId.startsWith(`shop${run.shopId}-run${run.runId}-rec`));
}

const inRecordOrder = (records: RateRecord[]) => [...records].sort((a, b) => recNumber(a) - recNumber(b));

/** Record i of n collected i/n of the span after the run's time. */
function spreadOver(minutes: number, from: string, count: number): string[] {
	return Array.from({ length: count }, (_, i) => new Date(Date.parse(from) + Math.floor((i * minutes * MINUTE) / count)).toISOString());
}

describe('a shop collected over minutes (collectedOverMinutes)', () => {
	it('gives each record its own dtCollected, spread evenly from the run’s time in record order; the summary keeps the run’s time', async () => {
		const run = await sandbox.runShop({ shopId: 1, records: 60, market: { seed: 3 }, collectedOverMinutes: 40, concurrency: 1 });
		expect(run.collectedAt).toBe(START);
		const records = arrivedFrom(run);
		expect(records.map(recNumber)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
		expect(records.map((record) => record.dtCollected)).toEqual(spreadOver(40, START, 60));
		expect(records[59].dtCollected).toBe(new Date(Date.parse(START) + 39 * MINUTE + 20_000).toISOString());
	});

	it('left out or 0, stamps every record with the run’s time, and delivers the same records otherwise', async () => {
		const shop = { shopId: 1, records: 24, market: { seed: 3 } };
		const spread = arrivedFrom(await sandbox.runShop({ ...shop, collectedOverMinutes: 30 }));
		for (const options of [{}, { collectedOverMinutes: 0 }]) {
			const records = inRecordOrder(arrivedFrom(await sandbox.runShop({ ...shop, ...options })));
			expect(new Set(records.map((record) => record.dtCollected))).toEqual(new Set([START]));
			const withoutRun = (record: RateRecord) => ({ ...record, recordId: undefined, dtCollected: undefined });
			expect(records.map(withoutRun)).toEqual(inRecordOrder(spread).map(withoutRun));
		}
	});

	it('spreads a repeat from the repeat’s own time, a replay keeps the times it was delivered with, and a repeat without it has one time', async () => {
		const first = await sandbox.runShop({ shopId: 3, records: 20, collectedOverMinutes: 40 });
		const repeat = await sandbox.runShop({ repeatRun: first.runId, changes: { seed: 2, changed: 0.3 }, collectedOverMinutes: 20 });
		expect(inRecordOrder(arrivedFrom(repeat)).map((record) => record.dtCollected)).toEqual(spreadOver(20, repeat.collectedAt, 20));
		const delivered = inRecordOrder(arrivedFrom(repeat));
		receiver.received.length = 0;
		await sandbox.runShop({ repeatRun: repeat.runId, replay: true, perDelivery: 5 });
		expect(inRecordOrder(arrivedFrom(repeat))).toEqual(delivered);
		const plain = await sandbox.runShop({ repeatRun: repeat.runId });
		expect(new Set(arrivedFrom(plain).map((record) => record.dtCollected))).toEqual(new Set([plain.collectedAt]));
	});

	it('spreads a run collected days ago from that day’s time', async () => {
		const run = await sandbox.runShop({ shopId: 3, records: 10, daysAgo: 2, collectedOverMinutes: 10 });
		expect(inRecordOrder(arrivedFrom(run)).map((record) => record.dtCollected)).toEqual(spreadOver(10, run.collectedAt, 10));
	});
});

describe('deliveries in a shuffled order (shuffle)', () => {
	it('posts the deliveries in an order its seed decides, each record once; the same seed gives the same order, another seed another', async () => {
		const order = async (shuffle?: number) => arrivedFrom(await sandbox.runShop({ shopId: 3, records: 30, concurrency: 1, ...(shuffle === undefined ? {} : { shuffle }) })).map(recNumber);
		const inOrder = Array.from({ length: 30 }, (_, i) => i + 1);
		expect(await order()).toEqual(inOrder);
		const seven = await order(7);
		expect(seven).not.toEqual(inOrder);
		expect([...seven].sort((a, b) => a - b)).toEqual(inOrder);
		expect(await order(7)).toEqual(seven);
		expect(await order(8)).not.toEqual(seven);
	});

	it('keeps each delivery’s records as without it (neighbours in record order), shuffles the deliveries, the same order to every webhook', async () => {
		const api = client(sandbox.baseUrl, `Bearer ${sandbox.credentials.accessToken}`);
		expect((await api.post('/webhook', { endpoint: `${receiver.url}/second`, authType: 'none' })).status).toBeLessThan(300);
		const run = await sandbox.runShop({ shopId: 3, records: 30, perDelivery: 3, concurrency: 1, shuffle: 45 });
		expect(run).toMatchObject({ webhooks: 2, deliveries: 20, byStatus: { 200: 20 } });
		const to = (path: string) => receiver.received.filter((delivery) => delivery.path === path).map(({ body }) => (body as RateRecord[]).map(recNumber));
		const first = to('/');
		expect(first.map((chunk) => chunk[0])).not.toEqual([1, 4, 7, 10, 13, 16, 19, 22, 25, 28]);
		for (const chunk of first) expect(chunk).toEqual([chunk[0], chunk[0] + 1, chunk[0] + 2]);
		expect(first.map((chunk) => chunk[0]).sort((a, b) => a - b)).toEqual([1, 4, 7, 10, 13, 16, 19, 22, 25, 28]);
		expect(to('/second')).toEqual(first);
	});
});

describe('run-shop over HTTP', () => {
	it('takes collectedOverMinutes and shuffle', async () => {
		const { status, data } = await control.post('/run-shop', { shopId: 3, records: 8, collectedOverMinutes: 8, shuffle: 1, concurrency: 1 });
		expect(status).toBe(200);
		const records = arrivedFrom(data as RunSummary);
		expect(records.map(recNumber)).not.toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
		expect(inRecordOrder(records).map((record) => record.dtCollected)).toEqual(spreadOver(8, START, 8));
	});

	it.each<[string, Record<string, unknown>, RegExp]>([
		['collectedOverMinutes is not an integer', { shopId: 3, collectedOverMinutes: 1.5 }, /collectedOverMinutes must be an integer/],
		['collectedOverMinutes is negative', { shopId: 3, collectedOverMinutes: -1 }, /collectedOverMinutes must be at least 0/],
		['collectedOverMinutes is more than a day', { shopId: 3, collectedOverMinutes: 1441 }, /collectedOverMinutes must be at most 1440/],
		['a replay has collectedOverMinutes', { shopId: 3, repeatRun: 'latest', replay: true, collectedOverMinutes: 10 }, /replay delivers a run as it was collected: leave collectedOverMinutes out/],
		['shuffle is not an integer', { shopId: 3, shuffle: true }, /shuffle must be an integer/],
		['shuffle is negative', { shopId: 3, shuffle: -2 }, /shuffle must be at least 0/],
	])('answers 400 when %s', async (_case, body, reason) => {
		await sandbox.runShop({ shopId: 3, records: 1 });
		const { status, data } = await control.post('/run-shop', body);
		expect(status).toBe(400);
		expect(data).toEqual({ error: true, status: 400, message: expect.stringMatching(reason) });
	});
});
