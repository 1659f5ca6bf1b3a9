import { z } from 'zod';

import { rateRecordProblems } from '../../nodes/RateTrigger/rateRecord';
import { rateRecord } from './fixtures';

/**
 * The record check was a zod schema; it is now compiled from a field table, so that it runs
 * faster and reads no zod internals that differ between the zod versions n8n ships. This file
 * keeps the zod schema it replaced (zod 3, a dev dependency) as the reference, and proves on
 * every field, with every kind of wrong and right value, that both judge alike and word alike.
 */

const integer = z.number().int().safe();
const decimal = z.number().finite();
const text = z.string();
const timestamp = text.regex(
	/^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/,
	'must be an ISO 8601 timestamp such as 2025-03-01T00:00:00Z',
);
const utcTimestamp = text.regex(
	/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]00:?00)?$/,
	'must be an ISO 8601 UTC timestamp such as 2025-03-01T06:30:00Z',
);
const currency = text.regex(/^[A-Za-z]{3}$/, 'must be a three-letter currency code such as EUR');

const referenceSchema = z.object({
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
	currency,
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

/** The reference's wording of a zod 3 issue, as the trigger answered before. */
function referenceWording(issue: z.ZodIssue): string {
	const field = issue.path.join('.');
	if (issue.code === 'invalid_type' && issue.received === 'undefined') return `${field} is missing`;
	if (issue.code === 'invalid_type') {
		const expected = issue.expected === 'integer' ? 'a whole number' : /^[aeiou]/.test(issue.expected) ? `an ${issue.expected}` : `a ${issue.expected}`;
		return `${field} must be ${expected}, got ${issue.received}`;
	}
	if (issue.code === 'too_big' || issue.code === 'too_small') {
		return `${field} must be a whole number between -9007199254740991 and 9007199254740991`;
	}
	if (issue.code === 'not_finite') return `${field} must be a finite number`;
	return `${field} ${issue.message}`;
}

function referenceProblems(record: Record<string, unknown>): string[] {
	const result = referenceSchema.safeParse(record);
	return result.success ? [] : result.error.issues.map(referenceWording);
}

const fieldOf = (problem: string): string => problem.split(' ')[0];

/** Every field path of spec part 6, nested ones as "otherRatings.htlRating". */
function fieldPaths(shape: z.ZodRawShape, prefix = ''): string[] {
	return Object.entries(shape).flatMap(([name, schema]) =>
		schema instanceof z.ZodObject ? [`${prefix}${name}`, ...fieldPaths(schema.shape as z.ZodRawShape, `${prefix}${name}.`)] : [`${prefix}${name}`],
	);
}

/** The fixture record with one field (by path) set to a value, or removed for `undefined`. */
function withField(path: string, value: unknown): Record<string, unknown> {
	const record = rateRecord();
	const names = path.split('.');
	let holder = record;
	for (const name of names.slice(0, -1)) holder = holder[name] as Record<string, unknown>;
	const last = names[names.length - 1];
	if (value === undefined) delete holder[last];
	else holder[last] = value;
	return record;
}

const VALUES: Array<[string, unknown]> = [
	['missing', undefined],
	['null', null],
	['an array', [1]],
	['an object', { a: 1 }],
	['an empty object', {}],
	['text', 'seven'],
	['empty text', ''],
	['a whole number', 7],
	['zero', 0],
	['a negative number', -3],
	['a fraction', 7.5],
	['the largest safe integer', Number.MAX_SAFE_INTEGER],
	['an integer beyond 2^53', 2 ** 60],
	['a negative integer beyond 2^53', -(2 ** 60)],
	['a huge decimal', 1e300],
	['true', true],
	['false', false],
	['a date', '2025-03-01'],
	['a UTC timestamp', '2025-03-01T06:30:00Z'],
	['a timestamp with an offset', '2025-03-01T06:30:00+02:00'],
	['a timestamp with a zero offset', '2025-03-01 06:30:00.123+0000'],
	['a currency code', 'usd'],
	['a four-letter code', 'EURO'],
];

describe('the compiled record check judges and words every field as the zod schema it replaced', () => {
	const paths = fieldPaths(referenceSchema.shape);

	it('covers every field of spec part 6', () => {
		expect(paths).toHaveLength(55);
		expect(rateRecordProblems(rateRecord())).toEqual(referenceProblems(rateRecord()));
	});

	it.each(VALUES)('with %s in each field', (_kind, value) => {
		for (const path of paths) {
			const record = withField(path, value);
			expect({ path, problems: rateRecordProblems(record) }).toEqual({ path, problems: referenceProblems(record) });
		}
	});

	it.each([
		['Infinity', Infinity],
		['-Infinity', -Infinity],
	])('with %s in each field: the same fields are refused, with one of the reference\'s reasons each', (_kind, value) => {
		// zod 3 reports an infinite whole number twice (not an integer, and out of range): one reason is enough.
		for (const path of paths) {
			const record = withField(path, value);
			const problems = rateRecordProblems(record);
			const reference = referenceProblems(record);
			expect({ path, fields: problems.map(fieldOf) }).toEqual({ path, fields: [...new Set(reference.map(fieldOf))] });
			for (const problem of problems) expect(reference).toContain(problem);
		}
	});

	it('words several problems of one record in field order, like the reference', () => {
		const record = rateRecord({ shopId: '1', checkIn: 'soon', isLAR: null, otherRatings: { htlRating: 'x' }, ratingFlags: [] });
		delete record.hotelName;
		expect(rateRecordProblems(record)).toEqual(referenceProblems(record));
		expect(rateRecordProblems(record)).toHaveLength(8);
	});

	it('keeps extra fields out of the judgement, at the top and in nested objects', () => {
		const record = rateRecord({ recordId: 5, vendorNote: null, otherRatings: { htlRating: 1, aptRating: 2, dotsRating: 3, stars: 'x' } });
		expect(rateRecordProblems(record)).toEqual([]);
		expect(referenceProblems(record)).toEqual([]);
	});
});

describe('the record check does not depend on the zod n8n happens to ship', () => {
	it('loads and judges with zod unavailable', () => {
		jest.isolateModules(() => {
			jest.doMock('zod', () => {
				throw new Error('zod is not available');
			});
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const isolated = require('../../nodes/RateTrigger/rateRecord') as typeof import('../../nodes/RateTrigger/rateRecord');
			expect(isolated.rateRecordProblems(rateRecord({ shopId: 'x' }))).toEqual(['shopId must be a number, got string']);
		});
	});
});
