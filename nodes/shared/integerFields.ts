import { FieldError } from './errors';

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

function isEmpty(value: unknown): boolean {
	return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

export function parseInteger(field: string, value: unknown): number {
	if (isEmpty(value)) throw new FieldError(field, value, 'is required');
	const number = wholeNumber(value);
	if (number === undefined) throw new FieldError(field, value, 'must be a whole number');
	return number;
}

/** A whole number of at least 1: codes, IDs, days, lengths of rent. */
export function parsePositiveInteger(field: string, value: unknown): number {
	const number = parseInteger(field, value);
	if (number < 1) throw new FieldError(field, value, 'must be a positive whole number (1 or more)');
	return number;
}
