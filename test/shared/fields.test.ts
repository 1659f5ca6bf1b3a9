import { FieldError } from '../../nodes/shared/errors';
import {
	currencyCode,
	decimalNumber,
	listEntries,
	optionalDecimal,
	parseCurrencyCode,
	parseDecimal,
	parseInteger,
	parsePositiveInteger,
	parseRequiredText,
	parseWholeNumber,
	WEEKDAY_OPTIONS,
	weekdayNumber,
	wholeNumber,
} from '../../nodes/shared/fields';

/** The one set of field rules every node reads by (nodes/shared/fields.ts). */

function reasonOf(parse: () => unknown): string {
	try {
		parse();
	} catch (error) {
		if (error instanceof FieldError) return error.reason;
		throw error;
	}
	throw new Error('expected a FieldError');
}

describe('a list field', () => {
	it.each<[unknown, unknown[]]>([
		['1, 2,3', ['1', '2', '3']],
		['1;2\n3', ['1', '2', '3']],
		['1,,2,', ['1', '2']],
		['  ', []],
		[undefined, []],
		[null, []],
		[7, [7]],
		[[1, '2,3', '', ' 4 '], [1, '2', '3', '4']],
		[{ code: 1 }, [{ code: 1 }]],
	])('%j has the entries %j', (value, entries) => {
		expect(listEntries(value)).toEqual(entries);
	});

	it('keeps spaces inside an entry, so "1 2" is one entry the caller refuses', () => {
		expect(listEntries('1 2, 3')).toEqual(['1 2', '3']);
	});
});

describe('whole numbers', () => {
	it('reads numbers and numeric text, nothing else', () => {
		expect([wholeNumber(42), wholeNumber(' 42 '), wholeNumber('-3')]).toEqual([42, 42, -3]);
		expect([wholeNumber(1.5), wholeNumber('1e3'), wholeNumber('abc'), wholeNumber(Number.MAX_SAFE_INTEGER + 1)]).toEqual([
			undefined,
			undefined,
			undefined,
			undefined,
		]);
	});

	it('says what a number must be in one wording', () => {
		expect(reasonOf(() => parseInteger('Code', 'x'))).toBe('must be a whole number');
		expect(reasonOf(() => parsePositiveInteger('Shop ID', 0))).toBe('must be a whole number of 1 or more');
		expect(reasonOf(() => parseWholeNumber('Minute', 60, { min: 0, max: 59 }))).toBe('must be a whole number from 0 to 59');
		expect(reasonOf(() => parseWholeNumber('Minute', ''))).toBe('is required');
		expect(parseWholeNumber('Minute', '59', { min: 0, max: 59 })).toBe(59);
	});
});

describe('decimals: plain decimal notation, the one rule of every decimal field and option', () => {
	it('reads numbers and numeric text, with an optional sign and decimal point', () => {
		expect([250, ' 12.5 ', '-0.5', '+3', '.5', '5.', '007'].map(decimalNumber)).toEqual([250, 12.5, -0.5, 3, 0.5, 5, 7]);
	});

	it('refuses hex, exponents, decimal commas, infinities and words, which Number() would read', () => {
		expect(['0x10', '1e3', '12,5', 'Infinity', 'abc', '', '1 000', true, Number.NaN, Infinity].map(decimalNumber)).toEqual(
			Array(10).fill(undefined),
		);
	});

	it('says what a number must be in one wording', () => {
		expect(reasonOf(() => parseDecimal('Proximity (Miles)', '0x10', { above: 0 }))).toBe('must be a number above 0');
		expect(reasonOf(() => parseDecimal('Onsite Rate At Least', -1, { min: 0 }))).toBe('must be a number of 0 or more');
		expect(reasonOf(() => parseDecimal('Latitude', '95', { min: -90, max: 90 }))).toBe('must be a number from -90 to 90');
		expect(reasonOf(() => parseDecimal('Amount', '1e3'))).toBe('must be a number');
		expect(reasonOf(() => parseDecimal('Amount', ' '))).toBe('is required');
		expect(parseDecimal('Proximity (Miles)', '0.5', { above: 0 })).toBe(0.5);
	});

	it('takes an empty optional decimal as not set', () => {
		expect([optionalDecimal('Rate', undefined), optionalDecimal('Rate', null), optionalDecimal('Rate', '  ')]).toEqual([
			undefined,
			undefined,
			undefined,
		]);
		expect(optionalDecimal('Rate', '250')).toBe(250);
		expect(reasonOf(() => optionalDecimal('Rate', '1e3', { min: 0 }))).toBe('must be a number of 0 or more');
	});
});

describe('currency codes: three letters in any case, sent upper-case', () => {
	it('reads a code, trimmed, and nothing else', () => {
		expect([' usd ', 'EUR', 'Eur'].map(currencyCode)).toEqual(['USD', 'EUR', 'EUR']);
		expect(['EURO', 'E1R', 'Euro', 978, ''].map(currencyCode)).toEqual(Array(5).fill(undefined));
	});

	it('says what a code must be in one wording', () => {
		expect(parseCurrencyCode('Currency', 'usd')).toBe('USD');
		expect(reasonOf(() => parseCurrencyCode('Currency', 'EURO'))).toBe('must be a three-letter currency code such as EUR');
		expect(reasonOf(() => parseCurrencyCode('Currency', '  '))).toBe('is required');
	});
});

describe('required text', () => {
	it('is trimmed, takes a number as text, and says "is required" when empty', () => {
		expect(parseRequiredText('Name', '  Paris ')).toBe('Paris');
		expect(parseRequiredText('Name', 2026)).toBe('2026');
		expect(reasonOf(() => parseRequiredText('Name', ' '))).toBe('is required');
		expect(reasonOf(() => parseRequiredText('Name', undefined))).toBe('is required');
		expect(reasonOf(() => parseRequiredText('Name', { a: 1 }))).toBe('must be text');
	});
});

describe('weekdays are numbered as the spec numbers them, 0 Sunday to 6 Saturday', () => {
	it('reads numbers, whole names and three-letter names in any case', () => {
		expect(['0', 1, 'Monday', 'mon', 'SAT', ' Tue '].map(weekdayNumber)).toEqual([0, 1, 1, 1, 6, 2]);
		expect([7, -1, 'Mo', 'Funday'].map(weekdayNumber)).toEqual([undefined, undefined, undefined, undefined]);
	});

	it('offers them Monday first', () => {
		expect(WEEKDAY_OPTIONS.map((day) => day.value)).toEqual([1, 2, 3, 4, 5, 6, 0]);
		expect(WEEKDAY_OPTIONS[0].name).toBe('Monday');
	});
});
