import { FieldError } from '../../shared/errors';
import { isEmpty, parseCurrencyCode, parseDecimal, parsePositiveInteger, parseRequiredText } from '../../shared/fields';

import { round2 } from './amounts';
import { totalOf } from './parity';
import { websiteNameOf } from './websites';

/**
 * What Detect Changes compares: one rate record (spec part 6) against the last one stored for the
 * same stay, and whether the difference is worth an alert.
 */

/** The rate a user compares on: the rate shown on the website, or the rate net of taxes. */
export type RateField = 'onsiteRate' | 'netRate';

/**
 * A stay is what a guest would book: the same hotel on the same website, for the same check-in
 * day, nights, guests and room. Two records of one stay are two observations of one price, so
 * their difference is a change; anything else is another price. The shop, the point of sale and
 * the collection time are not part of it: a stay shopped again by another shop is the same stay.
 */
export interface Stay {
	/** The stay as one text, the rates table's lookup column: `hotelCode|websiteCode|checkIn|los|guests|roomType`. */
	stayKey: string;
	hotelCode: number;
	websiteCode: number;
	/** The check-in day, YYYY-MM-DD, as the service wrote it (no timezone shift). */
	checkIn: string;
	los: number;
	guests: number;
	roomType: string;
}

/** One incoming record, read and checked. */
export interface Observation extends Stay {
	shopId: number | null;
	hotelName: string;
	/** The host of the record's `sourceUrl` ("hotels.com"); '' or absent when unknown (a stored stay keeps no address). */
	websiteName?: string;
	currency: string;
	/** Both rates are kept, so that switching Rate Field compares like with like. */
	onsiteRate: number | null;
	netRate: number | null;
	/** What a guest pays on the website (parity compares it): onsiteRate, plus taxAmount where the tax is shown apart. */
	totalRate: number | null;
	/** ISO 8601 UTC, normalised, so that text order is time order. */
	dtCollected: string;
	/** The hotel's place, when the record gives it (spec part 6 sends it as text): Rate Calendar finds the events near it. */
	latitude: number | null;
	longitude: number | null;
}

export type ChangeType = 'up' | 'down' | 'soldOut' | 'backOnSale' | 'firstSeen';

export const CHANGE_TYPES: readonly ChangeType[] = ['up', 'down', 'soldOut', 'backOnSale', 'firstSeen'];

/** How one record compares with what was stored for its stay. */
export type Comparison =
	/** Collected no later than the stored record: a redelivery or a late one. Changes nothing. */
	| { kind: 'stale' }
	/** Newer, same price (or sold out both times): only the collection time moves on. */
	| { kind: 'unchanged' }
	/** Newer, but in another currency or with no stored rate to compare: stored as the new reference, never an alert. */
	| { kind: 'rebased' }
	| { kind: 'change'; change: RateChange };

export interface RateChange {
	changeType: ChangeType;
	previousRate: number | null;
	rate: number | null;
	/** rate − previousRate, to the cent; null when either side is sold out or unknown. */
	change: number | null;
	/** change as a percentage of previousRate, to two decimals. */
	changePercent: number | null;
	previousCollected: string | null;
}

/** What Detect Changes alerts on. */
export interface ChangeRule {
	/** A move must be at least this many percent of the previous rate (0: any move). */
	minPercent: number;
	/** A move must be at least this amount in the record's currency (0: any move). */
	minAmount: number;
	direction: 'either' | 'up' | 'down';
	includeAvailability: boolean;
	includeFirstSeen: boolean;
}

/** What was stored for a stay: the fields the comparison reads. */
export interface StoredRate {
	currency: string;
	onsiteRate: number | null;
	netRate: number | null;
	dtCollected: string;
}

const ISO_DATE_START = /^(\d{4}-\d{2}-\d{2})(?:$|[T ])/;

/**
 * Reads one item as a rate record. Every field the comparison needs must be there and of its
 * spec type; a rate of 0 (what the service sends with status 204) or null means sold out.
 */
export function readObservation(record: Record<string, unknown>, rateField: RateField): Observation {
	const hotelCode = parsePositiveInteger('hotelCode', record.hotelCode);
	const websiteCode = parsePositiveInteger('websiteCode', record.websiteCode);
	const checkIn = checkInDay(record.checkIn);
	const los = parsePositiveInteger('los', record.los);
	const guests = parsePositiveInteger('guests', record.guests);
	const roomType = optionalText('roomType', record.roomType);
	const stay = { hotelCode, websiteCode, checkIn, los, guests, roomType };
	const observation: Observation = {
		stayKey: [hotelCode, websiteCode, checkIn, los, guests, roomType].join('|'),
		...stay,
		shopId: isEmpty(record.shopId) ? null : parsePositiveInteger('shopId', record.shopId),
		hotelName: optionalText('hotelName', record.hotelName),
		websiteName: websiteNameOf(record.sourceUrl),
		currency: currencyCode(record.currency),
		onsiteRate: rateOf('onsiteRate', record.onsiteRate, rateField === 'onsiteRate'),
		netRate: rateOf('netRate', record.netRate, rateField === 'netRate'),
		totalRate: null,
		dtCollected: collectedAt(record.dtCollected),
		latitude: coordinate(record.latitude, 90),
		longitude: coordinate(record.longitude, 180),
	};
	observation.totalRate = totalOf(observation.onsiteRate, storedNumber(record.taxAmount), storedNumber(record.taxStatus));
	return observation;
}

function checkInDay(value: unknown): string {
	const match = typeof value === 'string' ? ISO_DATE_START.exec(value.trim()) : null;
	if (!match || Number.isNaN(Date.parse(`${match[1]}T00:00:00Z`))) {
		throw new FieldError('checkIn', value, 'must be an ISO 8601 date or timestamp, for example 2026-03-01T00:00:00Z');
	}
	return match[1];
}

function collectedAt(value: unknown): string {
	const text = typeof value === 'string' ? value.trim().replace(' ', 'T') : '';
	// The spec's dtCollected is UTC: without an offset it is read as UTC, as the Rate Record
	// Trigger reads it, not in the timezone of the server n8n runs on.
	const utc = /(?:Z|[+-]\d{2}:?\d{2})$/i.test(text) ? text : `${text}Z`;
	const time = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(text) ? Date.parse(utc) : NaN;
	if (Number.isNaN(time)) {
		throw new FieldError('dtCollected', value, 'must be an ISO 8601 timestamp, for example 2026-03-01T06:00:00Z');
	}
	return new Date(time).toISOString();
}

/** A coordinate the record gives, or null: it is never compared, so a missing or odd one is no error. */
function coordinate(value: unknown, limit: number): number | null {
	const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
	return Number.isFinite(number) && Math.abs(number) <= limit ? number : null;
}

function optionalText(field: string, value: unknown): string {
	return isEmpty(value) ? '' : parseRequiredText(field, value);
}

function currencyCode(value: unknown): string {
	return parseCurrencyCode('currency', value);
}

/** The compared rate must be there; the other one may be missing (it is then unknown, not sold out). */
function rateOf(field: RateField, value: unknown, required: boolean): number | null {
	if (value === null) return 0;
	if (isEmpty(value)) {
		if (required) throw new FieldError(field, value, 'is required: the rate to compare');
		return null;
	}
	return parseDecimal(field, value, { min: 0 });
}

/** Sold out: the service sends a rate of 0 for a stay it found no room for. */
export function isSoldOut(rate: number | null): boolean {
	return rate === null || rate === 0;
}

export function compareWithStored(observation: Observation, stored: StoredRate | undefined, rateField: RateField): Comparison {
	const rate = observation[rateField];
	if (stored === undefined) {
		return {
			kind: 'change',
			change: { changeType: 'firstSeen', previousRate: null, rate: isSoldOut(rate) ? null : rate, change: null, changePercent: null, previousCollected: null },
		};
	}
	if (observation.dtCollected <= stored.dtCollected) return { kind: 'stale' };
	if (observation.currency !== stored.currency) return { kind: 'rebased' };

	const previousRate = stored[rateField];
	// No stored rate is an unknown one (kept while the other Rate Field was compared), not a sold-out
	// stay: the record becomes the reference, as a new currency does, rather than "back on sale".
	if (previousRate === null) return { kind: 'rebased' };
	const base = { previousCollected: stored.dtCollected };
	const wasSoldOut = isSoldOut(previousRate);
	const soldOut = isSoldOut(rate);
	if (wasSoldOut && soldOut) return { kind: 'unchanged' };
	if (soldOut) {
		return { kind: 'change', change: { ...base, changeType: 'soldOut', previousRate, rate: null, change: null, changePercent: null } };
	}
	if (wasSoldOut) {
		return { kind: 'change', change: { ...base, changeType: 'backOnSale', previousRate: null, rate, change: null, changePercent: null } };
	}
	const change = round2((rate as number) - (previousRate as number));
	if (change === 0) return { kind: 'unchanged' };
	return {
		kind: 'change',
		change: {
			...base,
			changeType: change > 0 ? 'up' : 'down',
			previousRate,
			rate,
			change,
			changePercent: round2((change / (previousRate as number)) * 100),
		},
	};
}

/** Whether a change is one the user asked to be alerted to. */
export function meetsRule(change: RateChange, rule: ChangeRule): boolean {
	switch (change.changeType) {
		case 'firstSeen':
			return rule.includeFirstSeen;
		case 'soldOut':
		case 'backOnSale':
			return rule.includeAvailability;
		default:
			if (rule.direction !== 'either' && rule.direction !== change.changeType) return false;
			return Math.abs(change.changePercent ?? 0) >= rule.minPercent && Math.abs(change.change ?? 0) >= rule.minAmount;
	}
}

/**
 * Several records of one stay in one batch (two shops in one delivery, or the staged records of
 * several executions in one pass): each collection is compared, in collection order, the first with
 * the stored record and each later one with the one before it, as had they come one by one in that
 * order, so no move between two shops is lost to how their records were grouped. Records of one
 * stay collected at the same time are one collection (the same record delivered again): the first
 * item counts. Returns those items, oldest collection first (ties in item order).
 */
export function inCollectionOrder<T extends { itemIndex: number; observation: Observation }>(observations: readonly T[]): T[] {
	const seen = new Set<string>();
	const collections = observations.filter(({ observation }) => {
		const collection = `${observation.stayKey}|${observation.dtCollected}`;
		if (seen.has(collection)) return false;
		seen.add(collection);
		return true;
	});
	return collections.sort((a, b) => (a.observation.dtCollected === b.observation.dtCollected ? a.itemIndex - b.itemIndex : a.observation.dtCollected < b.observation.dtCollected ? -1 : 1));
}

/** A whole number read from a stored row (Data Tables hand numbers back as numbers, or text on some databases). */
export function storedNumber(value: unknown): number | null {
	if (value === null || value === undefined || value === '') return null;
	const number = typeof value === 'number' ? value : Number(value);
	return Number.isFinite(number) ? number : null;
}


/** The latest observation of each stay, of stored ones and incoming records together: a newer record wins. */
export function latestByStay(...sources: ReadonlyArray<readonly Observation[]>): Observation[] {
	const latest = new Map<string, Observation>();
	for (const observation of sources.flat()) {
		const known = latest.get(observation.stayKey);
		if (!known || observation.dtCollected > known.dtCollected) latest.set(observation.stayKey, observation);
	}
	return [...latest.values()];
}
