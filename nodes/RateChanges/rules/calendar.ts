import type { HotelDemandDay } from '../../shared/demand';
import type { EventRecord } from '../../shared/events';
import { compSetPosition, hotelOffers, type HotelRoomRate } from './position';

import { round2 } from './amounts';

/**
 * Rate Calendar: the figures of every date of a window for my hotel against its comp set, the
 * view rate-intelligence products open on (Booking.com's RateIntelligence calendar, SiteMinder's
 * rate calendar, Rateboard's daily deviations mail). Pure: the operation reads the remembered
 * rates, the events and the demand, and hands them over.
 */

/**
 * One remembered rate of the rates table: the latest record of one stay, for the length of stay
 * and guests the operation filtered on before calling.
 */
export interface RememberedRate {
	hotelCode: number;
	hotelName: string;
	websiteCode: number;
	roomType: string;
	/** The check-in day, `YYYY-MM-DD`. */
	checkIn: string;
	currency: string;
	/** 0 or null: sold out. */
	rate: number | null;
	/** When the record was collected, ISO 8601. */
	dtCollected: string;
}

/** The competitors: every other hotel the rates hold, or only these hotel codes. */
export type CompSet = 'all' | readonly number[];

/** One website's rates, or each hotel's lowest rate across every website shopped. */
export type WebsiteChoice = number | 'lowest';

/**
 * The price index bands. The index is my rate as a percentage of the comp median: 100 is the
 * market's middle, as in STR's Average Rate Index (ARI), where 100 is a hotel's "fair share".
 * Below `cheaperBelow` is cheaper, above `dearerAbove` dearer, both edges themselves on par.
 */
export interface IndexBands {
	cheaperBelow: number;
	dearerAbove: number;
}

/**
 * ±5 points around 100. Within 5 % of the median, a rate is at the market: room types, meal plans
 * and websites of one comp set differ by that much on an ordinary day, and parity.ts calls a loss
 * under 5 % low too. A gap of more than 5 % is a choice (or a mistake) worth a colour.
 */
export const DEFAULT_INDEX_BANDS: IndexBands = { cheaperBelow: 95, dearerAbove: 105 };

export type Band = 'cheaper' | 'onPar' | 'dearer';

/** When a date is an outlier worth a look; see outlierOf. */
export interface OutlierThresholds {
	/** An event of at least this impact score makes a date busy. */
	busyEventScore: number;
	/** Demand (Hotel Demand's relativeValue) of at least this makes a date busy. */
	highDemand: number;
	/** Demand of at most this makes a date quiet. */
	lowDemand: number;
	/** A busy date with my index at or below this is underpriced. */
	busyDayIndexAtMost: number;
	/** A quiet date with my index above this is overpriced. */
	quietDayIndexAbove: number;
	/**
	 * Whether a date without demand data (and without a busy event) counts as quiet. Off by
	 * default: the events the service knows are not every reason a date sells, so no event is not
	 * evidence of a quiet date; only a low demand figure is. On, for hotels without a demand shop.
	 */
	quietWithoutDemand: boolean;
	/** Any other date with my index this many points or more from 100 (my rate that share above or below the comp median) is far from the market; 0: none is. */
	farFromMedianPercent: number;
}

/**
 * - busyEventScore 70: the service's High Impact class (impactEventType), scores 70 to 100 in the
 *   sandbox's reading of it (docs/sandbox.md); Medium Impact (40–69) seldom moves a city's rates.
 * - highDemand 80, lowDemand 40: relativeValue reads 0–100 (the sandbox serves occupancy × 100);
 *   80 is where occupancy-based pricing rules (Cloudbeds PIE's occupancy rules) typically start
 *   raising rates, 40 where they lower them.
 * - busyDayIndexAtMost 100: at or under the comp median on a busy day is selling under the market
 *   when the market can take more.
 * - quietDayIndexAbove 110: more than 10 % above the median, the move Infor's rate shopping treats
 *   as a notable market change, on a day nothing fills the city.
 * - farFromMedianPercent 20: four times the on-par band's 5 points and twice the 10 % of a notable
 *   move. Room types, meal plans and websites of one comp set do not explain such a gap on any
 *   day, busy or quiet: a rate set on purpose, or a mistake, for the reader to look at.
 */
export const DEFAULT_OUTLIER_THRESHOLDS: OutlierThresholds = {
	busyEventScore: 70,
	highDemand: 80,
	lowDemand: 40,
	busyDayIndexAtMost: 100,
	quietDayIndexAbove: 110,
	quietWithoutDemand: false,
	farFromMedianPercent: 20,
};

/** The default window: today and the next 29 days, the month RateIntelligence and PIE open on. */
export const DEFAULT_WINDOW_DAYS = 30;

/**
 * The lowest impact score an event needs to be marked on the calendar: the service's Medium Impact
 * class and up (40, docs/sandbox.md); a Low Impact event moves nothing and would fill every cell.
 */
export const DEFAULT_EVENT_MIN_SCORE = 40;

export interface CalendarSettings {
	myHotelCode: number;
	compSet: CompSet;
	website: WebsiteChoice;
	/** The dates of the window, `YYYY-MM-DD`; the calendar has one day per date, in date order. */
	dates: readonly string[];
	/**
	 * The currency of the calendar. Default: the currency my hotel's rates are in most often in the
	 * window (the first alphabetically on a tie), else the competitors'. Rates in another currency
	 * are never mixed in: their hotels are named in `otherCurrency`.
	 */
	currency?: string;
	bands?: Partial<IndexBands>;
	outliers?: Partial<OutlierThresholds>;
}

/** What the calendar keeps of an event: the highest-impact event of a date. */
export interface DayEvent {
	name: string;
	score: number;
	attendees: number | null;
}

/** The figures of a date as the previous calendar sent them. */
export interface PreviousFigures {
	date: string;
	myRate: number | null;
	compMedian: number | null;
}

export interface CalendarInput {
	rates: readonly RememberedRate[];
	settings: CalendarSettings;
	/** The event of each date (pickDailyEvents). */
	events?: ReadonlyMap<string, DayEvent>;
	/** My hotel's demand of each date (myDemandByDate). */
	demand?: ReadonlyMap<string, number>;
	/** The previous calendar's figures, for the moves since then. */
	previous?: readonly PreviousFigures[];
}

/** One competitor on a date, in the calendar's currency: its cheapest room on sale, or sold out. */
export interface CompetitorRate {
	hotelCode: number;
	hotelName: string;
	/** null: sold out. */
	rate: number | null;
	websiteCode: number;
}

export type Arrow = '▲' | '▼';

export type OutlierKind = 'underpricedBusyDay' | 'overpricedQuietDay' | 'farFromMedian';

export interface Outlier {
	kind: OutlierKind;
	reason: string;
}

export type Weekday = 'Mon' | 'Tue' | 'Wed' | 'Thu' | 'Fri' | 'Sat' | 'Sun';

/**
 * One date of the calendar. Every amount is in `myCurrency`, the calendar's. My hotel not shopped
 * that date: myRate null and mySoldOut false. Nobody shopped: every figure null, every count 0.
 */
export interface CalendarDay {
	date: string;
	weekday: Weekday;
	/** My cheapest room on sale; null when sold out or not shopped. */
	myRate: number | null;
	/** The calendar's currency, of every amount of the day; null only when nothing was shopped in the window. */
	myCurrency: string | null;
	/** Shopped, and sold out on every room (and website, with the lowest of all websites). */
	mySoldOut: boolean;
	compLowest: number | null;
	/** The median of the competitors on sale (the mean of the two middle rates of an even count). */
	compMedian: number | null;
	compHighest: number | null;
	/** 1 is the cheapest; hotels at one rate share a rank. null when I have no rate. */
	myRank: number | null;
	/** The hotels ranked: the competitors on sale, and me when on sale. */
	rankedHotels: number;
	/** myRate / compMedian × 100, to 2 decimals; null when either is missing. */
	priceIndex: number | null;
	band: Band | null;
	competitorsSoldOut: number;
	/** Competitors with a rate (on sale or sold out) in the calendar's currency. */
	competitorsShopped: number;
	competitorsOnSale: number;
	/** Those competitors, cheapest first, the sold out last. */
	competitors: CompetitorRate[];
	/** Hotels left out because shopped only in another currency that date (me included). */
	otherCurrency: Array<{ hotelCode: number; hotelName: string; currency: string }>;
	/** Since the previous calendar; null when either rate is unknown (or sold out). */
	myRateChange: number | null;
	compMedianChange: number | null;
	/** ▲ up, ▼ down; null when unchanged or unknown. */
	myRateArrow: Arrow | null;
	compMedianArrow: Arrow | null;
	event: DayEvent | null;
	demand: number | null;
	outlier: Outlier | null;
	/** The newest collection time of the rates counted; null when none. */
	lastCollected: string | null;
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const WEEKDAYS: readonly Weekday[] = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const DAY_MS = 86_400_000;

function dayNumber(date: string): number {
	return Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / DAY_MS;
}

function isoOf(day: number): string {
	return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** A real calendar day written `YYYY-MM-DD` (not 2026-02-30). */
export function isCalendarDate(date: string): boolean {
	return ISO_DAY.test(date) && isoOf(dayNumber(date)) === date;
}

export function weekdayOf(date: string): Weekday {
	return WEEKDAYS[new Date(dayNumber(date) * DAY_MS).getUTCDay()];
}

/** `count` consecutive dates from `first`: the window "from today, N days". */
export function windowDates(first: string, count: number = DEFAULT_WINDOW_DAYS): string[] {
	const start = dayNumber(first);
	return Array.from({ length: Math.max(0, count) }, (_, offset) => isoOf(start + offset));
}

/** Every date from `from` to `to`, both included: a window of any range. */
export function rangeDates(from: string, to: string): string[] {
	return windowDates(from, dayNumber(to) - dayNumber(from) + 1);
}

/** The day part of the service's `YYYY-MM-DD HH:MM:SS` (or of an ISO timestamp). */
const dayPart = (value: string) => value.slice(0, 10);

/** The event fields the calendar reads, as POST /eventimpact/ returns them (spec part 2). */
export type ImpactEvent = Pick<EventRecord, 'eventName' | 'startDate' | 'endDate' | 'impactScore' | 'estimatedAttendees'>;

/**
 * Wins a date: the higher impact score, then the more attendees, then the name first in
 * alphabetical order, so the same events always give the same calendar.
 */
function outranks(candidate: ImpactEvent, current: ImpactEvent): boolean {
	if (candidate.impactScore !== current.impactScore) return candidate.impactScore > current.impactScore;
	const [theirs, ours] = [candidate.estimatedAttendees ?? 0, current.estimatedAttendees ?? 0];
	if (theirs !== ours) return theirs > ours;
	return candidate.eventName < current.eventName;
}

/**
 * The highest-impact event of each date of the window. An event covers every date from its start
 * day to its end day, both included (an end before the start, or unreadable, covers the start day
 * only). Events under `minScore` are left out; a score equal to it counts. Dates without an event
 * are not in the map.
 */
export function pickDailyEvents(events: readonly ImpactEvent[], dates: readonly string[], minScore: number = DEFAULT_EVENT_MIN_SCORE): Map<string, DayEvent> {
	const window = new Set(dates);
	const best = new Map<string, ImpactEvent>();
	for (const event of events) {
		if (!(event.impactScore >= minScore)) continue;
		const start = dayPart(event.startDate ?? '');
		if (!isCalendarDate(start)) continue;
		const end = dayPart(event.endDate ?? '');
		const last = isCalendarDate(end) && end >= start ? end : start;
		for (let day = dayNumber(start); day <= dayNumber(last); day++) {
			const date = isoOf(day);
			if (!window.has(date)) continue;
			const current = best.get(date);
			if (!current || outranks(event, current)) best.set(date, event);
		}
	}
	const picked = new Map<string, DayEvent>();
	for (const date of [...best.keys()].sort()) {
		const event = best.get(date) as ImpactEvent;
		picked.set(date, { name: event.eventName, score: event.impactScore, attendees: event.estimatedAttendees ?? null });
	}
	return picked;
}

/**
 * My hotel's demand per date from Hotel Demand's Per Hotel and Date rows: the relativeValue.
 * Of the three value tables of spec 4.7, Relative_Values is the one on one scale for every hotel
 * and date (0–100; the sandbox serves occupancy × 100), so one threshold fits any hotel;
 * Absolute_Value grows with the hotel's size, and Events_registered counts events, which the
 * calendar already takes from Event Impact with their scores. Dates without a relativeValue are
 * left out.
 */
export function myDemandByDate(rows: readonly HotelDemandDay[], myHotelCode: number): Map<string, number> {
	const demand = new Map<string, number>();
	for (const row of rows) {
		if (row.hotelCode === myHotelCode && row.relativeValue !== null && row.relativeValue !== undefined) demand.set(row.date, row.relativeValue);
	}
	return demand;
}

const onSale = (rate: number | null): rate is number => rate !== null && rate > 0;

/** The currency named most often (the first alphabetically on a tie); null for none. */
function mostFrequent(currencies: readonly string[]): string | null {
	const counts = new Map<string, number>();
	for (const currency of currencies) counts.set(currency, (counts.get(currency) ?? 0) + 1);
	let best: string | null = null;
	for (const [currency, count] of [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
		if (best === null || count > (counts.get(best) as number)) best = currency;
	}
	return best;
}

export function bandOf(priceIndex: number | null, bands: IndexBands = DEFAULT_INDEX_BANDS): Band | null {
	if (priceIndex === null) return null;
	if (priceIndex < bands.cheaperBelow) return 'cheaper';
	if (priceIndex > bands.dearerAbove) return 'dearer';
	return 'onPar';
}

/** myRate as a percentage of the comp median, to 2 decimals. */
export function priceIndexOf(myRate: number | null, compMedian: number | null): number | null {
	if (myRate === null || compMedian === null || compMedian <= 0) return null;
	return round2((myRate / compMedian) * 100);
}

type DayFigures = Pick<CalendarDay, 'myRate' | 'myCurrency' | 'compMedian' | 'priceIndex' | 'event' | 'demand'>;

/**
 * An outlier, from the day's index (none without one: sold out, not shopped, no competitor on sale):
 * - underpricedBusyDay: an event of at least busyEventScore, or demand of at least highDemand,
 *   and my index at or below busyDayIndexAtMost;
 * - overpricedQuietDay: no event of at least busyEventScore, demand at or below lowDemand (or no
 *   demand data, with quietWithoutDemand), and my index above quietDayIndexAbove;
 * - farFromMedian: neither, and my index farFromMedianPercent points or more from 100, whatever
 *   the day.
 */
export function outlierOf(day: DayFigures, thresholds: OutlierThresholds = DEFAULT_OUTLIER_THRESHOLDS): Outlier | null {
	if (day.priceIndex === null || day.myRate === null || day.compMedian === null) return null;
	const busyEvent = day.event !== null && day.event.score >= thresholds.busyEventScore ? day.event : null;
	const highDemand = day.demand !== null && day.demand >= thresholds.highDemand;
	const price = `my rate ${day.myRate.toFixed(2)} ${day.myCurrency ?? ''}`.trimEnd();
	const index = `index ${day.priceIndex.toFixed(2)} of the comp median ${day.compMedian.toFixed(2)}`;
	// The kind says busy or quiet (the message's label: "priced under the market on a busy day");
	// the reason says what made it so and where the rate stands, without saying it again.
	if ((busyEvent || highDemand) && day.priceIndex <= thresholds.busyDayIndexAtMost) {
		const why = [
			...(busyEvent ? [`event '${busyEvent.name}' impact ${busyEvent.score}`] : []),
			...(highDemand ? [`demand ${day.demand}`] : []),
		];
		return { kind: 'underpricedBusyDay', reason: `${why.join(', ')}; ${price} is at ${index}` };
	}
	const quiet = day.demand === null ? thresholds.quietWithoutDemand : day.demand <= thresholds.lowDemand;
	if (!busyEvent && quiet && day.priceIndex > thresholds.quietDayIndexAbove) {
		const demand = day.demand === null ? 'no demand data' : `demand ${day.demand}`;
		return { kind: 'overpricedQuietDay', reason: `no event of impact ${thresholds.busyEventScore} or more, ${demand}; ${price} is at ${index}` };
	}
	const distance = round2(Math.abs(day.priceIndex - 100));
	if (thresholds.farFromMedianPercent > 0 && distance >= thresholds.farFromMedianPercent) {
		const side = day.priceIndex < 100 ? 'below' : 'above';
		return { kind: 'farFromMedian', reason: `${price} is at ${index}, ${distance.toFixed(2)} % ${side} it (${thresholds.farFromMedianPercent} % or more is far)` };
	}
	return null;
}

function changeOf(now: number | null, before: number | null | undefined): number | null {
	return now === null || before === null || before === undefined ? null : round2(now - before);
}

function arrowOf(change: number | null): Arrow | null {
	if (change === null || change === 0) return null;
	return change > 0 ? '▲' : '▼';
}

interface HotelRows {
	hotelName: string;
	rows: RememberedRate[];
}

/** The rates the settings take: my hotel and the comp set, on the chosen website, in the window. */
function ratesInView(rates: readonly RememberedRate[], settings: CalendarSettings, window: ReadonlySet<string>): RememberedRate[] {
	const compSet = settings.compSet === 'all' ? null : new Set(settings.compSet);
	return rates.filter(
		(rate) =>
			window.has(dayPart(rate.checkIn)) &&
			(settings.website === 'lowest' || rate.websiteCode === settings.website) &&
			(rate.hotelCode === settings.myHotelCode || compSet === null || compSet.has(rate.hotelCode)),
	);
}

function calendarCurrency(rates: readonly RememberedRate[], myHotelCode: number): string | null {
	const mine = rates.filter((rate) => rate.hotelCode === myHotelCode).map((rate) => rate.currency);
	return mostFrequent(mine) ?? mostFrequent(rates.map((rate) => rate.currency));
}

const toRoomRate = (rate: RememberedRate): HotelRoomRate => ({
	hotelCode: rate.hotelCode,
	hotelName: rate.hotelName,
	websiteCode: rate.websiteCode,
	roomType: rate.roomType,
	currency: rate.currency,
	rate: onSale(rate.rate) ? rate.rate : null,
});

function calendarDay(
	date: string,
	rows: readonly RememberedRate[],
	context: { settings: CalendarSettings; currency: string | null; bands: IndexBands; thresholds: OutlierThresholds; input: CalendarInput; previous: ReadonlyMap<string, PreviousFigures> },
): CalendarDay {
	const { settings, currency } = context;
	const byHotel = new Map<number, HotelRows>();
	for (const row of rows) {
		const hotel = byHotel.get(row.hotelCode) ?? { hotelName: row.hotelName, rows: [] };
		hotel.rows.push(row);
		byHotel.set(row.hotelCode, hotel);
	}
	const otherCurrency: CalendarDay['otherCurrency'] = [];
	const counted: RememberedRate[] = [];
	for (const [hotelCode, hotel] of [...byHotel].sort(([a], [b]) => a - b)) {
		const inCurrency = hotel.rows.filter((row) => row.currency === currency);
		if (inCurrency.length > 0) counted.push(...inCurrency);
		else otherCurrency.push({ hotelCode, hotelName: hotel.hotelName, currency: mostFrequent(hotel.rows.map((row) => row.currency)) as string });
	}
	const position = compSetPosition(settings.myHotelCode, counted.map(toRoomRate));
	const competitors = hotelOffers(counted.filter((row) => row.hotelCode !== settings.myHotelCode).map(toRoomRate))
		.map(({ hotelCode, hotelName, rate, websiteCode }) => ({ hotelCode, hotelName, rate, websiteCode }))
		.sort((a, b) => (a.rate ?? Infinity) - (b.rate ?? Infinity) || a.hotelCode - b.hotelCode);
	const priceIndex = priceIndexOf(position.myRate, position.median);
	const event = context.input.events?.get(date) ?? null;
	const demand = context.input.demand?.get(date) ?? null;
	const before = context.previous.get(date);
	const myRateChange = changeOf(position.myRate, before?.myRate);
	const compMedianChange = changeOf(position.median, before?.compMedian);
	const figures: DayFigures = { myRate: position.myRate, myCurrency: currency, compMedian: position.median, priceIndex, event, demand };
	const collected = counted.map((row) => row.dtCollected).sort();
	return {
		date,
		weekday: weekdayOf(date),
		myRate: position.myRate,
		myCurrency: currency,
		mySoldOut: position.position === 'soldOut',
		compLowest: position.lowest,
		compMedian: position.median,
		compHighest: position.highest,
		myRank: position.rank,
		rankedHotels: position.rankedHotels,
		priceIndex,
		band: bandOf(priceIndex, context.bands),
		competitorsSoldOut: position.soldOutCompetitors,
		competitorsShopped: competitors.length,
		competitorsOnSale: position.competitors.length,
		competitors,
		otherCurrency,
		myRateChange,
		compMedianChange,
		myRateArrow: arrowOf(myRateChange),
		compMedianArrow: arrowOf(compMedianChange),
		event,
		demand,
		outlier: outlierOf(figures, context.thresholds),
		lastCollected: collected[collected.length - 1] ?? null,
	};
}

/**
 * The calendar: one day per date of the window, in date order (a date given twice counts once).
 * Each hotel is taken at its cheapest room on sale (on the chosen website, or across all of them
 * with 'lowest'), as Compare With My Hotel compares; my rank and the comp figures are
 * compSetPosition's.
 */
export function buildCalendar(input: CalendarInput): CalendarDay[] {
	const { settings } = input;
	const misfit = settings.dates.find((date) => !isCalendarDate(date));
	if (misfit !== undefined) throw new Error(`The calendar date "${misfit}" is not a date written YYYY-MM-DD`);
	const dates = [...new Set(settings.dates)].sort();
	const rates = ratesInView(input.rates, settings, new Set(dates));
	const context = {
		settings,
		currency: settings.currency ?? calendarCurrency(rates, settings.myHotelCode),
		bands: { ...DEFAULT_INDEX_BANDS, ...settings.bands },
		thresholds: { ...DEFAULT_OUTLIER_THRESHOLDS, ...settings.outliers },
		input,
		previous: new Map((input.previous ?? []).map((figures) => [figures.date, figures])),
	};
	const byDate = new Map<string, RememberedRate[]>(dates.map((date) => [date, []]));
	for (const rate of rates) byDate.get(dayPart(rate.checkIn))?.push(rate);
	return dates.map((date) => calendarDay(date, byDate.get(date) as RememberedRate[], context));
}

/** What the next calendar compares with: the figures of this one, per date. */
export function calendarFigures(days: readonly CalendarDay[]): PreviousFigures[] {
	return days.map(({ date, myRate, compMedian }) => ({ date, myRate, compMedian }));
}
