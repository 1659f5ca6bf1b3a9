import { buildCurve } from '../../nodes/RateChanges/rules/bookingCurve';
import { buildHistory, historyLine, peakDates, readableAmount, usualGapDays, type StayHistory } from '../../nodes/RateChanges/rules/history';
import type { HistoryEntry } from '../../nodes/RateChanges/storage/stayHistory';

const MINE = 1;
const [B, C, D] = [2, 3, 4];

/** A rate from a shop day on (0 or null: sold out). */
function entry(day: string, rate: number | null, currency = 'EUR'): HistoryEntry {
	return { value: { onsiteRate: rate, netRate: null, totalRate: null, currency }, dtCollected: `${day}T06:00:00.000Z` };
}

function stay(hotelCode: number, checkIn: string, entries: HistoryEntry[], lastSeen: string | null = '2027-02-28T06:00:00.000Z', websiteCode = 1): StayHistory {
	return { hotelCode, hotelName: `Hotel ${hotelCode}`, websiteCode, roomType: 'Double', checkIn, entries, lastSeen };
}

/** A stay of another date collected every day, as a daily shop's stays are: the usual gap is a day. */
const DAILY = stay(9, '2027-03-31', Array.from({ length: 28 }, (_, day) => entry(`2027-02-${String(day + 1).padStart(2, '0')}`, 100 + (day % 2))));

const SETTINGS = { myHotelCode: MINE, compSet: 'all' as const, website: 'lowest' as const, dates: ['2027-03-10'], rateField: 'onsiteRate' as const, lookBackDays: 30 };

/** Every competitor from 1 February, me at 100: B 90, C 110, D 130. */
function market(checkIn = '2027-03-10'): StayHistory[] {
	return [stay(MINE, checkIn, [entry('2027-02-01', 100)]), stay(B, checkIn, [entry('2027-02-01', 90)]), stay(C, checkIn, [entry('2027-02-01', 110)]), stay(D, checkIn, [entry('2027-02-01', 130)])];
}

describe('the shops’ usual gap', () => {
	it('is the median gap between the days any stay was collected, at least a day', () => {
		expect(usualGapDays([stay(B, '2027-03-10', [entry('2027-02-01', 90), entry('2027-02-02', 91), entry('2027-02-03', 92)], '2027-02-04T06:00:00Z')])).toBe(1);
		expect(usualGapDays([stay(B, '2027-03-10', [entry('2027-02-01', 90), entry('2027-02-08', 91)], '2027-02-15T06:00:00Z')])).toBe(7);
		expect(usualGapDays([stay(B, '2027-03-10', [entry('2027-02-01', 90)], '2027-02-01T07:00:00Z')])).toBe(1);
	});
});

describe('the series of a date', () => {
	it('has one point a shop day, up to the newest shop day, over the Look Back days', () => {
		const [history] = buildHistory(market(), { ...SETTINGS, lookBackDays: 5 });
		expect(history.series.map((point) => [point.shopDay, point.daysOut])).toEqual([
			['2027-02-24', 14],
			['2027-02-25', 13],
			['2027-02-26', 12],
			['2027-02-27', 11],
			['2027-02-28', 10],
		]);
		expect(history.series[0]).toMatchObject({ myRate: 100, compLowest: 90, compMedian: 110, compHighest: 130, priceIndex: 90.91, competitorsOnSale: 3, competitorsSoldOut: 0 });
	});

	it('takes each hotel at the end of the shop day: a change collected that day counts that day', () => {
		const stays = market();
		stays[1] = stay(B, '2027-03-10', [entry('2027-02-01', 90), entry('2027-02-28', 120)]);
		const [history] = buildHistory(stays, { ...SETTINGS, lookBackDays: 2 });
		expect(history.series.map((point) => point.compMedian)).toEqual([110, 120]);
	});

	it('shows a sold-out competitor as sold out, not 0, and leaves it out of the median, lowest and highest', () => {
		const stays = market();
		stays[3] = stay(D, '2027-03-10', [entry('2027-02-01', 130), entry('2027-02-28', 0)]);
		const [history] = buildHistory(stays, { ...SETTINGS, lookBackDays: 1 });
		expect(history.series[0]).toMatchObject({ compLowest: 90, compMedian: 100, compHighest: 110, competitorsSoldOut: 1 });
		expect(history.series[0].competitors.at(-1)).toEqual({ hotelCode: D, hotelName: `Hotel ${D}`, rate: null, soldOut: true });
	});

	it('takes a hotel at its cheapest website on sale with the lowest of all, at the website asked for with one', () => {
		const stays = [...market(), stay(B, '2027-03-10', [entry('2027-02-01', 80)], '2027-02-28T06:00:00.000Z', 2)];
		expect(buildHistory(stays, { ...SETTINGS, lookBackDays: 1 })[0].series[0].compLowest).toBe(80);
		expect(buildHistory(stays, { ...SETTINGS, website: 1, lookBackDays: 1 })[0].series[0].compLowest).toBe(90);
	});

	it('leaves out a hotel in another currency, and a competitor outside the comp set', () => {
		const stays = [...market(), stay(5, '2027-03-10', [entry('2027-02-01', 10, 'USD')])];
		expect(buildHistory(stays, { ...SETTINGS, lookBackDays: 1 })[0].series[0].competitorsOnSale).toBe(3);
		expect(buildHistory(stays, { ...SETTINGS, compSet: [B], lookBackDays: 1 })[0].series[0]).toMatchObject({ compMedian: 90, competitorsOnSale: 1 });
	});

	it('holds a stay past its last collection for the usual gap, then drops it', () => {
		const stays = market();
		stays[3] = stay(D, '2027-03-10', [entry('2027-02-01', 130)], '2027-02-25T06:00:00.000Z');
		const [history] = buildHistory([...stays, DAILY], { ...SETTINGS, lookBackDays: 4 });
		expect(history.series.map((point) => [point.shopDay, point.competitorsOnSale])).toEqual([
			['2027-02-25', 3],
			['2027-02-26', 3],
			['2027-02-27', 2],
			['2027-02-28', 2],
		]);
	});

	it('holds a stay no longer in the rates table (its check-in passed) until arrival', () => {
		const stays = market('2027-02-20').map((past) => ({ ...past, lastSeen: null }));
		const [history] = buildHistory([...stays, stay(B, '2027-03-10', [entry('2027-02-28', 1)])], { ...SETTINGS, dates: ['2027-02-20'], lookBackDays: 3 });
		expect(history.series.map((point) => [point.shopDay, point.daysOut, point.compMedian])).toEqual([
			['2027-02-18', 2, 110],
			['2027-02-19', 1, 110],
			['2027-02-20', 0, 110],
		]);
	});

	it('has no point before a stay’s first entry, and an empty series without history', () => {
		const stays = [stay(MINE, '2027-03-10', [entry('2027-02-27', 100)]), stay(B, '2027-03-10', [entry('2027-02-27', 90)])];
		expect(buildHistory(stays, SETTINGS)[0].series.map((point) => point.shopDay)).toEqual(['2027-02-27', '2027-02-28']);
		expect(buildHistory([], SETTINGS)[0]).toMatchObject({ series: [], line: 'no history of this date in the days looked back' });
	});
});

describe('my moves and the line', () => {
	const line = (mine: HistoryEntry[], others: StayHistory[] = market().slice(1)) => buildHistory([stay(MINE, '2027-03-10', mine), ...others], SETTINGS)[0];

	it('says how the comp median moved and that I did not', () => {
		expect(line([entry('2027-02-01', 100)]).line).toBe('comp median steady at 110 EUR over 28 days; you did not move');
	});

	it('gives the comp median first and last, its change to the whole percent, and each move of mine by days out', () => {
		const others = [
			stay(B, '2027-03-10', [entry('2027-02-01', 3000), entry('2027-02-20', 3500)]),
			stay(C, '2027-03-10', [entry('2027-02-01', 3210), entry('2027-02-20', 3790)]),
			stay(D, '2027-03-10', [entry('2027-02-01', 3400), entry('2027-02-20', 4000)]),
		];
		const history = line([entry('2027-02-01', 3000), entry('2027-02-17', 3100)], others);
		expect(history.line).toBe('comp median 3,210 → 3,790 EUR (+18 %) over 28 days; you moved once, 21 days out');
		expect(history.myMoves).toEqual([{ shopDay: '2027-02-17', daysOut: 21, from: 3000, to: 3100 }]);
		expect(history).toMatchObject({ compMedianFrom: 3210, compMedianTo: 3790, compMedianChangePercent: 18.07 });
		expect(line([entry('2027-02-01', 100), entry('2027-02-17', 110), entry('2027-02-27', 105)]).line).toBe('comp median steady at 110 EUR over 28 days; you moved twice: 21 and 11 days out');
		expect(line([entry('2027-02-01', 100), entry('2027-02-10', 101), entry('2027-02-17', 110), entry('2027-02-27', 105)]).line).toContain('you moved 3 times: 28, 21 and 11 days out');
		expect(line([entry('2027-02-01', 100), entry('2027-02-10', 101), entry('2027-02-17', 110), entry('2027-02-20', 108), entry('2027-02-27', 105)]).line).toContain('you moved 4 times, first 28 and last 11 days out');
	});

	it('says since when I am sold out; a sell-out is no move', () => {
		const history = line([entry('2027-02-01', 100), entry('2027-02-25', 0)]);
		expect(history.line).toBe('comp median steady at 110 EUR over 28 days; you did not move; sold out since 13 days out');
		expect(history.mySoldOutSince).toBe(13);
		expect(history.myMoves).toEqual([]);
	});

	it('says when my rate was not shopped, and when no competitor was on sale', () => {
		expect(buildHistory(market().slice(1), SETTINGS)[0].line).toBe('comp median steady at 110 EUR over 28 days; your rate not shopped');
		expect(historyLine({ series: [{ ...buildHistory(market(), SETTINGS)[0].series[0], compMedian: null }], currency: 'EUR', myMoves: [], mySoldOutSince: null })).toBe('no competitor on sale; you did not move');
	});

	it('writes amounts as a person reads them', () => {
		expect([readableAmount(3210), readableAmount(105.5), readableAmount(99.999)]).toEqual(['3,210', '105.5', '100']);
	});
});

describe('peak dates', () => {
	it('keeps the dates of the highest comp median now, in date order', () => {
		const stays = [...market('2027-03-10'), ...market('2027-03-11'), ...market('2027-03-12')];
		stays[5] = stay(B, '2027-03-11', [entry('2027-02-01', 200)]);
		stays[9] = stay(B, '2027-03-12', [entry('2027-02-01', 120)]);
		const histories = buildHistory(stays, { ...SETTINGS, dates: ['2027-03-10', '2027-03-11', '2027-03-12'] });
		expect(peakDates(histories, 2).map((history) => history.date)).toEqual(['2027-03-11', '2027-03-12']);
		expect(peakDates(histories, 0)).toHaveLength(3);
	});
});

describe('the booking-window curve', () => {
	it('averages each stay over its shop days in a bucket, then the stays, each weighing the same', () => {
		// Stay 1: index 100 up to 8 days out, then 120. Stay 2: index 80 throughout.
		const first = [stay(MINE, '2027-03-01', [entry('2027-01-01', 100), entry('2027-02-22', 120)], null), stay(B, '2027-03-01', [entry('2027-01-01', 100)], null)];
		const second = [stay(MINE, '2027-03-02', [entry('2027-01-01', 80)], null), stay(B, '2027-03-02', [entry('2027-01-01', 100), entry('2027-02-23', 110)], null)];
		// A later shop of another date: the newest shop day is after both arrivals.
		const later = stay(C, '2027-03-20', [entry('2027-03-05', 100)], null);
		const curve = buildCurve([...first, ...second, later], { ...SETTINGS, dates: ['2027-03-01', '2027-03-02'] });
		const byLabel = Object.fromEntries(curve.buckets.map((bucket) => [bucket.label, bucket]));
		// 0–7: stay 1 at 120 for days 7..0; stay 2 at 80/110 = 72.73 for each of days 7..0.
		expect(byLabel['0–7']).toMatchObject({ stays: 2, myIndex: 96.37, compMedian: 105 });
		// 61–90 for both: the history begins 2027-01-01, 59 and 60 days before; neither reaches 61.
		expect(byLabel['61–90']).toMatchObject({ stays: 0, myIndex: null, compMedianChangePercent: null });
		// 31–60: stay 1 days 31..59 at 100, stay 2 days 31..60 at 80.
		expect(byLabel['31–60']).toMatchObject({ stays: 2, myIndex: 90 });
		// The median moved from 8–14 to 0–7: stay 1 not at all, stay 2 from 100 (days 14..8) to 110 (+10 %): +5 % on average.
		expect(byLabel['0–7'].compMedianChangePercent).toBe(5);
		expect(curve.line).toBe('your index by days before arrival: 90 at 31–60, 90 at 15–30, 90 at 8–14, 96 at 0–7; comp median 0 % to 15–30, 0 % to 8–14, +5 % to 0–7');
	});
});
