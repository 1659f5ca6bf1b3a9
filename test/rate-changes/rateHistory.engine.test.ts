import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { startDataTablesApi, type DataTablesApi } from '../../platform/dataTables';
import { seedHistoryTable } from '../../platform/engine';
import { RATES_TABLE_DEFAULT } from '../../nodes/RateChanges/storage/tables';
import { DETECT, runRateChanges, shopOf, staysOf, withStandIn, type StaySpec } from '../harness/standIn';

/**
 * Rate History in n8n's engine against the stand-in for n8n's Data Tables API: twenty daily shops
 * of known rates go through Detect Changes (the rates table, each stay's last collection) and into
 * the history table, and each date's series must hold the figures worked out here from the records
 * delivered (each hotel at its cheapest website at the end of each day, a stay no longer collected
 * left out from the second day after its last collection), not by the node's rules.
 */

const MINE = 100001;
const [B, C, D, E] = [100002, 100003, 100004, 100005];
const DATES = ['2027-03-01', '2027-03-02', '2027-03-03', '2027-03-04', '2027-03-05'];
const SHOPS = 20;
const FIRST_SHOP_DAY = '2027-02-09';
const DAY_MS = 86_400_000;
const shopDay = (shop: number) => new Date(Date.parse(`${FIRST_SHOP_DAY}T00:00:00Z`) + shop * DAY_MS).toISOString().slice(0, 10);
const dayNumber = (date: string) => Date.parse(`${date.slice(0, 10)}T00:00:00Z`) / DAY_MS;

/**
 * Shop `shop` (0 to 19): I stand at 100 but move to 120 on 3 March from shop 9 and sell out 5 March
 * from shop 17; B climbs 2 a shop on 5 March; C sells out 3 March in shops 10 to 12; D at 120
 * (website 2: 125) stops being collected on website 1 for 2 March after shop 5; E sells in USD, so
 * is never in the median. Website 2 sells every hotel 5 dearer.
 */
function rateOf(stay: StaySpec, shop: number): number {
	const bump = stay.websiteCode === 2 ? 5 : 0;
	const { hotelCode, checkIn } = stay;
	if (hotelCode === MINE && checkIn === '2027-03-03' && shop >= 9) return 120 + bump;
	if (hotelCode === MINE && checkIn === '2027-03-05' && shop >= 17) return 0;
	if (hotelCode === B && checkIn === '2027-03-05') return 90 + 2 * shop + bump;
	if (hotelCode === C && checkIn === '2027-03-03' && shop >= 10 && shop <= 12) return 0;
	return { [MINE]: 100, [B]: 90, [C]: 110, [D]: 120, [E]: 130 }[hotelCode] + bump;
}

const STAYS = staysOf([MINE, B, C, D, E], [1, 2], DATES[0], DATES.length).map((stay) => (stay.hotelCode === E ? { ...stay, currency: 'USD' } : stay));

function staysOfShop(shop: number): StaySpec[] {
	return STAYS.filter((stay) => !(stay.hotelCode === D && stay.websiteCode === 1 && stay.checkIn === '2027-03-02' && shop > 5));
}

let api: DataTablesApi;
const DELIVERED: IDataObject[] = [];

beforeAll(async () => {
	api = await startDataTablesApi();
	for (let shop = 0; shop < SHOPS; shop++) {
		const records = shopOf(staysOfShop(shop), `${shopDay(shop)}T06:00:00Z`, (stay) => rateOf(stay, shop));
		const result = await runRateChanges(api, DETECT, records);
		expect(result.error).toBeUndefined();
		DELIVERED.push(...records);
	}
	// The history table as Detect Changes with Keep History on leaves it (until it writes it: then this line goes).
	seedHistoryTable(api, DELIVERED);
}, 120_000);

afterAll(async () => {
	await api?.close();
});

const HISTORY: INodeParameters = { operation: 'rateHistory', myHotelCode: String(MINE), window: 'range', fromDate: DATES[0], toDate: DATES[DATES.length - 1], options: {} };

async function history(parameters: INodeParameters = {}): Promise<IDataObject[]> {
	const result = await runRateChanges(api, { ...HISTORY, ...parameters }, [{}]);
	expect(result.error).toBeUndefined();
	return result.items.map((item) => item.json);
}

const median = (rates: number[]) => {
	const sorted = [...rates].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	if (sorted.length === 0) return null;
	return sorted.length % 2 ? sorted[middle] : Math.round(((sorted[middle - 1] + sorted[middle]) / 2) * 100) / 100;
};

/** A hotel at the end of a shop day, from the records: each website's latest record by then, if collected that day or the day before; its cheapest on sale. */
function hotelAt(hotelCode: number, date: string, day: string): { rate: number | null } | undefined {
	const records = DELIVERED.filter((record) => record.hotelCode === hotelCode && String(record.checkIn).startsWith(date));
	const rates = [1, 2].flatMap((websiteCode) => {
		const ofWebsite = records.filter((record) => record.websiteCode === websiteCode);
		const latest = ofWebsite.filter((record) => String(record.dtCollected).slice(0, 10) <= day).at(-1);
		const lastCollected = ofWebsite.at(-1)?.dtCollected;
		if (!latest || dayNumber(day) > dayNumber(String(lastCollected)) + 1) return [];
		return [Number(latest.onsiteRate)];
	});
	if (rates.length === 0) return undefined;
	const onSale = rates.filter((rate) => rate > 0);
	return { rate: onSale.length > 0 ? Math.min(...onSale) : null };
}

/** Each shop day of a date, worked out from the records: E (USD) never counted. */
function expectedSeries(date: string): IDataObject[] {
	return Array.from({ length: SHOPS }, (_, shop) => shopDay(shop)).map((day) => {
		const mine = hotelAt(MINE, date, day);
		const competitors = [B, C, D].map((hotelCode) => hotelAt(hotelCode, date, day)).filter((hotel) => hotel !== undefined);
		const onSale = competitors.flatMap((hotel) => (hotel.rate === null ? [] : [hotel.rate])).sort((a, b) => a - b);
		const compMedian = median(onSale);
		const myRate = mine?.rate ?? null;
		return {
			shopDay: day,
			daysOut: dayNumber(date) - dayNumber(day),
			myRate,
			mySoldOut: mine !== undefined && mine.rate === null,
			compLowest: onSale[0] ?? null,
			compMedian,
			compHighest: onSale.at(-1) ?? null,
			priceIndex: myRate === null || compMedian === null ? null : Math.round((myRate / compMedian) * 10_000) / 100,
			competitorsOnSale: onSale.length,
			competitorsSoldOut: competitors.length - onSale.length,
		};
	});
}

const FIGURES = ['shopDay', 'daysOut', 'myRate', 'mySoldOut', 'compLowest', 'compMedian', 'compHighest', 'priceIndex', 'competitorsOnSale', 'competitorsSoldOut'];
const figures = (series: IDataObject[]) => series.map((point) => Object.fromEntries(FIGURES.map((field) => [field, point[field]])));

describe('the history of each date', () => {
	it('holds, for every shop day, my rate, the comp median, lowest, highest, my index and the sold-out counts, from the records delivered', async () => {
		const items = await history({ calendarOutput: 'dates' });
		expect(items.map((item) => item.date)).toEqual(DATES);
		for (const item of items) expect(figures(item.series as IDataObject[])).toEqual(expectedSeries(String(item.date)));
	});

	it('shows a sold-out competitor as sold out, not as a rate of 0, and leaves it out of the median', async () => {
		const [, , third] = await history({ calendarOutput: 'dates' });
		const point = (third.series as IDataObject[]).find((entry) => entry.shopDay === shopDay(11)) as IDataObject;
		expect(point.competitors).toEqual([
			{ hotelCode: B, hotelName: `Hotel ${B}`, rate: 90, soldOut: false },
			{ hotelCode: D, hotelName: `Hotel ${D}`, rate: 120, soldOut: false },
			{ hotelCode: C, hotelName: `Hotel ${C}`, rate: null, soldOut: true },
		]);
		expect(point).toMatchObject({ compMedian: 105, competitorsSoldOut: 1 });
	});

	it('says each date in a line: the comp median from the first shop day to the last, and when I moved', async () => {
		const items = await history({ calendarOutput: 'dates' });
		const fifth = expectedSeries('2027-03-05');
		const [from, to] = [fifth[0].compMedian as number, fifth[SHOPS - 1].compMedian as number];
		const percent = Math.round(((to - from) / from) * 100);
		const soldOutFrom = fifth.find((point) => point.mySoldOut) as IDataObject;
		expect(items[4].line).toBe(`comp median ${from} → ${to} EUR (+${percent} %) over ${SHOPS} days; you did not move; sold out since ${soldOutFrom.daysOut} days out`);
		const third = expectedSeries('2027-03-03');
		const moved = third.find((point) => point.myRate === 120) as IDataObject;
		expect(items[2].line).toBe(`comp median steady at 110 EUR over ${SHOPS} days; you moved once, ${moved.daysOut} days out`);
		expect(items[0].line).toBe(`comp median steady at 110 EUR over ${SHOPS} days; you did not move`);
	});

	it('covers the Look Back days up to the newest shop', async () => {
		const [first] = await history({ calendarOutput: 'dates', lookBackDays: 7 });
		expect(figures(first.series as IDataObject[])).toEqual(expectedSeries(DATES[0]).slice(-7));
	});

	it('puts out one summary with the counts, the texts, the HTML and every date without its series', async () => {
		const [summary] = await history();
		expect(summary).toMatchObject({ myHotelCode: MINE, hotelName: `Hotel ${MINE}`, show: 'history', website: 'lowest', nights: 1, guests: 2, from: DATES[0], to: DATES[4], lookBackDays: 30, currency: 'EUR' });
		expect(summary.counts).toEqual({ dates: 5, withHistory: 5, compMedianUp: 1, compMedianDown: 0, myMoves: 1, mySoldOut: 1 });
		expect(String(summary.text).split('\n')[0]).toBe(`Rate history: Hotel ${MINE} (${MINE}): lowest rate of all websites, 1 night, 2 guests, ${DATES[0]} to ${DATES[4]}, the last 30 shop days before arrival, EUR`);
		expect(summary.slackText).toContain(`• *Fri 2027-03-05*: comp median`);
		expect(summary.html).toContain('Rate history: Hotel 100001 (100001)');
		expect((summary.dates as IDataObject[]).map((date) => Object.keys(date))).toEqual(DATES.map(() => expect.not.arrayContaining(['series'])));
	});

	it('puts out only the peak dates asked for: the highest comp median now', async () => {
		const [summary] = await history({ onlyPeakDates: 1 });
		expect((summary.dates as IDataObject[]).map((date) => date.date)).toEqual(['2027-03-05']);
	});

	it('reads one website when asked: website 2 sells every hotel 5 dearer', async () => {
		const [first] = await history({ calendarOutput: 'dates', website: 'one', websiteCode: '2' });
		expect((first.series as IDataObject[]).at(-1)).toMatchObject({ myRate: 105, compMedian: 115 });
	});

	it('reads only the comp set named', async () => {
		const [first] = await history({ calendarOutput: 'dates', compSet: 'codes', competitorCodes: `${B}, ${C}` });
		expect((first.series as IDataObject[]).at(-1)).toMatchObject({ compMedian: 100, competitorsOnSale: 2 });
	});
});

/** Each stay's mean in each bucket of days before arrival, then the mean over the stays, from the expected series. */
function expectedCurve(): Array<{ label: string; myIndex: number | null; stays: number }> {
	const buckets: Array<[string, number, number]> = [['61–90', 61, 90], ['31–60', 31, 60], ['15–30', 15, 30], ['8–14', 8, 14], ['0–7', 0, 7]];
	// To the cent as a person rounds: a float a hair under a half (95.454999…) is the half it stands for.
	const mean = (values: number[]) => (values.length === 0 ? null : Math.round(Number(((values.reduce((sum, value) => sum + value, 0) / values.length) * 100).toPrecision(12))) / 100);
	return buckets.map(([label, from, to]) => {
		const perStay = DATES.flatMap((date) => {
			const indexes = expectedSeries(date).filter((point) => (point.daysOut as number) >= from && (point.daysOut as number) <= to && point.priceIndex !== null).map((point) => point.priceIndex as number);
			const stayMean = mean(indexes);
			return stayMean === null ? [] : [stayMean];
		});
		return { label, myIndex: mean(perStay), stays: perStay.length };
	});
}

describe('the booking-window curve', () => {
	it('averages my index by days before arrival over the stays, each stay weighing the same', async () => {
		const [summary] = await history({ historyShow: 'curve' });
		expect((summary.curve as IDataObject[]).map(({ label, myIndex, stays }) => ({ label, myIndex, stays }))).toEqual(expectedCurve());
		const indexed = expectedCurve().filter((bucket) => bucket.myIndex !== null);
		expect(summary.line).toMatch(new RegExp(`^your index by days before arrival: ${indexed.map((bucket) => `${(bucket.myIndex as number).toFixed(0)} at ${bucket.label}`).join(', ')}; comp median `));
		expect(summary.text).toContain('Booking window: Hotel 100001 (100001)');
		expect(summary.html).toContain('Your index');
		expect(summary.dates).toHaveLength(5);
	});
});

describe('what it refuses', () => {
	it('names the field of a wrong setting before any request', async () => {
		const cases: Array<[INodeParameters, RegExp]> = [
			[{ myHotelCode: 'abc' }, /My Hotel Code/],
			[{ fromDate: '2027-03-05', toDate: '2027-03-01' }, /To Date.*is before From Date/],
			[{ lookBackDays: 0 }, /Look Back \(Days\)/],
			[{ lookBackDays: 400 }, /Look Back \(Days\)/],
		];
		for (const [parameters, message] of cases) {
			const before = api.requests.length;
			const result = await runRateChanges(api, { ...HISTORY, ...parameters }, [{}]);
			expect(result.error?.message).toMatch(message);
			expect(api.requests.length).toBe(before);
		}
	});

	it('says what to do when there is no history table yet, and creates nothing', async () => {
		await withStandIn(async (fresh) => {
			const result = await runRateChanges(fresh, HISTORY, [{}]);
			expect(result.error?.message).toBe(`No rate history yet: there is no data table "${RATES_TABLE_DEFAULT}_history"`);
			expect(result.error?.description).toContain('Turn Keep History on in the Detect Changes node');
			await fresh.settled();
			expect(fresh.requests.filter((request) => request.committed)).toEqual([]);
			expect(fresh.tables().map((table) => table.name)).toEqual([]);
		});
	});

	it('says what to do when the history holds nothing of my hotel on those dates', async () => {
		const result = await runRateChanges(api, { ...HISTORY, fromDate: '2027-05-01', toDate: '2027-05-03' }, [{}]);
		expect(result.error?.message).toBe(`No rate history of hotel ${MINE} from 2027-05-01 to 2027-05-03 (1 night, 2 guests) in "${RATES_TABLE_DEFAULT}_history"`);
	});
});

describe('as an AI tool', () => {
	// Called as a tool (a node type ending in Tool, which this engine does not run), the summary leaves
	// out html and slackText: measured here as that summary.
	it('answers in a few kilobytes: the summary of 5 dates without its HTML and Slack text', async () => {
		const [summary] = await history();
		const { html, slackText, ...forTool } = summary;
		expect([typeof html, typeof slackText]).toEqual(['string', 'string']);
		const bytes = Buffer.byteLength(JSON.stringify([forTool]));
		process.stderr.write(`Rate History as a tool, 5 dates: ${bytes} bytes (with html and slackText: ${Buffer.byteLength(JSON.stringify([summary]))})\n`);
		expect(bytes).toBeLessThan(6_000);
	});
});
