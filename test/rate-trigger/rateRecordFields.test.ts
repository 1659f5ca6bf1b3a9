import { rateRecordProblems } from '../../nodes/RateTrigger/rateRecord';
import { rateRecord } from '../harness/rateRecords';

/**
 * The record check against spec part 6, with examples written here by hand: which fields the spec
 * names, which type each has, and values of each type that must pass or fail with the wording a
 * workflow builder reads. Nothing is taken from the check itself (its field table or its
 * patterns), so the two can disagree, and a disagreement fails here.
 */

type Kind = 'integer' | 'decimal' | 'text' | 'boolean' | 'timestamp' | 'utcTimestamp' | 'currency';

/** Spec part 6's fields by type, in the spec's order within each type; nested ones with their path. */
const SPEC_FIELDS: Record<Kind, string[]> = {
	integer: ['shopId', 'websiteCode', 'los', 'pos', 'guests', 'hotelId', 'hotelCode', 'reviewsCount', 'taxStatus', 'occupancy', 'rankingListingCount', 'navigationPage', 'statusCode'],
	decimal: ['reviewRating', 'taxAmount', 'locationRating', 'onsiteRate', 'netRate', 'discount', 'distanceHotel', 'otherRatings.htlRating', 'otherRatings.aptRating', 'otherRatings.dotsRating'],
	text: [
		'hotelName', 'sourceUrl', 'address', 'city', 'state', 'country', 'latitude', 'longitude', 'propertyType', 'roomType', 'roomDescription',
		'roomAmenities', 'mapLink', 'roomAvailable', 'roomLeft', 'taxType', 'mealPlan', 'ratePlan', 'promo', 'ratingText', 'paymentType',
		'newArrival', 'otherInformation',
	],
	boolean: ['isLAR', 'ratingFlags.preferredPartner', 'ratingFlags.preferredPlus'],
	timestamp: ['checkIn', 'checkOut'],
	utcTimestamp: ['dtCollected'],
	currency: ['currency'],
};

/** The top-level fields in the spec's order, as a record missing all of them lists them. */
const SPEC_ORDER = [
	'shopId', 'dtCollected', 'websiteCode', 'checkIn', 'checkOut', 'los', 'pos', 'guests', 'hotelId', 'hotelCode', 'hotelName', 'sourceUrl',
	'address', 'city', 'state', 'country', 'latitude', 'longitude', 'currency', 'isLAR', 'propertyType', 'roomType', 'roomDescription',
	'roomAmenities', 'mapLink', 'roomAvailable', 'roomLeft', 'reviewRating', 'reviewsCount', 'taxAmount', 'taxType', 'taxStatus', 'mealPlan',
	'ratePlan', 'locationRating', 'promo', 'ratingText', 'onsiteRate', 'netRate', 'discount', 'occupancy', 'paymentType', 'rankingListingCount',
	'navigationPage', 'newArrival', 'distanceHotel', 'otherInformation', 'statusCode', 'otherRatings', 'ratingFlags',
];

const RANGE = 'must be a whole number between -9007199254740991 and 9007199254740991';
const TIMESTAMP = 'must be an ISO 8601 timestamp such as 2025-03-01T00:00:00Z';
const UTC_TIMESTAMP = 'must be an ISO 8601 UTC timestamp such as 2025-03-01T06:30:00Z';
const CURRENCY = 'must be a three-letter currency code such as EUR';

/** Per type: values that pass, and values that fail with the reason that follows the field's name. */
const EXAMPLES: Record<Kind, { valid: unknown[]; invalid: Array<[unknown, string]> }> = {
	integer: {
		valid: [0, 7, -3, 9007199254740991, -9007199254740991],
		invalid: [
			[7.5, 'must be a whole number, got float'],
			[9007199254740992, RANGE],
			[-(2 ** 60), RANGE],
			[Infinity, RANGE],
			['7', 'must be a number, got string'],
			[null, 'must be a number, got null'],
			[true, 'must be a number, got boolean'],
			[[7], 'must be a number, got array'],
			[{}, 'must be a number, got object'],
		],
	},
	decimal: {
		valid: [0, 4.5, -12.25, 7, 1e300],
		invalid: [
			[Infinity, 'must be a finite number'],
			[-Infinity, 'must be a finite number'],
			['4.5', 'must be a number, got string'],
			[null, 'must be a number, got null'],
			[[4.5], 'must be a number, got array'],
		],
	},
	text: {
		valid: ['', 'Hôtel Lumière', '48.8566', '7'],
		invalid: [
			[7, 'must be a string, got number'],
			[null, 'must be a string, got null'],
			[false, 'must be a string, got boolean'],
			[['a'], 'must be a string, got array'],
			[{ text: 'a' }, 'must be a string, got object'],
		],
	},
	boolean: {
		valid: [true, false],
		invalid: [
			['true', 'must be a boolean, got string'],
			[1, 'must be a boolean, got number'],
			[null, 'must be a boolean, got null'],
		],
	},
	timestamp: {
		valid: ['2025-04-10', '2025-04-10T00:00:00Z', '2025-04-10 14:00', '2025-04-10T14:00:00.123456789+02:00', '2025-04-10T14:00:00-0500'],
		invalid: [
			['10/04/2025', TIMESTAMP],
			['2025-4-10', TIMESTAMP],
			['2025-04-10T9:00', TIMESTAMP],
			['2025-04-10Z', TIMESTAMP],
			['next tuesday', TIMESTAMP],
			['', TIMESTAMP],
			[20250410, 'must be a string, got number'],
		],
	},
	utcTimestamp: {
		valid: ['2025-03-01T06:30:00Z', '2025-03-01 06:30:00', '2025-03-01T06:30', '2025-03-01T06:30:00.5+00:00', '2025-03-01T06:30:00-0000'],
		invalid: [
			['2025-03-01', UTC_TIMESTAMP],
			['2025-03-01T06:30:00+02:00', UTC_TIMESTAMP],
			['2025-03-01T06:30:00-05:00', UTC_TIMESTAMP],
			['yesterday', UTC_TIMESTAMP],
			[null, 'must be a string, got null'],
		],
	},
	currency: {
		valid: ['EUR', 'usd', 'Gbp'],
		invalid: [
			['EURO', CURRENCY],
			['US', CURRENCY],
			['€', CURRENCY],
			['U5D', CURRENCY],
			[978, 'must be a string, got number'],
		],
	},
};

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

const KINDS = Object.keys(SPEC_FIELDS) as Kind[];

describe('the record check knows every field of spec part 6, in the spec order', () => {
	it('finds nothing wrong with a complete record', () => {
		expect(rateRecordProblems(rateRecord())).toEqual([]);
	});

	it('names every top-level field of an empty record as missing', () => {
		expect(rateRecordProblems({})).toEqual(SPEC_ORDER.map((field) => `${field} is missing`));
	});

	it('names the nested fields of otherRatings and ratingFlags with their path', () => {
		expect(rateRecordProblems(rateRecord({ otherRatings: {}, ratingFlags: {} }))).toEqual([
			'otherRatings.htlRating is missing',
			'otherRatings.aptRating is missing',
			'otherRatings.dotsRating is missing',
			'ratingFlags.preferredPartner is missing',
			'ratingFlags.preferredPlus is missing',
		]);
	});

	it('names any one field that is missing', () => {
		for (const path of KINDS.flatMap((kind) => SPEC_FIELDS[kind])) {
			expect(rateRecordProblems(withField(path, undefined))).toEqual([`${path} is missing`]);
		}
	});

	it.each([
		[null, 'null'],
		[[], 'array'],
		['4 stars', 'string'],
	])('refuses %j where otherRatings and ratingFlags are objects', (value, got) => {
		expect(rateRecordProblems(rateRecord({ otherRatings: value, ratingFlags: value }))).toEqual([
			`otherRatings must be an object, got ${got}`,
			`ratingFlags must be an object, got ${got}`,
		]);
	});
});

describe.each(KINDS)('%s fields', (kind) => {
	const { valid, invalid } = EXAMPLES[kind];

	it.each(valid.map((value) => [value]))('accept %j', (value) => {
		for (const path of SPEC_FIELDS[kind]) expect({ path, problems: rateRecordProblems(withField(path, value)) }).toEqual({ path, problems: [] });
	});

	it.each(invalid)('refuse %j: "%s"', (value, reason) => {
		for (const path of SPEC_FIELDS[kind]) expect(rateRecordProblems(withField(path, value))).toEqual([`${path} ${reason}`]);
	});
});

describe('several problems of one record', () => {
	it('are listed in the spec order, each once', () => {
		const record = rateRecord({ shopId: '1', checkIn: 'soon', isLAR: null, otherRatings: { htlRating: 'x' }, ratingFlags: [] });
		delete record.hotelName;
		expect(rateRecordProblems(record)).toEqual([
			'shopId must be a number, got string',
			'checkIn must be an ISO 8601 timestamp such as 2025-03-01T00:00:00Z',
			'hotelName is missing',
			'isLAR must be a boolean, got null',
			'otherRatings.htlRating must be a number, got string',
			'otherRatings.aptRating is missing',
			'otherRatings.dotsRating is missing',
			'ratingFlags must be an object, got array',
		]);
	});

	it('leave extra fields out of the judgement, at the top and in nested objects', () => {
		const record = rateRecord({ recordId: 5, vendorNote: null, otherRatings: { htlRating: 1, aptRating: 2, dotsRating: 3, stars: 'x' } });
		expect(rateRecordProblems(record)).toEqual([]);
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
