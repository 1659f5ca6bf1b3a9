/**
 * The packed text of a month row: what Rate Changes keeps per day of one month in one text column,
 * so that a stay costs a few dozen bytes of n8n's Data Tables limit instead of a row of its own
 * (docs/nodes/rate-changes-reference.md, "Size").
 *
 * `cells`: one entry per day, `DD=<value>@<i>`, separated by spaces, in day order; `<i>` indexes
 * `collected`, the distinct collection times of the row's days, separated by spaces, since the days
 * of a shop share a handful of them: the first in full (ISO 8601), the others as seconds from it
 * (`+2`, `-86400`), since a shop's records are collected within minutes of each other, and a
 * service that stamps each record with its own second would otherwise spend 25 bytes a day on it.
 * A value never holds a space, `=` or `@`.
 */

export interface DayCell<T> {
	value: T;
	/** When the record this value came from was collected, ISO 8601 UTC. */
	dtCollected: string;
}

export type MonthCells<T> = Map<number, DayCell<T>>;

export interface PackedCells {
	cells: string;
	collected: string;
}

export interface CellValueCodec<T> {
	encode(value: T): string;
	decode(text: string): T;
}

export function packCells<T>(cells: MonthCells<T>, codec: CellValueCodec<T>): PackedCells {
	const times: string[] = [];
	const entries = [...cells.entries()]
		.sort(([a], [b]) => a - b)
		.map(([day, { value, dtCollected }]) => {
			let index = times.indexOf(dtCollected);
			if (index < 0) index = times.push(dtCollected) - 1;
			return `${String(day).padStart(2, '0')}=${codec.encode(value)}@${index}`;
		});
	return { cells: entries.join(' '), collected: timesText(times).join(' ') };
}

/** The days of a packed row; an entry that does not read is left out rather than stopping the node. */
export function unpackCells<T>(packed: { cells?: unknown; collected?: unknown }, codec: CellValueCodec<T>): MonthCells<T> {
	const times = typeof packed.collected === 'string' && packed.collected !== '' ? textTimes(packed.collected.split(' ')) : [];
	const cells: MonthCells<T> = new Map();
	if (typeof packed.cells !== 'string' || packed.cells === '') return cells;
	for (const entry of packed.cells.split(' ')) {
		const match = /^(\d{2})=(.*)@(\d+)$/.exec(entry);
		const dtCollected = match ? times[Number(match[3])] : undefined;
		if (!match || dtCollected === undefined) continue;
		cells.set(Number(match[1]), { value: codec.decode(match[2]), dtCollected });
	}
	return cells;
}

/**
 * Collection times as packed rows keep them: the first in full, each other as the seconds from it,
 * as a number where that reads back to the very same text, else in full.
 */
export function packedTimes(times: readonly string[]): Array<string | number> {
	const origin = Date.parse(times[0] ?? '');
	return times.map((time, index) => {
		if (index === 0 || Number.isNaN(origin)) return time;
		const seconds = Number(((Date.parse(time) - origin) / 1000).toFixed(3));
		return Number.isFinite(seconds) && new Date(origin + Math.round(seconds * 1000)).toISOString() === time ? seconds : time;
	});
}

export function unpackedTimes(packed: ReadonlyArray<string | number>): string[] {
	const origin = Date.parse(String(packed[0] ?? ''));
	return packed.map((time) => (typeof time === 'number' && !Number.isNaN(origin) ? new Date(origin + Math.round(time * 1000)).toISOString() : String(time)));
}

/** The same as words of a text: seconds with their sign (`+2`, `-86400`). */
function timesText(times: readonly string[]): string[] {
	return packedTimes(times).map((time) => (typeof time === 'number' ? `${time >= 0 ? '+' : ''}${time}` : time));
}

function textTimes(words: readonly string[]): string[] {
	return unpackedTimes(words.map((word) => (/^[+-]\d/.test(word) ? Number(word) : word)));
}

/** A number as the packed text writes it: no exponent for any rate, no trailing zeros ("92.5"). */
export function numberText(value: number | null): string {
	return value === null ? '' : String(value);
}

export function textNumber(text: string): number | null {
	if (text === '') return null;
	const value = Number(text);
	return Number.isFinite(value) ? value : null;
}
