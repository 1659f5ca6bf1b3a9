import { z } from 'zod';

/** A part 6 record's own fields sit at most two levels deep; extra fields get some room more. */
export const MAX_RECORD_DEPTH = 16;

// Keys that reach Object.prototype when assigned with `obj[key] = value`. A delivery never needs
// them, so copying skips them and no later merge of the item can pollute a prototype.
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

const integer = z.number().int().safe();
const decimal = z.number().finite();
const text = z.string();

// ISO 8601 as the spec names it: a date, optionally a time and an offset.
const ISO_TIMESTAMP =
	/^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
// dtCollected is "an ISO 8601 UTC timestamp": a time is required, and its offset, if any, is zero.
const ISO_UTC_TIMESTAMP =
	/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]00:?00)?$/;

const timestamp = text.regex(ISO_TIMESTAMP, 'must be an ISO 8601 timestamp such as 2025-03-01T00:00:00Z');
const utcTimestamp = text.regex(
	ISO_UTC_TIMESTAMP,
	'must be an ISO 8601 UTC timestamp such as 2025-03-01T06:30:00Z',
);

/**
 * Spec part 6, field by field with its type. Every field is required: a delivery that lacks one
 * is answered 400, unless the user lets invalid records through (then it is marked). The schema
 * only judges: the item is the record's own copy, so unknown fields the service adds (the sandbox
 * adds `recordId`) are kept, and zod need not build an output of its own. Compiled once, when the
 * module loads.
 */
export const rateRecordSchema = z
	.object({
		shopId: integer,
		dtCollected: utcTimestamp,
		websiteCode: integer,
		checkIn: timestamp,
		checkOut: timestamp,
		los: integer,
		pos: integer,
		guests: integer,
		hotelId: integer,
		hotelCode: integer,
		hotelName: text,
		sourceUrl: text,
		address: text,
		city: text,
		state: text,
		country: text,
		latitude: text,
		longitude: text,
		currency: text.regex(/^[A-Za-z]{3}$/, 'must be a three-letter currency code such as EUR'),
		isLAR: z.boolean(),
		propertyType: text,
		roomType: text,
		roomDescription: text,
		roomAmenities: text,
		mapLink: text,
		roomAvailable: text,
		roomLeft: text,
		reviewRating: decimal,
		reviewsCount: integer,
		taxAmount: decimal,
		taxType: text,
		taxStatus: integer,
		mealPlan: text,
		ratePlan: text,
		locationRating: decimal,
		promo: text,
		ratingText: text,
		onsiteRate: decimal,
		netRate: decimal,
		discount: decimal,
		occupancy: integer,
		paymentType: text,
		rankingListingCount: integer,
		navigationPage: integer,
		newArrival: text,
		distanceHotel: decimal,
		otherInformation: text,
		statusCode: integer,
		otherRatings: z.object({ htlRating: decimal, aptRating: decimal, dotsRating: decimal }),
		ratingFlags: z.object({ preferredPartner: z.boolean(), preferredPlus: z.boolean() }),
	});

/** How many problems of one record a reason lists before it says "and n more". */
const MAX_LISTED_ISSUES = 5;

function describeIssue(issue: z.ZodIssue): string {
	const field = issue.path.join('.') || 'record';
	if (issue.code === 'invalid_type' && issue.received === 'undefined') return `${field} is missing`;
	if (issue.code === 'invalid_type') return `${field} must be ${article(issue.expected)}, got ${issue.received}`;
	if (issue.code === 'too_big' || issue.code === 'too_small') {
		return `${field} must be a whole number between -9007199254740991 and 9007199254740991`;
	}
	if (issue.code === 'not_finite') return `${field} must be a finite number`;
	return `${field} ${issue.message.replace(/^Expected/, 'must be')}`;
}

function article(type: string): string {
	if (type === 'integer') return 'a whole number';
	return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** The problems of one record against spec part 6, in words a workflow builder can act on. */
export function rateRecordProblems(record: Record<string, unknown>): string[] {
	const result = rateRecordSchema.safeParse(record);
	return result.success ? [] : result.error.issues.map(describeIssue);
}

/** Problems listed in a 400 answer: the first few, then a count of the rest. */
export function summarizeProblems(problems: string[]): string {
	const listed = problems.slice(0, MAX_LISTED_ISSUES).join('; ');
	const more = problems.length - MAX_LISTED_ISSUES;
	return more > 0 ? `${listed}; and ${more} more` : listed;
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
	if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
	const prototype = Object.getPrototypeOf(value) as unknown;
	return prototype === Object.prototype || prototype === null;
}

const TOO_DEEP = Symbol('nested too deeply');

function copyJsonValue(value: unknown, depth: number): unknown {
	if (value === null || typeof value !== 'object') return value;
	if (depth >= MAX_RECORD_DEPTH) return TOO_DEEP;
	if (Array.isArray(value)) {
		const copy: unknown[] = [];
		for (const entry of value) {
			const entryCopy = copyJsonValue(entry, depth + 1);
			if (entryCopy === TOO_DEEP) return TOO_DEEP;
			copy.push(entryCopy);
		}
		return copy;
	}
	if (!isJsonObject(value)) return String(value);
	const copy: Record<string, unknown> = {};
	for (const key of Object.keys(value)) {
		if (PROTOTYPE_KEYS.has(key)) continue;
		const fieldCopy = copyJsonValue(value[key], depth + 1);
		if (fieldCopy === TOO_DEEP) return TOO_DEEP;
		copy[key] = fieldCopy;
	}
	return copy;
}

/**
 * A plain copy of a parsed JSON object without prototype keys, or undefined when it is nested
 * deeper than MAX_RECORD_DEPTH. Recursion stops at that depth, so no body can exhaust the stack.
 */
export function copyJsonObject(value: Record<string, unknown>): Record<string, unknown> | undefined {
	const copy = copyJsonValue(value, 0);
	return copy === TOO_DEEP ? undefined : (copy as Record<string, unknown>);
}

/** The records of a delivery, or why the delivery is refused as a whole (answered 400). */
export type DeliveryContent =
	| { records: Array<Record<string, unknown>>; rejection?: undefined }
	| { rejection: string };

const NOT_JSON = Symbol('not JSON');

/**
 * The delivery body as a list of candidate records. n8n has usually parsed JSON already; a body
 * it left as text or bytes (text/plain, no content type) is parsed here. One record or an array
 * of records is accepted; empty, non-JSON and scalar bodies are refused, and so is a record
 * nested deeper than MAX_RECORD_DEPTH.
 */
export function readDeliveryContent(body: unknown, rawBody?: unknown): DeliveryContent {
	const source = isEmpty(body) && rawBody !== undefined ? rawBody : body;
	if (isEmpty(source) || isBlankText(source)) return { rejection: 'The delivery is empty' };
	const parsed = parseJsonText(source);
	if (parsed === NOT_JSON) return { rejection: 'The delivery is not valid JSON' };

	const candidates: unknown[] = Array.isArray(parsed) ? parsed : [parsed];
	if (!Array.isArray(parsed) && !isJsonObject(parsed)) {
		return {
			rejection: `The delivery must be a rate record or an array of rate records, not ${jsonTypeOf(parsed)}`,
		};
	}
	if (isJsonObject(parsed) && Object.keys(parsed).length === 0) return { rejection: 'The delivery is empty' };

	const records: Array<Record<string, unknown>> = [];
	for (const [index, candidate] of candidates.entries()) {
		const name = Array.isArray(parsed) ? `Record ${index} of the delivery` : 'The record';
		if (!isJsonObject(candidate)) return { rejection: `${name} is not an object but ${jsonTypeOf(candidate)}` };
		const record = copyJsonObject(candidate);
		if (!record) return { rejection: `${name} is nested deeper than ${MAX_RECORD_DEPTH} levels` };
		records.push(record);
	}
	return { records };
}

function isEmpty(body: unknown): boolean {
	return (
		body === undefined ||
		body === null ||
		body === '' ||
		(Buffer.isBuffer(body) && body.length === 0) ||
		(isJsonObject(body) && Object.keys(body).length === 0)
	);
}

function isBlankText(body: unknown): boolean {
	return typeof body === 'string' && body.trim() === '';
}

/** Text and bytes are parsed; anything else is what n8n parsed already. */
function parseJsonText(body: unknown): unknown {
	const text = Buffer.isBuffer(body) ? body.toString('utf8') : body;
	if (typeof text !== 'string') return text;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		// A RangeError from absurd nesting lands here too: both are "not usable JSON".
		return NOT_JSON;
	}
}

function jsonTypeOf(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	if (typeof value === 'object') return 'an object';
	return `a ${typeof value}`;
}
