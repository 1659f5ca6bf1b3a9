import type { ColumnSpec, TableSpec } from './dataTables';

/**
 * The four tables Rate Changes keeps in n8n's Data Tables, column by column
 * (docs/nodes/rate-changes-reference.md shows them to users; a CI check holds the two together).
 * Times are ISO 8601 text, not date columns: text compares exactly as it was written on every
 * database n8n runs on, and a compare-and-set filters on it.
 *
 * The rates, positions and queue tables hold month rows (monthRows.ts), keyed and written alike:
 * - `block`: the row's key, what every read and write finds it by: a stay month
 *   (`<hotel>|<website>|YYYY-MM|<nights>|<guests>|<room type>`, stayMonths.ts), a positions month
 *   (`rank|…`, `parity|…`, `calendar|…`, positionMonths.ts) or a queue row (`lease|…`, `records|…`,
 *   queue.ts). One row counts per key: the one with the lowest id.
 * - `writers`: the tokens of the row's last writes, newest first, and of earlier ones whose alerts
 *   are not confirmed yet; each write is a compare-and-set on it (monthRows.ts).
 * - `collected` (rates and positions): the collection times the row's packed days refer to (monthCells.ts).
 */

export const RATES_TABLE_DEFAULT = 'travel_pricing_rates';
export const CHANGES_TABLE_DEFAULT = 'travel_pricing_rate_changes';
export const POSITIONS_TABLE_DEFAULT = 'travel_pricing_positions';

/** One row per stay month: the latest record of each stay of one hotel, website, room, nights, guests and month (stayMonths.ts). */
export const RATES_COLUMNS: readonly ColumnSpec[] = [
	{ name: 'block', type: 'string' },
	{ name: 'hotelCode', type: 'number' },
	{ name: 'hotelName', type: 'string' },
	{ name: 'websiteCode', type: 'number' },
	{ name: 'roomType', type: 'string' },
	{ name: 'los', type: 'number' },
	{ name: 'guests', type: 'number' },
	{ name: 'month', type: 'string' },
	{ name: 'currency', type: 'string' },
	{ name: 'shopId', type: 'number' },
	{ name: 'latitude', type: 'number' },
	{ name: 'longitude', type: 'number' },
	{ name: 'rates', type: 'string' },
	{ name: 'collected', type: 'string' },
	{ name: 'writers', type: 'string' },
];

/** One row per round of writes of an execution that alerted: its alerts, packed (journal.ts). */
export const CHANGES_COLUMNS: readonly ColumnSpec[] = [
	{ name: 'entry', type: 'string' },
	{ name: 'state', type: 'string' },
	{ name: 'operation', type: 'string' },
	{ name: 'monthTable', type: 'string' },
	{ name: 'alertCount', type: 'number' },
	{ name: 'alerts', type: 'string' },
	{ name: 'collectedTo', type: 'string' },
	{ name: 'resolvedBy', type: 'string' },
	{ name: 'digestId', type: 'string' },
	{ name: 'reportedAt', type: 'string' },
];

/** One row per month of remembered positions: my rank of each stay-night, or a stay's parity states (positionMonths.ts). */
export const POSITIONS_COLUMNS: readonly ColumnSpec[] = [
	{ name: 'block', type: 'string' },
	{ name: 'kind', type: 'string' },
	{ name: 'hotelCode', type: 'number' },
	{ name: 'month', type: 'string' },
	{ name: 'states', type: 'string' },
	{ name: 'collected', type: 'string' },
	{ name: 'writers', type: 'string' },
];

/**
 * One row per stay month of the rates table: each stay's rates since Keep History days ago, its
 * first rate and each change after it (stayHistory.ts). Rows of a month stay after its check-ins
 * have passed, for the booking-window curve, until the last of them is Keep History days old.
 */
export const HISTORY_COLUMNS: readonly ColumnSpec[] = [
	{ name: 'block', type: 'string' },
	{ name: 'hotelCode', type: 'number' },
	{ name: 'hotelName', type: 'string' },
	{ name: 'websiteCode', type: 'number' },
	{ name: 'roomType', type: 'string' },
	{ name: 'los', type: 'number' },
	{ name: 'guests', type: 'number' },
	{ name: 'month', type: 'string' },
	{ name: 'currency', type: 'string' },
	{ name: 'history', type: 'string' },
	{ name: 'writers', type: 'string' },
];

/** The queue of one node's pass (queue.ts): its lease row, and the records executions staged for it. */
export const QUEUE_COLUMNS: readonly ColumnSpec[] = [
	{ name: 'block', type: 'string' },
	{ name: 'kind', type: 'string' },
	{ name: 'until', type: 'string' },
	{ name: 'records', type: 'string' },
	{ name: 'writers', type: 'string' },
];

export function ratesTable(name: string): TableSpec {
	return { field: 'Rates Table', name, columns: RATES_COLUMNS };
}

/** The history table sits beside the rates table whose stays it keeps: `<Rates Table>_history`. */
export function historyTable(ratesTableName: string): TableSpec {
	return { field: 'Rates Table', name: `${ratesTableName}_history`, columns: HISTORY_COLUMNS };
}

export function changesTable(name: string): TableSpec {
	return { field: 'Changes Table', name, columns: CHANGES_COLUMNS };
}

/** The queue table sits beside the changes table it serves: `<Changes Table>_queue`. */
export function queueTable(changesTableName: string): TableSpec {
	return { field: 'Changes Table', name: `${changesTableName}_queue`, columns: QUEUE_COLUMNS };
}

export function positionsTable(name: string): TableSpec {
	return { field: 'Positions Table', name, columns: POSITIONS_COLUMNS };
}
