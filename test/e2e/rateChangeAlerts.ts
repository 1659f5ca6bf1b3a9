import type { ExpectedChange } from '../../platform/sandbox';

/**
 * What Detect Changes must alert of the changes the sandbox made: the examples' rule (Rate
 * Changes' defaults: a move of 10 % or more, sold out, back on sale), and one identity for a
 * change as the sandbox expects it, as the node puts it out and as the digest lists it.
 */

/** Detect Changes' Change At Least (%) at its default, which the examples keep. */
export const CHANGE_AT_LEAST_PERCENT = 10;

export function changeIdentity(change: Record<string, unknown> | ExpectedChange): string {
	const record = change as Record<string, unknown>;
	return [
		record.hotelCode,
		record.websiteCode,
		String(record.checkIn).slice(0, 10),
		record.los,
		record.guests,
		record.roomType,
		record.changeType,
		record.previousRate,
		record.rate,
	].join('|');
}

/** Whether the examples' rule alerts on a change the sandbox made (the node's rounding: a change in cents, its percent to two places). */
export function passesRule(change: ExpectedChange): boolean {
	if (change.changeType === 'soldOut' || change.changeType === 'backOnSale') return true;
	const cents = Math.round(((change.rate as number) - (change.previousRate as number)) * 100) / 100;
	return Math.abs(Math.round((cents / (change.previousRate as number)) * 10_000) / 100) >= CHANGE_AT_LEAST_PERCENT;
}

/** Each entry of `list` that is there more than once. */
export function repeated(list: readonly string[]): string[] {
	return [...new Set(list.filter((entry, index) => list.indexOf(entry) !== index))];
}
