import { DateTime } from 'luxon';

import { FieldError } from './errors';

/**
 * The one set of rules every node reads its fields by, with one wording for what went wrong:
 * empty values, whole numbers, decimals, required text, lists, weekday names and calendar days. A
 * node's own fields (a schedule's rules, a shop's markets) are built from these in the node's folder.
 */

/** Nothing typed: undefined, null, or text of only spaces. */
export function isEmpty(value: unknown): boolean {
	return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/**
 * The whole number a field holds, or undefined. A numeric string such as "100001" counts
 * (spreadsheets and webhooks hand codes over as text); "1.5", "1e3" and "abc" do not.
 */
export function wholeNumber(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
	if (typeof value !== 'string' || !/^\s*-?\d+\s*$/.test(value)) return undefined;
	const number = Number(value);
	return Number.isSafeInteger(number) ? number : undefined;
}

/** The bounds a number field holds its value to; `above` is a lower bound the value must exceed. */
export interface NumberBounds {
	min?: number;
	max?: number;
	above?: number;
}

/** "a number", "a number from -90 to 90", "a whole number of 1 or more", "a number above 0". */
function numberKind(kind: string, { min, max, above }: NumberBounds): string {
	if (min !== undefined && max !== undefined) return `${kind} from ${min} to ${max}`;
	if (above !== undefined) return `${kind} above ${above}`;
	if (min !== undefined) return `${kind} of ${min} or more`;
	if (max !== undefined) return `${kind} of ${max} or less`;
	return kind;
}

function withinBounds(number: number, { min, max, above }: NumberBounds): boolean {
	return (min === undefined || number >= min) && (max === undefined || number <= max) && (above === undefined || number > above);
}

/** "a whole number", "a whole number from 0 to 59", "a whole number of 1 or more". */
export function wholeNumberKind(min?: number, max?: number): string {
	return numberKind('a whole number', { min, max });
}

/** A required whole number, within the bounds given. */
export function parseWholeNumber(field: string, value: unknown, bounds: { min?: number; max?: number } = {}): number {
	if (isEmpty(value)) throw new FieldError(field, value, 'is required');
	const number = wholeNumber(value);
	if (number === undefined || !withinBounds(number, bounds)) {
		throw new FieldError(field, value, `must be ${wholeNumberKind(bounds.min, bounds.max)}`);
	}
	return number;
}

// Plain decimal notation, as a person types an amount or a distance. JavaScript's Number() would
// also read "0x10" as 16 and "1e3" as 1000, which nobody means in a rate or a radius.
const DECIMAL = /^[-+]?(?:\d+\.?\d*|\.\d+)$/;

/**
 * The number a decimal field holds, or undefined: a finite number, or text in plain decimal
 * notation ("250", " 12.5 ", "-0.5", ".5"). "0x10", "1e3", "12,5", "Infinity" and "abc" are not.
 */
export function decimalNumber(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value !== 'string' || !DECIMAL.test(value.trim())) return undefined;
	return Number(value);
}

/** "a number", "a number of 0 or more", "a number from -90 to 90", "a number above 0". */
export function decimalKind(bounds: NumberBounds = {}): string {
	return numberKind('a number', bounds);
}

/** A required decimal, within the bounds given. */
export function parseDecimal(field: string, value: unknown, bounds: NumberBounds = {}): number {
	if (isEmpty(value)) throw new FieldError(field, value, 'is required');
	const number = decimalNumber(value);
	if (number === undefined || !withinBounds(number, bounds)) {
		throw new FieldError(field, value, `must be ${decimalKind(bounds)}`);
	}
	return number;
}

/** A decimal that may be left empty (a bound the user added but did not fill in): undefined then. */
export function optionalDecimal(field: string, value: unknown, bounds: NumberBounds = {}): number | undefined {
	return isEmpty(value) ? undefined : parseDecimal(field, value, bounds);
}

export function parseInteger(field: string, value: unknown): number {
	return parseWholeNumber(field, value);
}

/** A whole number of at least 1: codes, IDs, days, lengths of rent. */
export function parsePositiveInteger(field: string, value: unknown): number {
	return parseWholeNumber(field, value, { min: 1 });
}

/** Required text, trimmed; a number (an ID from a sheet) is taken as its text. */
export function parseRequiredText(field: string, value: unknown): string {
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value !== 'string' || value.trim() === '') {
		throw new FieldError(field, value, typeof value === 'string' || value == null ? 'is required' : 'must be text');
	}
	return value.trim();
}

/** How a currency code may be written, whatever the node. */
export const CURRENCY_RULE_TEXT = 'a three-letter currency code such as EUR';

/**
 * A currency code (ISO 4217; the spec says only "currency code"): three letters in any case, given
 * upper-case, since "usd" can only mean USD. Undefined when the value is no such code.
 */
export function currencyCode(value: unknown): string | undefined {
	if (typeof value !== 'string' || !/^[A-Za-z]{3}$/.test(value.trim())) return undefined;
	return value.trim().toUpperCase();
}

/** A required currency code, upper-cased. */
export function parseCurrencyCode(field: string, value: unknown): string {
	if (isEmpty(value)) throw new FieldError(field, value, 'is required');
	const code = currencyCode(value);
	if (code === undefined) throw new FieldError(field, value, `must be ${CURRENCY_RULE_TEXT}`);
	return code;
}

/**
 * The entries of a list field: a list typed by hand, its entries separated by commas (or by
 * semicolons or line breaks, as pasted from a sheet), or an array an expression produced, whose
 * text members may be such lists too. Entries are trimmed and empty ones dropped; a number, or
 * anything else that is not text, is one entry for the caller to judge.
 */
export function listEntries(value: unknown): unknown[] {
	if (Array.isArray(value)) return value.flatMap(listEntries);
	if (typeof value === 'string') {
		return value
			.split(/[,;\n]/)
			.map((entry) => entry.trim())
			.filter((entry) => entry !== '');
	}
	return isEmpty(value) ? [] : [value];
}

/**
 * A list of codes (hotels, websites) by the list rule: whole numbers, each kept once, in the order
 * given; an empty field is an empty list.
 */
export function parseCodes(field: string, value: unknown): number[] {
	const codes = listEntries(value).map((entry) => {
		const code = wholeNumber(entry);
		if (code === undefined) throw new FieldError(field, value, `"${String(entry)}" is not a whole number; separate codes with commas`);
		return code;
	});
	return [...new Set(codes)];
}

/** Spec numbering of weekdays (schedules' `dow`, shops' `horizonDow`): index = the number sent, 0 Sunday. */
export const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** How a weekday may be written, whatever the node: 0 to 6 (0 Sunday), "Monday", "monday" or "Mon". */
export const WEEKDAY_RULE_TEXT = 'a day of the week (1 Monday to 6 Saturday, 0 Sunday, or a name such as Monday or Mon)';

/** The weekdays as a field's choices, in calendar order from Monday (a person scans them in that order). */
export const WEEKDAY_OPTIONS: Array<{ name: string; value: number }> = [1, 2, 3, 4, 5, 6, 0].map((value) => ({
	name: WEEKDAY_NAMES[value],
	value,
}));

const WEEKDAY_BY_NAME = new Map<string, number>(
	WEEKDAY_NAMES.flatMap((name, index) => [
		[name.toLowerCase(), index],
		[name.slice(0, 3).toLowerCase(), index],
	]),
);

/** The number of a weekday written as a number or a name, or undefined when it is neither. */
export function weekdayNumber(entry: unknown): number | undefined {
	if (typeof entry === 'string') {
		const named = WEEKDAY_BY_NAME.get(entry.trim().toLowerCase());
		if (named !== undefined) return named;
	}
	const number = wholeNumber(entry);
	return number !== undefined && number >= 0 && number <= 6 ? number : undefined;
}

/**
 * Calendar days. Dates the service knows are days (`YYYY-MM-DD`), and every node reads them one way: in the
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
