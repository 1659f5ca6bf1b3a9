import { badRequest } from './api/errors';
import { calendarDate, integer, rejectUnknownFields } from './api/fields';
import { createPrng, deriveSeed } from './prng';

/**
 * A comp-set shop (sandbox extra): the rates of a run laid out so that where each hotel stands,
 * and what each website sells a hotel's room for, are known by construction. Every website
 * shows a hotel the same room for a night, at the hotel's base rate for that night plus a small
 * markup of its own; `prices` then moves chosen hotels, websites and nights by a known factor.
 */
export interface MarketShop {
	/** The same seed lays out the same base rates, markups and taxes (default 1). */
	seed: number;
	/** Applied in order; a record matched by several is multiplied by each factor. */
	prices: PriceFactor[];
	/** A hotel's record currency, by hotel code; the amounts stay as they are. */
	currencies: Record<number, string>;
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
	prices?: PriceFactor[];
	/** Keyed by hotel code (a JSON object's keys are text: "100001"). */
	currencies?: Record<number, string>;
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

/** A website's markup over a hotel's base rate stays under this, so the cheapest website varies but barely. */
export const MAX_MARKUP = 0.03;

const MARKET_FIELDS = ['seed', 'prices', 'currencies'];
const PRICE_FIELDS = ['hotelCode', 'websiteCode', 'checkIn', 'factor'];

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
	if (typeof fields.checkIn === 'number') price.checkIn = integer(fields.checkIn, `${field}.checkIn`, { min: 1 });
	else if (fields.checkIn !== undefined) price.checkIn = calendarDate(fields.checkIn, `${field}.checkIn`);
	return price;
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
	return {
		seed: fields.seed === undefined ? 1 : integer(fields.seed, 'market.seed'),
		prices: ((fields.prices as unknown[] | undefined) ?? []).map((price, i) => priceFactor(price, `market.prices[${i}]`)),
		currencies: currencies(fields.currencies),
	};
}

/** A hotel, website or night the run does not cover would make an entry that quietly moves nothing. */
export function checkMarketScope(market: MarketShop, scope: MarketScope): void {
	const hotels = `the run's hotels are ${scope.hotelCodes.join(', ')}`;
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
	for (const code of Object.keys(market.currencies).map(Number)) {
		if (!scope.hotelCodes.includes(code)) throw badRequest(`market.currencies names hotel ${code}, not a hotel of this run; ${hotels}`);
	}
}

/** Where in its star band a hotel's room sits for a night (0..1): one draw shared by every website. */
export function baseDraw(market: MarketShop, hotelCode: number, checkIn: string, guests: number): number {
	return createPrng(deriveSeed(market.seed, 'market-base', hotelCode, checkIn, guests)).next();
}

/** A website's markup over a hotel's base rate, in [0, MAX_MARKUP], the same for every night. */
export function markup(market: MarketShop, hotelCode: number, websiteCode: number): number {
	return createPrng(deriveSeed(market.seed, 'market-markup', hotelCode, websiteCode)).float(0, MAX_MARKUP, 4);
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
