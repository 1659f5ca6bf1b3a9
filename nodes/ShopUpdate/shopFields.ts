import type { IDataObject } from 'n8n-workflow';

import { FieldError } from '../shared/errors';
import {
	listEntries,
	parseCurrencyCode,
	parsePositiveInteger,
	parseRequiredText,
	WEEKDAY_OPTIONS,
	WEEKDAY_RULE_TEXT,
	weekdayNumber,
	wholeNumber,
} from '../shared/fields';

/** One market of a shop: a pickup and a drop location. */
export interface Market {
	pickupLocation: string;
	dropLocation: string;
}

/** A shop's configuration as the shop update sends it (SERVICE-SPEC.md part 2). */
export interface ShopUpdate {
	shopName: string;
	markets: Market[];
	websiteCode: number[];
	cob: string;
	lor: number;
	currency: string;
	horizon: number;
	horizonDow?: number[];
	pickupTime: string;
	dropTime: string;
}

export interface MessageResponse {
	message: string;
}

/** The field labels as the node shows them, so an error names what the user sees. */
export const SHOP_FIELD = {
	shopId: 'Shop ID',
	shopName: 'Shop Name',
	markets: 'Markets',
	pickupLocation: 'Pickup Location',
	dropLocation: 'Drop Location',
	websiteCodes: 'Website Codes',
	countryOfService: 'Country of Service',
	lengthOfRent: 'Length of Rent',
	currency: 'Currency',
	horizon: 'Horizon',
	horizonDaysOfWeek: 'Horizon Days of Week',
	pickupTime: 'Pickup Time',
	dropTime: 'Drop Time',
} as const;

/** The node's parameters for one item, as n8n hands them over (expressions already resolved). */
export interface ShopUpdateInput {
	shopId: unknown;
	shopName: unknown;
	markets: unknown;
	websiteCodes: unknown;
	countryOfService: unknown;
	lengthOfRent: unknown;
	currency: unknown;
	horizon: unknown;
	horizonDaysOfWeek: unknown;
	pickupTime: unknown;
	dropTime: unknown;
}

export interface ShopUpdateRequest {
	shopId: number;
	body: ShopUpdate;
}

/** Checks every field before anything is sent and builds the PUT /shops/{shopId} body (spec 4.8). */
export function parseShopUpdate(input: ShopUpdateInput): ShopUpdateRequest {
	const shopId = parsePositiveInteger(SHOP_FIELD.shopId, input.shopId);
	const body: ShopUpdate = {
		shopName: parseRequiredText(SHOP_FIELD.shopName, input.shopName),
		markets: parseMarkets(input.markets),
		websiteCode: parseWebsiteCodes(input.websiteCodes),
		cob: parseRequiredText(SHOP_FIELD.countryOfService, input.countryOfService),
		lor: parsePositiveInteger(SHOP_FIELD.lengthOfRent, input.lengthOfRent),
		currency: parseCurrency(input.currency),
		// The parameter table types horizon as a string, the request example sends an integer; the
		// example is what the service is seen to accept.
		horizon: parsePositiveInteger(SHOP_FIELD.horizon, input.horizon),
		pickupTime: parseTimeOfDay(SHOP_FIELD.pickupTime, input.pickupTime),
		dropTime: parseTimeOfDay(SHOP_FIELD.dropTime, input.dropTime),
	};
	const horizonDow = parseHorizonDaysOfWeek(input.horizonDaysOfWeek);
	// horizonDow is optional in the spec: an empty choice leaves it out rather than sending [].
	if (horizonDow.length > 0) body.horizonDow = horizonDow;
	return { shopId, body };
}

/**
 * A location as a resource locator holds it (`{ __rl, mode, value }`: chosen from the airport list
 * or typed), or as plain text when an expression filled the whole market.
 */
export function locationValue(location: unknown): unknown {
	if (typeof location === 'object' && location !== null && 'value' in location) {
		return (location as { value: unknown }).value;
	}
	return location;
}

/**
 * Spec part 2: at least one market, each with both a pickup and a drop location. Accepts the
 * node's fixed collection (`{ market: [...] }`), or from an expression a list of
 * `{ pickupLocation, dropLocation }` or a single one.
 */
export function parseMarkets(value: unknown): Market[] {
	const collection =
		typeof value === 'object' && value !== null && !Array.isArray(value) && 'market' in value
			? (value as { market: unknown }).market
			: value;
	const markets = Array.isArray(collection)
		? collection
		: collection == null || (typeof collection === 'object' && Object.keys(collection).length === 0)
			? []
			: [collection];
	if (markets.length === 0) {
		throw new FieldError(SHOP_FIELD.markets, value, 'needs at least one market with a pickup and a drop location');
	}
	return markets.map((market, index) => {
		if (typeof market !== 'object' || market === null) {
			throw new FieldError(SHOP_FIELD.markets, market, 'each market needs a pickup and a drop location');
		}
		const { pickupLocation, dropLocation } = market as Record<string, unknown>;
		const place = `(market ${index + 1})`;
		return {
			pickupLocation: parseRequiredText(`${SHOP_FIELD.pickupLocation} ${place}`, locationValue(pickupLocation)),
			dropLocation: parseRequiredText(`${SHOP_FIELD.dropLocation} ${place}`, locationValue(dropLocation)),
		};
	});
}

/** Spec part 2: websiteCode is a required list of integers. Duplicates are sent once. */
export function parseWebsiteCodes(value: unknown): number[] {
	const entries = listEntries(value);
	if (entries.length === 0) throw new FieldError(SHOP_FIELD.websiteCodes, value, 'needs at least one website code');
	const codes = entries.map((entry) => {
		const code = wholeNumber(entry);
		if (code === undefined || code < 1) {
			throw new FieldError(
				SHOP_FIELD.websiteCodes,
				value,
				`${JSON.stringify(entry)} is not a website code (a positive whole number); use a list such as 1,2,3`,
			);
		}
		return code;
	});
	return [...new Set(codes)];
}

/** The shop's currency, by the shared currency-code rule. */
export function parseCurrency(value: unknown): string {
	return parseCurrencyCode(SHOP_FIELD.currency, value);
}

/** `HH:MM` on a 24-hour clock, 00:00 to 23:59; "9:30" is read as 09:30 and sent padded. */
export function parseTimeOfDay(field: string, value: unknown): string {
	const text = typeof value === 'string' ? value.trim() : '';
	const match = /^(\d{1,2}):(\d{2})$/.exec(text);
	if (!match || Number(match[1]) > 23 || Number(match[2]) > 59) {
		throw new FieldError(
			field,
			value,
			value == null || value === '' ? 'is required' : 'must be a time of day as HH:MM, from 00:00 to 23:59',
		);
	}
	return `${match[1].padStart(2, '0')}:${match[2]}`;
}

/**
 * The spec leaves the meaning of horizonDow open. The node reads it as the days of the week within
 * the horizon, numbered like a schedule's `dow`: 1 Monday ... 6 Saturday, 0 Sunday. Sent sorted
 * Monday first, each day once.
 */

const DAY_ORDER = WEEKDAY_OPTIONS.map((day) => day.value);

export function parseHorizonDaysOfWeek(value: unknown): number[] {
	const days = listEntries(value).map((entry) => {
		const day = weekdayNumber(entry);
		if (day === undefined) {
			throw new FieldError(SHOP_FIELD.horizonDaysOfWeek, value, `${JSON.stringify(entry)} is not ${WEEKDAY_RULE_TEXT}`);
		}
		return day;
	});
	return [...new Set(days)].sort((a, b) => DAY_ORDER.indexOf(a) - DAY_ORDER.indexOf(b));
}

/** Spec 4.8 answers `{ message }`; the output adds which shop it was about. */
export function shopUpdateResult(shopId: number, response: unknown): IDataObject {
	const message = (response as Partial<MessageResponse> | undefined)?.message;
	return { shopId, message: typeof message === 'string' && message.trim() !== '' ? message : 'Shop updated' };
}
