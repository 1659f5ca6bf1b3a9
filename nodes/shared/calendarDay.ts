import { DateTime } from 'luxon';

import { FieldError } from './errors';

/**
 * Dates the service knows are days (`YYYY-MM-DD`), and every node reads them one way: in the
 * workflow's timezone (Settings > Timezone, `this.getTimezone()`), so "today" is today where the
 * workflow runs, whichever node the date was typed, picked or computed in.
 *
 * - `2026-03-01` is that day.
 * - A date and time without an offset (the date picker gives `2026-03-01T00:30:00`) is a wall
 *   time in the workflow's timezone: its day is the day written.
 * - A date and time with an offset (`2026-03-01T10:30:00Z`), a JavaScript Date or a Luxon
 *   DateTime (`{{ $now }}`) is an instant: its day is the day it falls on in the workflow's
 *   timezone.
 */

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]/;
const FORM = 'must be a date in the form YYYY-MM-DD, for example 2026-03-01';

function isEmpty(value: unknown): boolean {
	return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** The day of a date field, or undefined when it is empty (an optional date left blank). */
export function optionalCalendarDay(field: string, value: unknown, zone: string): string | undefined {
	if (isEmpty(value)) return undefined;
	if (value instanceof Date) return dayOf(DateTime.fromJSDate(value, { zone }), field, value);
	if (DateTime.isDateTime(value)) return dayOf(value.setZone(zone), field, value);
	if (typeof value !== 'string') throw new FieldError(field, value, FORM);

	const text = value.trim();
	const plain = ISO_DAY.exec(text);
	if (plain) {
		const [year, month, day] = plain.slice(1).map(Number);
		if (!DateTime.fromObject({ year, month, day }, { zone: 'utc' }).isValid) {
			throw new FieldError(field, value, `this date does not exist: ${whyNotADay(year, month)}`);
		}
		return text;
	}
	// Luxon would also read "2026-03" or "2026-W10"; a day needs year, month and day.
	if (ISO_DATE_TIME.test(text)) return dayOf(DateTime.fromISO(text.replace(' ', 'T'), { zone }), field, value);
	throw new FieldError(field, value, FORM);
}

/** The day of a date field that must be filled in. */
export function parseCalendarDay(field: string, value: unknown, zone: string): string {
	const day = optionalCalendarDay(field, value, zone);
	if (day === undefined) throw new FieldError(field, value, 'is required');
	return day;
}

function whyNotADay(year: number, month: number): string {
	if (month < 1 || month > 12) return `month ${month} does not exist`;
	const monthStart = DateTime.fromObject({ year, month }, { zone: 'utc', locale: 'en' });
	return `${monthStart.toFormat('LLLL yyyy')} has ${monthStart.daysInMonth} days`;
}

function dayOf(date: DateTime, field: string, value: unknown): string {
	const day = date.isValid ? date.toISODate() : null;
	if (day === null) throw new FieldError(field, value, `${FORM}, and exist`);
	return day;
}
