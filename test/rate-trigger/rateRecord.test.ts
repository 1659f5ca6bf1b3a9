import {
	copyJsonObject,
	MAX_RECORD_DEPTH,
	rateRecordProblems,
	readDeliveryContent,
} from '../../nodes/RateTrigger/rateRecord';
import { rateRecord } from '../harness/rateRecords';

describe('a delivery body becomes one candidate record per rate record', () => {
	it('reads one record as one', () => {
		const content = readDeliveryContent(rateRecord());
		expect(content.rejection).toBeUndefined();
		expect('records' in content && content.records).toEqual([rateRecord()]);
	});

	it('reads an array as one record per entry, in order', () => {
		const content = readDeliveryContent([rateRecord({ hotelCode: 1 }), rateRecord({ hotelCode: 2 })]);
		expect('records' in content && content.records.map((record) => record.hotelCode)).toEqual([1, 2]);
	});

	it('reads an empty array as no records', () => {
		expect(readDeliveryContent([])).toEqual({ records: [] });
	});

	it('parses a body that n8n left as text or as bytes', () => {
		const text = JSON.stringify([rateRecord()]);
		expect(readDeliveryContent(text)).toEqual({ records: [rateRecord()] });
		expect(readDeliveryContent(text, Buffer.from(text))).toEqual({ records: [rateRecord()] });
		expect(readDeliveryContent(undefined, Buffer.from(text))).toEqual({ records: [rateRecord()] });
		expect(readDeliveryContent({}, Buffer.from(text))).toEqual({ records: [rateRecord()] });
	});

	it('keeps unknown extra fields such as the sandbox recordId', () => {
		const content = readDeliveryContent(rateRecord({ recordId: 'r-1', vendorNote: { a: [1, 2] } }));
		expect('records' in content && content.records[0]).toMatchObject({ recordId: 'r-1', vendorNote: { a: [1, 2] } });
	});
});

describe('bodies that are not rate records are refused as a whole', () => {
	it.each([
		['nothing', undefined, undefined, 'The delivery is empty'],
		['an empty object', {}, undefined, 'The delivery is empty'],
		['empty bytes', undefined, Buffer.alloc(0), 'The delivery is empty'],
		['blank text', '   ', undefined, 'The delivery is empty'],
		['text that is not JSON', '{"shopId": 7', undefined, 'The delivery is not valid JSON'],
		['a number', '42', undefined, 'not a number'],
		['a string', '"hello"', undefined, 'not a string'],
		// n8n parsed these application/json bodies already: each is a JSON string, not JSON text.
		['a JSON string holding a record', JSON.stringify(rateRecord()), Buffer.from(JSON.stringify(JSON.stringify(rateRecord()))), 'not a string'],
		['a JSON string holding an array', '[]', Buffer.from('"[]"'), 'not a string'],
		['a JSON string holding an empty object', '{}', Buffer.from(' "{}" '), 'not a string'],
		['an empty JSON string', '', Buffer.from('""'), 'not a string'],
		['null', 'null', undefined, 'not null'],
		['a boolean', true, undefined, 'not a boolean'],
		['an array with a scalar', [rateRecord(), 5], undefined, 'Record 1 of the delivery is not an object but a number'],
		['an array of arrays', [[rateRecord()]], undefined, 'Record 0 of the delivery is not an object but an array'],
	])('%s', (_name, body, rawBody, reason) => {
		const content = readDeliveryContent(body, rawBody);
		expect(content.rejection).toContain(reason);
	});
});

describe('hostile bodies neither pollute prototypes nor crash', () => {
	afterEach(() => {
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
		expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
	});

	it('drops __proto__, constructor and prototype keys at every level', () => {
		const body = JSON.parse(
			'{"shopId":7,"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"nested":{"__proto__":{"polluted":true},"prototype":1,"keep":2}}',
		) as Record<string, unknown>;
		const copy = copyJsonObject(body)!;
		expect(Object.keys(copy)).toEqual(['shopId', 'nested']);
		expect(copy.nested).toEqual({ keep: 2 });
		expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
		expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
	});

	it('drops prototype keys from records inside an array and from text bodies', () => {
		const text = `[${JSON.stringify(rateRecord()).replace('{', '{"__proto__":{"polluted":true},')}]`;
		const content = readDeliveryContent(text);
		expect('records' in content && Object.keys(content.records[0])).not.toContain('__proto__');
		expect('records' in content && (content.records[0] as { polluted?: unknown }).polluted).toBeUndefined();
	});

	it('drops a prototype key however deep inside a record it sits, and keeps the rest', () => {
		const text = JSON.stringify(rateRecord({ vendor: [{ a: { keep: 1 } }] })).replace('{"keep":1}', '{"__proto__":{"polluted":true},"keep":1}');
		const content = readDeliveryContent(JSON.parse(text));
		const record = 'records' in content ? content.records[0] : undefined;
		expect(record?.vendor).toEqual([{ a: { keep: 1 } }]);
		expect(Object.keys((record?.vendor as Array<{ a: object }>)[0].a)).toEqual(['keep']);
		expect(rateRecordProblems(record!)).toEqual([]);
	});

	it('refuses a record that is too deep even when it also holds a prototype key', () => {
		let deep: unknown = 'bottom';
		for (let level = 0; level < MAX_RECORD_DEPTH; level++) deep = { next: deep };
		const body = JSON.parse(JSON.stringify(rateRecord({ extra: deep })).replace('{', '{"__proto__":{"polluted":true},')) as unknown;
		expect(readDeliveryContent(body).rejection).toBe(`The record is nested deeper than ${MAX_RECORD_DEPTH} levels`);
	});

	it(`refuses records nested deeper than ${MAX_RECORD_DEPTH} levels, without exhausting the stack`, () => {
		let deep: unknown = 'bottom';
		for (let level = 0; level < 100_000; level++) deep = { next: deep };
		const content = readDeliveryContent(rateRecord({ extra: deep }));
		expect(content.rejection).toBe(`The record is nested deeper than ${MAX_RECORD_DEPTH} levels`);
	});

	it('refuses deeply nested text without throwing', () => {
		const text = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
		const content = readDeliveryContent(text);
		expect(content.rejection).toBeDefined();
	});

	it('accepts nesting up to the limit', () => {
		let nested: unknown = 1;
		for (let level = 0; level < MAX_RECORD_DEPTH - 1; level++) nested = [nested];
		expect(readDeliveryContent(rateRecord({ extra: nested })).rejection).toBeUndefined();
	});

	it('marks huge numbers as invalid instead of passing Infinity or imprecise integers', () => {
		const content = readDeliveryContent(
			JSON.stringify(rateRecord()).replace('"onsiteRate":142.5', '"onsiteRate":1e400').replace('"hotelCode":100001', '"hotelCode":123456789012345678901234567890'),
		);
		expect('records' in content).toBe(true);
		const problems = rateRecordProblems(('records' in content && content.records[0]) as Record<string, unknown>);
		expect(problems).toEqual(
			expect.arrayContaining([
				'onsiteRate must be a finite number',
				'hotelCode must be a whole number between -9007199254740991 and 9007199254740991',
			]),
		);
	});
});

describe('each record is checked against the fields of spec part 6', () => {
	it('finds nothing wrong with a complete record', () => {
		expect(rateRecordProblems(rateRecord())).toEqual([]);
	});

	it('names a missing field', () => {
		const record = rateRecord();
		delete record.onsiteRate;
		expect(rateRecordProblems(record)).toEqual(['onsiteRate is missing']);
	});

	it('names fields of the wrong type, nested ones with their path', () => {
		const problems = rateRecordProblems(
			rateRecord({ shopId: '7', isLAR: 'true', reviewsCount: 3.5, otherRatings: { htlRating: '4', aptRating: 0, dotsRating: 4 } }),
		);
		expect(problems).toEqual([
			'shopId must be a number, got string',
			'isLAR must be a boolean, got string',
			'reviewsCount must be a whole number, got float',
			'otherRatings.htlRating must be a number, got string',
		]);
	});

	it('checks the timestamps and the currency code', () => {
		expect(rateRecordProblems(rateRecord({ dtCollected: '2025-03-01' }))).toEqual([
			'dtCollected must be an ISO 8601 UTC timestamp such as 2025-03-01T06:30:00Z',
		]);
		expect(rateRecordProblems(rateRecord({ dtCollected: '2025-03-01T06:30:00+02:00' }))).toHaveLength(1);
		expect(rateRecordProblems(rateRecord({ checkIn: 'next tuesday' }))).toEqual([
			'checkIn must be an ISO 8601 timestamp such as 2025-03-01T00:00:00Z',
		]);
		expect(rateRecordProblems(rateRecord({ checkIn: '2025-04-10', checkOut: '2025-04-11T12:00:00.000+01:00' }))).toEqual([]);
		expect(rateRecordProblems(rateRecord({ currency: 'EURO' }))).toEqual([
			'currency must be a three-letter currency code such as EUR',
		]);
	});

	it('does not accept null for a typed field', () => {
		expect(rateRecordProblems(rateRecord({ promo: null }))).toEqual(['promo must be a string, got null']);
	});
});
