import type { IDataObject, INodeParameters, INodeTypeDescription } from 'n8n-workflow';

import { credentialsFor, loadPackage, useSandbox } from '../harness';
import { DETECT, runRateChanges, shopOf, staysOf, useStandIn, type RateChangesRun, type StaySpec } from '../harness/standIn';
import { startStubService } from '../harness/stubService';

/**
 * Rate Calendar in n8n's engine against the stand-in for n8n's Data Tables API and the service
 * sandbox: Detect Changes fills the rates table with shops of known rates, and each date of the
 * calendar must hold the figures worked out here from those rates (not by the node's rules); the
 * arrows show what moved since the calendar last went out, and neither a Retry of an execution
 * nor a test run in the editor moves them on.
 */

const sandbox = useSandbox({ speed: 0, clock: '2026-12-01T06:00:00Z' });
const api = useStandIn();

const MINE = 100001;
const [B, C, D, E] = [100002, 100003, 100004, 100005];
const HOTELS = [MINE, B, C, D, E];
const FROM = '2027-03-01';
const DATES = Array.from({ length: 10 }, (_, day) => `2027-03-${String(day + 1).padStart(2, '0')}`);
const FIRST = '2027-02-20T06:00:00Z';
const SECOND = '2027-02-21T06:00:00Z';

/** Each hotel's usual rate on website 1; website 2 sells it 5 dearer. */
const USUAL: Record<number, number> = { [MINE]: 100, [B]: 90, [C]: 110, [D]: 120, [E]: 130 };

/**
 * The first shop: 3 March I am sold out, 4 March at 125 (dearer), 5 March C is sold out, 6 March
 * nobody was shopped, 7 March at 108 (on par); E sells in USD, so it is never in the median.
 */
function firstRate(stay: StaySpec): number {
	const day = Number(stay.checkIn.slice(8, 10));
	const bump = stay.websiteCode === 2 ? 5 : 0;
	if (stay.hotelCode === MINE && day === 3) return 0;
	if (stay.hotelCode === MINE && day === 4) return 125 + bump;
	if (stay.hotelCode === MINE && day === 7) return 108 + bump;
	if (stay.hotelCode === C && day === 5) return 0;
	return USUAL[stay.hotelCode] + bump;
}

/** The second shop, a day later: my rate 10 down on 1 March, D 20 up on 2 March (the comp median moves), the rest as before. */
function secondRate(stay: StaySpec): number {
	const day = Number(stay.checkIn.slice(8, 10));
	if (stay.hotelCode === MINE && day === 1) return firstRate(stay) - 10;
	if (stay.hotelCode === D && day === 2) return firstRate(stay) + 20;
	return firstRate(stay);
}

const STAYS = staysOf(HOTELS, [1, 2], FROM, 10)
	.filter((stay) => stay.checkIn !== '2027-03-06')
	.map((stay) => (stay.hotelCode === E ? { ...stay, currency: 'USD' } : stay));

async function shop(dtCollected: string, rateOf: (stay: StaySpec) => number): Promise<void> {
	const result = await runRateChanges(api, DETECT, shopOf(STAYS, dtCollected, (stay) => rateOf(stay)));
	expect(result.error).toBeUndefined();
}

const CALENDAR: INodeParameters = { operation: 'rateCalendar', myHotelCode: String(MINE), window: 'range', fromDate: FROM, toDate: '2027-03-10', options: {} };

async function calendar(parameters: INodeParameters = {}, options: RateChangesRun & { items?: IDataObject[] } = {}): Promise<IDataObject> {
	const { items = [{ firedAt: 'morning' }], ...run } = options;
	const result = await runRateChanges(api, { ...CALENDAR, ...parameters }, items, run);
	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(1);
	return result.items[0].json;
}

function datesOf(summary: IDataObject): IDataObject[] {
	return summary.dates as IDataObject[];
}

const median = (rates: number[]) => {
	const sorted = [...rates].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : Math.round(((sorted[middle - 1] + sorted[middle]) / 2) * 100) / 100;
};

/** The figures of each date, worked out from a shop's rates: each hotel at its cheapest website, E (USD) left out. */
function expectedFigures(rateOf: (stay: StaySpec) => number): IDataObject[] {
	return DATES.map((date) => {
		const shopped = STAYS.filter((stay) => stay.checkIn === date);
		const cheapest = (hotelCode: number) => {
			const rates = shopped.filter((stay) => stay.hotelCode === hotelCode).map(rateOf).filter((rate) => rate > 0);
			return rates.length > 0 ? Math.min(...rates) : null;
		};
		if (shopped.length === 0) return { date, myRate: null, mySoldOut: false, compMedian: null, priceIndex: null, band: null, myRank: null, competitorsSoldOut: 0 };
		const myRate = cheapest(MINE);
		const competitors = [B, C, D].map(cheapest);
		const onSale = competitors.filter((rate): rate is number => rate !== null);
		const compMedian = median(onSale);
		const priceIndex = myRate === null ? null : Math.round((myRate / compMedian) * 10_000) / 100;
		const band = priceIndex === null ? null : priceIndex < 95 ? 'cheaper' : priceIndex > 105 ? 'dearer' : 'onPar';
		const myRank = myRate === null ? null : 1 + onSale.filter((rate) => rate < myRate).length;
		return { date, myRate, mySoldOut: myRate === null, compMedian, priceIndex, band, myRank, competitorsSoldOut: competitors.length - onSale.length };
	});
}

const FIGURES = ['date', 'myRate', 'mySoldOut', 'compMedian', 'priceIndex', 'band', 'myRank', 'competitorsSoldOut'];

function figures(days: IDataObject[]): IDataObject[] {
	return days.map((day) => Object.fromEntries(FIGURES.map((field) => [field, day[field]])));
}

function arrows(days: IDataObject[]): IDataObject[] {
	return days.filter((day) => day.myRateArrow !== null || day.compMedianArrow !== null).map(({ date, myRateChange, myRateArrow, compMedianChange, compMedianArrow }) => ({ date, myRateChange, myRateArrow, compMedianChange, compMedianArrow }));
}

/**
 * What moved between the two shops: my rate, 10 down on 1 March. D's 20 up on 2 March leaves the
 * median of B 90, C 110 and D 140 at 110: no arrow.
 */
const SECOND_ARROWS = [{ date: '2027-03-01', myRateChange: -10, myRateArrow: '▼', compMedianChange: 0, compMedianArrow: null }];

describe('the figures of each date', () => {
	it('holds my rate, the comp median, my index, band, rank and sold-out counts of every date, from the remembered rates', async () => {
		await shop(FIRST, firstRate);
		const summary = await calendar();
		expect(figures(datesOf(summary))).toEqual(expectedFigures(firstRate));
		expect(summary).toMatchObject({ myHotelCode: MINE, hotelName: `Hotel ${MINE}`, website: 'lowest', nights: 1, guests: 2, from: FROM, to: '2027-03-10', currency: 'EUR', remembered: true });
	});

	it('leaves a hotel shopped in another currency out of the median, and names it', async () => {
		await shop(FIRST, firstRate);
		const [first] = datesOf(await calendar());
		expect(first.otherCurrency).toEqual([{ hotelCode: E, hotelName: `Hotel ${E}`, currency: 'USD' }]);
		expect((first.competitors as IDataObject[]).map((hotel) => hotel.hotelCode)).toEqual([B, C, D]);
	});

	it('compares in the currency asked for: in USD only E is on sale, and I am in another currency', async () => {
		await shop(FIRST, firstRate);
		const [first] = datesOf(await calendar({ options: { currency: 'USD' } }));
		expect(first).toMatchObject({ myCurrency: 'USD', myRate: null, compMedian: 130, competitorsOnSale: 1 });
		expect((first.otherCurrency as IDataObject[]).map((hotel) => hotel.hotelCode)).toEqual([MINE, B, C, D]);
	});

	it('reads one website when asked: website 2 sells every hotel 5 dearer', async () => {
		await shop(FIRST, firstRate);
		const [first] = datesOf(await calendar({ website: 'one', websiteCode: '2' }));
		expect(first).toMatchObject({ myRate: 105, compMedian: 115 });
	});

	it('reads only the comp set named', async () => {
		await shop(FIRST, firstRate);
		const [first] = datesOf(await calendar({ compSet: 'codes', competitorCodes: `${B}, ${C}` }));
		expect(first).toMatchObject({ compMedian: 100, competitorsOnSale: 2, rankedHotels: 3 });
	});

	it('puts out the summary ready to send: the counts, a text of the next 14 dates and the month grid', async () => {
		await shop(FIRST, firstRate);
		const summary = await calendar();
		// 5 March: C sold out, so B 90 and D 120 give a median of 105, and my 100 is on par (95.24).
		expect(summary.counts).toEqual({ dates: 10, cheaper: 5, onPar: 2, dearer: 1, soldOut: 1, outliers: 0, events: 0 });
		expect(summary.text).toContain(`*Rate calendar: Hotel ${MINE} (${MINE}): lowest rate of all websites, 1 night, 2 guests, 2027-03-01 to 2027-03-10, EUR*`);
		expect(summary.text).toContain('• Wed 2027-03-03: sold out, median 110.00');
		expect(summary.html).toContain('<td colspan="7" style="padding:8px 0 4px 0;font-size:15px;font-weight:bold;">March 2027</td>');
	});

	it('puts out one item per date with Each Date, and the dates then the summary with Both', async () => {
		await shop(FIRST, firstRate);
		const each = await runRateChanges(api, { ...CALENDAR, calendarOutput: 'dates' }, [{}]);
		expect(figures(each.items.map((item) => item.json))).toEqual(expectedFigures(firstRate));
		expect(each.items.every((item) => item.json.myHotelCode === MINE)).toBe(true);
		const both = await runRateChanges(api, { ...CALENDAR, calendarOutput: 'both' }, [{}]);
		expect(both.items).toHaveLength(11);
		expect(both.items[10].json.counts).toBeDefined();
	});

	it('runs once whatever comes in, and needs none of it: every item is paired with the first', async () => {
		await shop(FIRST, firstRate);
		const result = await runRateChanges(api, CALENDAR, [{ a: 1 }, { b: 2 }, { c: 3 }]);
		expect(result.items).toHaveLength(1);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
	});
});

describe('the arrows: what moved since the calendar last went out', () => {
	it('shows no arrow on the first calendar, then what moved on the next one', async () => {
		await shop(FIRST, firstRate);
		expect(arrows(datesOf(await calendar({}, { items: [{ firedAt: 'day 1' }] })))).toEqual([]);
		await shop(SECOND, secondRate);
		const next = datesOf(await calendar({}, { items: [{ firedAt: 'day 2' }] }));
		expect(figures(next)).toEqual(expectedFigures(secondRate));
		expect(arrows(next)).toEqual(SECOND_ARROWS);
		expect(arrows(datesOf(await calendar({}, { items: [{ firedAt: 'day 3' }] })))).toEqual([]);
	});

	it('shows the comp median moving', async () => {
		await shop(FIRST, firstRate);
		await calendar({}, { items: [{ firedAt: 'day 1' }] });
		await shop(SECOND, (stay) => (stay.hotelCode === C && stay.checkIn === '2027-03-02' ? 150 : firstRate(stay)));
		const moved = arrows(datesOf(await calendar({}, { items: [{ firedAt: 'day 2' }] })));
		// C at 150 on 2 March: B 90, D 120 and C 150 give a median of 120, 10 up.
		expect(moved).toEqual([{ date: '2027-03-02', myRateChange: 0, myRateArrow: null, compMedianChange: 10, compMedianArrow: '▲' }]);
	});

	it('keeps the arrows for a Retry of the same execution (same workflow, node and starting item)', async () => {
		await shop(FIRST, firstRate);
		await calendar({}, { items: [{ firedAt: 'day 1' }], workflowId: 'wf-calendar' });
		await shop(SECOND, secondRate);
		const sent = arrows(datesOf(await calendar({}, { items: [{ firedAt: 'day 2' }], workflowId: 'wf-calendar' })));
		expect(sent).toEqual(SECOND_ARROWS);
		const retried = arrows(datesOf(await calendar({}, { items: [{ firedAt: 'day 2' }], workflowId: 'wf-calendar', mode: 'retry' })));
		expect(retried).toEqual(sent);
		expect(arrows(datesOf(await calendar({}, { items: [{ firedAt: 'day 2' }], workflowId: 'wf-calendar', mode: 'retry' })))).toEqual(sent);
		expect(arrows(datesOf(await calendar({}, { items: [{ firedAt: 'day 3' }], workflowId: 'wf-calendar' })))).toEqual([]);
	});

	it('moves on for a later run that starts the same way but is no retry', async () => {
		await shop(FIRST, firstRate);
		await calendar({}, { items: [{}], workflowId: 'wf-manual-input' });
		await shop(SECOND, secondRate);
		expect(arrows(datesOf(await calendar({}, { items: [{}], workflowId: 'wf-manual-input' })))).toEqual(SECOND_ARROWS);
		expect(arrows(datesOf(await calendar({}, { items: [{}], workflowId: 'wf-manual-input' })))).toEqual([]);
	});

	it('previews in a test run from the editor: the arrows since the last calendar, and nothing remembered', async () => {
		await shop(FIRST, firstRate);
		await calendar({}, { items: [{ firedAt: 'day 1' }] });
		const stored = JSON.stringify(api.rows('travel_pricing_positions').map(({ states }) => states));
		await shop(SECOND, secondRate);
		const preview = await calendar({}, { mode: 'manual' });
		expect(preview.remembered).toBe(false);
		expect(arrows(datesOf(preview))).toEqual(SECOND_ARROWS);
		expect(JSON.stringify(api.rows('travel_pricing_positions').map(({ states }) => states))).toBe(stored);
		expect(arrows(datesOf(await calendar({}, { items: [{ firedAt: 'day 2' }] })))).toEqual(SECOND_ARROWS);
	});

	it('remembers test runs too with Always, and never with Never', async () => {
		await shop(FIRST, firstRate);
		expect((await calendar({ rememberSent: 'always' }, { mode: 'manual' })).remembered).toBe(true);
		await shop(SECOND, secondRate);
		expect((await calendar({ rememberSent: 'never' }, { items: [{ firedAt: 'day 2' }] })).remembered).toBe(false);
		expect(arrows(datesOf(await calendar({}, { items: [{ firedAt: 'day 3' }] })))).toEqual(SECOND_ARROWS);
	});

	it('keeps two calendars of different names apart', async () => {
		await shop(FIRST, firstRate);
		await calendar({ options: { calendarName: 'gm' } }, { items: [{ firedAt: 'day 1' }] });
		await shop(SECOND, secondRate);
		expect(arrows(datesOf(await calendar({ options: { calendarName: 'gm' } }, { items: [{ firedAt: 'day 2' }] })))).toEqual(SECOND_ARROWS);
		expect(arrows(datesOf(await calendar({ options: { calendarName: 'revenue' } }, { items: [{ firedAt: 'day 2' }] })))).toEqual([]);
	});

	it('keeps one calendar row per month in the positions table', async () => {
		await shop(FIRST, firstRate);
		await calendar({ toDate: '2027-04-02' });
		expect(api.rows('travel_pricing_positions').map((row) => [row.block, row.kind, row.month])).toEqual([
			[`calendar||${MINE}|lowest|all|1|2|2027-03`, 'calendar', '2027-03'],
			[`calendar||${MINE}|lowest|all|1|2|2027-04`, 'calendar', '2027-04'],
		]);
	});
});

/** Hilton Cape Town Riverside (100085), in the sandbox's demand shops 1001 and 1002, and Cape Town's events of December 2026. */
const CAPE_TOWN_HOTEL = 100085;
const DECEMBER = Array.from({ length: 16 }, (_, day) => `2026-12-${String(day + 10).padStart(2, '0')}`);

function milesBetween(lat1: number, lng1: number, lat2: number, lng2: number): number {
	const rad = (degrees: number) => (degrees * Math.PI) / 180;
	const h = Math.sin(rad(lat2 - lat1) / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lng2 - lng1) / 2) ** 2;
	return 2 * 3958.8 * Math.asin(Math.sqrt(h));
}

describe('events near my hotel and my demand, from the service', () => {
	const capeTown = () => sandbox.data.hotelsByCode.get(CAPE_TOWN_HOTEL)?.hotel as { lat: number; long: number; hotelname: string };
	const stays = staysOf([CAPE_TOWN_HOTEL, B, C, D], [1], DECEMBER[0], DECEMBER.length);

	async function shopCapeTown(): Promise<void> {
		const records = shopOf(stays, '2026-12-01T06:00:00Z', (stay) => USUAL[stay.hotelCode] ?? 100).map((record) => ({ ...record, latitude: String(capeTown().lat), longitude: String(capeTown().long) }));
		const result = await runRateChanges(api, DETECT, records);
		expect(result.error).toBeUndefined();
	}

	const EVENTS_CALENDAR: INodeParameters = { operation: 'rateCalendar', myHotelCode: String(CAPE_TOWN_HOTEL), window: 'range', fromDate: DECEMBER[0], toDate: DECEMBER[DECEMBER.length - 1], options: {} };

	async function withService(parameters: INodeParameters): Promise<IDataObject[]> {
		const result = await runRateChanges(api, { ...EVENTS_CALENDAR, ...parameters }, [{}], { credentials: { ...credentialsFor(sandbox), travelPricingN8nApi: { baseUrl: api.baseUrl, apiKey: api.apiKey } } } as RateChangesRun);
		expect(result.error).toBeUndefined();
		return datesOf(result.items[0].json);
	}

	it('marks each date with its highest-impact event within the proximity, at or above the minimum score, as the sandbox holds them', async () => {
		await shopCapeTown();
		const days = await withService({ serviceData: ['events'], proximityMiles: 10, minImpactScore: 40 });
		const expected = DECEMBER.map((date) => {
			const events = sandbox.data.seedEvents.filter(
				(seed) =>
					seed.startDay <= date &&
					seed.endDay >= date &&
					seed.event.impactScore >= 40 &&
					!['Cancelled', 'Postponed'].includes(seed.event.eventStatus) &&
					milesBetween(capeTown().lat, capeTown().long, seed.lat, seed.lng) <= 10,
			);
			const best = events.sort((a, b) => b.event.impactScore - a.event.impactScore || b.event.estimatedAttendees - a.event.estimatedAttendees)[0];
			return best ? { name: best.event.eventName, score: best.event.impactScore, attendees: best.event.estimatedAttendees } : null;
		});
		expect(days.map((day) => day.event)).toEqual(expected);
		expect(expected.filter(Boolean).length).toBeGreaterThan(3);
		const searches = sandbox.requests({ endpoint: 'eventimpact' }).map((request) => request.body);
		expect(searches.at(-1)).toEqual({ lat: String(capeTown().lat), lng: String(capeTown().long), proximity: 10, startDate: DECEMBER[0], horizon: DECEMBER.length - 1 });
	});

	it.each([1001, 1002])("gives each date my demand from demand shop %i, its date order read as Hotel Demand reads it", async (demandId) => {
		await shopCapeTown();
		const days = await withService({ serviceData: ['demand'], demandShopId: String(demandId) });
		const row = sandbox.data.demand.result(demandId)?.['Relative_Values.json'].find((hotel) => hotel.HotelCode === CAPE_TOWN_HOTEL) as Record<string, unknown>;
		const written = (date: string) => (demandId === 1001 ? `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}` : `${date.slice(5, 7)}/${date.slice(8, 10)}/${date.slice(0, 4)}`);
		expect(days.map((day) => day.demand)).toEqual(DECEMBER.map((date) => row[written(date)]));
	});

	it('flags a busy date priced at or under the market as an outlier, with its reason', async () => {
		await shopCapeTown();
		const days = await withService({ serviceData: ['demand'], demandShopId: '1001', options: { highDemand: 60 } });
		const busy = days.filter((day) => (day.demand as number) >= 60);
		expect(busy.length).toBeGreaterThan(0);
		// My 100 against B 90, C 110, D 120: index 90.91 on every date, under the market.
		for (const day of days) expect(day.outlier === null).toBe((day.demand as number) < 60);
		expect((busy[0].outlier as IDataObject).reason).toBe(`demand ${busy[0].demand}; my rate 100.00 EUR is at index 90.91 of the comp median 110.00`);
	});

	it("names the website by Hotel Info's websitename, asked once an execution, with the Travel Pricing API credential; by its code without", async () => {
		const onHilton = staysOf([CAPE_TOWN_HOTEL, B, C, D], [102], DECEMBER[0], 3);
		expect((await runRateChanges(api, DETECT, shopOf(onHilton, '2026-12-01T06:00:00Z', (stay) => USUAL[stay.hotelCode] ?? 100))).error).toBeUndefined();
		const calendar = { ...EVENTS_CALENDAR, toDate: DECEMBER[2], website: 'one', websiteCode: '102' };
		const asked = () => sandbox.requests({ endpoint: 'hotelinfo' }).length;
		const before = asked();
		const named = await runRateChanges(api, calendar, [{}], { credentials: { ...credentialsFor(sandbox), travelPricingN8nApi: { baseUrl: api.baseUrl, apiKey: api.apiKey } } } as RateChangesRun);
		expect(named.error).toBeUndefined();
		expect(asked() - before).toBe(1);
		expect(named.items[0].json).toMatchObject({ website: 102, websiteName: 'Hilton.com' });
		expect(String(named.items[0].json.text).split('\n')[0]).toContain('Hilton.com (102), 1 night, 2 guests');
		const unnamed = await runRateChanges(api, calendar, [{}]);
		expect(asked() - before).toBe(1);
		expect(unnamed.items[0].json).toMatchObject({ website: 102, websiteName: '' });
		expect(String(unnamed.items[0].json.text).split('\n')[0]).toContain(': website 102, 1 night');
	});

	it('goes out naming the website by its code when Hotel Info refuses the credential: a name is for the reader only', async () => {
		const onHilton = staysOf([CAPE_TOWN_HOTEL, B, C, D], [102], DECEMBER[0], 3);
		expect((await runRateChanges(api, DETECT, shopOf(onHilton, '2026-12-01T06:00:00Z', (stay) => USUAL[stay.hotelCode] ?? 100))).error).toBeUndefined();
		const refusing = await startStubService(401, { message: 'Unauthorized' });
		try {
			const credentials = { travelPricingApi: { baseUrl: refusing.baseUrl, accessToken: 'expired-token' }, travelPricingN8nApi: { baseUrl: api.baseUrl, apiKey: api.apiKey } };
			const result = await runRateChanges(api, { ...EVENTS_CALENDAR, toDate: DECEMBER[2], website: 'one', websiteCode: '102' }, [{}], { credentials } as RateChangesRun);
			expect(result.error).toBeUndefined();
			expect(refusing.paths).toEqual(['/hotelinfo']);
			expect(result.items[0].json).toMatchObject({ website: 102, websiteName: '' });
			expect(figures(datesOf(result.items[0].json)).map((day) => day.myRate)).toEqual([100, 100, 100]);
			expect(String(result.items[0].json.text).split('\n')[0]).toContain(': website 102, 1 night');
			expect(JSON.stringify(result.items)).not.toContain('expired-token');
		} finally {
			await refusing.close();
		}
	});

	it('refuses events without a Travel Pricing API credential, before reading anything', async () => {
		const result = await runRateChanges(api, { ...EVENTS_CALENDAR, serviceData: ['events'] }, [{}]);
		expect(result.error?.message).toBe('Events and Demand need a Travel Pricing API credential');
	});

	it('says so when the rates hold no rate of my hotel to place it by', async () => {
		await shopCapeTown();
		const result = await runRateChanges(api, { ...EVENTS_CALENDAR, nights: 3, serviceData: ['events'] }, [{}], { credentials: { ...credentialsFor(sandbox), travelPricingN8nApi: { baseUrl: api.baseUrl, apiKey: api.apiKey } } } as RateChangesRun);
		expect(result.error?.message).toBe(`The rates table holds no rate of hotel ${CAPE_TOWN_HOTEL} for 3 nights and 2 guests in the months of these dates: no events can be searched around it`);
	});
});

describe('the fields', () => {
	it("default to the rules' own thresholds", async () => {
		const { DEFAULT_INDEX_BANDS, DEFAULT_OUTLIER_THRESHOLDS } = await import('../../nodes/RateChanges/rules/calendar');
		const loader = await loadPackage();
		const { properties } = loader.getNode('travelPricingRateChanges').type.description as INodeTypeDescription;
		const options = properties.find((field) => field.name === 'options' && JSON.stringify(field.displayOptions).includes('rateCalendar'));
		const defaults = Object.fromEntries((options?.options as Array<{ name: string; default: unknown }>).map((option) => [option.name, option.default]));
		expect(defaults).toMatchObject({ ...DEFAULT_INDEX_BANDS, ...DEFAULT_OUTLIER_THRESHOLDS });
	});
});
