import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { credentialsFor, useSandbox } from '../harness';

import { DETECT, runRateChanges, shopOf, staysOf, useStandIn, type RateChangesRun, type StaySpec } from '../harness/standIn';

/**
 * Suggest Rates in n8n's engine against the stand-in for n8n's Data Tables API and the service
 * sandbox: from rates Detect Changes kept, a suggestion for each date by the rules set, each with
 * the reason worked out by hand here, and the dates without one, with theirs.
 */

const sandbox = useSandbox({ speed: 0, clock: '2026-12-01T06:00:00Z' });
const api = useStandIn();

const MINE = 100001;
const [B, C, D] = [100002, 100003, 100004];
const FROM = '2027-03-01';
const USUAL: Record<number, number> = { [MINE]: 100, [B]: 90, [C]: 110, [D]: 120 };

/** 3 March I am sold out, 4 March at 125, 5 March C is sold out (two competitors left), 6 March nobody was shopped, 7 March at 108. */
function rateOf(stay: StaySpec): number {
	const day = Number(stay.checkIn.slice(8, 10));
	if (stay.hotelCode === MINE && day === 3) return 0;
	if (stay.hotelCode === MINE && day === 4) return 125;
	if (stay.hotelCode === MINE && day === 7) return 108;
	if (stay.hotelCode === C && day === 5) return 0;
	return USUAL[stay.hotelCode] ?? 100;
}

const STAYS = staysOf([MINE, B, C, D], [1], FROM, 8).filter((stay) => stay.checkIn !== '2027-03-06');

async function shop(stays: StaySpec[] = STAYS, place?: { latitude: string; longitude: string; collected: string }): Promise<void> {
	const { collected = '2027-02-20T06:00:00Z', ...coordinates } = place ?? {};
	const records = shopOf(stays, collected, rateOf).map((record) => ({ ...record, ...coordinates }));
	expect((await runRateChanges(api, DETECT, records)).error).toBeUndefined();
}

/** "Comp median − 5 %", at most 10 % from my rate, rounded to .99. */
const RULES: INodeParameters = {
	operation: 'suggestRates',
	myHotelCode: String(MINE),
	window: 'range',
	fromDate: FROM,
	toDate: '2027-03-08',
	anchor: 'compMedian',
	adjustBy: 'percent',
	adjustment: -5,
	rounding: 'end99',
	options: {},
};

async function suggest(parameters: INodeParameters = {}, run: RateChangesRun = {}): Promise<IDataObject> {
	const result = await runRateChanges(api, { ...RULES, ...parameters }, [{}], run);
	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(1);
	return result.items[0].json;
}

function byDate(summary: IDataObject): Map<string, IDataObject> {
	return new Map((summary.suggestions as IDataObject[]).map((suggestion) => [suggestion.date as string, suggestion]));
}

describe('a suggestion for each date, by the rules in order, with the reason', () => {
	it('starts at the comp median − 5 % and rounds to the nearest .99', async () => {
		await shop();
		const suggestions = byDate(await suggest());
		// B 90, C 110, D 120: median 110.00; − 5 % = 104.50; 104.99 is 0.49 away, 103.99 0.51.
		expect(suggestions.get('2027-03-01')).toMatchObject({
			currentRate: 100,
			suggestedRate: 104.99,
			change: 4.99,
			changePercent: 4.99,
			currency: 'EUR',
			reason: 'comp median 110.00 − 5 % = 104.50; rounded to 104.99',
			skipped: null,
		});
		expect(suggestions.get('2027-03-07')).toMatchObject({ currentRate: 108, suggestedRate: 104.99, change: -3.01, changePercent: -2.79 });
	});

	it('holds a suggestion to the most per suggestion, then rounds within it', async () => {
		await shop();
		// 125 down to 104.50 is −16.4 %: held at 125 × 0.9 = 112.50, rounded to 112.99 (112.50 to 137.50 allowed).
		expect(byDate(await suggest()).get('2027-03-04')).toMatchObject({
			currentRate: 125,
			suggestedRate: 112.99,
			change: -12.01,
			reason: 'comp median 110.00 − 5 % = 104.50; capped at the most per suggestion, 10 %: 112.50; rounded to 112.99',
		});
	});

	it('keeps to the minimum and maximum rate', async () => {
		await shop();
		const suggestions = byDate(await suggest({ minRate: 106, maxRate: 120, rounding: 'none' }));
		expect(suggestions.get('2027-03-01')).toMatchObject({ suggestedRate: 106, reason: 'comp median 110.00 − 5 % = 104.50; raised to the minimum rate 106.00' });
		expect(suggestions.get('2027-03-04')).toMatchObject({ suggestedRate: 112.5 });
	});

	it('anchors on one competitor, plus an amount', async () => {
		await shop();
		expect(byDate(await suggest({ anchor: 'competitor', anchorHotelCode: String(D), adjustBy: 'amount', adjustment: -15, rounding: 'none' })).get('2027-03-01')).toMatchObject({
			suggestedRate: 105,
			reason: `Hotel ${D} (${D}) 120.00 − 15.00 = 105.00`,
		});
	});

	it('gives no suggestion, and says why, when I am sold out, not shopped, or the comp set is too thin', async () => {
		await shop();
		const suggestions = byDate(await suggest());
		expect(suggestions.get('2027-03-03')).toMatchObject({ suggestedRate: null, skipped: 'soldOut', reason: 'no suggestion: my hotel is sold out' });
		expect(suggestions.get('2027-03-05')).toMatchObject({ suggestedRate: null, skipped: 'fewCompetitors', reason: 'no suggestion: 2 competitors on sale, fewer than the minimum of 3' });
		expect(suggestions.get('2027-03-06')).toMatchObject({ suggestedRate: null, skipped: 'notShopped', reason: 'no suggestion: my hotel was not shopped for this date' });
		expect(byDate(await suggest({ options: { minCompetitors: 2 } })).get('2027-03-05')).toMatchObject({ suggestedRate: 99.99 });
	});

	it('sums up the changes to approve, biggest move first, with a text and HTML for the approval message', async () => {
		await shop();
		const summary = await suggest();
		expect(summary.counts).toEqual({ dates: 8, changes: 5, up: 3, down: 2, unchanged: 0, skipped: 3 });
		// −9.61 % first, then the three +4.99 % by date, then −2.79 %.
		expect((summary.changes as IDataObject[]).map((change) => change.date)).toEqual(['2027-03-04', '2027-03-01', '2027-03-02', '2027-03-08', '2027-03-07']);
		expect(String(summary.text).split('\n')[0]).toBe(`*Suggested rates for Hotel ${MINE} (${MINE}), 1 night, 2 guests, lowest of all websites: 5 rates to approve (3 up, 2 down)*`);
		expect(summary.html).toContain('comp median 110.00 − 5 % = 104.50; capped at the most per suggestion, 10 %: 112.50; rounded to 112.99');
	});

	it('puts out one item per date with Each Date', async () => {
		await shop();
		const result = await runRateChanges(api, { ...RULES, calendarOutput: 'dates' }, [{}]);
		expect(result.items.map((item) => item.json.date)).toEqual(['2027-03-01', '2027-03-02', '2027-03-03', '2027-03-04', '2027-03-05', '2027-03-06', '2027-03-07', '2027-03-08']);
		expect(result.items[0].json).toMatchObject({ myHotelCode: MINE, suggestedRate: 104.99 });
	});

	it('refuses a maximum rate below the minimum before reading anything', async () => {
		const result = await runRateChanges(api, { ...RULES, minRate: 150, maxRate: 120 }, [{}]);
		expect(result.error?.message).toBe('Invalid Maximum Rate "120": is below Minimum Rate (150)');
		expect(api.requests).toHaveLength(0);
	});
});

/** To the cent, halves up, without floating point's hair (104.50 × 1.08 is 112.86000000000001). */
const toCent = (value: number) => Math.round(Number((value * 100).toPrecision(12))) / 100;

describe('event and demand uplifts from the service', () => {
	const CAPE_TOWN_HOTEL = 100085;
	const DECEMBER = Array.from({ length: 12 }, (_, day) => `2026-12-${String(day + 10).padStart(2, '0')}`);

	it('adds the band of the date’s event and of my demand, each on the rate before it', async () => {
		const hotel = sandbox.data.hotelsByCode.get(CAPE_TOWN_HOTEL)?.hotel as { lat: number; long: number };
		const stays = staysOf([CAPE_TOWN_HOTEL, B, C, D], [1], DECEMBER[0], DECEMBER.length);
		await shop(stays, { latitude: String(hotel.lat), longitude: String(hotel.long), collected: '2026-12-01T06:00:00Z' });
		const summary = await suggest(
			{
				myHotelCode: String(CAPE_TOWN_HOTEL),
				fromDate: DECEMBER[0],
				toDate: DECEMBER[DECEMBER.length - 1],
				serviceData: ['events', 'demand'],
				proximityMiles: 10,
				demandShopId: '1001',
				eventUplift: { bands: [{ atLeast: 50, percent: 5 }, { atLeast: 60, percent: 8 }] },
				demandUplift: { bands: [{ atLeast: 70, percent: 3 }] },
				maxChangePercent: 0,
				rounding: 'none',
			},
			{ credentials: { ...credentialsFor(sandbox), travelPricingN8nApi: { baseUrl: api.baseUrl, apiKey: api.apiKey } } } as RateChangesRun,
		);
		const demand = sandbox.data.demand.result(1001)?.['Relative_Values.json'].find((row) => row.HotelCode === CAPE_TOWN_HOTEL) as Record<string, unknown>;
		let checked = 0;
		for (const suggestion of summary.suggestions as IDataObject[]) {
			const date = suggestion.date as string;
			const steps = suggestion.steps as IDataObject[];
			const event = steps.find((step) => step.rule === 'eventUplift');
			const myDemand = demand[`${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`] as number;
			// 110.00 − 5 % = 104.50, then each band on the rate before it, to the cent.
			let rate = 104.5;
			const words = ['comp median 110.00 − 5 % = 104.50'];
			if (event) {
				const percent = (event.score as number) >= 60 ? 8 : 5;
				rate = toCent(rate * (1 + percent / 100));
				words.push(`event '${event.eventName}' impact ${event.score}: +${percent} % = ${rate.toFixed(2)}`);
				checked++;
			}
			if (myDemand >= 70) {
				rate = toCent(rate * 1.03);
				words.push(`demand ${myDemand}: +3 % = ${rate.toFixed(2)}`);
			}
			expect(suggestion).toMatchObject({ suggestedRate: rate, reason: words.join('; ') });
		}
		expect(checked).toBeGreaterThan(2);
	});
});
