import { DateTime } from 'luxon';

import { validationError } from './errors';
import type { Cell, ColumnType, Dialect } from './types';

/**
 * A value sent for a column, checked and converted as n8n does before it writes (its service runs
 * n8n-workflow's field validation, not strict, strings not parsed): strings go to string columns
 * as they are, numbers and booleans too (the database turns them into text); number columns take
 * anything Number() reads; booleans take true/false (any case), 1/0 and "1"/"0"; dates take what
 * Luxon reads as ISO, HTTP, RFC 2822 or SQL dates, or Date.parse does, kept as the UTC instant.
 */

/** The type name n8n's field validation uses in its messages. */
const FIELD_TYPE: Record<ColumnType, string> = { string: 'string', number: 'number', boolean: 'boolean', date: 'dateTime' };

const LUXON_HINT =
	' <br/><br/> Consider using <a href="https://moment.github.io/luxon/api-docs/index.html#datetimefromformat" target="_blank"><code>DateTime.fromFormat</code></a> to work with custom date formats.';

export type JsonScalar = string | number | boolean | null;

/** The value as sent, written into a message as n8n's getValueDescription does. */
function described(value: JsonScalar): string {
	return value === null ? "'null'" : `'${String(value)}'`;
}

function mismatch(column: string, type: ColumnType, value: JsonScalar): never {
	const reason = `'${column}' expects a ${FIELD_TYPE[type]} but we got ${described(value)}${type === 'date' ? LUXON_HINT : ''}`;
	throw validationError(`value '${String(value)}' does not match column type '${type}': ${reason}`);
}

function parseBoolean(value: string | number | boolean): boolean | undefined {
	if (typeof value === 'boolean') return value;
	if (typeof value === 'string' && ['true', 'false'].includes(value.toLowerCase())) return value.toLowerCase() === 'true';
	if (typeof value === 'string' && value.trim() === '') return undefined;
	const number = Number(value);
	if (number === 0) return false;
	if (number === 1) return true;
	return undefined;
}

/** The instant n8n reads a date value as; zone-less texts are read in `zone` (n8n's process zone). */
export function parseDate(value: string | number | boolean, zone: string): Date | undefined {
	const text = String(value).trim();
	const options = { zone, setZone: true };
	for (const parsed of [DateTime.fromISO(text, options), DateTime.fromHTTP(text, options), DateTime.fromRFC2822(text, options), DateTime.fromSQL(text, options)]) {
		if (parsed.isValid) return parsed.toJSDate();
	}
	const fallback = DateTime.fromMillis(Date.parse(text), { zone });
	return fallback.isValid ? fallback.toJSDate() : undefined;
}

/**
 * The cell a value becomes in a column of this type, or n8n's validation error (400). `zone` is
 * the zone zone-less dates are read in.
 */
export function toCell(column: string, type: ColumnType, value: JsonScalar, dialect: Dialect, zone: string): Cell {
	if (value === null) return null;
	switch (type) {
		case 'string':
			return typeof value === 'string' ? value : textOfScalar(value, dialect);
		case 'number': {
			const number = Number(value);
			return Number.isNaN(number) ? mismatch(column, type, value) : number;
		}
		case 'boolean': {
			const parsed = parseBoolean(value);
			return parsed === undefined ? mismatch(column, type, value) : parsed;
		}
		case 'date': {
			const parsed = parseDate(value, zone);
			return parsed === undefined ? mismatch(column, type, value) : parsed;
		}
	}
}

/**
 * The text a database makes of a number or boolean written to a text column. SQLite: booleans
 * are bound as 1 and 0, numbers other than 32-bit integers as doubles, which it writes as reals
 * ("4294967296.0"); the
 * Postgres driver sends String(value).
 */
function textOfScalar(value: number | boolean, dialect: Dialect): string {
	if (dialect === 'postgres') return String(value);
	if (typeof value === 'boolean') return value ? '1' : '0';
	return (value | 0) === value ? String(value) : sqliteRealText(value);
}

/** How SQLite writes a real as text: whole numbers keep a ".0", exponents read "1.0e+21". */
export function sqliteRealText(value: number): string {
	if (Number.isInteger(value) && Math.abs(value) < 1e15) return `${value}.0`;
	const text = String(value);
	const [mantissa, exponent] = text.split('e');
	if (exponent === undefined) return text;
	return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}e${exponent.startsWith('-') ? exponent : `+${exponent.replace('+', '')}`}`;
}

/** SQLite's text form of a date, as n8n writes dates there: "2024-01-02 03:04:05.678". */
export function sqliteDateText(date: Date): string {
	return date.toISOString().replace('T', ' ').replace('Z', '');
}

/** A cell as the API puts it out: dates as ISO texts. */
export function cellJson(cell: Cell): JsonScalar {
	return cell instanceof Date ? cell.toISOString() : cell;
}
