import { DateTime } from 'luxon';

import { optionalCalendarDay, parseCalendarDay } from '../../nodes/shared/fields';
import { fieldErrorOf } from '../harness/fieldErrors';

// Far from UTC on both sides: 14 hours ahead and 11 hours behind.
const KIRITIMATI = 'Pacific/Kiritimati';
const PAGO_PAGO = 'Pacific/Pago_Pago';

describe('a day as written stays that day in every timezone', () => {
	it.each([KIRITIMATI, PAGO_PAGO, 'UTC'])('in %s', (zone) => {
		expect(parseCalendarDay('Start Date', '2026-03-01', zone)).toBe('2026-03-01');
		expect(parseCalendarDay('Start Date', '2028-02-29', zone)).toBe('2028-02-29');
		// What the date picker gives: a wall time in the workflow's timezone.
		expect(parseCalendarDay('Start Date', '2026-03-01T00:30:00', zone)).toBe('2026-03-01');
		expect(parseCalendarDay('Start Date', '2026-03-01T23:30:00', zone)).toBe('2026-03-01');
		expect(parseCalendarDay('Start Date', '2026-03-01 23:30', zone)).toBe('2026-03-01');
	});
});

describe('an instant counts on its day in the workflow\'s timezone', () => {
	it.each([
		['2026-03-01T10:30:00Z', KIRITIMATI, '2026-03-02'],
		['2026-03-01T10:30:00Z', PAGO_PAGO, '2026-02-28'],
		['2026-03-01T10:30:00Z', 'UTC', '2026-03-01'],
		['2026-03-01T00:30:00+14:00', PAGO_PAGO, '2026-02-27'],
		['2026-03-01T00:30:00+14:00', KIRITIMATI, '2026-03-01'],
		['2026-03-01T23:30:00-05:00', 'Europe/Berlin', '2026-03-02'],
	])('%s in %s is %s', (value, zone, day) => {
		expect(parseCalendarDay('Start Date', value, zone)).toBe(day);
	});

	it('reads a JavaScript Date and a Luxon DateTime ({{ $now }}) the same way', () => {
		const instant = '2026-03-01T10:30:00Z';
		expect(parseCalendarDay('Start Date', new Date(instant), KIRITIMATI)).toBe('2026-03-02');
		expect(parseCalendarDay('Start Date', new Date(instant), PAGO_PAGO)).toBe('2026-02-28');
		const utc = DateTime.fromISO(instant, { zone: 'utc' });
		expect(parseCalendarDay('Start Date', utc, KIRITIMATI)).toBe('2026-03-02');
		expect(parseCalendarDay('Start Date', utc, PAGO_PAGO)).toBe('2026-02-28');
	});
});

describe('empty and bad dates', () => {
	it('treats an empty optional date as not given', () => {
		for (const empty of ['', '  ', undefined, null]) {
			expect(optionalCalendarDay('To Date', empty, 'UTC')).toBeUndefined();
		}
	});

	it('asks for a required date', () => {
		const error = fieldErrorOf(() => parseCalendarDay('Start Date', '', 'UTC'));
		expect(error.field).toBe('Start Date');
		expect(error.reason).toBe('is required');
	});

	it.each([
		['2026-02-29', 'February 2026 has 28 days'],
		['2026-04-31', 'April 2026 has 30 days'],
		['2026-13-01', 'month 13 does not exist'],
		['01/03/2026', 'YYYY-MM-DD'],
		['2026-3-1', 'YYYY-MM-DD'],
		['2026-03', 'YYYY-MM-DD'],
		['2026-W10', 'YYYY-MM-DD'],
		['tomorrow', 'YYYY-MM-DD'],
		['2026-02-30T10:00:00', 'YYYY-MM-DD'],
		[20260301, 'YYYY-MM-DD'],
	])('refuses %j: %s', (value, reason) => {
		const error = fieldErrorOf(() => parseCalendarDay('Start Date', value, 'UTC'));
		expect(error.field).toBe('Start Date');
		expect(error.value).toBe(value);
		expect(error.reason).toContain(reason);
	});
});
