import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runPool } from '../../platform/sandbox/delivery';
import { createPrng } from '../../platform/sandbox/prng';

import { baseRate, changeText, DETECT, DIGEST, digestChangeText, runRateChanges, secondRate, secondShopAlerts, shopOf, staysOf, useStandIn, type StaySpec } from '../harness/standIn';

/**
 * The delivery shape the service describes (spec, part 6): one rate record a POST, many at once,
 * in the order a shop collects them or in any order. Every execution ends well (none fails because
 * others write the same rows), every alert comes out once, and the digest lists each once.
 */

const api = useStandIn();

const FIRST = '2027-02-01T06:00:00Z';
const SECOND = '2027-02-02T06:00:00Z';

type Order = (records: IDataObject[]) => IDataObject[];

const ORDERS: Array<{ order: string; arrange: Order }> = [
	// staysOf lists stays hotel by hotel, website by website, room by room, date by date: as a shop collects them.
	{ order: 'in the order a shop collects them', arrange: (records) => records },
	{ order: 'shuffled', arrange: (records) => createPrng(36).sample(records, records.length) },
];

const SHAPES = [4, 20].flatMap((inFlight) => ORDERS.map((order) => ({ ...order, inFlight })));

/** Each record its own execution, `inFlight` at once; every execution's items, and the errors. */
async function deliverOneByOne(parameters: INodeParameters, records: IDataObject[], inFlight: number): Promise<{ items: IDataObject[]; errors: string[] }> {
	const results = await runPool(
		records.map((record) => async () => await runRateChanges(api, parameters, [record])),
		inFlight,
	);
	return {
		items: results.flatMap((result) => result.items.map((item) => item.json)),
		errors: results.flatMap((result) => (result.error ? [result.error.message] : [])),
	};
}

async function digestOnce(): Promise<string[]> {
	const digest = await runRateChanges(api, DIGEST, [{}]);
	expect(digest.error).toBeUndefined();
	return digest.items.flatMap((item) => (item.json.changes as IDataObject[]).map((change) => digestChangeText(change))).sort();
}

describe.each(SHAPES)('Detect Changes, one record a POST, $inFlight in flight, $order', ({ inFlight, arrange }) => {
	const stays = staysOf([100001, 100002], [1, 2], '2027-02-20', 20, ['Double', 'Suite']);
	const expected = secondShopAlerts(stays);

	it('fails no execution, alerts nothing on the first shop and exactly what moved on the second, once; the digest lists each once', async () => {
		const first = await deliverOneByOne(DETECT, arrange(shopOf(stays, FIRST, baseRate)), inFlight);
		expect(first).toEqual({ items: [], errors: [] });
		const later = await deliverOneByOne(DETECT, arrange(shopOf(stays, SECOND, secondRate)), inFlight);
		expect(later.errors).toEqual([]);
		expect(later.items.map((json) => changeText(json)).sort()).toEqual(expected);
		expect(expected.length).toBeGreaterThan(20);
		expect(await digestOnce()).toEqual(expected);
		// Nothing is left staged: every record was compared.
		expect(api.rows('travel_pricing_rate_changes_queue').filter((row) => row.kind === 'records')).toEqual([]);
	});
});

describe.each(SHAPES)('Compare With My Hotel and Check Parity, one record a POST, $inFlight in flight, $order', ({ inFlight, arrange }) => {
	/** My hotel (1) and three competitors on websites 1 and 2, 8 nights; on the second shop competitor 2 undercuts me on every other night, and my website 2 sells below my website 1 on every third. */
	const market = staysOf([400001, 400002, 400003, 400004], [1, 2], '2027-02-26', 8);
	const nightOf = (index: number) => index % 8;
	const rateOf = (shop: string) => (stay: StaySpec, index: number) => {
		if (stay.hotelCode === 400001) return stay.websiteCode === 2 && shop === SECOND && nightOf(index) % 3 === 0 ? 180 : 200;
		if (shop === SECOND && stay.hotelCode === 400002 && nightOf(index) % 2 === 0) return 150;
		return 210 + (stay.hotelCode - 400000);
	};
	/** A shop collects its comp set over minutes: each record carries its own collection time, a second apart. */
	const collectedOverMinutes = (records: IDataObject[]) =>
		records.map((record, index) => ({ ...record, dtCollected: new Date(Date.parse(String(record.dtCollected)) + index * 1000).toISOString() }));
	const night = (day: number) => `2027-${day < 3 ? `02-${26 + day}` : `03-0${day - 2}`}`;
	// Worked out from the shop above and the page's rules (undercut: the cheapest competitor 5 % or more below me; a loss: a website's total more than 1 % below the reference website's).
	const undercuts = [0, 2, 4, 6].flatMap((day) => [`${night(day)}|1`, `${night(day)}|2`]).sort();
	const losses = [0, 3, 6].map((day) => night(day)).sort();
	const compare: INodeParameters = { operation: 'compareWithMyHotel', myHotelCode: '400001', options: {} };
	const parity: INodeParameters = { operation: 'checkParity', parityHotelCode: '400001', referenceWebsiteCode: '1', options: {} };

	it('fails no execution and alerts what the whole comp set of each shop gives, each once, whatever arrived first; the digest lists each once', async () => {
		const alerted: Record<string, string[]> = {};
		for (const shop of [FIRST, SECOND]) {
			// Detect Changes keeps the rates both compare against, as the shipped example runs them.
			const records = arrange(collectedOverMinutes(shopOf(market, shop, rateOf(shop))));
			expect((await deliverOneByOne(DETECT, records, inFlight)).errors).toEqual([]);
			const compared = await deliverOneByOne(compare, records, inFlight);
			const checked = await deliverOneByOne(parity, records, inFlight);
			expect([...compared.errors, ...checked.errors]).toEqual([]);
			alerted[shop] = [
				...compared.items.map((json) => `undercut ${String(json.checkIn).slice(0, 10)}|${json.websiteCode}`),
				...checked.items.map((json) => `loss ${String(json.checkIn).slice(0, 10)}`),
			].sort();
		}
		expect(alerted[FIRST]).toEqual([]);
		expect(alerted[SECOND]).toEqual([...undercuts.map((key) => `undercut ${key}`), ...losses.map((key) => `loss ${key}`)].sort());
		// The same records again are the same run: nothing more.
		const again = arrange(collectedOverMinutes(shopOf(market, SECOND, rateOf(SECOND))));
		expect((await deliverOneByOne(compare, again, inFlight)).items).toEqual([]);
		expect((await deliverOneByOne(parity, again, inFlight)).items).toEqual([]);
		const listed = await digestOnce();
		expect(listed.filter((line) => line.includes('|undercut|'))).toHaveLength(undercuts.length);
		expect(listed.filter((line) => line.includes('|parityLoss|'))).toHaveLength(losses.length);
	});
});

/**
 * One delivery at a time: each record is in the rates table before its own Compare With My Hotel
 * runs, so the last record of a stay-night's comp set completes it. Many in flight at once, and
 * every alert kind: wholeRuns.engine.test.ts.
 */
describe.each(ORDERS)('Compare With My Hotel, Alert On: Rank Changed, one record a POST through Detect Changes then Compare With My Hotel, one at a time, $order', ({ arrange }) => {
	const inFlight = 1;
	/** My hotel (1) between three competitors on websites 1 and 2, 4 nights: third on the first shop; on the second, competitor 4 drops below me on every other night. */
	const market = staysOf([400001, 400002, 400003, 400004], [1, 2], '2027-02-26', 4);
	const rateOf = (shop: string) => (stay: StaySpec, index: number) => {
		if (stay.hotelCode === 400004) return shop === SECOND && (index % 4) % 2 === 0 ? 170 : 220;
		return { 400001: 200, 400002: 180, 400003: 190 }[stay.hotelCode] as number;
	};
	/** A shop collects its comp set over 40 minutes: each record its own collection time. */
	const collectedOverMinutes = (records: IDataObject[]) =>
		records.map((record, index) => ({ ...record, dtCollected: new Date(Date.parse(String(record.dtCollected)) + (index * 40 * 60_000) / records.length).toISOString() }));
	const compare: INodeParameters = { operation: 'compareWithMyHotel', myHotelCode: '400001', compareAlertOn: 'rankChanged', options: {} };
	const night = (day: number) => `2027-${day < 3 ? `02-${26 + day}` : `03-0${day - 2}`}`;
	// The finished shops: third of four on every night and website, then fourth on the even nights.
	const moved = [0, 2].flatMap((day) => [`${night(day)}|1|3→4`, `${night(day)}|2|3→4`]).sort();

	/** As the shipped example runs them: each delivery's execution runs Detect Changes, then Compare With My Hotel. */
	async function deliverThroughBoth(records: IDataObject[]): Promise<{ ranks: string[]; errors: string[] }> {
		const results = await runPool(
			records.map((record) => async () => [await runRateChanges(api, DETECT, [record]), await runRateChanges(api, compare, [record])]),
			inFlight,
		);
		return {
			ranks: results.flatMap(([, compared]) => compared.items.map(({ json }) => `${String(json.checkIn).slice(0, 10)}|${json.websiteCode}|${json.previousRank}→${json.rank}`)).sort(),
			errors: results.flat().flatMap((result) => (result.error ? [result.error.message] : [])),
		};
	}

	it('alerts exactly the changes of parity state of the finished shops (Every Change of State), each once, never a state of part of the websites', async () => {
		/** My hotel on four websites, 4 nights: every website meets website 1 on the first shop; on the second, website 4 is dearer on every other night. */
		const websites = staysOf([400001], [1, 2, 3, 4], '2027-02-26', 4);
		const parityRate = (shop: string) => (stay: StaySpec, index: number) => (shop === SECOND && stay.websiteCode === 4 && (index % 4) % 2 === 0 ? 230 : 200);
		const parity: INodeParameters = { operation: 'checkParity', parityHotelCode: '400001', referenceWebsiteCode: '1', parityAlertOn: 'stateChanges', options: {} };
		const deliver = async (shop: string) => {
			const results = await runPool(
				arrange(collectedOverMinutes(shopOf(websites, shop, parityRate(shop)))).map((record) => async () => [await runRateChanges(api, DETECT, [record]), await runRateChanges(api, parity, [record])]),
				inFlight,
			);
			expect(results.flat().flatMap((result) => (result.error ? [result.error.message] : []))).toEqual([]);
			return results.flatMap(([, checked]) => checked.items.map(({ json }) => String(json.checkIn).slice(0, 10))).sort();
		};
		expect(await deliver(FIRST)).toEqual([]);
		expect(await deliver(SECOND)).toEqual([night(0), night(2)]);
		expect(await deliver(SECOND)).toEqual([]);
	}, 120_000);

	it('alerts exactly the rank changes of the finished shops, each once, never a rank of part of the comp set', async () => {
		const first = await deliverThroughBoth(arrange(collectedOverMinutes(shopOf(market, FIRST, rateOf(FIRST)))));
		expect(first).toEqual({ ranks: [], errors: [] });
		const second = await deliverThroughBoth(arrange(collectedOverMinutes(shopOf(market, SECOND, rateOf(SECOND)))));
		expect(second).toEqual({ ranks: moved, errors: [] });
		// The same records again are the same run: nothing more.
		expect(await deliverThroughBoth(arrange(collectedOverMinutes(shopOf(market, SECOND, rateOf(SECOND)))))).toEqual({ ranks: [], errors: [] });
	}, 120_000);
});
