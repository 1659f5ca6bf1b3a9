import { rateAt, type HistoryEntry } from '../storage/stayHistory';

import { percentChange, round2, signedPercent } from './amounts';
import { isCalendarDate, priceIndexOf, rangeDates, weekdayOf, type CompSet, type WebsiteChoice, type Weekday } from './calendar';
import type { RateField } from './observation';
import { median } from './position';

/**
 * Rate History: how the rates of a stay date moved as its arrival came nearer, shop day by shop
 * day, from the history table Detect Changes keeps with Keep History on (storage/stayHistory.ts);
 * the booking-window curve is made of these series (bookingCurve.ts). Pure: the operation reads
 * the rows and hands the stays over.
 *
 * A shop day is a UTC day (collection times are UTC); a hotel's rate on a shop day is its rate at
 * the end of that day, the cheapest room on sale of the stays it has (on the chosen website, or on
 * any), as Rate Calendar takes it. A stay's rate holds from its entry until the next one, but not
 * past its last collection by more than the shops' usual gap (`usualGapDays`): a stay the shops
 * stopped collecting drops out of the series rather than standing at its last rate for ever.
 */

/** The stays of one hotel, website and room type for one check-in day, as the history table has them. */
export interface StayHistory {
	hotelCode: number;
	hotelName: string;
	websiteCode: number;
	roomType: string;
	/** `YYYY-MM-DD`. */
	checkIn: string;
	/** The stay's first rate and each change after it, oldest first (the entry before the kept days included). */
	entries: readonly HistoryEntry[];
	/**
	 * The stay's latest collection, as the rates table has it (a shop that moved nothing writes no
	 * history entry, only this); null where the rates table no longer holds the stay (its check-in
	 * has passed): it then holds until arrival.
	 */
	lastSeen: string | null;
}

export interface HistorySettings {
	myHotelCode: number;
	compSet: CompSet;
	website: WebsiteChoice;
	/** The stay dates, `YYYY-MM-DD`. */
	dates: readonly string[];
	rateField: RateField;
	/** Default: the currency my hotel's stays are in most often, else the competitors'. */
	currency?: string;
	/** The shop days a date's series covers, up to arrival (or the newest shop day). */
	lookBackDays: number;
}

/** A hotel at the end of one shop day: its cheapest room on sale, or sold out. */
export interface HotelOnDay {
	hotelCode: number;
	hotelName: string;
	/** null: sold out. */
	rate: number | null;
	soldOut: boolean;
}

/** One shop day of a stay date's series. Amounts in the history's currency; a sold-out hotel has no rate and counts in no median. */
export interface HistoryPoint {
	shopDay: string;
	/** Days before arrival: the stay date minus the shop day. */
	daysOut: number;
	/** null: sold out, or not shopped that day (then mySoldOut is false). */
	myRate: number | null;
	mySoldOut: boolean;
	compLowest: number | null;
	compMedian: number | null;
	compHighest: number | null;
	/** myRate / compMedian × 100, to 2 decimals. */
	priceIndex: number | null;
	competitorsOnSale: number;
	competitorsSoldOut: number;
	/** Cheapest first, the sold out last. */
	competitors: HotelOnDay[];
}

/** A shop day my rate on sale differed from my rate on sale the shop day before (a sell-out is no move: `mySoldOutSince` says it). */
export interface MyMove {
	shopDay: string;
	daysOut: number;
	from: number;
	to: number;
}

export interface DateHistory {
	date: string;
	weekday: Weekday;
	currency: string | null;
	/** Oldest shop day first; days nobody was known on are left out. */
	series: HistoryPoint[];
	/** The comp median on the first and the last shop day that had one, and the change between them. */
	compMedianFrom: number | null;
	compMedianTo: number | null;
	compMedianChangePercent: number | null;
	myMoves: MyMove[];
	/** Sold out on the last shop day: the days out of the first shop day of that sell-out; else null. */
	mySoldOutSince: number | null;
	/** The date's history in one sentence (historyLine). */
	line: string;
}

const DAY_MS = 86_400_000;
const dayNumber = (date: string) => Date.parse(`${date.slice(0, 10)}T00:00:00Z`) / DAY_MS;
const isoOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
const endOf = (day: string) => `${day}T23:59:59.999Z`;

/**
 * The shops' usual gap in days: the median gap between consecutive days on which any of the stays
 * was collected (an entry or a last collection), at least 1. A stay counts on a shop day up to this
 * many days after its last collection: with daily shops, the day after (one missed shop does not
 * empty the chart), with weekly shops the week until the next.
 */
export function usualGapDays(stays: readonly StayHistory[]): number {
	const days = new Set<number>();
	for (const stay of stays) {
		for (const entry of stay.entries) days.add(dayNumber(entry.dtCollected));
		if (stay.lastSeen) days.add(dayNumber(stay.lastSeen));
	}
	const sorted = [...days].sort((a, b) => a - b);
	const gaps = sorted.slice(1).map((day, index) => day - sorted[index]);
	return Math.max(1, median([...gaps].sort((a, b) => a - b)) ?? 1);
}

/** Whether the stay's rate still holds on the shop day. */
function current(stay: StayHistory, day: string, carryDays: number): boolean {
	if (stay.lastSeen === null) return day <= stay.checkIn;
	const last = [stay.lastSeen, stay.entries.at(-1)?.dtCollected ?? ''].sort().at(-1) as string;
	return dayNumber(day) <= dayNumber(last) + carryDays;
}

/** A hotel at the end of the shop day; undefined when none of its stays is known then. */
function hotelOnDay(stays: readonly StayHistory[], day: string, context: SeriesContext): HotelOnDay | undefined {
	let known = false;
	let cheapest: number | null = null;
	for (const stay of stays) {
		const entry = rateAt(stay.entries, endOf(day));
		if (!entry || entry.value.currency !== context.currency || !current(stay, day, context.carryDays)) continue;
		known = true;
		const rate = entry.value[context.rateField];
		if (rate !== null && rate > 0 && (cheapest === null || rate < cheapest)) cheapest = rate;
	}
	if (!known) return undefined;
	return { hotelCode: stays[0].hotelCode, hotelName: stays[0].hotelName, rate: cheapest, soldOut: cheapest === null };
}

interface SeriesContext {
	currency: string | null;
	rateField: RateField;
	carryDays: number;
	myHotelCode: number;
}

function pointOf(day: string, date: string, byHotel: ReadonlyMap<number, StayHistory[]>, context: SeriesContext): HistoryPoint | undefined {
	const hotels = [...byHotel].flatMap(([, stays]) => hotelOnDay(stays, day, context) ?? []);
	if (hotels.length === 0) return undefined;
	const mine = hotels.find((hotel) => hotel.hotelCode === context.myHotelCode);
	const competitors = hotels.filter((hotel) => hotel.hotelCode !== context.myHotelCode).sort((a, b) => (a.rate ?? Infinity) - (b.rate ?? Infinity) || a.hotelCode - b.hotelCode);
	const onSale = competitors.flatMap((hotel) => (hotel.rate === null ? [] : [hotel.rate]));
	const compMedian = median(onSale);
	const myRate = mine?.rate ?? null;
	return {
		shopDay: day,
		daysOut: dayNumber(date) - dayNumber(day),
		myRate,
		mySoldOut: mine?.soldOut ?? false,
		compLowest: onSale[0] ?? null,
		compMedian,
		compHighest: onSale.at(-1) ?? null,
		priceIndex: priceIndexOf(myRate, compMedian),
		competitorsOnSale: onSale.length,
		competitorsSoldOut: competitors.length - onSale.length,
		competitors,
	};
}

/** The stays that count for the settings: the website chosen, my hotel and the comp set. */
function staysInView(stays: readonly StayHistory[], settings: Pick<HistorySettings, 'myHotelCode' | 'compSet' | 'website'>): StayHistory[] {
	const compSet = settings.compSet === 'all' ? null : new Set(settings.compSet);
	return stays.filter(
		(stay) => (settings.website === 'lowest' || stay.websiteCode === settings.website) && (stay.hotelCode === settings.myHotelCode || compSet === null || compSet.has(stay.hotelCode)),
	);
}

/** The currency named most often by the stays' latest entries (the first alphabetically on a tie); null for none. */
function mostFrequentCurrency(stays: readonly StayHistory[]): string | null {
	const counts = new Map<string, number>();
	for (const stay of stays) {
		const currency = stay.entries.at(-1)?.value.currency;
		if (currency) counts.set(currency, (counts.get(currency) ?? 0) + 1);
	}
	return [...counts].sort(([a, countA], [b, countB]) => countB - countA || (a < b ? -1 : 1))[0]?.[0] ?? null;
}

function historyCurrency(stays: readonly StayHistory[], settings: HistorySettings): string | null {
	return settings.currency || mostFrequentCurrency(stays.filter((stay) => stay.hotelCode === settings.myHotelCode)) || mostFrequentCurrency(stays);
}

/** The series of one stay date over the shop days from `first` to `last`, both included. */
function seriesOf(date: string, stays: readonly StayHistory[], first: string, last: string, context: SeriesContext): HistoryPoint[] {
	const byHotel = new Map<number, StayHistory[]>();
	for (const stay of stays) byHotel.set(stay.hotelCode, [...(byHotel.get(stay.hotelCode) ?? []), stay]);
	if (last < first) return [];
	return rangeDates(first, last).flatMap((day) => pointOf(day, date, byHotel, context) ?? []);
}

function movesOf(series: readonly HistoryPoint[]): MyMove[] {
	const moves: MyMove[] = [];
	let before: HistoryPoint | undefined;
	for (const point of series) {
		if (point.myRate === null && !point.mySoldOut) continue;
		if (before?.myRate != null && point.myRate !== null && before.myRate !== point.myRate) moves.push({ shopDay: point.shopDay, daysOut: point.daysOut, from: before.myRate, to: point.myRate });
		before = point;
	}
	return moves;
}

function soldOutSince(series: readonly HistoryPoint[]): number | null {
	const known = series.filter((point) => point.myRate !== null || point.mySoldOut);
	if (!known.at(-1)?.mySoldOut) return null;
	let first = known.length - 1;
	while (first > 0 && known[first - 1].mySoldOut) first--;
	return known[first].daysOut;
}

/** "3,210", "105.5": a rate as a person reads it in a sentence, to the cent only where it has cents. */
export function readableAmount(value: number): string {
	return round2(value).toLocaleString('en-US', { minimumFractionDigits: 0, maximumFractionDigits: 2 });
}

function listed(values: readonly string[]): string {
	return values.length <= 1 ? (values[0] ?? '') : `${values.slice(0, -1).join(', ')} and ${values.at(-1)}`;
}

const TIMES = ['', 'once', 'twice'];

/**
 * The date's history in one sentence: "comp median 3,210 → 3,790 ZAR (+18 %) over 30 days; you
 * moved once, 21 days out". The days are those from the first to the last shop day with a median.
 */
export function historyLine(history: Pick<DateHistory, 'series' | 'currency' | 'myMoves' | 'mySoldOutSince'>): string {
	const { series, currency, myMoves, mySoldOutSince } = history;
	if (series.length === 0) return 'no history of this date in the days looked back';
	const medians = series.filter((point) => point.compMedian !== null);
	const unit = currency ? ` ${currency}` : '';
	let market = 'no competitor on sale';
	if (medians.length > 0) {
		const [first, last] = [medians[0], medians[medians.length - 1]];
		const days = dayNumber(last.shopDay) - dayNumber(first.shopDay) + 1;
		const [from, to] = [first.compMedian as number, last.compMedian as number];
		market =
			from === to
				? `comp median steady at ${readableAmount(to)}${unit} over ${days} day${days === 1 ? '' : 's'}`
				: `comp median ${readableAmount(from)} → ${readableAmount(to)}${unit} (${signedPercent(Math.round(percentChange(from, to)))}) over ${days} days`;
	}
	const shopped = series.some((point) => point.myRate !== null || point.mySoldOut);
	let mine = 'your rate not shopped';
	if (shopped) {
		const count = myMoves.length;
		const times = TIMES[count] ?? `${count} times`;
		// Up to three moves are each named; more read as a count with the first and the last.
		const when = count <= 3 ? `${count === 1 ? ',' : ':'} ${listed(myMoves.map((move) => String(move.daysOut)))} days out` : `, first ${myMoves[0].daysOut} and last ${(myMoves.at(-1) as MyMove).daysOut} days out`;
		mine = count === 0 ? 'you did not move' : `you moved ${times}${when}`;
		if (mySoldOutSince !== null) mine += `; sold out since ${mySoldOutSince} days out`;
	}
	return `${market}; ${mine}`;
}

function dateHistory(date: string, stays: readonly StayHistory[], first: string, last: string, context: SeriesContext): DateHistory {
	const series = seriesOf(date, stays, first, last, context);
	const medians = series.flatMap((point) => (point.compMedian === null ? [] : [point.compMedian]));
	const [from, to] = [medians[0] ?? null, medians.at(-1) ?? null];
	const myMoves = movesOf(series);
	const partial = { series, currency: context.currency, myMoves, mySoldOutSince: soldOutSince(series) };
	return {
		date,
		weekday: weekdayOf(date),
		currency: context.currency,
		series,
		compMedianFrom: from,
		compMedianTo: to,
		compMedianChangePercent: from === null || to === null ? null : percentChange(from, to),
		myMoves,
		mySoldOutSince: partial.mySoldOutSince,
		line: historyLine(partial),
	};
}

function checkDates(dates: readonly string[]): string[] {
	const misfit = dates.find((date) => !isCalendarDate(date));
	if (misfit !== undefined) throw new Error(`The stay date "${misfit}" is not a date written YYYY-MM-DD`);
	return [...new Set(dates)].sort();
}

function contextOf(stays: readonly StayHistory[], settings: HistorySettings): { inView: StayHistory[]; context: SeriesContext } {
	const inView = staysInView(stays, settings);
	return { inView, context: { currency: historyCurrency(inView, settings), rateField: settings.rateField, carryDays: usualGapDays(inView), myHotelCode: settings.myHotelCode } };
}

/**
 * The newest shop day the stays know of: where a series of a stay still ahead ends. Not the
 * clock's today: a history read before the morning's shop ends at yesterday's, not at a day of
 * rates carried forward.
 */
export function newestShopDay(stays: readonly StayHistory[]): string {
	let newest = '';
	for (const stay of stays) {
		for (const time of [stay.lastSeen ?? '', stay.entries.at(-1)?.dtCollected ?? '']) if (time > newest) newest = time;
	}
	return newest.slice(0, 10);
}

/** Each stay date's series over the Look Back days up to its arrival (or the newest shop day, if sooner), in date order. */
export function buildHistory(stays: readonly StayHistory[], settings: HistorySettings): DateHistory[] {
	const dates = checkDates(settings.dates);
	const { inView, context } = contextOf(stays, settings);
	const newest = newestShopDay(inView);
	return dates.map((date) => {
		if (newest === '') return dateHistory(date, [], date, '', context);
		const last = date < newest ? date : newest;
		const first = isoOf(dayNumber(last) - settings.lookBackDays + 1);
		return dateHistory(date, inView.filter((stay) => stay.checkIn === date), first, last, context);
	});
}

/** The `count` dates with the highest latest comp median (0: every date), in date order. */
export function peakDates(histories: readonly DateHistory[], count: number): DateHistory[] {
	if (count <= 0) return [...histories];
	const peaks = new Set([...histories].filter((history) => history.compMedianTo !== null).sort((a, b) => (b.compMedianTo as number) - (a.compMedianTo as number) || (a.date < b.date ? -1 : 1)).slice(0, count));
	return histories.filter((history) => peaks.has(history));
}
