import axios from 'axios';
import { deliveredRecords, START, useSubscribedSandbox } from './frozenSandbox';
import type { MarketInput, RateRecord, RunSummary } from '../../platform/sandbox';
import { hotelNight, hotelPremiums, MARKET_SHAPE, nightLevel, websiteDiscount } from '../../platform/sandbox/marketShop';
import { SOLD_OUT } from '../../platform/sandbox/rateRecords';

/** Shop 5: hotels 100019, 100067, 100117 and 100133 on websites 2, 5 and 12, USD, a 30-day horizon. */
const SHOP = 5;
const [MY_HOTEL, HOTEL_B, HOTEL_C] = [100019, 100067, 100117];
const PAIRS = 4 * 3;
/** Every pair on every day of the horizon, then a first round for 3 guests. */
const ALL_DAYS_AND_MORE = PAIRS * 30 + PAIRS * 2;

const { sandbox, control, receiver, subscribe } = useSubscribedSandbox();

function recNumber(record: RateRecord): number {
	return Number(/-rec(\d+)$/.exec(record.recordId)?.[1]);
}

/** The records the receiver got from one run, in record order. */
function deliveredBy(summary: RunSummary): RateRecord[] {
	const prefix = `shop${summary.shopId}-run${summary.runId}-rec`;
	return deliveredRecords(receiver).filter((record) => record.recordId.startsWith(prefix)).sort((a, b) => recNumber(a) - recNumber(b));
}

async function marketRun(market: MarketInput, records = PAIRS * 5): Promise<RateRecord[]> {
	return deliveredBy(await sandbox.runShop({ shopId: SHOP, records, perDelivery: 100, market }));
}

/** A stay-night as Compare With My Hotel groups it: every hotel and website of one night. */
function nightOf(record: RateRecord): string {
	return [record.checkIn.slice(0, 10), record.los, record.guests].join('|');
}

function groupBy(records: RateRecord[], key: (record: RateRecord) => string): RateRecord[][] {
	const groups = new Map<string, RateRecord[]>();
	for (const record of records) groups.set(key(record), [...(groups.get(key(record)) ?? []), record]);
	return [...groups.values()];
}

/** What parity compares: the total a guest pays. */
function total(record: RateRecord): number {
	return record.taxStatus === 0 ? record.onsiteRate + record.taxAmount : record.onsiteRate;
}

/** A record without what only names its run, to compare runs of the same layout. */
function withoutRun(record: RateRecord): Partial<RateRecord> {
	return { ...record, recordId: undefined, dtCollected: undefined };
}

function cents(amount: number): number {
	return Number(amount.toFixed(2));
}

function dayAhead(days: number): string {
	return new Date(Date.parse(START) + days * 86_400_000).toISOString().slice(0, 10);
}

describe('a market shop lays out one room per hotel and night on every website', () => {
	it('shows every hotel its first room, the same on every website, on every night and for every guest count', async () => {
		const records = await marketRun({ seed: 3 }, ALL_DAYS_AND_MORE);
		expect(new Set(records.map((record) => record.guests))).toEqual(new Set([2, 3]));
		for (const hotelNight of groupBy(records, (record) => `${record.hotelCode}|${nightOf(record)}`)) {
			expect(hotelNight.map((record) => record.websiteCode).sort()).toEqual([12, 2, 5]);
			expect(new Set(hotelNight.map((record) => record.roomType))).toEqual(new Set(['Standard Queen Room']));
		}
		expect(records.filter((record) => record.onsiteRate > 0).every((record) => record.isLAR)).toBe(true);
	});

	it('keeps every record a stay of its own', async () => {
		const records = await marketRun({}, ALL_DAYS_AND_MORE);
		const stays = new Set(records.map((record) => [record.hotelCode, record.websiteCode, nightOf(record), record.roomType].join('|')));
		expect(stays.size).toBe(records.length);
	});

	it('sells a hotel within its websites’ markups (under 1 %) for a night, but for the odd night a website sells it 3–8 % below the others', async () => {
		const records = await marketRun({ seed: 3 }, PAIRS * 30);
		const cheapestWebsites = new Set<number>();
		let discounted = 0;
		for (const hotelNight of groupBy(records, (record) => `${record.hotelCode}|${nightOf(record)}`).filter((night) => night[0].onsiteRate > 0)) {
			const rates = hotelNight.map((record) => record.onsiteRate).sort((a, b) => a - b);
			// Each rate is rounded to the cent on its own: half a cent either way.
			if (rates[rates.length - 1] <= rates[0] * (1 + MARKET_SHAPE.maxMarkup) + 0.01) {
				cheapestWebsites.add(hotelNight.reduce((cheapest, record) => (record.onsiteRate < cheapest.onsiteRate ? record : cheapest)).websiteCode);
				continue;
			}
			discounted++;
			// A website (on a rare night, two or three) below the others by 3 to 8 %, give or take the markups.
			expect(1 - rates[0] / rates[rates.length - 1]).toBeLessThan(0.08 + MARKET_SHAPE.maxMarkup + 0.001);
		}
		expect(cheapestWebsites.size).toBeGreaterThan(1);
		// 120 hotel-nights, three websites each at a 10 % chance: a handful, not most.
		expect(discounted).toBeGreaterThan(3);
		expect(discounted).toBeLessThan(60);
	});

	it('sells a hotel out on the odd night, on every website, and nothing else', async () => {
		const records = await marketRun({ seed: 3 }, PAIRS * 30);
		const soldOut = records.filter((record) => record.onsiteRate === 0);
		for (const record of soldOut) expect(record).toMatchObject({ ...SOLD_OUT, roomType: 'Standard Queen Room' });
		const nights = groupBy(soldOut, (record) => `${record.hotelCode}|${nightOf(record)}`);
		expect(nights.every((night) => night.length === 3)).toBe(true);
		expect(nights.length).toBeGreaterThan(0);
		expect(nights.length).toBeLessThan(12);
	});

	it('taxes a hotel the same way on every website, so its totals keep the same order as its rates', async () => {
		const records = (await marketRun({ seed: 3 }, PAIRS * 30)).filter((record) => record.onsiteRate > 0);
		for (const hotel of groupBy(records, (record) => String(record.hotelCode))) {
			expect(new Set(hotel.map((record) => `${record.taxStatus}|${record.taxType}`)).size).toBe(1);
			for (const record of hotel) {
				expect(record.taxAmount / record.onsiteRate).toBeCloseTo(hotel[0].taxAmount / hotel[0].onsiteRate, 3);
				expect(record.netRate).toBe(cents(record.taxStatus === 1 ? record.onsiteRate - record.taxAmount : record.onsiteRate));
			}
		}
		expect(new Set(records.map((record) => record.taxStatus))).toEqual(new Set([0, 1]));
	});

	it('gives the same records for the same seed, other rates for another seed', async () => {
		const first = await marketRun({ seed: 8 });
		const again = await marketRun({ seed: 8 });
		const other = await marketRun({ seed: 9 });
		expect(again.map(withoutRun)).toEqual(first.map(withoutRun));
		expect(other.map((record) => record.onsiteRate)).not.toEqual(first.map((record) => record.onsiteRate));
		expect(other.map((record) => record.roomType)).toEqual(first.map((record) => record.roomType));
	});
});

describe('the comp set spreads as a real one does', () => {
	/** Each hotel's rate on website 2 by night, on sale only. */
	async function ratesByHotel(market: MarketInput): Promise<Map<number, Map<string, number>>> {
		const records = (await marketRun(market, PAIRS * 30)).filter((record) => record.websiteCode === 2 && record.onsiteRate > 0);
		const byHotel = new Map<number, Map<string, number>>();
		for (const record of records) byHotel.set(record.hotelCode, (byHotel.get(record.hotelCode) ?? new Map<string, number>()).set(record.checkIn.slice(0, 10), record.onsiteRate));
		return byHotel;
	}

	/** A hotel's usual rate against another's: the median of their ratios over the nights both sell. */
	function usualRatio(of: Map<string, number>, to: Map<string, number>): number {
		const ratios = [...of].filter(([day]) => to.has(day)).map(([day, rate]) => rate / (to.get(day) as number)).sort((a, b) => a - b);
		return ratios[Math.floor(ratios.length / 2)];
	}

	it('around my hotel: one competitor usually just below it (2.5–4.5 %), the others above it (3–22 %), each moved by a little jitter', async () => {
		const byHotel = await ratesByHotel({ seed: 3, myHotelCode: MY_HOTEL });
		const mine = byHotel.get(MY_HOTEL) as Map<string, number>;
		const ratios = [...byHotel].filter(([code]) => code !== MY_HOTEL).map(([, rates]) => usualRatio(rates, mine) - 1).sort((a, b) => a - b);
		const slack = MARKET_SHAPE.premiumJitter + MARKET_SHAPE.hotelNightMove;
		expect(ratios[0]).toBeGreaterThan(-0.045 - slack);
		expect(ratios[0]).toBeLessThan(-0.025 + slack);
		for (const ratio of ratios.slice(1)) expect(ratio).toBeGreaterThan(0.03 - slack);
		expect(ratios[ratios.length - 1]).toBeLessThan(0.22 + slack);
	});

	it('without a hotel of mine: from about 15 % below the comp set’s level to 20 % above it', async () => {
		const byHotel = await ratesByHotel({ seed: 3 });
		const [first, ...others] = [...byHotel.values()];
		const ratios = others.map((rates) => usualRatio(rates, first)).concat(1);
		const spread = Math.max(...ratios) / Math.min(...ratios) - 1;
		expect(spread).toBeGreaterThan(0.3);
		expect(spread).toBeLessThan(0.5);
	});

	it('moves a hotel’s rate from one night to the next mostly by under 5 %, with a few larger moves (weekends, events, promotions)', async () => {
		const byHotel = await ratesByHotel({ seed: 3, myHotelCode: MY_HOTEL });
		const moves = [...byHotel.values()].flatMap((rates) => {
			const nights = [...rates].sort(([a], [b]) => a.localeCompare(b));
			return nights.slice(1).map(([, rate], i) => Math.abs(rate / nights[i][1] - 1));
		});
		const small = moves.filter((move) => move < 0.05).length / moves.length;
		expect(small).toBeGreaterThan(0.6);
		expect(moves.some((move) => move >= 0.1)).toBe(true);
	});

	it('lays out promotions: on the odd night a hotel sells 6–14 % below its usual rate', () => {
		const nights = Array.from({ length: 2000 }, (_, day) => hotelNight({ seed: 3, prices: [], currencies: {}, events: [] }, HOTEL_B, day + 1, 2));
		const promoted = nights.filter((night) => night.factor < 1 - MARKET_SHAPE.hotelNightMove);
		expect(promoted.length / nights.length).toBeCloseTo(MARKET_SHAPE.promotion.chance, 1);
		for (const night of promoted) {
			expect(night.factor).toBeGreaterThan((1 - 0.14) * (1 - MARKET_SHAPE.hotelNightMove) - 0.0001);
			expect(night.factor).toBeLessThan((1 - 0.06) * (1 + MARKET_SHAPE.hotelNightMove) + 0.0001);
		}
		expect(nights.filter((night) => night.soldOut).length / nights.length).toBeCloseTo(MARKET_SHAPE.soldOut.chance, 1);
	});

	it('lays out website discounts: on the odd night one website sells a hotel 3–8 % below its others', () => {
		const market = { seed: 3, prices: [], currencies: {}, events: [] };
		const factors = Array.from({ length: 2000 }, (_, day) => websiteDiscount(market, HOTEL_B, 2, day + 1));
		const discounted = factors.filter((factor) => factor < 1);
		expect(discounted.length / factors.length).toBeCloseTo(MARKET_SHAPE.websiteDiscount.chance, 1);
		for (const factor of discounted) {
			expect(factor).toBeGreaterThanOrEqual(1 - 0.08);
			expect(factor).toBeLessThanOrEqual(1 - 0.03);
		}
	});

	it('lays out the same comp set for the same seed whatever the day it runs (the weekends aside)', () => {
		const market = { seed: 3, myHotelCode: MY_HOTEL, prices: [], currencies: {}, events: [] };
		expect(hotelPremiums(market, [MY_HOTEL, HOTEL_B, HOTEL_C])).toEqual(hotelPremiums(market, [MY_HOTEL, HOTEL_B, HOTEL_C]));
		expect(hotelPremiums(market, [MY_HOTEL, HOTEL_B, HOTEL_C]).get(MY_HOTEL)).toBe(0);
		expect(nightLevel(market, 3)).toBe(nightLevel(market, 3));
	});
});

describe('prices move chosen hotels, websites and nights by a known factor', () => {
	const PRICES: MarketInput['prices'] = [
		// Hotel B 12 % below the layout on website 2 for tomorrow.
		{ hotelCode: HOTEL_B, websiteCode: 2, checkIn: 1, factor: 0.88 },
		// Website 5 sells my hotel 8 % cheaper on the third night, named by its date.
		{ hotelCode: MY_HOTEL, websiteCode: 5, checkIn: dayAhead(3), factor: 0.92 },
		// Hotel C dearer everywhere, every night.
		{ hotelCode: HOTEL_C, factor: 1.25 },
	];

	function factorOf(record: RateRecord): number {
		const day = record.checkIn.slice(0, 10);
		if (record.hotelCode === HOTEL_B && record.websiteCode === 2 && day === dayAhead(1)) return 0.88;
		if (record.hotelCode === MY_HOTEL && record.websiteCode === 5 && day === dayAhead(3)) return 0.92;
		if (record.hotelCode === HOTEL_C) return 1.25;
		return 1;
	}

	it('multiplies exactly the matching records’ onsiteRate, with taxAmount and netRate following, and nothing else', async () => {
		const layout = await marketRun({ seed: 4 });
		const priced = await marketRun({ seed: 4, prices: PRICES });
		const moved = priced.filter((record, i) => record.onsiteRate !== layout[i].onsiteRate);
		expect(moved.length).toBe(1 + 1 + 3 * 5);
		for (const [i, record] of priced.entries()) {
			const before = layout[i];
			const factor = factorOf(record);
			if (factor === 1) {
				expect(withoutRun(record)).toEqual(withoutRun(before));
				continue;
			}
			expect(record.onsiteRate).toBe(cents(before.onsiteRate * factor));
			// The hotel's tax share, read back from cent amounts, is itself off by up to half a cent.
			expect(Math.abs(record.taxAmount - record.onsiteRate * (before.taxAmount / before.onsiteRate))).toBeLessThanOrEqual(0.011);
			expect(record.netRate).toBe(cents(record.taxStatus === 1 ? record.onsiteRate - record.taxAmount : record.onsiteRate));
			expect(withoutRun({ ...record, onsiteRate: 0, taxAmount: 0, netRate: 0 })).toEqual(withoutRun({ ...before, onsiteRate: 0, taxAmount: 0, netRate: 0 }));
		}
	});

	it('makes “hotel B is 12 % below my hotel on website 2 tomorrow” true by construction, totals included', async () => {
		const records = await marketRun({ seed: 4, prices: [{ hotelCode: HOTEL_B, websiteCode: 2, checkIn: 1, factor: 0.88 }] });
		const layout = await marketRun({ seed: 4 });
		const find = (from: RateRecord[], hotelCode: number): RateRecord => from.find((record) => record.hotelCode === hotelCode && record.websiteCode === 2 && record.checkIn.startsWith(dayAhead(1))) as RateRecord;
		expect(find(records, HOTEL_B).onsiteRate / find(layout, HOTEL_B).onsiteRate).toBeCloseTo(0.88, 4);
		expect(total(find(records, HOTEL_B)) / total(find(layout, HOTEL_B))).toBeCloseTo(0.88, 3);
		expect(find(records, MY_HOTEL)).toEqual({ ...find(layout, MY_HOTEL), recordId: expect.any(String), dtCollected: expect.any(String) });
	});

	it('multiplies a record matched by several entries by each factor', async () => {
		const layout = await marketRun({ seed: 4 });
		const priced = await marketRun({ seed: 4, prices: [{ hotelCode: MY_HOTEL, factor: 1.1 }, { hotelCode: MY_HOTEL, websiteCode: 12, factor: 0.5 }] });
		for (const [i, record] of priced.entries()) {
			if (record.hotelCode !== MY_HOTEL) continue;
			expect(record.onsiteRate).toBe(cents(layout[i].onsiteRate * (record.websiteCode === 12 ? 1.1 * 0.5 : 1.1)));
		}
	});

	it('sells the matching records out with factor 0, in the shape of any sold-out record', async () => {
		const layout = await marketRun({ seed: 4 });
		const records = await marketRun({ seed: 4, prices: [{ hotelCode: HOTEL_B, checkIn: 2, factor: 0 }] });
		const soldOut = records.filter((record, i) => record.onsiteRate === 0 && layout[i].onsiteRate > 0);
		expect(soldOut.map((record) => [record.hotelCode, record.checkIn.slice(0, 10)])).toEqual([2, 5, 12].map(() => [HOTEL_B, dayAhead(2)]));
		for (const record of soldOut) expect(record).toMatchObject({ ...SOLD_OUT, roomType: 'Standard Queen Room' });
	});
});

describe('currencies', () => {
	it('sets a hotel’s record currency and leaves every amount as it was', async () => {
		const layout = await marketRun({ seed: 6 });
		const records = await marketRun({ seed: 6, currencies: { [HOTEL_C]: 'gbp' } });
		// The shop's own currency is its city's: Barcelona's euro.
		expect(sandbox.data.shops.get(SHOP)?.config.currency).toBe('EUR');
		for (const [i, record] of records.entries()) {
			expect(record.currency).toBe(record.hotelCode === HOTEL_C ? 'GBP' : 'EUR');
			expect(withoutRun({ ...record, currency: 'EUR' })).toEqual(withoutRun(layout[i]));
		}
	});
});

describe('repeating a market run', () => {
	it('collects the same layout again without changes, and with changes moves exactly the records it reports', async () => {
		const base = await sandbox.runShop({ shopId: SHOP, records: PAIRS * 5, perDelivery: 100, market: { seed: 4, prices: [{ hotelCode: HOTEL_B, factor: 0 }], currencies: { [HOTEL_C]: 'EUR' } } });
		const same = await sandbox.runShop({ repeatRun: base.runId, perDelivery: 100 });
		expect(deliveredBy(same).map(withoutRun)).toEqual(deliveredBy(base).map(withoutRun));
		expect(same.expectedChanges).toEqual([]);

		const changed = await sandbox.runShop({ repeatRun: base.runId, changes: { seed: 2, changed: 0.2, backOnSale: 1 }, perDelivery: 100 });
		const before = deliveredBy(base);
		const after = deliveredBy(changed);
		const reported = new Set((changed.expectedChanges ?? []).map((change) => recNumber({ recordId: change.recordId } as RateRecord)));
		const soldOut = before.filter((record) => record.onsiteRate === 0).length;
		expect(soldOut).toBeGreaterThanOrEqual(3 * 5);
		expect(reported.size).toBe(Math.round(0.2 * (PAIRS * 5 - soldOut)) + soldOut);
		for (const [i, record] of after.entries()) {
			expect(record.onsiteRate !== before[i].onsiteRate).toBe(reported.has(recNumber(record)));
			expect(record).toMatchObject({ roomType: before[i].roomType, currency: before[i].currency, taxStatus: before[i].taxStatus });
		}
	});

	it('replays a market run as it was', async () => {
		const base = await sandbox.runShop({ shopId: SHOP, records: PAIRS, perDelivery: 100, market: { seed: 4 } });
		const first = deliveredBy(base);
		await sandbox.runShop({ repeatRun: base.runId, replay: true, perDelivery: 100 });
		expect(deliveredRecords(receiver).slice(first.length)).toEqual(first);
	});

	it('is driven by POST /__sandbox/run-shop like any run', async () => {
		const { status, data } = await control.post('/run-shop', { shopId: SHOP, records: PAIRS, perDelivery: 100, market: { seed: 4, currencies: { [String(MY_HOTEL)]: 'GBP' } } });
		expect(status).toBe(200);
		const records = deliveredBy(data as RunSummary);
		expect(records.filter((record) => record.currency === 'GBP').map((record) => record.hotelCode)).toEqual([MY_HOTEL, MY_HOTEL, MY_HOTEL]);
	});
});

describe('events', () => {
	const search = async (body: Record<string, unknown>) =>
		(await axios.post(`${sandbox.baseUrl}/eventimpact/?eventsImpactPerPage=500`, body, { headers: { Authorization: `Bearer ${sandbox.credentials.accessToken}` } })).data as { events: Array<Record<string, unknown>> };
	const myHotel = () => sandbox.data.hotelsByCode.get(MY_HOTEL)?.hotel as { lat: number; long: number; city: string };
	const near = () => ({ lat: String(myHotel().lat), lng: String(myHotel().long), proximity: 1 });

	it('makes an event night dearer for every hotel, and leaves the other nights as they were', async () => {
		const plain = await marketRun({ seed: 4, myHotelCode: MY_HOTEL });
		sandbox.reset();
		sandbox.setClock(START);
		await subscribe();
		const staged = await marketRun({ seed: 4, myHotelCode: MY_HOTEL, events: [{ checkIn: 3, nights: 2, impactScore: 85 }] });
		const market = { seed: 4, myHotelCode: MY_HOTEL, prices: [], currencies: {}, events: [{ checkIn: 3, nights: 2, impactScore: 85 }] };
		for (const [i, record] of staged.entries()) {
			const day = Number(record.checkIn.slice(8, 10)) - 1;
			const eventNight = day === 3 || day === 4;
			const ratio = record.onsiteRate / plain[i].onsiteRate;
			if (!eventNight || plain[i].onsiteRate === 0) expect(record.onsiteRate).toBe(plain[i].onsiteRate);
			else expect(ratio).toBeCloseTo(nightLevel(market, day, record.checkIn.slice(0, 10)) / nightLevel({ ...market, events: [] }, day), 3);
		}
		expect(nightLevel(market, 3) / nightLevel({ ...market, events: [] }, 3)).toBeGreaterThan(1);
	});

	it('adds the event to the event search beside my hotel, on its nights, once however often the run is repeated', async () => {
		const before = sandbox.data.events.length;
		const run = await sandbox.runShop({ shopId: SHOP, records: PAIRS, market: { seed: 4, myHotelCode: MY_HOTEL, events: [{ checkIn: 2, nights: 3, impactScore: 85, eventName: 'Harbour Jazz Festival', estimatedAttendees: 40000 }] } });
		await sandbox.runShop({ repeatRun: run.runId, changes: { seed: 1, changed: 0.5 } });
		expect(sandbox.data.events.length).toBe(before + 1);
		const { events } = await search({ ...near(), startDate: '2026-12-03' });
		expect(events).toEqual([
			expect.objectContaining({
				id: before + 1,
				eventName: 'Harbour Jazz Festival',
				startDate: '2026-12-03 19:00:00',
				endDate: '2026-12-05 23:00:00',
				impactScore: 85,
				impactEventType: 'High Impact',
				estimatedAttendees: 40000,
				eventStatus: 'Scheduled',
				city: myHotel().city,
			}),
		]);
		expect((await search({ ...near(), startDate: '2026-12-05' })).events).toHaveLength(1);
		expect((await search({ ...near(), startDate: '2026-12-06' })).events).toHaveLength(0);
	});

	it('names the event after the city by default, and forgets it on reset', async () => {
		const before = sandbox.data.events.length;
		await sandbox.runShop({ shopId: SHOP, records: PAIRS, market: { seed: 4, events: [{ checkIn: '2026-12-04', impactScore: 55 }] } });
		expect(sandbox.data.events.at(-1)).toMatchObject({ eventName: `${myHotel().city} Music Festival 2026`, startDate: '2026-12-04 19:00:00', endDate: '2026-12-04 23:00:00', impactEventType: 'Medium Impact' });
		sandbox.reset();
		expect(sandbox.data.events.length).toBe(before);
		expect(sandbox.data.seedEvents.length).toBe(before);
	});
});

describe('refusing a market that cannot be laid out', () => {
	it.each<[string, Record<string, unknown>, RegExp]>([
		['market has an unknown field', { market: { seed: 1, price: [] } }, /unknown field 'market.price'/],
		['market is not an object', { market: [] }, /market must be an object/],
		['the seed is not an integer', { market: { seed: 1.5 } }, /market.seed must be an integer/],
		['prices is not an array', { market: { prices: { hotelCode: MY_HOTEL, factor: 1 } } }, /market.prices must be an array/],
		['a prices entry has an unknown field', { market: { prices: [{ hotelCode: MY_HOTEL, factor: 1, website: 2 }] } }, /unknown field 'market.prices\[0\].website'/],
		['a factor is below 0', { market: { prices: [{ hotelCode: MY_HOTEL, factor: -0.1 }] } }, /market.prices\[0\].factor must be a number >= 0/],
		['a factor is missing', { market: { prices: [{ hotelCode: MY_HOTEL }] } }, /market.prices\[0\].factor must be a number >= 0/],
		['a factor is text', { market: { prices: [{ hotelCode: MY_HOTEL, factor: '0.9' }] } }, /market.prices\[0\].factor must be a number >= 0/],
		['a prices hotelCode is not a hotel of the run', { market: { prices: [{ hotelCode: MY_HOTEL, factor: 1 }, { hotelCode: 100001, factor: 0.9 }] } }, /market.prices\[1\].hotelCode 100001 is not a hotel of this run; the run's hotels are 100019, 100067, 100117, 100133/],
		['a prices websiteCode is not a website of the run', { market: { prices: [{ hotelCode: MY_HOTEL, websiteCode: 1, factor: 0.9 }] } }, /market.prices\[0\].websiteCode 1 is not a website of this run; its websites are 2, 5, 12/],
		['a prices checkIn day is past the horizon', { market: { prices: [{ hotelCode: MY_HOTEL, checkIn: 31, factor: 0.9 }] } }, /market.prices\[0\].checkIn 31 is past the run's horizon of 30 days/],
		['a prices checkIn date is not a day of the run', { market: { prices: [{ hotelCode: MY_HOTEL, checkIn: '2026-12-01', factor: 0.9 }] } }, /market.prices\[0\].checkIn 2026-12-01 is not a check-in day of this run \(2026-12-02 to 2026-12-31\)/],
		['a prices checkIn is not a date', { market: { prices: [{ hotelCode: MY_HOTEL, checkIn: '12/02/2026', factor: 0.9 }] } }, /market.prices\[0\].checkIn must be a real date in the form YYYY-MM-DD/],
		['myHotelCode is not a hotel of the run', { market: { myHotelCode: 100001 } }, /market.myHotelCode 100001 is not a hotel of this run/],
		['currencies names a hotel not of the run', { market: { currencies: { 100001: 'EUR' } } }, /market.currencies names hotel 100001, not a hotel of this run/],
		['a currency is not a 3-letter code', { market: { currencies: { [MY_HOTEL]: 'EURO' } } }, /market.currencies.100019 must be a 3-letter currency code/],
		['a currencies key is not a hotel code', { market: { currencies: { first: 'EUR' } } }, /market.currencies key 'first' must be a hotel code/],
		['events is not an array', { market: { events: { checkIn: 1, impactScore: 80 } } }, /market.events must be an array/],
		['an event has an unknown field', { market: { events: [{ checkIn: 1, impactScore: 80, score: 80 }] } }, /unknown field 'market.events\[0\].score'/],
		['an event has no impact score', { market: { events: [{ checkIn: 1 }] } }, /market.events\[0\].impactScore must be an integer/],
		['an impact score is above 100', { market: { events: [{ checkIn: 1, impactScore: 101 }] } }, /market.events\[0\].impactScore/],
		['an event lasts more than 14 nights', { market: { events: [{ checkIn: 1, impactScore: 80, nights: 15 }] } }, /market.events\[0\].nights/],
		['an event name is empty', { market: { events: [{ checkIn: 1, impactScore: 80, eventName: ' ' }] } }, /market.events\[0\].eventName must be a non-empty string/],
		['an event checkIn day is past the horizon', { market: { events: [{ checkIn: 31, impactScore: 80 }] } }, /market.events\[0\].checkIn 31 is past the run's horizon of 30 days/],
		['an event checkIn date is not a day of the run', { market: { events: [{ checkIn: '2026-12-01', impactScore: 80 }] } }, /market.events\[0\].checkIn 2026-12-01 is not a check-in day of this run/],
	])('answers 400 when %s', async (_case, options, reason) => {
		const { status, data } = await control.post('/run-shop', { shopId: SHOP, records: PAIRS, ...options });
		expect(status).toBe(400);
		expect(data).toEqual({ error: true, status: 400, message: expect.stringMatching(reason) });
	});

	it('answers 400 when a repeat sets a market: it keeps the layout of the run it repeats', async () => {
		const base = await sandbox.runShop({ shopId: SHOP, records: PAIRS, market: { seed: 4 } });
		const { status, data } = await control.post('/run-shop', { repeatRun: base.runId, market: { seed: 5 } });
		expect(status).toBe(400);
		expect(data).toMatchObject({ message: expect.stringMatching(/market cannot be set with repeatRun/) });
	});

	it('takes no runId for a refused market', async () => {
		const before = await sandbox.runShop({ shopId: SHOP, records: 1 });
		await control.post('/run-shop', { shopId: SHOP, market: { prices: [{ hotelCode: 100001, factor: 1 }] } });
		expect(await sandbox.runShop({ shopId: SHOP, records: 1, market: {} })).toMatchObject({ runId: before.runId + 1 });
	});
});
