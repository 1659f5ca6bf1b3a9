/**
 * The packed text of a month row: what Rate Changes keeps per day of one month in one text column,
 * so that a stay costs a few dozen bytes of n8n's Data Tables limit instead of a row of its own
 * (docs/nodes/rate-changes-reference.md, "Size").
 *
 * `cells`: one entry per day, `DD=<value>@<i>`, separated by spaces, in day order; `<i>` indexes
 * `collected`, the distinct collection times of the row's days (ISO 8601, separated by spaces),
 * since the days of a shop share a handful of them. A value never holds a space, `=` or `@`.
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
	return { cells: entries.join(' '), collected: times.join(' ') };
}

/** The days of a packed row; an entry that does not read is left out rather than stopping the node. */
export function unpackCells<T>(packed: { cells?: unknown; collected?: unknown }, codec: CellValueCodec<T>): MonthCells<T> {
	const times = typeof packed.collected === 'string' && packed.collected !== '' ? packed.collected.split(' ') : [];
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

/** A number as the packed text writes it: no exponent for any rate, no trailing zeros ("92.5"). */
export function numberText(value: number | null): string {
	return value === null ? '' : String(value);
}

export function textNumber(text: string): number | null {
	if (text === '') return null;
	const value = Number(text);
	return Number.isFinite(value) ? value : null;
}
