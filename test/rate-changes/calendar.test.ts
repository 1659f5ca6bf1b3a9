import type { HotelDemandDay } from '../../nodes/shared/demand';
import {
	bandOf,
	buildCalendar,
	calendarFigures,
	DEFAULT_INDEX_BANDS,
	DEFAULT_OUTLIER_THRESHOLDS,
	myDemandByDate,
	pickDailyEvents,
	rangeDates,
	windowDates,
	type CalendarDay,
	type CalendarInput,
	type CalendarSettings,
	type DayEvent,
	type ImpactEvent,
	type RememberedRate,
} from '../../nodes/RateChanges/rules/calendar';

/** Rate Calendar (nodes/RateChanges/rules/calendar.ts): the figures of each date, rule by rule. */

const MINE = 100001;
const [B, C, D, E] = [100002, 100003, 100004, 100005];
const DAY = '2026-11-06';

/** One remembered rate: website 2, EUR, on DAY unless told. */
function rate(hotelCode: number, value: number | null, overrides: Partial<RememberedRate> = {}): RememberedRate {
	return {
		hotelCode,
		hotelName: `Hotel ${hotelCode}`,
		websiteCode: 2,
		roomType: 'Double',
		checkIn: DAY,
		currency: 'EUR',
		rate: value,
		dtCollected: '2026-11-01T06:00:00.000Z',
		...overrides,
	};
}

function calendar(rates: RememberedRate[], settings: Partial<CalendarSettings> = {}, extra: Omit<CalendarInput, 'rates' | 'settings'> = {}): CalendarDay[] {
	return buildCalendar({ rates, settings: { myHotelCode: MINE, compSet: 'all', website: 2, dates: [DAY], ...settings }, ...extra });
}

/** The one day of a one-date calendar: my hotel at `mine`, competitors B, C, D, E at the rest. */
function dayOf(mine: number | null, competitors: Array<number | null>, extra: Omit<CalendarInput, 'rates' | 'settings'> = {}, settings: Partial<CalendarSettings> = {}): CalendarDay {
	return calendar([rate(MINE, mine), ...competitors.map((value, index) => rate([B, C, D, E][index], value))], settings, extra)[0];
}

const event = (score: number, name = 'City Marathon'): DayEvent => ({ name, score, attendees: 30000 });
const on = <T>(value: T) => new Map([[DAY, value]]);

describe("the day's figures", () => {
	it('gives the comp lowest, median and highest of the competitors on sale, and my rank among them', () => {
		expect(dayOf(120, [100, 110, 130])).toMatchObject({ myRate: 120, compLowest: 100, compMedian: 110, compHighest: 130, myRank: 3, rankedHotels: 4 });
	});

	it('takes the median of an even count as the mean of the two middle rates, to the cent', () => {
		expect(dayOf(120, [100, 110, 121, 130]).compMedian).toBe(115.5);
		expect(dayOf(120, [120.5, 131.25]).compMedian).toBe(125.88);
	});

	it('gives hotels at one rate one rank', () => {
		expect(dayOf(110, [100, 110, 110, 130])).toMatchObject({ myRank: 2, rankedHotels: 5 });
		expect(dayOf(100, [100, 120])).toMatchObject({ myRank: 1 });
	});

	it('takes each hotel at its cheapest room on sale', () => {
		const [day] = calendar([rate(MINE, 150), rate(MINE, 140, { roomType: 'Twin' }), rate(B, 130), rate(B, 0, { roomType: 'Twin' })]);
		expect(day).toMatchObject({ myRate: 140, compMedian: 130 });
	});

	it('lists the competitors cheapest first, the sold out last', () => {
		expect(dayOf(120, [130, null, 100]).competitors.map(({ hotelCode, rate: value }) => [hotelCode, value])).toEqual([
			[D, 100],
			[B, 130],
			[C, null],
		]);
	});

	it('gives the weekday and the newest collection time of the rates counted', () => {
		const [day] = calendar([rate(MINE, 120, { dtCollected: '2026-11-01T06:00:00.000Z' }), rate(B, 100, { dtCollected: '2026-11-02T06:00:00.000Z' })]);
		expect(day).toMatchObject({ weekday: 'Fri', lastCollected: '2026-11-02T06:00:00.000Z' });
	});
});

describe('sold out', () => {
	it('gives me no rate, no rank, no index and no band when I am sold out, a rate of 0 or none', () => {
		for (const soldOut of [0, null]) {
			expect(dayOf(soldOut, [100, 110])).toMatchObject({ myRate: null, mySoldOut: true, myRank: null, priceIndex: null, band: null, outlier: null, compMedian: 105 });
		}
	});

	it('counts sold-out competitors apart, outside the median', () => {
		expect(dayOf(120, [100, null, 0, 140])).toMatchObject({ compMedian: 120, competitorsSoldOut: 2, competitorsOnSale: 2, competitorsShopped: 4 });
	});

	it('with every competitor sold out, has no comp figures and no index, and ranks me alone', () => {
		expect(dayOf(120, [null, 0], { events: on(event(90)) })).toMatchObject({
			compLowest: null,
			compMedian: null,
			compHighest: null,
			priceIndex: null,
			band: null,
			myRank: 1,
			rankedHotels: 1,
			competitorsSoldOut: 2,
			competitorsOnSale: 0,
			outlier: null,
		});
	});
});

describe('currencies are never mixed', () => {
	it('leaves a competitor shopped in another currency out of the median and names it', () => {
		const [day] = calendar([rate(MINE, 120), rate(B, 100), rate(C, 110), rate(D, 20, { currency: 'USD', hotelName: 'Quay Inn' })]);
		expect(day).toMatchObject({ compMedian: 105, compLowest: 100, competitorsShopped: 2, myCurrency: 'EUR' });
		expect(day.otherCurrency).toEqual([{ hotelCode: D, hotelName: 'Quay Inn', currency: 'USD' }]);
	});

	it("takes the calendar's currency from my hotel's rates, before the competitors' many", () => {
		const [day] = calendar([rate(MINE, 120, { currency: 'GBP' }), rate(B, 100), rate(C, 110), rate(D, 90, { currency: 'GBP' })]);
		expect(day).toMatchObject({ myCurrency: 'GBP', compMedian: 90 });
		expect(day.otherCurrency.map((hotel) => hotel.hotelCode)).toEqual([B, C]);
	});

	it('takes the currency of the settings when given', () => {
		const [day] = calendar([rate(MINE, 120), rate(B, 100, { currency: 'USD' })], { currency: 'USD' });
		expect(day).toMatchObject({ myCurrency: 'USD', myRate: null, mySoldOut: false, compMedian: 100 });
		expect(day.otherCurrency).toEqual([{ hotelCode: MINE, hotelName: `Hotel ${MINE}`, currency: 'EUR' }]);
	});

	it("counts a hotel shopped in two currencies by its rates in the calendar's", () => {
		const [day] = calendar([rate(MINE, 120), rate(B, 100, { websiteCode: 2 }), rate(B, 80, { websiteCode: 5, currency: 'USD' })], { website: 'lowest' });
		expect(day).toMatchObject({ compMedian: 100, otherCurrency: [] });
	});

	it('takes the currency of the competitors when my hotel is not shopped in the window', () => {
		const [day] = calendar([rate(B, 100, { currency: 'USD' }), rate(C, 110, { currency: 'USD' }), rate(D, 90)]);
		expect(day).toMatchObject({ myCurrency: 'USD', compMedian: 105 });
	});
});

describe('a date nobody shopped, and my hotel missing', () => {
	it('gives a date nobody shopped every figure empty and every count 0, its event and demand kept', () => {
		const [day] = calendar([], {}, { events: on(event(80)), demand: on(90) });
		expect(day).toEqual({
			date: DAY,
			weekday: 'Fri',
			myRate: null,
			myCurrency: null,
			mySoldOut: false,
			compLowest: null,
			compMedian: null,
			compHighest: null,
			myRank: null,
			rankedHotels: 0,
			priceIndex: null,
			band: null,
			competitorsSoldOut: 0,
			competitorsShopped: 0,
			competitorsOnSale: 0,
			competitors: [],
			otherCurrency: [],
			myRateChange: null,
			compMedianChange: null,
			myRateArrow: null,
			compMedianArrow: null,
			event: event(80),
			demand: 90,
			outlier: null,
			lastCollected: null,
		});
	});

	it('gives the comp figures of a date my hotel was not shopped, and me no rate, not sold out', () => {
		expect(dayOf(null, [100, 110]).myRate).toBeNull();
		const [day] = calendar([rate(B, 100), rate(C, 110)]);
		expect(day).toMatchObject({ myRate: null, mySoldOut: false, myRank: null, rankedHotels: 2, compMedian: 105, priceIndex: null, band: null });
	});

	it('has a day for a date of the window that no rate covers, beside the shopped ones', () => {
		const days = calendar([rate(MINE, 120), rate(B, 100)], { dates: [DAY, '2026-11-07'] });
		expect(days.map((day) => [day.date, day.myRate])).toEqual([
			[DAY, 120],
			['2026-11-07', null],
		]);
	});
});

describe('comp set: every other hotel, or a list', () => {
	const rates = [rate(MINE, 120), rate(B, 100), rate(C, 110), rate(D, 200)];

	it("with 'all', takes every other hotel present", () => {
		expect(calendar(rates)[0]).toMatchObject({ compMedian: 110, competitorsShopped: 3 });
	});

	it('with a list, takes only those hotels', () => {
		expect(calendar(rates, { compSet: [B, D] })[0]).toMatchObject({ compMedian: 150, competitorsShopped: 2, myRank: 2 });
	});

	it('keeps me as me when my own code is in the list', () => {
		expect(calendar(rates, { compSet: [MINE, B] })[0]).toMatchObject({ myRate: 120, compMedian: 100, competitorsShopped: 1 });
	});

	it('counts only the hotels of the list that were shopped', () => {
		expect(calendar(rates, { compSet: [B, E] })[0]).toMatchObject({ competitorsShopped: 1 });
	});
});

describe('website: one, or the lowest of all', () => {
	const rates = [
		rate(MINE, 120, { websiteCode: 2 }),
		rate(MINE, 115, { websiteCode: 5 }),
		rate(B, 100, { websiteCode: 2 }),
		rate(B, 90, { websiteCode: 5 }),
		rate(C, 0, { websiteCode: 2 }),
		rate(C, 130, { websiteCode: 5 }),
	];

	it('with one website, takes only its rates', () => {
		expect(calendar(rates, { website: 2 })[0]).toMatchObject({ myRate: 120, compLowest: 100, compHighest: 100, competitorsSoldOut: 1 });
		expect(calendar(rates, { website: 5 })[0]).toMatchObject({ myRate: 115, compLowest: 90, compHighest: 130, competitorsSoldOut: 0 });
	});

	it("with 'lowest', takes each hotel's lowest rate across websites; sold out on one and on sale on another is on sale", () => {
		const [day] = calendar(rates, { website: 'lowest' });
		expect(day).toMatchObject({ myRate: 115, compLowest: 90, compHighest: 130, competitorsSoldOut: 0, competitorsOnSale: 2 });
		expect(day.competitors.map((hotel) => [hotel.hotelCode, hotel.websiteCode])).toEqual([
			[B, 5],
			[C, 5],
		]);
	});

	it("with 'lowest', has a hotel sold out only when sold out on every website", () => {
		expect(calendar([rate(MINE, 120), rate(B, 0, { websiteCode: 2 }), rate(B, null, { websiteCode: 5 })], { website: 'lowest' })[0]).toMatchObject({ competitorsSoldOut: 1 });
	});
});

describe('the window', () => {
	it('has one day per date, in date order, a date given twice once; rates outside it are left out', () => {
		const days = calendar([rate(MINE, 120, { checkIn: '2026-11-07' }), rate(MINE, 130, { checkIn: '2026-12-01' })], { dates: ['2026-11-07', DAY, '2026-11-07'] });
		expect(days.map((day) => [day.date, day.myRate])).toEqual([
			[DAY, null],
			['2026-11-07', 120],
		]);
	});

	it('reads the check-in day of a timestamp', () => {
		expect(calendar([rate(MINE, 120, { checkIn: `${DAY}T00:00:00.000Z` })])[0].myRate).toBe(120);
	});

	it('is 30 days from the first by default, across a month end', () => {
		const dates = windowDates('2026-11-20');
		expect(dates).toHaveLength(30);
		expect([dates[0], dates[10], dates[29]]).toEqual(['2026-11-20', '2026-11-30', '2026-12-19']);
	});

	it('can be any range, both ends included', () => {
		expect(rangeDates('2028-02-27', '2028-03-01')).toEqual(['2028-02-27', '2028-02-28', '2028-02-29', '2028-03-01']);
	});

	it('refuses a date that is not a day written YYYY-MM-DD', () => {
		expect(() => calendar([], { dates: ['2026-02-30'] })).toThrow('The calendar date "2026-02-30" is not a date written YYYY-MM-DD');
		expect(() => calendar([], { dates: ['06/11/2026'] })).toThrow('06/11/2026');
	});
});

describe('price index: my rate as a percentage of the comp median', () => {
	it('is my rate / the comp median × 100, to 2 decimals', () => {
		expect(dayOf(120, [100, 110, 130]).priceIndex).toBe(109.09);
	});

	it('is null without my rate or without a median', () => {
		expect(dayOf(null, [100]).priceIndex).toBeNull();
		expect(dayOf(120, [null]).priceIndex).toBeNull();
	});
});

describe('bands: cheaper below 95, on par from 95 to 105, dearer above 105', () => {
	it.each([
		[94.99, 'cheaper'],
		[95, 'onPar'],
		[100, 'onPar'],
		[105, 'onPar'],
		[105.01, 'dearer'],
	])('my rate %d against a median of 100 is %s', (mine, band) => {
		expect(dayOf(mine, [90, 100, 120]).band).toBe(band);
	});

	it('takes bands of the settings', () => {
		expect(dayOf(97, [90, 100, 120], {}, { bands: { cheaperBelow: 98 } }).band).toBe('cheaper');
		expect(bandOf(103, { cheaperBelow: 90, dearerAbove: 102 })).toBe('dearer');
	});

	it('defaults to 95 and 105', () => {
		expect(DEFAULT_INDEX_BANDS).toEqual({ cheaperBelow: 95, dearerAbove: 105 });
	});
});

describe('outlier: underpriced on a busy day', () => {
	it('is a date with an event of impact 70 or more where my index is 100 or less', () => {
		const day = dayOf(100, [90, 100, 120], { events: on(event(70)) });
		expect(day.outlier).toEqual({
			kind: 'underpricedBusyDay',
			reason: "event 'City Marathon' impact 70; my rate 100.00 EUR is at index 100.00 of the comp median 100.00",
		});
	});

	it('is not a date with an event of impact 69', () => {
		expect(dayOf(100, [90, 100, 120], { events: on(event(69)) }).outlier).toBeNull();
	});

	it('is not a busy date where my index is above 100', () => {
		expect(dayOf(100.01, [90, 100, 120], { events: on(event(90)) }).outlier).toBeNull();
	});

	it('is a date with demand of 80 or more, without an event', () => {
		expect(dayOf(90, [90, 100, 120], { demand: on(80) }).outlier).toMatchObject({
			kind: 'underpricedBusyDay',
			reason: 'demand 80; my rate 90.00 EUR is at index 90.00 of the comp median 100.00',
		});
		expect(dayOf(90, [90, 100, 120], { demand: on(79) }).outlier).toBeNull();
	});

	it('names both the event and the demand when both make the date busy', () => {
		expect(dayOf(90, [90, 100, 120], { demand: on(85), events: on(event(75)) }).outlier?.reason).toContain("event 'City Marathon' impact 75, demand 85");
	});

	it('takes thresholds of the settings', () => {
		expect(dayOf(102, [90, 100, 120], { events: on(event(50)) }, { outliers: { busyEventScore: 50, busyDayIndexAtMost: 102 } }).outlier?.kind).toBe('underpricedBusyDay');
	});
});

describe('outlier: far from the comp median', () => {
	it('is any other date with my index 20 points or more from 100, below or above, with how far in the reason', () => {
		expect(DEFAULT_OUTLIER_THRESHOLDS.farFromMedianPercent).toBe(20);
		expect(dayOf(78, [90, 100, 120]).outlier).toEqual({
			kind: 'farFromMedian',
			reason: 'my rate 78.00 EUR is at index 78.00 of the comp median 100.00, 22.00 % below it (20 % or more is far)',
		});
		expect(dayOf(80, [90, 100, 120]).outlier?.kind).toBe('farFromMedian');
		expect(dayOf(120, [90, 100, 120]).outlier?.reason).toContain('20.00 % above it');
	});

	it('is not a date less than 20 points from 100', () => {
		expect(dayOf(80.01, [90, 100, 120]).outlier).toBeNull();
		expect(dayOf(119.99, [90, 100, 120]).outlier).toBeNull();
	});

	it('gives way to the busy-day and quiet-day rules, whose reasons say more', () => {
		expect(dayOf(70, [90, 100, 120], { events: on(event(85)) }).outlier?.kind).toBe('underpricedBusyDay');
		expect(dayOf(130, [90, 100, 120], { demand: on(20) }).outlier?.kind).toBe('overpricedQuietDay');
	});

	it('takes its threshold of the settings, and none at 0', () => {
		expect(dayOf(88, [90, 100, 120], {}, { outliers: { farFromMedianPercent: 10 } }).outlier?.kind).toBe('farFromMedian');
		expect(dayOf(50, [90, 100, 120], {}, { outliers: { farFromMedianPercent: 0 } }).outlier).toBeNull();
	});
});

describe('outlier: overpriced on a quiet day', () => {
	it('is a date without a busy event, with demand of 40 or less, where my index is above 110', () => {
		expect(dayOf(110.01, [90, 100, 120], { demand: on(40) }).outlier).toEqual({
			kind: 'overpricedQuietDay',
			reason: 'no event of impact 70 or more, demand 40; my rate 110.01 EUR is at index 110.01 of the comp median 100.00',
		});
	});

	it('is not a date where my index is 110', () => {
		expect(dayOf(110, [90, 100, 120], { demand: on(40) }).outlier).toBeNull();
	});

	it('is not a date with demand of 41', () => {
		expect(dayOf(115, [90, 100, 120], { demand: on(41) }).outlier).toBeNull();
	});

	it('is not a date with an event of impact 70 or more, whatever the demand', () => {
		expect(dayOf(115, [90, 100, 120], { demand: on(10), events: on(event(70)) }).outlier).toBeNull();
	});

	it('is a date with an event under 70 and low demand', () => {
		expect(dayOf(130, [90, 100, 120], { demand: on(10), events: on(event(69)) }).outlier?.kind).toBe('overpricedQuietDay');
	});

	it('is not a date without demand data, by default: no event is not evidence of a quiet date', () => {
		expect(DEFAULT_OUTLIER_THRESHOLDS.quietWithoutDemand).toBe(false);
		expect(dayOf(115, [90, 100, 120]).outlier).toBeNull();
	});

	it('is a date without demand data when the settings count such dates as quiet', () => {
		expect(dayOf(130, [90, 100, 120], {}, { outliers: { quietWithoutDemand: true } }).outlier).toEqual({
			kind: 'overpricedQuietDay',
			reason: 'no event of impact 70 or more, no demand data; my rate 130.00 EUR is at index 130.00 of the comp median 100.00',
		});
	});

	it('is never a date without an index: sold out, not shopped, or no competitor on sale', () => {
		const quiet = { demand: on(0) };
		expect(dayOf(null, [90, 100, 120], quiet).outlier).toBeNull();
		expect(dayOf(0, [90, 100, 120], quiet).outlier).toBeNull();
		expect(dayOf(500, [null, null], quiet).outlier).toBeNull();
	});
});

describe('moves since the previous calendar', () => {
	it('are unknown without a previous calendar', () => {
		expect(dayOf(120, [100, 110])).toMatchObject({ myRateChange: null, compMedianChange: null, myRateArrow: null, compMedianArrow: null });
	});

	it('are the change of my rate and of the comp median, with ▲ up and ▼ down', () => {
		const day = dayOf(120, [100, 110], { previous: [{ date: DAY, myRate: 110.5, compMedian: 107 }] });
		expect(day).toMatchObject({ myRateChange: 9.5, myRateArrow: '▲', compMedianChange: -2, compMedianArrow: '▼' });
	});

	it('are 0 without an arrow when nothing moved', () => {
		expect(dayOf(120, [100, 110], { previous: [{ date: DAY, myRate: 120, compMedian: 105 }] })).toMatchObject({ myRateChange: 0, myRateArrow: null, compMedianChange: 0, compMedianArrow: null });
	});

	it('are unknown when either side had no rate (sold out then or now) or the date is new', () => {
		expect(dayOf(120, [100, 110], { previous: [{ date: DAY, myRate: null, compMedian: 105 }] })).toMatchObject({ myRateChange: null, myRateArrow: null, compMedianChange: 0 });
		expect(dayOf(0, [100, 110], { previous: [{ date: DAY, myRate: 120, compMedian: null }] })).toMatchObject({ myRateChange: null, compMedianChange: null });
		expect(dayOf(120, [100, 110], { previous: [{ date: '2026-11-05', myRate: 100, compMedian: 100 }] }).myRateChange).toBeNull();
	});

	it("keep this calendar's figures for the next one", () => {
		const days = calendar([rate(MINE, 120), rate(B, 100)], { dates: [DAY, '2026-11-07'] });
		expect(calendarFigures(days)).toEqual([
			{ date: DAY, myRate: 120, compMedian: 100 },
			{ date: '2026-11-07', myRate: null, compMedian: null },
		]);
	});
});

describe('events: the highest-impact event of each date', () => {
	const window = rangeDates('2026-11-05', '2026-11-09');

	function impact(eventName: string, impactScore: number, startDate: string, endDate: string, estimatedAttendees = 1000): ImpactEvent {
		return { eventName, impactScore, startDate, endDate, estimatedAttendees };
	}

	it('covers every date from the start day to the end day of an event, both included', () => {
		const picked = pickDailyEvents([impact('Fair', 60, '2026-11-06 18:00:00', '2026-11-08 02:00:00')], window);
		expect([...picked.keys()]).toEqual(['2026-11-06', '2026-11-07', '2026-11-08']);
		expect(picked.get('2026-11-07')).toEqual({ name: 'Fair', score: 60, attendees: 1000 });
	});

	it('leaves out the dates outside the window', () => {
		expect([...pickDailyEvents([impact('Fair', 60, '2026-11-01 00:00:00', '2026-11-05 23:00:00')], window).keys()]).toEqual(['2026-11-05']);
	});

	it('keeps events of the minimum score, 40 by default, and leaves out those under it', () => {
		const events = [impact('Talk', 39, '2026-11-06 10:00:00', '2026-11-06 12:00:00'), impact('Gig', 40, '2026-11-07 20:00:00', '2026-11-07 23:00:00')];
		expect([...pickDailyEvents(events, window).keys()]).toEqual(['2026-11-07']);
		expect([...pickDailyEvents(events, window, 70).keys()]).toEqual([]);
		expect([...pickDailyEvents(events, window, 0).keys()]).toEqual(['2026-11-06', '2026-11-07']);
	});

	it('picks the highest score of a date, each date on its own', () => {
		const picked = pickDailyEvents([impact('Expo', 60, '2026-11-05 09:00:00', '2026-11-08 18:00:00'), impact('Marathon', 85, '2026-11-07 07:00:00', '2026-11-07 15:00:00')], window);
		expect([...picked].map(([date, picks]) => [date, picks.name])).toEqual([
			['2026-11-05', 'Expo'],
			['2026-11-06', 'Expo'],
			['2026-11-07', 'Marathon'],
			['2026-11-08', 'Expo'],
		]);
	});

	it('breaks a tie of scores by the more attendees, then by the name', () => {
		const sameDay = (name: string, attendees: number) => impact(name, 80, '2026-11-06 10:00:00', '2026-11-06 12:00:00', attendees);
		expect(pickDailyEvents([sameDay('Small', 500), sameDay('Big', 9000)], window).get('2026-11-06')?.name).toBe('Big');
		expect(pickDailyEvents([sameDay('Zulu', 500), sameDay('Alpha', 500)], window).get('2026-11-06')?.name).toBe('Alpha');
		expect(pickDailyEvents([sameDay('Alpha', 500), sameDay('Zulu', 500)], window).get('2026-11-06')?.name).toBe('Alpha');
	});

	it('covers only the start day of an event that ends before it starts, or without an end', () => {
		expect([...pickDailyEvents([impact('Odd', 50, '2026-11-07 10:00:00', '2026-11-06 10:00:00')], window).keys()]).toEqual(['2026-11-07']);
		expect([...pickDailyEvents([impact('Open', 50, '2026-11-07 10:00:00', '')], window).keys()]).toEqual(['2026-11-07']);
	});

	it('puts the event of a date on its calendar day', () => {
		const events = pickDailyEvents([impact('Marathon', 85, `${DAY} 07:00:00`, `${DAY} 15:00:00`, 30000)], [DAY]);
		expect(dayOf(120, [100], { events }).event).toEqual({ name: 'Marathon', score: 85, attendees: 30000 });
	});
});

describe("demand: my hotel's relativeValue of Hotel Demand", () => {
	const row = (hotelCode: number, date: string, relativeValue: number | null): HotelDemandDay => ({ hotelCode, hotelName: 'x', date, absoluteValue: 400, eventsRegistered: 3, relativeValue });

	it("takes my hotel's relativeValue per date, not other hotels', and leaves out dates without one", () => {
		const demand = myDemandByDate([row(MINE, DAY, 82), row(B, DAY, 10), row(MINE, '2026-11-07', null), row(MINE, '2026-11-08', 35)], MINE);
		expect([...demand]).toEqual([
			[DAY, 82],
			['2026-11-08', 35],
		]);
	});

	it('puts the demand of a date on its calendar day, and null on a date without', () => {
		const days = calendar([rate(MINE, 120)], { dates: [DAY, '2026-11-07'] }, { demand: on(82) });
		expect(days.map((day) => day.demand)).toEqual([82, null]);
	});
});
