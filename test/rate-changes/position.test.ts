import { compSetPosition, hotelOffers, isUndercut, median, type HotelRoomRate, type Position } from '../../nodes/RateChanges/rules/position';

/** Where my hotel stands in its comp set (nodes/RateChanges/position.ts), rule by rule. */

const MINE = 100001;
const [B, C, D, E] = [100002, 100003, 100004, 100005];

/** One hotel's room on one website, in EUR unless told. */
function room(hotelCode: number, rate: number | null, overrides: Partial<HotelRoomRate> = {}): HotelRoomRate {
	return { hotelCode, hotelName: `Hotel ${hotelCode}`, websiteCode: 2, roomType: 'Standard Queen Room', currency: 'EUR', rate, ...overrides };
}

/** My hotel at `mine` and one competitor at each of `competitors` (hotels B, C, D, E in turn). */
function standing(mine: number | null, ...competitors: Array<number | null>): Position {
	return compSetPosition(MINE, [room(MINE, mine), ...competitors.map((rate, index) => room([B, C, D, E][index], rate))]);
}

describe('each hotel is compared by its cheapest room on sale', () => {
	it('takes the cheapest room of a hotel across rooms and websites, with its website and room', () => {
		const offers = hotelOffers([
			room(B, 130, { websiteCode: 2, roomType: 'Double' }),
			room(B, 118.5, { websiteCode: 5, roomType: 'Twin' }),
			room(B, 125, { websiteCode: 12, roomType: 'Double' }),
		]);
		expect(offers).toEqual([{ hotelCode: B, hotelName: `Hotel ${B}`, rate: 118.5, websiteCode: 5, roomType: 'Twin', currency: 'EUR' }]);
	});

	it('keeps the lower website code when two websites sell the hotel at one rate', () => {
		const [offer] = hotelOffers([room(B, 120, { websiteCode: 12 }), room(B, 120, { websiteCode: 5 }), room(B, 120, { websiteCode: 11 })]);
		expect(offer.websiteCode).toBe(5);
	});

	it('passes over rooms sold out (a rate of 0 or none) for one on sale', () => {
		const [offer] = hotelOffers([room(B, 0, { websiteCode: 2 }), room(B, null, { websiteCode: 5 }), room(B, 140, { websiteCode: 12 })]);
		expect(offer).toMatchObject({ rate: 140, websiteCode: 12 });
	});

	it('gives a hotel sold out on every website the rate null, not 0', () => {
		const [offer] = hotelOffers([room(B, 0, { websiteCode: 2 }), room(B, null, { websiteCode: 5 })]);
		expect(offer.rate).toBeNull();
	});

	it('gives one offer per hotel, in hotel code order', () => {
		expect(hotelOffers([room(D, 90), room(B, 110), room(C, 100), room(B, 105, { websiteCode: 5 })]).map((offer) => offer.hotelCode)).toEqual([B, C, D]);
	});
});

describe('median of the competitors', () => {
	it('is the middle rate of an odd number', () => {
		expect(median([100, 110, 130])).toBe(110);
	});

	it('is the mean of the two middle rates of an even number, to the cent', () => {
		expect(median([100, 110, 121, 130])).toBe(115.5);
		expect(median([120.5, 131.25])).toBe(125.88);
		expect(median([10.1, 10.25])).toBe(10.18);
	});

	it('is null without any rate', () => {
		expect(median([])).toBeNull();
	});

	it('is taken over the competitors on sale, not over my hotel', () => {
		expect(standing(500, 130, 100, 110)).toMatchObject({ lowest: 100, median: 110, highest: 130 });
		expect(standing(50, 130, 100, 121, 110)).toMatchObject({ lowest: 100, median: 115.5, highest: 130 });
	});
});

describe('rank: 1 is the cheapest, hotels at one rate share a rank', () => {
	it('ranks me among the competitors on sale', () => {
		expect(standing(120, 100, 110, 130)).toMatchObject({ rank: 3, rankedHotels: 4 });
	});

	it('gives me the rank of a competitor I tie with', () => {
		expect(standing(110, 100, 110, 110, 130)).toMatchObject({ rank: 2, rankedHotels: 5, position: 'inside' });
	});

	it('ranks me first when I tie with the cheapest competitor', () => {
		expect(standing(100, 100, 120)).toMatchObject({ rank: 1, position: 'cheapest' });
	});

	it('counts hotels below me, not rates: two competitors at one rate below me put me third', () => {
		expect(standing(120, 100, 100)).toMatchObject({ rank: 3, rankedHotels: 3, position: 'mostExpensive' });
	});
});

describe('position: cheapest, inside, most expensive, alone', () => {
	it('is cheapest below every competitor', () => {
		expect(standing(90, 100, 110).position).toBe('cheapest');
	});

	it('is inside between the cheapest and the dearest competitor', () => {
		expect(standing(105, 100, 110).position).toBe('inside');
	});

	it('is most expensive above every competitor, and when tied with the dearest', () => {
		expect(standing(120, 100, 110).position).toBe('mostExpensive');
		expect(standing(110, 100, 110)).toMatchObject({ rank: 2, position: 'mostExpensive' });
	});

	it('is cheapest, not most expensive, when every hotel sells at one rate', () => {
		expect(standing(100, 100, 100)).toMatchObject({ rank: 1, position: 'cheapest' });
	});

	it('is alone without a competitor on sale: rank 1 of 1 and no gap', () => {
		for (const position of [standing(100), standing(100, null, 0)]) {
			expect(position).toMatchObject({ position: 'alone', rank: 1, rankedHotels: 1, cheapestCompetitor: null, gap: null, gapPercent: null, lowest: null, median: null, highest: null });
		}
	});
});

describe('sold-out hotels are counted apart, not as a rate of 0', () => {
	it('leaves sold-out competitors out of the rank, the lowest and the median', () => {
		const position = standing(120, 100, 0, null, 130);
		expect(position).toMatchObject({ soldOutCompetitors: 2, rank: 2, rankedHotels: 3, lowest: 100, median: 115, highest: 130, position: 'inside' });
		expect(position.competitors.map((offer) => offer.hotelCode)).toEqual([B, E]);
	});

	it('says so when my hotel is sold out: no rank, no gap, the comp set still described', () => {
		expect(standing(0, 100, 110, null)).toMatchObject({
			position: 'soldOut',
			myRate: null,
			currency: 'EUR',
			rank: null,
			rankedHotels: 2,
			gap: null,
			gapPercent: null,
			lowest: 100,
			highest: 110,
			soldOutCompetitors: 1,
		});
	});

	it('says my hotel was not shopped when no rate of it came, and compares the others whatever their currency', () => {
		const position = compSetPosition(MINE, [room(B, 100), room(C, 110, { currency: 'USD' })]);
		expect(position).toMatchObject({ position: 'notShopped', myRate: null, currency: null, rank: null, rankedHotels: 2, otherCurrency: [] });
	});
});

describe('the cheapest competitor and the gap to it', () => {
	it('names the cheapest competitor with its website and room, and the gap in amount and percent of my rate', () => {
		const position = compSetPosition(MINE, [room(MINE, 200), room(B, 185), room(C, 170, { websiteCode: 12, roomType: 'Twin', hotelName: 'Quay Inn' })]);
		expect(position.cheapestCompetitor).toEqual({ hotelCode: C, hotelName: 'Quay Inn', rate: 170, websiteCode: 12, roomType: 'Twin', currency: 'EUR' });
		expect(position).toMatchObject({ gap: 30, gapPercent: 15 });
	});

	it('rounds both to the cent', () => {
		expect(standing(123.45, 100)).toMatchObject({ gap: 23.45, gapPercent: 19 });
	});

	it('is negative when I am the cheapest', () => {
		expect(standing(90, 100)).toMatchObject({ gap: -10, gapPercent: -11.11 });
	});

	it('names the lower hotel code of two competitors at the cheapest rate', () => {
		expect(standing(120, 110, 100, 100).cheapestCompetitor?.hotelCode).toBe(C);
	});
});

describe('competitors in another currency than mine are not compared, and the item says so', () => {
	const position = compSetPosition(MINE, [room(MINE, 200), room(B, 180), room(C, 20, { currency: 'USD' }), room(D, 150, { currency: 'GBP' })]);

	it('lists them in otherCurrency with their currency', () => {
		expect(position.otherCurrency).toEqual([
			{ hotelCode: C, currency: 'USD' },
			{ hotelCode: D, currency: 'GBP' },
		]);
	});

	it('leaves them out of the rank, the lowest, the median and the cheapest competitor', () => {
		expect(position).toMatchObject({ currency: 'EUR', rank: 2, rankedHotels: 2, lowest: 180, median: 180, highest: 180, gap: 20, gapPercent: 10 });
		expect(position.cheapestCompetitor?.hotelCode).toBe(B);
		expect(position.competitors.map((offer) => offer.hotelCode)).toEqual([B]);
	});

	it('is alone when every competitor sells in another currency', () => {
		expect(compSetPosition(MINE, [room(MINE, 200), room(B, 20, { currency: 'USD' })])).toMatchObject({ position: 'alone', rank: 1, otherCurrency: [{ hotelCode: B, currency: 'USD' }] });
	});
});

describe('undercut: a competitor below my rate by at least the percentage and the amount', () => {
	// Me at 200, the cheapest competitor at 180: 20.00 and 10 % below me.
	const undercut = standing(200, 180, 190);

	it('alerts exactly at the percentage', () => {
		expect(isUndercut(undercut, { minPercent: 10, minAmount: 0 })).toBe(true);
		expect(isUndercut(undercut, { minPercent: 10.01, minAmount: 0 })).toBe(false);
	});

	it('alerts exactly at the percentage where the division is not exact in floating point (3.12 of 104)', () => {
		expect(isUndercut(standing(104, 100.88), { minPercent: 3, minAmount: 0 })).toBe(true);
	});

	it('alerts exactly at the amount', () => {
		expect(isUndercut(undercut, { minPercent: 0, minAmount: 20 })).toBe(true);
		expect(isUndercut(undercut, { minPercent: 0, minAmount: 20.01 })).toBe(false);
	});

	it('needs both thresholds to hold', () => {
		expect(isUndercut(undercut, { minPercent: 10, minAmount: 20 })).toBe(true);
		expect(isUndercut(undercut, { minPercent: 5, minAmount: 25 })).toBe(false);
		expect(isUndercut(undercut, { minPercent: 15, minAmount: 5 })).toBe(false);
	});

	it('with both thresholds 0, alerts on any competitor below me, not on one at my rate', () => {
		expect(isUndercut(standing(200, 199.99), { minPercent: 0, minAmount: 0 })).toBe(true);
		expect(isUndercut(standing(200, 200), { minPercent: 0, minAmount: 0 })).toBe(false);
	});

	it('never alerts when I am the cheapest, alone, sold out or not shopped', () => {
		const rule = { minPercent: 0, minAmount: 0 };
		expect(isUndercut(standing(150, 180), rule)).toBe(false);
		expect(isUndercut(standing(150), rule)).toBe(false);
		expect(isUndercut(standing(null, 180), rule)).toBe(false);
		expect(isUndercut(compSetPosition(MINE, [room(B, 180)]), rule)).toBe(false);
	});

	it('never alerts on a cheaper competitor in another currency', () => {
		const position = compSetPosition(MINE, [room(MINE, 200), room(B, 20, { currency: 'USD' })]);
		expect(isUndercut(position, { minPercent: 0, minAmount: 0 })).toBe(false);
	});
});
