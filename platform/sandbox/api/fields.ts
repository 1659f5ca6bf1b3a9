import { badRequest } from './errors';

/**
 * Field checks shared by the endpoints. Each throws a 400 whose message names the field,
 * because the spec leaves "the full set of conditions that produce 400" open and a caller
 * can only fix what the reason names.
 */
export type Body = Record<string, unknown>;

export function requireBody(body: unknown): Body {
	if (body === undefined) throw badRequest('request body is required');
	if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('request body must be a JSON object');
	return body as Body;
}

/** Unknown fields are refused so that a misspelt field name fails loudly instead of being ignored. */
export function rejectUnknownFields(body: Body, allowed: readonly string[], prefix = ''): void {
	const unknown = Object.keys(body).filter((key) => !allowed.includes(key));
	if (unknown.length > 0) throw badRequest(`unknown field '${prefix}${unknown[0]}'; allowed fields: ${allowed.join(', ')}`);
}

export function isPresent(value: unknown): boolean {
	return value !== undefined && value !== null;
}

/** `prefix` names where the field sits, e.g. `markets[0].`. */
export function requiredString(body: Body, field: string, prefix = ''): string {
	const value = body[field];
	if (!isPresent(value)) throw badRequest(`${prefix}${field} is required`);
	if (typeof value !== 'string') throw badRequest(`${prefix}${field} must be a string`);
	if (value.trim() === '') throw badRequest(`${prefix}${field} must not be empty`);
	return value;
}

export function optionalString(body: Body, field: string): string | undefined {
	const value = body[field];
	if (!isPresent(value)) return undefined;
	if (typeof value !== 'string') throw badRequest(`${field} must be a string`);
	return value;
}

export interface IntegerRange {
	min?: number;
	max?: number;
}

function checkRange(value: number, field: string, range: IntegerRange): number {
	if (range.min !== undefined && value < range.min) throw badRequest(`${field} must be at least ${range.min}`);
	if (range.max !== undefined && value > range.max) throw badRequest(`${field} must be at most ${range.max}`);
	return value;
}

/** A JSON integer; strings are refused because the spec types these fields as integers. */
export function integer(value: unknown, field: string, range: IntegerRange = {}): number {
	if (typeof value !== 'number' || !Number.isInteger(value)) throw badRequest(`${field} must be an integer`);
	return checkRange(value, field, range);
}

/** An integer that may arrive as a JSON number or a numeric string (the spec types it both ways). */
export function integerLike(value: unknown, field: string, range: IntegerRange = {}): number {
	if (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)) return checkRange(Number(value), field, range);
	if (typeof value === 'number' && Number.isInteger(value)) return checkRange(value, field, range);
	throw badRequest(`${field} must be an integer`);
}

/** A number given as a JSON number or a numeric string (the spec types lat/lng as strings). */
export function numberLike(value: unknown, field: string): number {
	if (typeof value === 'number' && Number.isFinite(value)) return value;
	if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
	throw badRequest(`${field} must be a number`);
}

/** A real calendar date written `YYYY-MM-DD`. */
export function isCalendarDate(text: string): boolean {
	const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
	if (!match) return false;
	const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
	const date = new Date(Date.UTC(year, month - 1, day));
	return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export function calendarDate(value: unknown, field: string): string {
	if (typeof value !== 'string' || !isCalendarDate(value)) throw badRequest(`${field} must be a real date in the form YYYY-MM-DD`);
	return value;
}

/** Query parameters arrive as text; a positive integer is all paging accepts. */
export function positiveQueryInteger(raw: string | null, field: string, fallback: number, prefix = ''): number {
	if (raw === null) return fallback;
	if (!/^\d+$/.test(raw.trim()) || Number(raw) < 1) throw badRequest(`${prefix}${field} must be a positive integer`);
	return Number(raw);
}
