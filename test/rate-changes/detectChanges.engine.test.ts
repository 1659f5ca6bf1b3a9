import { baseRate, changeText, chunks, DETECT, detectInDeliveries, runRateChanges, secondRate, secondShopAlerts, shopOf, staysOf, useStandIn } from '../harness/standIn';

/**
 * Detect Changes in n8n's engine against the stand-in for n8n's Data Tables API: a shop fills the
 * rates table quietly and a later one alerts exactly what moved, once.
 */

const api = useStandIn();

const stays = staysOf([100001, 100002], [1, 2], '2027-02-20', 14);
const FIRST = '2027-02-01T06:00:00Z';
const SECOND = '2027-02-02T06:00:00Z';

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
		expect([after.rates, after.collected]).toEqual([before.rates, before.collected]);
	});
});
