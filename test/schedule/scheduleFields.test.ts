import { fieldErrorOf } from '../harness/fieldErrors';
import { DAILY_FROM_2030_SCHEDULE_BODY } from '../harness/fixtures';
import {
	parseDaysOfMonth,
	parseDaysOfWeek,
	parseHours,
	parseMinute,
	parseMonths,
	parseNextRunsToShow,
	parseRateShopId,
	parseScheduleId,
	parseScheduleName,
	parseSecond,
	parseStatus,
	parseYears,
	scheduleFieldsFrom,
	selectionOrAll,
	type ScheduleInput,
} from '../../nodes/Schedule/scheduleFields';

const validInput: ScheduleInput = {
	name: 'Paris daily',
	rateShopId: 42,
	years: '',
	months: '*',
	daysOfWeek: '*',
	daysOfMonth: '',
	hours: '6',
	minute: 30,
	second: 0,
	status: 1,
	startDate: '2026-01-01',
	endDate: '',
};

describe('Years: empty or * means every year, otherwise a list of four-digit years', () => {
	it.each([
		['', '*'],
		['*', '*'],
		['  *  ', '*'],
		[undefined, '*'],
		['2026', '2026'],
		[2026, '2026'],
		['2027, 2026,2026', '2026,2027'],
		['2026-2028', '2026,2027,2028'],
		[['2026', 2027], '2026,2027'],
		// One list rule for every node (nodes/shared/fields.ts): empty entries are dropped.
		['2026,,2027', '2026,2027'],
		['2026,', '2026'],
		[['2026,2027', 2028], '2026,2027,2028'],
	])('%j is sent as "%s"', (value, wire) => {
		expect(parseYears(value).wire).toBe(wire);
	});

	it.each([
		['26', '"26" is not a four-digit year'],
		['2026,abc', '"abc" is not a four-digit year'],
		['2028-2026', 'runs backwards'],
		['*,2026', 'cannot be combined'],
	])('rejects %j, naming the item', (value, reason) => {
		const error = fieldErrorOf(() => parseYears(value));
		expect(error.field).toBe('Years');
		expect(error.value).toBe(value);
		expect(error.reason).toContain(reason);
	});

	it('rejects a value that is neither text, a number nor a list', () => {
		expect(fieldErrorOf(() => parseYears({ year: 2026 })).field).toBe('Years');
	});
});

describe('Months: All, or a selection of 1 (January) to 12 (December)', () => {
	it.each([
		['*', '*', undefined],
		[[1, 3, 5], '1,3,5', [1, 3, 5]],
		['1,3,5', '1,3,5', [1, 3, 5]],
		['12,1', '1,12', [1, 12]],
		['March, jan, DEC', '1,3,12', [1, 3, 12]],
		['6-8', '6,7,8', [6, 7, 8]],
		[['1,2', 3], '1,2,3', [1, 2, 3]],
	])('%j is sent as "%s"', (value, wire, values) => {
		expect(parseMonths(value)).toEqual({ wire, values });
	});

	it.each([
		[[], 'choose at least one'],
		['', 'choose at least one'],
		['0', '"0" is not a month'],
		['13', '"13" is not a month'],
		['1,13', '"13" is not a month'],
		['Jan,Febuary', '"Febuary" is not a month'],
		['1.5', '"1.5" is not a month'],
	])('rejects %j', (value, reason) => {
		const error = fieldErrorOf(() => parseMonths(value));
		expect(error.field).toBe('Months');
		expect(error.reason).toContain(reason);
	});
});

describe('Days of Week: 1 Monday to 6 Saturday, 0 Sunday', () => {
	it.each([
		['*', '*'],
		[[1, 2, 3, 4, 5], '1,2,3,4,5'],
		['0', '0'],
		['Sunday,Monday', '0,1'],
		['sat, sun', '0,6'],
		['mon-fri', '1,2,3,4,5'],
		// A range that passes Saturday wraps to Sunday: Friday to Monday.
		['5-1', '0,1,5,6'],
	])('%j is sent as "%s"', (value, wire) => {
		expect(parseDaysOfWeek(value).wire).toBe(wire);
	});

	it.each([
		['7', '"7" is not a day of the week'],
		['-1', '"-1" is not a day of the week'],
		['Funday', '"Funday" is not a day of the week'],
		[[], 'choose at least one'],
	])('rejects %j', (value, reason) => {
		const error = fieldErrorOf(() => parseDaysOfWeek(value));
		expect(error.field).toBe('Days of Week');
		expect(error.reason).toContain(reason);
	});
});

describe('Days of Month: 1 to 31, lists and ranges, ranges sent as typed', () => {
	it.each([
		['', '*', undefined],
		['*', '*', undefined],
		['1,15,20-25', '1,15,20-25', [1, 15, 20, 21, 22, 23, 24, 25]],
		[' 1 , 15 , 20 - 25 ', '1,15,20-25', [1, 15, 20, 21, 22, 23, 24, 25]],
		['31', '31', [31]],
		[15, '15', [15]],
		['1;15', '1,15', [1, 15]],
		['1,,15', '1,15', [1, 15]],
	])('%j is sent as "%s"', (value, wire, values) => {
		expect(parseDaysOfMonth(value)).toEqual({ wire, values });
	});

	it.each([
		['0', '"0" is not a day of the month'],
		['32', '"32" is not a day of the month'],
		['1,15,20-32', '"32" is not a day of the month'],
		['25-20', 'the range "25-20" runs backwards; write it as 20-25'],
		['1-', '"1-" is not a day of the month'],
	])('rejects %j', (value, reason) => {
		const error = fieldErrorOf(() => parseDaysOfMonth(value));
		expect(error.field).toBe('Days of Month');
		expect(error.reason).toContain(reason);
	});
});

describe('Hours: empty or * runs hourly, otherwise a list of 0 to 23', () => {
	it.each([
		['', '*'],
		['*', '*'],
		['0', '0'],
		['18,6', '6,18'],
		[23, '23'],
		['9-11', '9,10,11'],
	])('%j is sent as "%s"', (value, wire) => {
		expect(parseHours(value).wire).toBe(wire);
	});

	it.each([
		['24', '"24" is not an hour (0 to 23)'],
		['6,24', '"24" is not an hour (0 to 23)'],
		['6pm', '"6pm" is not an hour'],
	])('rejects %j', (value, reason) => {
		const error = fieldErrorOf(() => parseHours(value));
		expect(error.field).toBe('Hours');
		expect(error.reason).toContain(reason);
	});
});

describe('Minute and Second: one whole number from 0 to 59', () => {
	it.each([
		[0, '0'],
		[59, '59'],
		['30', '30'],
		[' 7 ', '7'],
	])('%j is sent as "%s"', (value, wire) => {
		expect(parseMinute(value)).toBe(wire);
		expect(parseSecond(value)).toBe(wire);
	});

	it.each([[60], [-1], [1.5], ['abc'], ['1,2'], ['']])('rejects %j', (value) => {
		expect(fieldErrorOf(() => parseMinute(value)).field).toBe('Minute');
		expect(fieldErrorOf(() => parseSecond(value)).field).toBe('Second');
	});
});

describe('Name, Rate Shop ID and Schedule ID', () => {
	it('trims the name and accepts a number from an expression', () => {
		expect(parseScheduleName('  Paris daily ')).toBe('Paris daily');
		expect(parseScheduleName(2026)).toBe('2026');
	});

	it('requires a name', () => {
		expect(fieldErrorOf(() => parseScheduleName('  ')).reason).toBe('is required');
		expect(fieldErrorOf(() => parseScheduleName(undefined)).field).toBe('Name');
	});

	it('accepts a positive whole rate shop ID, also as text', () => {
		expect(parseRateShopId(42)).toBe(42);
		expect(parseRateShopId('42')).toBe(42);
	});

	it.each([[0], [-3], [4.2], ['x42'], ['']])('rejects the rate shop ID %j', (value) => {
		expect(fieldErrorOf(() => parseRateShopId(value)).field).toBe('Rate Shop ID');
	});

	it('accepts a schedule ID up to the int32 limit of the path', () => {
		expect(parseScheduleId('2147483647')).toBe(2147483647);
		expect(fieldErrorOf(() => parseScheduleId(2147483648)).field).toBe('Schedule ID');
		expect(fieldErrorOf(() => parseScheduleId(0)).field).toBe('Schedule ID');
	});
});

describe('Status: 1 active, 0 inactive', () => {
	it.each([
		[1, 1],
		['1', 1],
		['Active', 1],
		[0, 0],
		['inactive', 0],
	])('%j is sent as %j', (value, status) => {
		expect(parseStatus(value)).toBe(status);
	});

	it('rejects anything else', () => {
		expect(fieldErrorOf(() => parseStatus('paused')).field).toBe('Status');
	});
});

describe('Months and Days of Week modes', () => {
	it('sends * for All whatever the selection holds', () => {
		expect(selectionOrAll('Months', 'all', [1, 2])).toBe('*');
	});

	it('passes the selection on for Selected', () => {
		expect(selectionOrAll('Months', 'selected', [1, 2])).toEqual([1, 2]);
	});

	it('rejects an unknown mode from an expression', () => {
		expect(fieldErrorOf(() => selectionOrAll('Days of Week', 'some', [])).field).toBe('Days of Week');
	});
});

describe('Next Runs to Show: 1 to 100, 5 when not set', () => {
	it('defaults to 5', () => {
		expect(parseNextRunsToShow(undefined)).toBe(5);
	});

	it('rejects 0 and 101', () => {
		expect(fieldErrorOf(() => parseNextRunsToShow(0)).field).toBe('Next Runs to Show');
		expect(fieldErrorOf(() => parseNextRunsToShow(101)).field).toBe('Next Runs to Show');
	});
});

describe('The schedule body: every field in the spec string form', () => {
	it('builds the body the spec describes, without an end date when none is given', () => {
		expect(scheduleFieldsFrom(validInput, 'UTC')).toEqual({ ...DAILY_FROM_2030_SCHEDULE_BODY, startdate: '2026-01-01' });
	});

	it('sends the end date when one is given', () => {
		const fields = scheduleFieldsFrom({ ...validInput, endDate: '2026-12-31' }, 'UTC');
		expect(fields.enddate).toBe('2026-12-31');
	});

	it('accepts an end date on the start date', () => {
		const fields = scheduleFieldsFrom({ ...validInput, endDate: '2026-01-01' }, 'UTC');
		expect(fields.enddate).toBe('2026-01-01');
	});

	it('rejects an end date before the start date, naming both', () => {
		const error = fieldErrorOf(() => scheduleFieldsFrom({ ...validInput, endDate: '2025-12-31' }, 'UTC'));
		expect(error.field).toBe('End Date');
		expect(error.value).toBe('2025-12-31');
		expect(error.reason).toBe('is before the Start Date 2026-01-01');
	});

	it('requires a start date', () => {
		const error = fieldErrorOf(() => scheduleFieldsFrom({ ...validInput, startDate: '' }, 'UTC'));
		expect(error.field).toBe('Start Date');
		expect(error.reason).toBe('is required');
	});

	it('reports the first bad field in form order', () => {
		const error = fieldErrorOf(() =>
			scheduleFieldsFrom({ ...validInput, hours: '25', startDate: '2026-02-30' }, 'UTC'),
		);
		expect(error.field).toBe('Hours');
	});

	it('states field, value and item in the message', () => {
		const error = fieldErrorOf(() => scheduleFieldsFrom({ ...validInput, daysOfMonth: '1,15,32' }, 'UTC'));
		expect(error.message).toBe('Days of Month "1,15,32": "32" is not a day of the month (1 to 31)');
	});
});
