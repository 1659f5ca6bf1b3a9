import { badRequest } from './api/errors';
import { calendarDate, integer, rejectUnknownFields } from './api/fields';
import type { SeedHotel } from './data/hotels';
import { impactTypeFor, type SeedEvent } from './data/events';
import { createPrng, deriveSeed } from './prng';

/**
 * A comp-set shop (sandbox extra): the rates of a run laid out as a real comp set spreads, so
 * that where each hotel stands, and what each website sells a hotel's room for, are known by
 * construction. Every website shows a hotel the same room for a night; the comp set sits around
 * one price level per night (weekends dearer, the odd event night), each hotel at a premium or a
 * discount of its own that holds from night to night, moved a little each night, with the odd
 * promotion night, sold-out night and website selling below the others. `prices` then moves
 * chosen hotels, websites and nights by a known factor.
 */
export interface MarketShop {
	/** The same seed lays out the same rates, markups and taxes (default 1). */
	seed: number;
	/** The hotel whose comp set this is: the others spread around its rate (see hotelPremiums). */
	myHotelCode?: number;
	/** Applied in order; a record matched by several is multiplied by each factor. */
	prices: PriceFactor[];
	/** A hotel's record currency, by hotel code; the amounts stay as they are. */
	currencies: Record<number, string>;
	/** Event nights: the comp set dearer those nights, and the event in the event search (see MarketEvent). */
	events: MarketEvent[];
}

/**
 * An event near the market's hotels (sandbox extra): its nights are event nights (the comp set's
 * level rises as on a drawn event night), and a fresh run adds it to the events POST /eventimpact/
 * searches, beside my hotel, so a calendar that joins rates with events finds it whatever the day.
 */
export interface MarketEvent {
	/** Its first night: a check-in day 'YYYY-MM-DD', or days ahead of the run (1 = tomorrow). */
	checkIn: string | number;
	/** How many nights it lasts (default 1). */
	nights: number;
	/** 0 to 100, as the service scores events. */
	impactScore: number;
	/** Default: "<city> Music Festival <year>". */
	eventName?: string;
	/** Default 25,000. */
	estimatedAttendees?: number;
}

export interface PriceFactor {
	hotelCode: number;
	/** Left out: every website of the run. */
	websiteCode?: number;
	/** A check-in day, 'YYYY-MM-DD' or days ahead of the run (1 = tomorrow); left out: every day. */
	checkIn?: string | number;
	/** Multiplies onsiteRate (netRate and taxAmount follow); 0 sells the matching records out. */
	factor: number;
}

/** `market` as a caller writes it (runShop, POST /__sandbox/run-shop): every field optional. */
export interface MarketInput {
	seed?: number;
	myHotelCode?: number;
	prices?: PriceFactor[];
	/** Keyed by hotel code (a JSON object's keys are text: "100001"). */
	currencies?: Record<number, string>;
	events?: Array<Partial<MarketEvent> & Pick<MarketEvent, 'checkIn' | 'impactScore'>>;
}

/** What a market record's rate depends on. */
export interface MarketNight {
	hotelCode: number;
	websiteCode: number;
	/** Days ahead of the run, from 1. */
	dayOffset: number;
	/** The check-in day, YYYY-MM-DD. */
	checkIn: string;
}

/** The hotels, websites and check-in days a run covers: what a market may name. */
export interface MarketScope {
	hotelCodes: number[];
	websiteCodes: number[];
	horizon: number;
	/** The first and last check-in day, YYYY-MM-DD. */
	firstDay: string;
	lastDay: string;
}

/**
 * What a comp-set shop lays out, by construction (docs/sandbox.md, "A comp-set shop"). Shares of
 * a rate; "chance" is per hotel and night (per hotel, website and night for the website discount).
 */
export const MARKET_SHAPE = {
	/** Each website's markup over a hotel's rate, the same every night: under a parity tolerance of 1 %. */
	maxMarkup: 0.008,
	/** The comp set's premiums without a hotel of mine: evenly from -15 % to +20 %, in a seeded order. */
	spread: [-0.15, 0.2],
	/** Around my hotel: one competitor just below it, the others above it, from +3 % to +22 %. */
	justBelow: [-0.045, -0.025],
	above: [0.03, 0.22],
	/** Each premium moved by up to this either way. */
	premiumJitter: 0.015,
	/** Friday and Saturday nights, dearer for every hotel. */
	weekend: 0.04,
	/**
	 * The night's level drifts: each night up to 2 % from the one before, pulled back toward the
	 * usual (0.6 of the way it had gone stays); an event night is 8 to 16 % dearer.
	 */
	dailyMove: 0.02,
	pull: 0.6,
	eventNight: { chance: 0.05, uplift: [0.08, 0.16] },
	/** A hotel's own move on a night, either way. */
	hotelNightMove: 0.012,
	/** A promotion: the hotel sells 6 to 14 % below its usual rate on every website that night. */
	promotion: { chance: 0.1, cut: [0.06, 0.14] },
	/** The hotel has no room left on any website that night. */
	soldOut: { chance: 0.03 },
	/** One website sells the hotel 3 to 8 % below its other websites that night. */
	websiteDiscount: { chance: 0.1, cut: [0.03, 0.08] },
	/** Each guest past two adds this. */
	perExtraGuest: 0.12,
} as const;

const MARKET_FIELDS = ['seed', 'myHotelCode', 'prices', 'currencies', 'events'];
const PRICE_FIELDS = ['hotelCode', 'websiteCode', 'checkIn', 'factor'];
const EVENT_FIELDS = ['checkIn', 'nights', 'impactScore', 'eventName', 'estimatedAttendees'];
/** The longest market event: a festival or a fair, not a season. */
const MAX_EVENT_NIGHTS = 14;

function asFields(value: unknown, field: string): Record<string, unknown> {
	if (value === null || typeof value !== 'object' || Array.isArray(value)) throw badRequest(`${field} must be an object`);
	return value as Record<string, unknown>;
}

function priceFactor(input: unknown, field: string): PriceFactor {
	const fields = asFields(input, field);
	rejectUnknownFields(fields, PRICE_FIELDS, `${field}.`);
	const factor = fields.factor;
	if (typeof factor !== 'number' || !Number.isFinite(factor) || factor < 0) throw badRequest(`${field}.factor must be a number >= 0 (0 sells the records out)`);
	const price: PriceFactor = { hotelCode: integer(fields.hotelCode, `${field}.hotelCode`, { min: 1 }), factor };
	if (fields.websiteCode !== undefined) price.websiteCode = integer(fields.websiteCode, `${field}.websiteCode`, { min: 1 });
	if (fields.checkIn !== undefined) price.checkIn = checkInOf(fields.checkIn, `${field}.checkIn`);
	return price;
}

function checkInOf(value: unknown, field: string): string | number {
	return typeof value === 'number' ? integer(value, field, { min: 1 }) : calendarDate(value, field);
}

function marketEvent(input: unknown, field: string): MarketEvent {
	const fields = asFields(input, field);
	rejectUnknownFields(fields, EVENT_FIELDS, `${field}.`);
	const event: MarketEvent = {
		checkIn: checkInOf(fields.checkIn, `${field}.checkIn`),
		nights: fields.nights === undefined ? 1 : integer(fields.nights, `${field}.nights`, { min: 1, max: MAX_EVENT_NIGHTS }),
		impactScore: integer(fields.impactScore, `${field}.impactScore`, { min: 0, max: 100 }),
	};
	if (fields.eventName !== undefined) {
		if (typeof fields.eventName !== 'string' || fields.eventName.trim() === '') throw badRequest(`${field}.eventName must be a non-empty string`);
		event.eventName = fields.eventName.trim();
	}
	if (fields.estimatedAttendees !== undefined) event.estimatedAttendees = integer(fields.estimatedAttendees, `${field}.estimatedAttendees`, { min: 1 });
	return event;
}

function currencies(input: unknown): Record<number, string> {
	if (input === undefined) return {};
	const fields = asFields(input, 'market.currencies');
	const byHotel: Record<number, string> = {};
	for (const [key, currency] of Object.entries(fields)) {
		if (!/^[1-9]\d*$/.test(key)) throw badRequest(`market.currencies key '${key}' must be a hotel code`);
		if (typeof currency !== 'string' || !/^[A-Za-z]{3}$/.test(currency)) throw badRequest(`market.currencies.${key} must be a 3-letter currency code`);
		byHotel[Number(key)] = currency.toUpperCase();
	}
	return byHotel;
}

/** Checks the `market` of a run-shop; what it names is checked against the run by checkMarketScope. */
export function parseMarket(input: unknown): MarketShop | undefined {
	if (input === undefined) return undefined;
	const fields = asFields(input, 'market');
	rejectUnknownFields(fields, MARKET_FIELDS, 'market.');
	if (fields.prices !== undefined && !Array.isArray(fields.prices)) throw badRequest('market.prices must be an array');
	if (fields.events !== undefined && !Array.isArray(fields.events)) throw badRequest('market.events must be an array');
	return {
		seed: fields.seed === undefined ? 1 : integer(fields.seed, 'market.seed'),
		...(fields.myHotelCode === undefined ? {} : { myHotelCode: integer(fields.myHotelCode, 'market.myHotelCode', { min: 1 }) }),
		prices: ((fields.prices as unknown[] | undefined) ?? []).map((price, i) => priceFactor(price, `market.prices[${i}]`)),
		currencies: currencies(fields.currencies),
		events: ((fields.events as unknown[] | undefined) ?? []).map((event, i) => marketEvent(event, `market.events[${i}]`)),
	};
}

/** A hotel, website or night the run does not cover would make an entry that quietly moves nothing. */
export function checkMarketScope(market: MarketShop, scope: MarketScope): void {
	const hotels = `the run's hotels are ${scope.hotelCodes.join(', ')}`;
	if (market.myHotelCode !== undefined && !scope.hotelCodes.includes(market.myHotelCode)) {
		throw badRequest(`market.myHotelCode ${market.myHotelCode} is not a hotel of this run; ${hotels}`);
	}
	market.prices.forEach((price, i) => {
		const field = `market.prices[${i}]`;
		if (!scope.hotelCodes.includes(price.hotelCode)) throw badRequest(`${field}.hotelCode ${price.hotelCode} is not a hotel of this run; ${hotels}`);
		if (price.websiteCode !== undefined && !scope.websiteCodes.includes(price.websiteCode)) {
			throw badRequest(`${field}.websiteCode ${price.websiteCode} is not a website of this run; its websites are ${scope.websiteCodes.join(', ')}`);
		}
		if (typeof price.checkIn === 'number' && price.checkIn > scope.horizon) throw badRequest(`${field}.checkIn ${price.checkIn} is past the run's horizon of ${scope.horizon} days`);
		if (typeof price.checkIn === 'string' && (price.checkIn < scope.firstDay || price.checkIn > scope.lastDay)) {
			throw badRequest(`${field}.checkIn ${price.checkIn} is not a check-in day of this run (${scope.firstDay} to ${scope.lastDay})`);
		}
	});
	market.events.forEach(({ checkIn }, i) => {
		const field = `market.events[${i}].checkIn`;
		if (typeof checkIn === 'number' && checkIn > scope.horizon) throw badRequest(`${field} ${checkIn} is past the run's horizon of ${scope.horizon} days`);
		if (typeof checkIn === 'string' && (checkIn < scope.firstDay || checkIn > scope.lastDay)) {
			throw badRequest(`${field} ${checkIn} is not a check-in day of this run (${scope.firstDay} to ${scope.lastDay})`);
		}
	});
	for (const code of Object.keys(market.currencies).map(Number)) {
		if (!scope.hotelCodes.includes(code)) throw badRequest(`market.currencies names hotel ${code}, not a hotel of this run; ${hotels}`);
	}
}

const between = (draw: number, [low, high]: readonly [number, number]) => low + draw * (high - low);

/**
 * Each hotel's premium over the comp set's level, the same every night. Around my hotel (at 0):
 * one competitor just below it, the others above it, evenly spread in a seeded order. Without
 * one: every hotel evenly from -15 % to +20 %, in a seeded order. Each moved by a little jitter.
 */
export function hotelPremiums(market: MarketShop, hotelCodes: readonly number[]): Map<number, number> {
	const random = createPrng(deriveSeed(market.seed, 'market-premiums', ...hotelCodes));
	const jitter = () => between(random.next(), [-MARKET_SHAPE.premiumJitter, MARKET_SHAPE.premiumJitter]);
	const spread = (codes: readonly number[], range: readonly [number, number]) =>
		codes.map((code, i) => [code, between(codes.length === 1 ? 0.5 : i / (codes.length - 1), range) + jitter()] as const);
	const mine = market.myHotelCode;
	if (mine === undefined) return new Map(spread(random.sample(hotelCodes, hotelCodes.length), MARKET_SHAPE.spread));
	const [below, ...above] = random.sample(hotelCodes.filter((code) => code !== mine), hotelCodes.length - 1);
	return new Map([
		[mine, 0],
		...(below === undefined ? [] : [[below, between(random.next(), MARKET_SHAPE.justBelow)] as const]),
		...spread(above, MARKET_SHAPE.above),
	]);
}

/*
 * The draws of a night are keyed by its days ahead of the run, not its date: the same seed lays
 * out the same comp set whatever day it runs (but for the weekends, dearer for every hotel alike).
 */

const DAY_MS = 86_400_000;

/** The day `days` after a 'YYYY-MM-DD' day. */
function dayAfter(day: string, days: number): string {
	return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Whether a market event covers the night (days ahead of the run, and its check-in day). */
export function isEventNight(market: MarketShop, dayOffset: number, checkIn: string): boolean {
	return market.events.some((event) => {
		if (typeof event.checkIn === 'number') return dayOffset >= event.checkIn && dayOffset < event.checkIn + event.nights;
		return checkIn >= event.checkIn && checkIn <= dayAfter(event.checkIn, event.nights - 1);
	});
}

/**
 * The comp set's level for a night, as a factor of its usual rate: where its drift has taken it,
 * or an event night (drawn, or a night of one of the market's events).
 */
export function nightLevel(market: MarketShop, dayOffset: number, checkIn = ''): number {
	let drift = 0;
	for (let day = 1; day <= dayOffset; day++) {
		const random = createPrng(deriveSeed(market.seed, 'market-night', day));
		drift = MARKET_SHAPE.pull * drift + between(random.next(), [-MARKET_SHAPE.dailyMove, MARKET_SHAPE.dailyMove]);
		if (day !== dayOffset) continue;
		const eventNight = random.chance(MARKET_SHAPE.eventNight.chance) || isEventNight(market, dayOffset, checkIn);
		return 1 + drift + (eventNight ? between(random.next(), MARKET_SHAPE.eventNight.uplift) : 0);
	}
	return 1 + drift;
}

/** What a hotel does on a night, the same on every website: its own small move, a promotion, or no room left. */
export function hotelNight(market: MarketShop, hotelCode: number, dayOffset: number, guests: number): { factor: number; soldOut: boolean } {
	const random = createPrng(deriveSeed(market.seed, 'market-hotel-night', hotelCode, dayOffset, guests));
	const move = between(random.next(), [-MARKET_SHAPE.hotelNightMove, MARKET_SHAPE.hotelNightMove]);
	const promotion = random.chance(MARKET_SHAPE.promotion.chance) ? between(random.next(), MARKET_SHAPE.promotion.cut) : 0;
	const soldOut = random.chance(MARKET_SHAPE.soldOut.chance);
	return { factor: (1 + move) * (1 - promotion), soldOut };
}

/** A website's markup over a hotel's rate, in [0, maxMarkup], the same for every night. */
export function markup(market: MarketShop, hotelCode: number, websiteCode: number): number {
	return createPrng(deriveSeed(market.seed, 'market-markup', hotelCode, websiteCode)).float(0, MARKET_SHAPE.maxMarkup, 4);
}

/** A website selling a hotel below its other websites on a night (a parity break), as a factor: 1 on most nights. */
export function websiteDiscount(market: MarketShop, hotelCode: number, websiteCode: number, dayOffset: number): number {
	const random = createPrng(deriveSeed(market.seed, 'market-website-night', hotelCode, websiteCode, dayOffset));
	return random.chance(MARKET_SHAPE.websiteDiscount.chance) ? 1 - between(random.next(), MARKET_SHAPE.websiteDiscount.cut) : 1;
}

/** A hotel's tax, the same on every website and night, so totals compare like with like. */
export function hotelTax(market: MarketShop, hotelCode: number): { taxIncluded: boolean; taxShare: number } {
	const random = createPrng(deriveSeed(market.seed, 'market-tax', hotelCode));
	return { taxIncluded: random.chance(0.5), taxShare: random.float(0.08, 0.16, 3) };
}

/** The product of the factors of every `prices` entry that matches the night: 1 when none does. */
export function priceFactorFor(market: MarketShop, night: MarketNight): number {
	return market.prices
		.filter((price) => price.hotelCode === night.hotelCode)
		.filter((price) => price.websiteCode === undefined || price.websiteCode === night.websiteCode)
		.filter((price) => price.checkIn === undefined || price.checkIn === night.dayOffset || price.checkIn === night.checkIn)
		.reduce((product, price) => product * price.factor, 1);
}

/** Where a market event is placed: a venue half a mile or so from the hotel, so a search around the hotel finds it. */
const VENUE_OFFSET_DEGREES = 0.005;
const DEFAULT_EVENT_ATTENDEES = 25_000;

/**
 * The market's events as POST /eventimpact/ serves them (a Music Festival near `hotel`, status
 * Scheduled, 19:00 on its first night to 23:00 on its last), with ids from `firstId` on; what a
 * fresh run adds to the sandbox's events.
 */
export function marketEvents(market: MarketShop, scope: MarketScope, hotel: SeedHotel, firstId: number): SeedEvent[] {
	const { hotel: place, cityInfo: city } = hotel;
	return market.events.map((spec, i) => {
		const id = firstId + i;
		const startDay = typeof spec.checkIn === 'number' ? dayAfter(scope.firstDay, spec.checkIn - 1) : spec.checkIn;
		const endDay = dayAfter(startDay, spec.nights - 1);
		const lat = place.lat + VENUE_OFFSET_DEGREES;
		const lng = place.long + VENUE_OFFSET_DEGREES;
		const name = spec.eventName ?? `${city.name} Music Festival ${startDay.slice(0, 4)}`;
		const venue = `${city.name} Convention Center`;
		return {
			event: {
				id,
				eventId: 3_100_000 + id * 7,
				venueId: 90_000 + id,
				eventName: name,
				category: 'Festivals',
				subCategory: 'Music Festival',
				description: `${name} at ${venue}, ${city.name}. Music Festival (Festivals).`,
				startDate: `${startDay} 19:00:00`,
				endDate: `${endDay} 23:00:00`,
				estimatedAttendees: spec.estimatedAttendees ?? DEFAULT_EVENT_ATTENDEES,
				impactEventType: impactTypeFor(spec.impactScore),
				venue,
				address: place.address,
				city: city.name,
				state: city.state,
				zip: place.zip,
				country: city.country,
				countryCode: city.countryCode,
				region: city.region,
				latitude: lat.toFixed(6),
				longitude: lng.toFixed(6),
				impactScore: spec.impactScore,
				eventStatus: 'Scheduled',
			},
			categoryCode: 5,
			subCategoryCode: 501,
			statusCode: 1,
			startDay,
			endDay,
			lat,
			lng,
		};
	});
}
