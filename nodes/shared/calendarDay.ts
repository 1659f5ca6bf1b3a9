import { DateTime } from 'luxon';

import { FieldError } from './errors';

/**
 * Reads a calendar day the user typed, picked or computed (`2026-03-01`, or a date and time such as
 * `2026-03-01T00:00:00` or `{{ $now }}`) and returns it as `YYYY-MM-DD`. A date and time keeps the
 * day as written in its own offset: the service knows days, not instants, so nothing is shifted.
 */
export function parseCalendarDay(field: string, value: unknown): string {
	if (value === undefined || value === null || value === '') {
		throw new FieldError(field, value, 'is required');
	}
	const day = toDateTime(value);
	if (!day?.isValid) {
		throw new FieldError(field, value, 'must be a real date in the form YYYY-MM-DD, for example 2026-03-01');
	}
	return day.toISODate() as string;
}

function toDateTime(value: unknown): DateTime | undefined {
	if (DateTime.isDateTime(value)) return value;
	if (value instanceof Date) return DateTime.fromJSDate(value, { zone: 'utc' });
	// Luxon would also read "2026-03" or "2026-W10"; a day needs year, month and day.
	if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(value.trim())) return undefined;
	return DateTime.fromISO(value.trim(), { setZone: true });
}
