/** A part 6 record's own fields sit at most two levels deep; extra fields get some room more. */
export const MAX_RECORD_DEPTH = 16;

// Keys that reach Object.prototype when assigned with `obj[key] = value`. A delivery never needs
// them, so copying skips them and no later merge of the item can pollute a prototype.
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

// ISO 8601 as the spec names it: a date, optionally a time and an offset.
const ISO_TIMESTAMP =
	/^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
// dtCollected is "an ISO 8601 UTC timestamp": a time is required, and its offset, if any, is zero.
const ISO_UTC_TIMESTAMP =
	/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]00:?00)?$/;
const CURRENCY_CODE = /^[A-Za-z]{3}$/;

/** The types a field of spec part 6 can have; the text ones with a format carry its wording. */
type FieldType = 'integer' | 'decimal' | 'text' | 'boolean' | 'timestamp' | 'utcTimestamp' | 'currency';
interface FieldTable {
	readonly [field: string]: FieldType | FieldTable;
}

/**
 * Spec part 6, field by field with its type; a nested table is a nested object. Every field is
 * required: a delivery that lacks one is answered 400, unless the user lets invalid records
 * through (then it is marked). The check only judges: the item is the record itself, so unknown
 * fields the service adds (a record id, say) are kept. This table is the one statement of part 6:
 * the RateRecord type below is derived from it.
 */
const RATE_RECORD_FIELDS = {
	shopId: 'integer',
	dtCollected: 'utcTimestamp',
	websiteCode: 'integer',
	checkIn: 'timestamp',
	checkOut: 'timestamp',
	los: 'integer',
	pos: 'integer',
	guests: 'integer',
	hotelId: 'integer',
	hotelCode: 'integer',
	hotelName: 'text',
	sourceUrl: 'text',
	address: 'text',
	city: 'text',
	state: 'text',
	country: 'text',
	latitude: 'text',
	longitude: 'text',
	currency: 'currency',
	isLAR: 'boolean',
	propertyType: 'text',
	roomType: 'text',
	roomDescription: 'text',
	roomAmenities: 'text',
	mapLink: 'text',
	roomAvailable: 'text',
	roomLeft: 'text',
	reviewRating: 'decimal',
	reviewsCount: 'integer',
	taxAmount: 'decimal',
	taxType: 'text',
	taxStatus: 'integer',
	mealPlan: 'text',
	ratePlan: 'text',
	locationRating: 'decimal',
	promo: 'text',
	ratingText: 'text',
	onsiteRate: 'decimal',
	netRate: 'decimal',
	discount: 'decimal',
	occupancy: 'integer',
	paymentType: 'text',
	rankingListingCount: 'integer',
	navigationPage: 'integer',
	newArrival: 'text',
	distanceHotel: 'decimal',
	otherInformation: 'text',
	statusCode: 'integer',
	otherRatings: { htlRating: 'decimal', aptRating: 'decimal', dotsRating: 'decimal' },
	ratingFlags: { preferredPartner: 'boolean', preferredPlus: 'boolean' },
} as const satisfies FieldTable;

/** The value a field of one type holds in a valid record. */
type FieldValue<T> = T extends 'integer' | 'decimal'
	? number
	: T extends 'boolean'
		? boolean
		: T extends FieldType
			? string
			: { -readonly [Name in keyof T]: FieldValue<T[Name]> };

/** A rate record as the service posts it to a registered webhook (spec part 6), once it passed the check. */
export type RateRecord = FieldValue<typeof RATE_RECORD_FIELDS>;

/** What is wrong with one present value of a field, or undefined when nothing is. */
type ValueCheck = (value: unknown) => string | undefined;

/** The JSON type of a value, as a problem names what it got. */
function receivedType(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'array';
	return typeof value;
}

const wrongType = (expected: string, value: unknown): string => `must be ${expected}, got ${receivedType(value)}`;

function textMatching(format: RegExp, reason: string): ValueCheck {
	return (value) => {
		if (typeof value !== 'string') return wrongType('a string', value);
		return format.test(value) ? undefined : reason;
	};
}

const VALUE_CHECKS: Record<FieldType, ValueCheck> = {
	integer: (value) => {
		if (typeof value !== 'number') return wrongType('a number', value);
		if (Number.isSafeInteger(value)) return undefined;
		// A fraction is the common mistake; a huge or infinite value cannot be held exactly.
		if (Number.isFinite(value) && !Number.isInteger(value)) return 'must be a whole number, got float';
		return 'must be a whole number between -9007199254740991 and 9007199254740991';
	},
	decimal: (value) => {
		if (typeof value !== 'number') return wrongType('a number', value);
		return Number.isFinite(value) ? undefined : 'must be a finite number';
	},
	text: (value) => (typeof value === 'string' ? undefined : wrongType('a string', value)),
	boolean: (value) => (typeof value === 'boolean' ? undefined : wrongType('a boolean', value)),
	timestamp: textMatching(ISO_TIMESTAMP, 'must be an ISO 8601 timestamp such as 2025-03-01T00:00:00Z'),
	utcTimestamp: textMatching(ISO_UTC_TIMESTAMP, 'must be an ISO 8601 UTC timestamp such as 2025-03-01T06:30:00Z'),
	currency: textMatching(CURRENCY_CODE, 'must be a three-letter currency code such as EUR'),
};

/** Adds the problems of one object against a field table to `problems`, each named by its path. */
type RecordCheck = (object: Record<string, unknown>, problems: string[]) => void;

/**
 * Compiles a field table once, when the module loads, into one check per field in table order,
 * so checking a record is a walk over a fixed list with no allocation unless something is wrong.
 */
function compileFieldTable(table: FieldTable, prefix = ''): RecordCheck {
	const checks = Object.entries(table).map(([name, type]): RecordCheck => {
		const path = `${prefix}${name}`;
		if (typeof type === 'string') {
			const check = VALUE_CHECKS[type];
			return (object, problems) => {
				const value = object[name];
				if (value === undefined) {
					problems.push(`${path} is missing`);
					return;
				}
				const problem = check(value);
				if (problem !== undefined) problems.push(`${path} ${problem}`);
			};
		}
		const checkNested = compileFieldTable(type, `${path}.`);
		return (object, problems) => {
			const value = object[name];
			if (value === undefined) problems.push(`${path} is missing`);
			else if (!isJsonObject(value)) problems.push(`${path} ${wrongType('an object', value)}`);
			else checkNested(value, problems);
		};
	});
	return (object, problems) => {
		for (const check of checks) check(object, problems);
	};
}

const checkRateRecord = compileFieldTable(RATE_RECORD_FIELDS);

/** How many problems of one record a reason lists before it says "and n more". */
const MAX_LISTED_ISSUES = 5;

/** The problems of one record against spec part 6, in words a workflow builder can act on. */
export function rateRecordProblems(record: Record<string, unknown>): string[] {
	const problems: string[] = [];
	checkRateRecord(record, problems);
	return problems;
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

/** What a look over a parsed value found: nothing to change, something a copy must change, or too much depth. */
type JsonShape = 'clean' | 'needsCopy' | typeof TOO_DEEP;

/**
 * Looks at a parsed JSON value without copying it, since most deliveries hold nothing to leave
 * out: their records are taken as they are. A prototype key or an object that is not plain JSON
 * calls for the copy, which leaves them out and checks the depth of what it keeps. Recursion stops
 * at MAX_RECORD_DEPTH, like the copy's.
 */
function jsonShape(value: unknown, depth: number): JsonShape {
	if (value === null || typeof value !== 'object') return 'clean';
	if (depth >= MAX_RECORD_DEPTH) return TOO_DEEP;
	if (Array.isArray(value)) return shapeOfAll(value, depth);
	if (!isJsonObject(value) || Object.keys(value).some((key) => PROTOTYPE_KEYS.has(key))) return 'needsCopy';
	return shapeOfAll(Object.values(value), depth);
}

function shapeOfAll(fields: unknown[], depth: number): JsonShape {
	for (const field of fields) {
		const shape = jsonShape(field, depth + 1);
		if (shape !== 'clean') return shape;
	}
	return 'clean';
}

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
 * it left as text or bytes (text/plain, no content type) is parsed here, once. One record or an
 * array of records is accepted; empty, non-JSON and scalar bodies are refused (a JSON string too,
 * whatever it holds), and so is a record nested deeper than MAX_RECORD_DEPTH.
 */
export function readDeliveryContent(body: unknown, rawBody?: unknown): DeliveryContent {
	const source = isEmpty(body) && rawBody !== undefined ? rawBody : body;
	if (isEmpty(source) || isBlankText(source)) return { rejection: 'The delivery is empty' };
	const parsed = isParsedJsonString(source, rawBody) ? source : parseJsonText(source);
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
		const shape = jsonShape(candidate, 0);
		const record = shape === 'clean' ? candidate : shape === TOO_DEEP ? undefined : copyJsonObject(candidate);
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

/**
 * Whether a text body is a JSON string n8n has already parsed (an application/json body such as
 * `"[]"`), rather than text n8n left unparsed. Parsed, its value differs from the raw bytes, as it
 * lost its quotes; unparsed, it is the raw text itself.
 */
function isParsedJsonString(body: unknown, rawBody: unknown): boolean {
	if (typeof body !== 'string' || rawBody === undefined || rawBody === null) return false;
	const rawText = Buffer.isBuffer(rawBody) ? rawBody.toString('utf8') : String(rawBody);
	return rawText !== body;
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
