import { FieldError } from '../../nodes/shared/errors';
import { compileRateFilter, type RateFilterParameters } from '../../nodes/RateTrigger/rateFilters';
import { rateRecord } from '../harness/rateRecords';

const passes = (parameters: RateFilterParameters, overrides: Record<string, unknown> = {}) =>
	compileRateFilter(parameters)(rateRecord(overrides));

describe('without filters every record passes', () => {
	it('passes a record when the collection is empty', () => {
		expect(passes({})).toBe(true);
	});

	it('treats empty list fields as not set', () => {
		expect(passes({ hotelCodes: '', currencies: ' ', websiteCodes: [] })).toBe(true);
	});
});

describe('hotel codes, website codes and status codes keep the listed values only', () => {
	it('keeps a record whose hotel code is in the comma list', () => {
		expect(passes({ hotelCodes: '100002, 100001' })).toBe(true);
		expect(passes({ hotelCodes: '100002, 100003' })).toBe(false);
	});

	it('takes an array or a single number from an expression', () => {
		expect(passes({ hotelCodes: [100001, '100005'] })).toBe(true);
		expect(passes({ websiteCodes: 2 })).toBe(true);
		expect(passes({ websiteCodes: 3 })).toBe(false);
	});

	it('filters on statusCode', () => {
		expect(passes({ statusCodes: '200' })).toBe(true);
		expect(passes({ statusCodes: '200' }, { statusCode: 404 })).toBe(false);
	});

	it('reads the one list rule of every node: commas, semicolons or line breaks between entries', () => {
		expect(passes({ hotelCodes: '100002;100001' })).toBe(true);
		expect(passes({ hotelCodes: '100002\n100001\n' })).toBe(true);
		expect(() => compileRateFilter({ hotelCodes: '100002 100001' })).toThrow('"100002 100001" is not a whole number; separate codes with commas');
	});

	it('refuses a code that is not a whole number, naming the field', () => {
		expect(() => compileRateFilter({ hotelCodes: '100001, abc' })).toThrow(FieldError);
		expect(() => compileRateFilter({ websiteCodes: '1.5' })).toThrow(/Website Codes/);
	});
});

describe('LAR only keeps the lowest available rates', () => {
	it('keeps isLAR true and drops the rest', () => {
		expect(passes({ larOnly: true }, { isLAR: true })).toBe(true);
		expect(passes({ larOnly: true }, { isLAR: false })).toBe(false);
	});

	it('keeps everything when switched off', () => {
		expect(passes({ larOnly: false }, { isLAR: false })).toBe(true);
	});
});

describe('onsite rate at least and at most are inclusive bounds', () => {
	it('keeps rates on the bounds and drops those outside', () => {
		expect(passes({ minOnsiteRate: 142.5, maxOnsiteRate: 142.5 })).toBe(true);
		expect(passes({ minOnsiteRate: 150 })).toBe(false);
		expect(passes({ maxOnsiteRate: 100 })).toBe(false);
	});

	it('drops a record whose rate is not a number when a bound is set', () => {
		expect(passes({ minOnsiteRate: 0 }, { onsiteRate: 'n/a' })).toBe(false);
	});

	it('reads a bound by the shared decimal rule: plain decimal notation, text too, 0 or more', () => {
		expect(passes({ minOnsiteRate: ' 142.5 ' })).toBe(true);
		expect(passes({ minOnsiteRate: '' })).toBe(true);
		expect(() => compileRateFilter({ minOnsiteRate: '0x10' })).toThrow('Onsite Rate At Least "0x10": must be a number of 0 or more');
		expect(() => compileRateFilter({ maxOnsiteRate: '1e3' })).toThrow('Onsite Rate At Most "1e3": must be a number of 0 or more');
		expect(() => compileRateFilter({ maxOnsiteRate: -1 })).toThrow('Onsite Rate At Most "-1": must be a number of 0 or more');
	});

	it('refuses a lower bound above the upper one', () => {
		expect(() => compileRateFilter({ minOnsiteRate: 200, maxOnsiteRate: 100 })).toThrow(/Onsite Rate At Most/);
	});
});

describe('currency keeps the listed currency codes, in any case', () => {
	it('matches case-insensitively', () => {
		expect(passes({ currencies: 'usd, eur' })).toBe(true);
		expect(passes({ currencies: 'USD' })).toBe(false);
		expect(passes({ currencies: 'EUR' }, { currency: 'eur' })).toBe(true);
	});

	it('refuses something that is not a currency code', () => {
		expect(() => compileRateFilter({ currencies: 'EUR, Euro' })).toThrow(/Currencies/);
	});
});

describe('all filters set must match together', () => {
	it('drops a record that fails any one of them', () => {
		const parameters = { hotelCodes: '100001', currencies: 'EUR', larOnly: true, minOnsiteRate: 100 };
		expect(passes(parameters)).toBe(true);
		expect(passes(parameters, { currency: 'USD' })).toBe(false);
		expect(passes(parameters, { onsiteRate: 99 })).toBe(false);
	});
});
