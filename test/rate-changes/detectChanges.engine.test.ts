import axios from 'axios';
import type { IDataObject } from 'n8n-workflow';

import { DEMO_SHOPS } from '../../platform/n8n/demo';
import type { ExpectedChange, RateRecord, RunSummary } from '../../platform/sandbox';
import { runPool } from '../../platform/sandbox/delivery';
import { round2 } from '../../nodes/RateChanges/rules/amounts';
import { startReceiver } from '../sandbox/frozenSandbox';
import { useSandbox } from '../harness';
import { baseRate, changeText, chunks, DETECT, DIGEST, digestChangeText, detectInDeliveries, runRateChanges, secondRate, secondShopAlerts, shopAlerts, shopOf, staysOf, useStandIn, type StaySpec } from '../harness/standIn';
import type { NodeRunResult } from '../harness';

/**
 * Detect Changes in n8n's engine against the stand-in for n8n's Data Tables API: a shop fills the
 * rates table quietly and a later one alerts exactly what moved, once.
 */

const api = useStandIn();

const stays = staysOf([100001, 100002], [1, 2], '2027-02-20', 14);
const FIRST = '2027-02-01T06:00:00Z';
const SECOND = '2027-02-02T06:00:00Z';
const THIRD = '2027-02-03T06:00:00Z';

const deliver = async (records: ReturnType<typeof shopOf>, perDelivery: number) => await detectInDeliveries(api, records, perDelivery);
const expectedAlerts = () => secondShopAlerts(stays);

describe('a later shop alerts exactly what moved since the last one, once', () => {
	it('fills the rates table quietly on the first shop, then alerts the moves of 10 % or more, sold out and back on sale', async () => {
		expect(await deliver(shopOf(stays, FIRST, baseRate), 13)).toEqual([]);
		const alerts = await deliver(shopOf(stays, SECOND, secondRate), 13);
		expect(alerts.sort()).toEqual(expectedAlerts());
		expect(expectedAlerts().length).toBeGreaterThan(5);
	});

	it('keeps one row per hotel, website, room, nights, guests and month in the rates table', async () => {
		await deliver(shopOf(stays, FIRST, baseRate), 56);
		const rows = api.rows('travel_pricing_rates');
		// 2 hotels × 2 websites × (February and March).
		expect(rows.map((row) => row.block).sort()).toEqual(
			['100001|1|2027-02|1|2|Double', '100001|1|2027-03|1|2|Double', '100001|2|2027-02|1|2|Double', '100001|2|2027-03|1|2|Double', '100002|1|2027-02|1|2|Double', '100002|1|2027-03|1|2|Double', '100002|2|2027-02|1|2|Double', '100002|2|2027-03|1|2|Double'],
		);
	});

	it('alerts nothing when the same records come again, or older ones', async () => {
		await deliver(shopOf(stays, FIRST, baseRate), 20);
		await deliver(shopOf(stays, SECOND, secondRate), 20);
		expect(await deliver(shopOf(stays, SECOND, secondRate), 20)).toEqual([]);
		expect(await deliver(shopOf(stays, FIRST, baseRate), 20)).toEqual([]);
	});

	it('alerts each move once when every delivery arrives twice at the same moment', async () => {
		await deliver(shopOf(stays, FIRST, baseRate), 8);
		const batches = chunks(shopOf(stays, SECOND, secondRate), 8);
		const results = await Promise.all([...batches, ...batches].map(async (batch) => await runRateChanges(api, DETECT, batch)));
		for (const result of results) expect(result.error).toBeUndefined();
		expect(results.flatMap((result) => result.items.map((item) => changeText(item.json))).sort()).toEqual(expectedAlerts());
	});

	it('alerts every stay once when several executions see the same new stays at once (Include First Seen)', async () => {
		const records = shopOf(stays, FIRST, baseRate);
		const batches = chunks(records, 10);
		const parameters = { ...DETECT, includeFirstSeen: true };
		const results = await Promise.all([...batches, ...batches, ...batches].map(async (batch) => await runRateChanges(api, parameters, batch)));
		for (const result of results) expect(result.error).toBeUndefined();
		const firstSeen = results.flatMap((result) => result.items.map((item) => changeText(item.json)));
		expect(firstSeen.length).toBe(stays.length);
		expect(new Set(firstSeen).size).toBe(stays.length);
	});

	it('alerts on any move with Change At Least (%) at 0', async () => {
		await deliver(shopOf(stays, FIRST, baseRate), 56);
		const result = await runRateChanges(api, { ...DETECT, minChangePercent: 0 }, shopOf(stays, SECOND, secondRate));
		const moved = stays.filter((stay, index) => secondRate(stay, index) !== baseRate(stay, index));
		expect(result.items).toHaveLength(moved.length);
	});
});

describe('the stored stay is its newest record whole', () => {
	const one = staysOf([100001], [1], '2027-02-20', 1);
	const day = (row: Record<string, unknown>) => String(row.rates).split(' ')[0];

	it('takes every rate of a newer record whose compared rate did not move: net rate, total, hotel name', async () => {
		await runRateChanges(api, DETECT, shopOf(one, FIRST, () => 150));
		const newer = shopOf(one, SECOND, () => 150).map((record) => ({ ...record, netRate: 99.5, taxStatus: 0, taxAmount: 20, hotelName: 'Hotel 100001 & Spa' }));
		const result = await runRateChanges(api, DETECT, newer);
		expect(result.items).toEqual([]);
		const [row] = api.rows('travel_pricing_rates');
		expect(day(row)).toMatch(/^20=150\/99\.5\/170@/);
		expect(row.hotelName).toBe('Hotel 100001 & Spa');
	});

	it('never sets a collection time back, though an older record arrives after a newer one', async () => {
		await runRateChanges(api, DETECT, shopOf(one, SECOND, () => 150));
		const before = api.rows('travel_pricing_rates')[0];
		await runRateChanges(api, DETECT, shopOf(one, FIRST, () => 120));
		const after = api.rows('travel_pricing_rates')[0];
		// Only the mark of a stay seen once goes: it has now been seen twice.
		expect([String(before.rates).replace('!@', '@'), after.collected]).toEqual([after.rates, before.collected]);
	});
});

/** A third shop after secondRate's: every 3rd stay 15 % cheaper, the sold-out stays of even place back on sale at their first rate. */
function thirdRate(stay: StaySpec, index: number): number {
	const second = secondRate(stay, index);
	if (second === 0) return index % 2 === 0 ? baseRate(stay, index) : 0;
	return index % 3 === 0 ? Math.round(second * 85) / 100 : second;
}

/** The alerts of a run, as changeText gives them; each must be its own record's (the record's rate is the alert's). */
function alertsOf(result: NodeRunResult): string[] {
	expect(result.error).toBeUndefined();
	for (const { json } of result.items) expect(json.rate).toBe(json.onsiteRate === 0 ? null : json.onsiteRate);
	return result.items.map((item) => changeText(item.json)).sort();
}

describe('every move between two collections of a stay alerts once, however the records are grouped', () => {
	/** The two shops as they arrive: in collection order, or the later one first. */
	const ORDERS: Array<[string, <T>(earlier: T, later: T) => T[]]> = [
		['in collection order', (earlier, later) => [earlier, later]],
		['the later shop first', (earlier, later) => [later, earlier]],
	];
	const twoMoves = () => [...shopAlerts(stays, baseRate, secondRate), ...shopAlerts(stays, secondRate, thirdRate)].sort();

	it.each(ORDERS)('alerts both moves of two shops of a stay in one delivery, %s', async (_, arrange) => {
		await deliver(shopOf(stays, FIRST, baseRate), 56);
		const result = await runRateChanges(api, DETECT, arrange(shopOf(stays, SECOND, secondRate), shopOf(stays, THIRD, thirdRate)).flat());
		expect(alertsOf(result)).toEqual(twoMoves());
		expect(shopAlerts(stays, secondRate, thirdRate).length).toBeGreaterThan(5);
	});

	it.each(ORDERS)('takes the first shop of a stay never stored as the previous rate of the second, in one delivery, %s', async (_, arrange) => {
		const result = await runRateChanges(api, DETECT, arrange(shopOf(stays, FIRST, baseRate), shopOf(stays, SECOND, secondRate)).flat());
		expect(alertsOf(result)).toEqual(expectedAlerts());
	});

	it.each(ORDERS)('alerts both moves when two executions staged the two shops for one batch of the pass, %s', async (_, arrange) => {
		const few = staysOf([100003], [1], '2027-02-20', 8);
		await runRateChanges(api, DETECT, shopOf(few, FIRST, baseRate));
		// A delivery of more than 10 records takes the lease first; its first read of the rates table
		// is slow, so the two shops' deliveries are staged while it holds the lease.
		const reading = new Promise<void>((resolve) => api.onRequest((request) => (request.operation === 'readRows' && request.tableName === 'travel_pricing_rates' ? resolve() : undefined)));
		api.failNext({ match: { operation: 'readRows', tableName: 'travel_pricing_rates' }, fault: { kind: 'latency', ms: 1_500 } });
		const holder = runRateChanges(api, DETECT, shopOf(staysOf([100009], [1], '2027-02-20', 11), FIRST, baseRate));
		await reading;
		api.onRequest(undefined);
		for (const shop of arrange(shopOf(few, SECOND, secondRate), shopOf(few, THIRD, thirdRate))) expect((await runRateChanges(api, DETECT, shop)).items).toEqual([]);
		const result = await holder;
		expect(result.items.length).toBeGreaterThan(0);
		expect(alertsOf(result)).toEqual([...shopAlerts(few, baseRate, secondRate), ...shopAlerts(few, secondRate, thirdRate)].sort());
	});

	it('takes a late collection of a stay seen once as the previous rate of the stored one: the move alerts at the late record, once', async () => {
		expect(await deliver(shopOf(stays, SECOND, secondRate), 56)).toEqual([]);
		const late = await runRateChanges(api, DETECT, shopOf(stays, FIRST, baseRate));
		expect(late.error).toBeUndefined();
		expect(late.items.map((item) => changeText(item.json)).sort()).toEqual(expectedAlerts());
		for (const { json } of late.items) expect([json.previousRate, json.previousCollected, json.dtCollected]).toEqual([json.onsiteRate, '2027-02-01T06:00:00.000Z', FIRST]);
		// The stay has been seen twice now: the late records again, or one older still, are stale.
		expect(await deliver(shopOf(stays, FIRST, baseRate), 56)).toEqual([]);
		expect(await deliver(shopOf(stays, '2027-01-31T06:00:00Z', (stay, index) => baseRate(stay, index) * 2), 56)).toEqual([]);
		// The stored rate is still the second shop's.
		expect(await deliver(shopOf(stays, THIRD, thirdRate), 56)).toEqual(shopAlerts(stays, secondRate, thirdRate));
	});

	it("puts out a late record's move once, from n8n's Retry, when its execution failed after writing the row", async () => {
		const few = staysOf([100003], [1], '2027-02-20', 8);
		await runRateChanges(api, DETECT, shopOf(few, SECOND, secondRate));
		api.failNext({ match: { operation: 'updateRows', tableName: 'travel_pricing_rate_changes', where: (request) => JSON.stringify(request.body).includes('"confirmed"') }, fault: 'error500BeforeCommit', times: 5 });
		const late = shopOf(few, FIRST, baseRate);
		expect((await runRateChanges(api, DETECT, late)).error).toBeDefined();
		const retried = await runRateChanges(api, DETECT, late, { mode: 'retry' });
		expect(retried.error).toBeUndefined();
		const moves = shopAlerts(few, baseRate, secondRate);
		expect(retried.items.map((item) => changeText(item.json)).sort()).toEqual(moves);
		const digest = await runRateChanges(api, DIGEST, [{}]);
		expect(digest.items.flatMap((item) => (item.json.changes as IDataObject[]).map((change) => digestChangeText(change))).sort()).toEqual(moves);
	});

	it('takes several late collections of a stay seen once in one delivery as the moves before the stored one', async () => {
		expect(await deliver(shopOf(stays, THIRD, thirdRate), 56)).toEqual([]);
		const result = await runRateChanges(api, DETECT, [...shopOf(stays, SECOND, secondRate), ...shopOf(stays, FIRST, baseRate)]);
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => changeText(item.json)).sort()).toEqual(twoMoves());
	});

	it('alerts nothing for the same records delivered again, in one delivery or later, nor for a collection older than the stored one', async () => {
		await deliver(shopOf(stays, FIRST, baseRate), 56);
		const second = shopOf(stays, SECOND, secondRate);
		const third = shopOf(stays, THIRD, thirdRate);
		const result = await runRateChanges(api, DETECT, [...third, ...second, ...second, ...third]);
		expect(alertsOf(result)).toEqual(twoMoves());
		const stored = api.rows('travel_pricing_rates').map((row) => [row.block, row.rates, row.collected]);
		expect(await deliver([...second, ...third], 56)).toEqual([]);
		// A collection never delivered before, between the first shop and the second: older than the stored one, so stale.
		const late = shopOf(stays, '2027-02-01T18:00:00Z', (stay, index) => baseRate(stay, index) * 2);
		expect(await deliver(late, 56)).toEqual([]);
		expect(api.rows('travel_pricing_rates').map((row) => [row.block, row.rates, row.collected])).toEqual(stored);
	});
});

describe("npm start's two back-to-back shops (step 5)", () => {
	const CLOCK = '2026-11-28T06:00:00Z';
	const sandbox = useSandbox({ speed: 0, clock: CLOCK });
	// Each test its own shops, posted to its own receiver only.
	beforeEach(() => {
		sandbox.reset();
		sandbox.setClock(CLOCK);
	});

	/** What Detect Changes must alert of a change the sandbox made, at its defaults: a move of 10 % or more, sold out, back on sale. */
	const alerting = ({ changeType, previousRate, rate }: ExpectedChange) =>
		changeType === 'soldOut' || changeType === 'backOnSale' || Math.abs(round2((round2((rate as number) - (previousRate as number)) / (previousRate as number)) * 100)) >= 10;
	const changeOf = ({ hotelCode, websiteCode, checkIn, roomType, changeType, previousRate, rate }: ExpectedChange) =>
		[hotelCode, websiteCode, checkIn.slice(0, 10), roomType, changeType, previousRate, rate].join('|');

	it.each([
		['the first shop first', false],
		["the second shop first (the first shop's deliveries retried later)", true],
	])("alerts every change the sandbox expects of the second shop, once, though its records arrive while the first shop's are still compared: %s", async (_, secondFirst) => {
		const receiver = await startReceiver();
		try {
			await axios.post(`${sandbox.baseUrl}/webhook`, { endpoint: receiver.url, authType: 'none' }, { headers: { Authorization: `Bearer ${sandbox.credentials.accessToken}` } });
			const recordsOf = (run: RunSummary) => sandbox.deliveries().filter((delivery) => delivery.runId === run.runId).flatMap((delivery) => [delivery.body].flat() as RateRecord[]);
			await sandbox.runShop({ ...DEMO_SHOPS.today, perDelivery: 60 });
			const first = await sandbox.runShop({ ...DEMO_SHOPS.wholeLatest, perDelivery: 60 });
			const second = await sandbox.runShop({ ...DEMO_SHOPS.tomorrow, perDelivery: 60 });
			const expected = (second.expectedChanges ?? []).filter(alerting).map(changeOf).sort();
			// A pass over a shop takes seconds in n8n: each request to the rates table takes 200 ms here, so
			// the second shop's records arrive while the first's are still compared, as they did in n8n
			// (the first shop's executions were still running when the second's began).
			api.plan((request) => (request.tableName === 'travel_pricing_rates' ? { kind: 'latency', ms: 200 } : undefined));
			const shops = [recordsOf(first), recordsOf(second)];
			const records = (secondFirst ? shops.reverse() : shops).flat() as unknown as IDataObject[];
			const results = await runPool(
				records.map((record) => async () => await runRateChanges(api, DETECT, [record])),
				20,
			);
			expect(results.flatMap((result) => (result.error ? [result.error.message] : []))).toEqual([]);
			expect(results.flatMap((result) => result.items.map((item) => changeText(item.json))).sort()).toEqual(expected);
			expect(expected.length).toBeGreaterThanOrEqual(5);
		} finally {
			await receiver.close();
		}
	});
});
