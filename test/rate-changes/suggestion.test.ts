import type { CalendarDay, CompetitorRate } from '../../nodes/RateChanges/rules/calendar';
import {
	bandFor,
	DEFAULT_MAX_CHANGE_PERCENT,
	DEFAULT_MIN_COMPETITORS,
	rateBounds,
	roundToPricePoint,
	suggestRate,
	suggestRates,
	type SuggestionRules,
} from '../../nodes/RateChanges/rules/suggestion';

/** Suggested Rates (nodes/RateChanges/rules/suggestion.ts): each rule alone, then together. */

const [B, C, D, E] = [100002, 100003, 100004, 100005];

const competitor = (hotelCode: number, rate: number | null): CompetitorRate => ({ hotelCode, hotelName: `Hotel ${hotelCode}`, rate, websiteCode: 2 });

/** A calendar day: my rate 173 EUR; competitors at 170, 180, 184 and 190 (median 182, lowest 170). */
function day(overrides: Partial<CalendarDay> = {}): CalendarDay {
	return {
		date: '2026-11-06',
		weekday: 'Fri',
		myRate: 173,
		myCurrency: 'EUR',
		mySoldOut: false,
		compLowest: 170,
		compMedian: 182,
		compHighest: 190,
		myRank: 2,
		rankedHotels: 5,
		priceIndex: 95.05,
		band: 'onPar',
		competitorsSoldOut: 0,
		competitorsShopped: 4,
		competitorsOnSale: 4,
		competitors: [competitor(B, 170), competitor(C, 180), competitor(D, 184), competitor(E, 190)],
		otherCurrency: [],
		myRateChange: null,
		compMedianChange: null,
		myRateArrow: null,
		compMedianArrow: null,
		event: null,
		demand: null,
		outlier: null,
		lastCollected: '2026-11-01T06:00:00.000Z',
		...overrides,
	};
}

const marathon = { name: 'City Marathon', score: 85, attendees: 30000 };
/** No limit per suggestion, so a rule's own number shows. */
const free: SuggestionRules = { maxChangePercent: null };

describe('without rules', () => {
	it('suggests my current rate, no change', () => {
		expect(suggestRate(day())).toMatchObject({
			currentRate: 173,
			suggestedRate: 173,
			change: 0,
			changePercent: 0,
			currency: 'EUR',
			reason: 'my current rate 173.00; no change',
			skipped: null,
		});
	});
});

describe('anchor: the comp median, the comp lowest or one competitor, plus or minus a percentage or an amount', () => {
	it('starts from the comp median less a percentage', () => {
		const suggestion = suggestRate(day(), { ...free, anchor: { basis: 'compMedian', adjust: { percent: -5 } } });
		expect(suggestion).toMatchObject({ suggestedRate: 172.9, change: -0.1, changePercent: -0.06, reason: 'comp median 182.00 − 5 % = 172.90' });
		expect(suggestion.steps).toEqual([{ rule: 'anchor', basis: 'compMedian', base: 182, percent: -5, rate: 172.9, text: 'comp median 182.00 − 5 % = 172.90' }]);
	});

	it('starts from the comp lowest less an amount', () => {
		expect(suggestRate(day(), { ...free, anchor: { basis: 'compLowest', adjust: { amount: -2.5 } } })).toMatchObject({
			suggestedRate: 167.5,
			reason: 'comp lowest 170.00 − 2.50 = 167.50',
		});
	});

	it('starts from one competitor plus a percentage', () => {
		const suggestion = suggestRate(day(), { ...free, anchor: { basis: 'competitor', hotelCode: C, adjust: { percent: 2 } } });
		expect(suggestion).toMatchObject({ suggestedRate: 183.6, reason: `Hotel ${C} (${C}) 180.00 + 2 % = 183.60` });
		expect(suggestion.steps[0]).toMatchObject({ rule: 'anchor', basis: 'competitor', hotelCode: C, base: 180 });
	});

	it('takes the anchor as it is without an adjustment', () => {
		expect(suggestRate(day(), { ...free, anchor: { basis: 'compMedian' } })).toMatchObject({ suggestedRate: 182, reason: 'comp median 182.00' });
	});

	it('gives no suggestion when the competitor of the anchor is sold out, not shopped, or in another currency', () => {
		const rules: SuggestionRules = { anchor: { basis: 'competitor', hotelCode: B } };
		expect(suggestRate(day({ competitors: [competitor(B, null), competitor(C, 180), competitor(D, 184), competitor(E, 190)], competitorsOnSale: 3 }), rules)).toMatchObject({
			suggestedRate: null,
			skipped: 'noAnchor',
			reason: `no suggestion: the anchor, Hotel ${B} (${B}), is sold out`,
		});
		expect(suggestRate(day({ competitors: [competitor(C, 180), competitor(D, 184), competitor(E, 190)], competitorsOnSale: 3 }), rules).reason).toBe(
			`no suggestion: the anchor, hotel ${B}, was not shopped for this date`,
		);
		expect(suggestRate(day({ otherCurrency: [{ hotelCode: B, hotelName: 'Quay Inn', currency: 'USD' }] }), rules).reason).toBe(
			`no suggestion: the anchor, Quay Inn (${B}), is shopped in USD, not EUR`,
		);
	});

	it('gives no suggestion from the median when no competitor is on sale', () => {
		expect(suggestRate(day({ compMedian: null, compLowest: null, competitorsOnSale: 0 }), { minCompetitors: 0, anchor: { basis: 'compMedian' } })).toMatchObject({
			skipped: 'noAnchor',
			reason: 'no suggestion: no comp median, no competitor on sale',
		});
	});
});

describe('event uplift: the band of the event impact score', () => {
	const bands = [
		{ atLeast: 40, percent: 5 },
		{ atLeast: 70, percent: 15 },
	];

	it('applies the band with the highest threshold the score reaches', () => {
		const suggestion = suggestRate(day({ event: marathon }), { ...free, eventUplift: bands });
		expect(suggestion).toMatchObject({ suggestedRate: 198.95, reason: "my current rate 173.00; event 'City Marathon' impact 85: +15 % = 198.95" });
		expect(suggestion.steps[1]).toEqual({ rule: 'eventUplift', rate: 198.95, percent: 15, eventName: 'City Marathon', score: 85, text: "event 'City Marathon' impact 85: +15 % = 198.95" });
	});

	it('applies a band from exactly its threshold', () => {
		expect(suggestRate(day({ event: { ...marathon, score: 70 } }), { ...free, eventUplift: bands }).suggestedRate).toBe(198.95);
		expect(suggestRate(day({ event: { ...marathon, score: 69 } }), { ...free, eventUplift: bands }).suggestedRate).toBe(181.65);
	});

	it('applies none under the lowest band, or without an event', () => {
		expect(suggestRate(day({ event: { ...marathon, score: 39 } }), { ...free, eventUplift: bands }).suggestedRate).toBe(173);
		expect(suggestRate(day(), { ...free, eventUplift: bands }).steps.map((step) => step.rule)).toEqual(['current']);
	});

	it('picks the highest band whatever order the bands are listed in', () => {
		expect(bandFor([...bands].reverse(), 85)).toEqual({ atLeast: 70, percent: 15 });
		expect(bandFor(bands, null)).toBeNull();
		expect(bandFor(undefined, 85)).toBeNull();
	});
});

describe('demand uplift: the band of my demand', () => {
	const bands = [
		{ atLeast: 0, percent: -5 },
		{ atLeast: 40, percent: 0 },
		{ atLeast: 80, percent: 10 },
	];

	it('raises a high-demand date', () => {
		expect(suggestRate(day({ demand: 80 }), { ...free, demandUplift: bands })).toMatchObject({ suggestedRate: 190.3, reason: 'my current rate 173.00; demand 80: +10 % = 190.30' });
	});

	it('lowers a quiet date with a negative band', () => {
		expect(suggestRate(day({ demand: 39 }), { ...free, demandUplift: bands })).toMatchObject({ suggestedRate: 164.35, reason: 'my current rate 173.00; demand 39: −5 % = 164.35' });
	});

	it('leaves out a band of 0 %', () => {
		expect(suggestRate(day({ demand: 50 }), { ...free, demandUplift: bands }).steps).toHaveLength(1);
	});

	it('applies none without demand', () => {
		expect(suggestRate(day({ demand: null }), { ...free, demandUplift: bands }).suggestedRate).toBe(173);
	});
});

describe('the most per suggestion: 10 % of my current rate by default', () => {
	it('caps a rise at 10 % by default', () => {
		expect(DEFAULT_MAX_CHANGE_PERCENT).toBe(10);
		expect(suggestRate(day({ demand: 90 }), { demandUplift: [{ atLeast: 80, percent: 20 }] })).toMatchObject({
			suggestedRate: 190.3,
			reason: 'my current rate 173.00; demand 90: +20 % = 207.60; capped at the most per suggestion, 10 %: 190.30',
		});
	});

	it('caps a fall the same', () => {
		expect(suggestRate(day(), { anchor: { basis: 'compLowest', adjust: { percent: -20 } } })).toMatchObject({ suggestedRate: 155.7, change: -17.3, changePercent: -10 });
	});

	it('lets a move of exactly the most through, without a cap', () => {
		const suggestion = suggestRate(day({ myRate: 100, demand: 50 }), { demandUplift: [{ atLeast: 0, percent: 10 }] });
		expect(suggestion).toMatchObject({ suggestedRate: 110, changePercent: 10 });
		expect(suggestion.steps.map((step) => step.rule)).toEqual(['current', 'demandUplift']);
	});

	it('never passes the most by half a cent: the limit is taken in whole cents inward', () => {
		expect(rateBounds(182.99, { maxChangePercent: 10 })).toEqual({ lowest: 164.70, highest: 201.28 });
		expect(suggestRate(day({ myRate: 182.99 }), { anchor: { basis: 'compMedian', adjust: { percent: 50 } } }).suggestedRate).toBe(201.28);
	});

	it('takes the limit of the rules, or none', () => {
		const rules = { anchor: { basis: 'compMedian', adjust: { percent: 20 } } } as const;
		expect(suggestRate(day(), { ...rules, maxChangePercent: 5 }).suggestedRate).toBe(181.65);
		expect(suggestRate(day(), { ...rules, maxChangePercent: null }).suggestedRate).toBe(218.4);
	});
});

describe('minimum and maximum rate', () => {
	it('raises a suggestion under the minimum to it', () => {
		expect(suggestRate(day(), { anchor: { basis: 'compLowest', adjust: { percent: -8 } }, minRate: 160 })).toMatchObject({
			suggestedRate: 160,
			reason: 'comp lowest 170.00 − 8 % = 156.40; raised to the minimum rate 160.00',
		});
	});

	it('lowers a suggestion over the maximum to it', () => {
		expect(suggestRate(day(), { anchor: { basis: 'compMedian' }, maxRate: 180 })).toMatchObject({ suggestedRate: 180, reason: 'comp median 182.00; lowered to the maximum rate 180.00' });
	});

	it('keeps a suggestion exactly at a bound', () => {
		expect(suggestRate(day(), { anchor: { basis: 'compMedian' }, maxRate: 182 }).steps.map((step) => step.rule)).toEqual(['anchor']);
	});

	it('wins over the most per suggestion: a current rate far under the minimum goes to the minimum', () => {
		expect(suggestRate(day({ myRate: 100 }), { minRate: 150 })).toMatchObject({
			suggestedRate: 150,
			changePercent: 50,
			reason: 'my current rate 100.00; raised to the minimum rate 150.00',
		});
		expect(rateBounds(100, { minRate: 150, maxChangePercent: 10 })).toEqual({ lowest: 150, highest: 150 });
		expect(rateBounds(300, { maxRate: 200, maxChangePercent: 10 })).toEqual({ lowest: 200, highest: 200 });
	});

	it('refuses a maximum under the minimum', () => {
		expect(() => suggestRate(day(), { minRate: 200, maxRate: 150 })).toThrow('Maximum Rate "150": is below Minimum Rate (200)');
		expect(() => suggestRates([], { minRate: 200, maxRate: 150 })).toThrow('Minimum Rate');
	});

	it('never suggests under one cent', () => {
		expect(suggestRate(day(), { ...free, anchor: { basis: 'compLowest', adjust: { amount: -500 } } })).toMatchObject({
			suggestedRate: 0.01,
			reason: 'comp lowest 170.00 − 500.00 = −330.00; raised to 0.01, the lowest rate there is',
		});
	});
});

describe('rounding: to the nearest price point, a tie going up', () => {
	it.each([
		['whole', 189.49, 189],
		['whole', 189.5, 190],
		['end99', 190.3, 189.99],
		['end99', 190.48, 189.99],
		['end99', 190.49, 190.99],
		['end99', 189.99, 189.99],
		['end99', 0.3, 0.99],
		['end95', 190.3, 189.95],
		['end95', 190.45, 190.95],
		['end9', 189, 189],
		['end9', 190.3, 189],
		['end9', 193.99, 189],
		['end9', 194, 199],
		['end9', 3, 9],
		['none', 190.305, 190.31],
	] as const)('%s: %d → %d', (mode, value, rounded) => {
		expect(roundToPricePoint(value, mode)).toBe(rounded);
	});

	it('rounds the suggestion last and says so', () => {
		expect(suggestRate(day(), { ...free, anchor: { basis: 'compMedian', adjust: { percent: -3 } }, rounding: 'end99' })).toMatchObject({
			suggestedRate: 176.99,
			reason: 'comp median 182.00 − 3 % = 176.54; rounded to 176.99',
		});
	});

	it('says nothing when the rate is already a price point', () => {
		expect(suggestRate(day(), { ...free, anchor: { basis: 'compMedian', adjust: { amount: 7.99 } }, rounding: 'end99' }).steps.map((step) => step.rule)).toEqual(['anchor']);
	});
});

describe('rounding never breaks a bound: clamp first, then round within the bounds', () => {
	it('rounds down to the nearest price point under the most per suggestion when the nearest is over it', () => {
		const suggestion = suggestRate(day({ myRate: 173.27 }), { anchor: { basis: 'compMedian', adjust: { percent: 20 } }, rounding: 'end99' });
		expect(suggestion).toMatchObject({
			suggestedRate: 189.99,
			reason: 'comp median 182.00 + 20 % = 218.40; capped at the most per suggestion, 10 %: 190.59; rounded down to 189.99, the nearest price ending in .99 at or below 190.59',
		});
	});

	it('rounds up to the nearest price point over the minimum when the nearest is under it', () => {
		expect(suggestRate(day(), { ...free, anchor: { basis: 'compLowest', adjust: { percent: -20 } }, minRate: 150, rounding: 'end99' })).toMatchObject({
			suggestedRate: 150.99,
			reason: 'comp lowest 170.00 − 20 % = 136.00; raised to the minimum rate 150.00; rounded up to 150.99, the nearest price ending in .99 at or above 150.00',
		});
	});

	it('rounds down under the maximum rate', () => {
		expect(suggestRate(day(), { ...free, anchor: { basis: 'compMedian' }, maxRate: 180, rounding: 'end9' }).suggestedRate).toBe(179);
		expect(suggestRate(day(), { ...free, anchor: { basis: 'compMedian' }, maxRate: 178.5, rounding: 'end9' }).suggestedRate).toBe(169);
	});

	it('leaves the rate unrounded when no price point lies within the bounds', () => {
		expect(suggestRate(day({ myRate: 100 }), { minRate: 150, rounding: 'end99' })).toMatchObject({
			suggestedRate: 150,
			reason: 'my current rate 100.00; raised to the minimum rate 150.00; not rounded: no price ending in .99 between 150.00 and 150.00',
		});
	});
});

describe('minimum comp set: dates with fewer competitors on sale get no suggestion', () => {
	it('needs 3 competitors on sale by default', () => {
		expect(DEFAULT_MIN_COMPETITORS).toBe(3);
		expect(suggestRate(day({ competitorsOnSale: 2 }))).toMatchObject({
			suggestedRate: null,
			change: null,
			changePercent: null,
			skipped: 'fewCompetitors',
			reason: 'no suggestion: 2 competitors on sale, fewer than the minimum of 3',
		});
		expect(suggestRate(day({ competitorsOnSale: 3 })).skipped).toBeNull();
	});

	it('takes the minimum of the rules', () => {
		expect(suggestRate(day({ competitorsOnSale: 1 }), { minCompetitors: 2 }).reason).toBe('no suggestion: 1 competitor on sale, fewer than the minimum of 2');
		expect(suggestRate(day({ competitorsOnSale: 0, compMedian: null }), { minCompetitors: 0 }).suggestedRate).toBe(173);
	});
});

describe('no suggestion for a date I am sold out or not shopped', () => {
	it('gives none when I am sold out', () => {
		expect(suggestRate(day({ myRate: null, mySoldOut: true }))).toMatchObject({ currentRate: null, suggestedRate: null, skipped: 'soldOut', reason: 'no suggestion: my hotel is sold out', steps: [] });
	});

	it('gives none when my hotel was not shopped', () => {
		expect(suggestRate(day({ myRate: null }))).toMatchObject({ skipped: 'notShopped', reason: 'no suggestion: my hotel was not shopped for this date' });
		expect(suggestRate(day({ myRate: null, otherCurrency: [{ hotelCode: 100001, hotelName: 'Mine', currency: 'USD' }] })).reason).toBe(
			'no suggestion: my hotel was not shopped for this date in the calendar currency',
		);
	});
});

describe('the rules together, in order', () => {
	const rules: SuggestionRules = {
		anchor: { basis: 'compMedian', adjust: { percent: -5 } },
		eventUplift: [{ atLeast: 70, percent: 15 }],
		demandUplift: [{ atLeast: 80, percent: 10 }],
		rounding: 'end99',
	};

	it('walks through anchor, event, the most per suggestion and rounding with their numbers', () => {
		const suggestion = suggestRate(day({ event: marathon }), rules);
		expect(suggestion).toMatchObject({
			date: '2026-11-06',
			weekday: 'Fri',
			currentRate: 173,
			suggestedRate: 189.99,
			change: 16.99,
			changePercent: 9.82,
			currency: 'EUR',
			reason: "comp median 182.00 − 5 % = 172.90; event 'City Marathon' impact 85: +15 % = 198.84; capped at the most per suggestion, 10 %: 190.30; rounded to 189.99",
		});
		expect(suggestion.steps.map(({ rule, rate }) => [rule, rate])).toEqual([
			['anchor', 172.9],
			['eventUplift', 198.84],
			['maxChange', 190.3],
			['rounding', 189.99],
		]);
	});

	it('multiplies the event and demand uplifts, each to the cent', () => {
		expect(suggestRate(day({ event: marathon, demand: 85 }), { ...rules, maxChangePercent: null, rounding: 'none' })).toMatchObject({
			suggestedRate: 218.72,
			reason: "comp median 182.00 − 5 % = 172.90; event 'City Marathon' impact 85: +15 % = 198.84; demand 85: +10 % = 218.72",
		});
	});

	it('suggests for every date of the calendar, in its order', () => {
		const suggestions = suggestRates([day(), day({ date: '2026-11-07', weekday: 'Sat', mySoldOut: true, myRate: null })], rules);
		expect(suggestions.map((suggestion) => [suggestion.date, suggestion.suggestedRate, suggestion.skipped])).toEqual([
			['2026-11-06', 172.99, null],
			['2026-11-07', null, 'soldOut'],
		]);
	});
});
