import { databaseError } from './errors';
import { columnRef, compareComparables, comparable, likeMatcher, type FilterContext, type RowPredicate } from './filter';
import type { Cell, Dialect, Row, RowJson, Table } from './types';
import { cellJson, sqliteDateText, sqliteRealText } from './values';

/**
 * Reading rows as n8n's rows repository does: the sort (a column, then id), the `search` text
 * across user columns, and rows put out as the API shows them.
 */

export type SortDirection = 'ASC' | 'DESC';

/** A row as the API shows it: user columns in physical order, then id, createdAt, updatedAt. */
export function rowJson(table: Table, row: Row): RowJson {
	const json: RowJson = {};
	for (const column of table.columns) json[column.name] = cellJson(row.cells.get(column.id) ?? null);
	json.id = row.id;
	json.createdAt = row.createdAt.toISOString();
	json.updatedAt = row.updatedAt.toISOString();
	return json;
}

/**
 * Rows in the order n8n returns them: by the sort column if any, then in `tieOrder` (2.41 adds
 * `id ASC`; 2.8.4 leaves ties and unsorted reads to the database's scan order). SQLite puts empty
 * cells first when ascending, Postgres last. A column the table does not have is a database error
 * (n8n checks only the name's form).
 */
export function sortRows(
	table: Table,
	rows: Row[],
	sortBy: [string, SortDirection] | undefined,
	context: FilterContext,
	tieOrder: (a: Row, b: Row) => number,
): Row[] {
	if (!sortBy) return [...rows].sort(tieOrder);
	const [name, direction] = sortBy;
	const ref = columnRef(table, name);
	if (!ref) {
		const message = context.dialect === 'sqlite' ? `SQLITE_ERROR: no such column: dataTable.${name}` : `column dataTable.${name} does not exist`;
		throw databaseError(context.version, message);
	}
	const sign = direction === 'ASC' ? 1 : -1;
	const nullsFirstAscending = context.dialect === 'sqlite';
	return [...rows].sort((a, b) => {
		const left = ref.cell(a);
		const right = ref.cell(b);
		let order: number;
		if (left === null || right === null) {
			order = left === right ? 0 : (left === null) === nullsFirstAscending ? -1 : 1;
		} else {
			order = compareComparables(comparable(left, ref.type, context.dialect, 'stored'), comparable(right, ref.type, context.dialect, 'stored'));
		}
		return order * sign || tieOrder(a, b);
	});
}

/**
 * The `search` parameter: rows where any user column, as text, contains the words (case
 * ignored; `%` is a wildcard, `_` is not), as n8n casts every column to text for it.
 */
export function searchPredicate(table: Table, search: string, dialect: Dialect, version: string): RowPredicate {
	const term = search.includes('%') ? search : `%${search}%`;
	const matches = likeMatcher(term, true, dialect);
	if (table.columns.length === 0) return () => true;
	return (row) =>
		table.columns.some((column) => {
			const cell = row.cells.get(column.id) ?? null;
			return cell !== null && matches(castToText(cell, dialect, version));
		});
}

/** CAST(cell AS TEXT): SQLite writes reals with ".0" and booleans as 1/0; Postgres writes booleans true/false and timestamps with their zone. */
function castToText(cell: Exclude<Cell, null>, dialect: Dialect, version: string): string {
	if (cell instanceof Date) {
		if (dialect === 'sqlite') return sqliteDateText(cell);
		return `${sqliteDateText(cell)}${version === '2.8.4' ? '' : '+00'}`;
	}
	if (typeof cell === 'boolean') return dialect === 'sqlite' ? (cell ? '1' : '0') : String(cell);
	if (typeof cell === 'number') return dialect === 'sqlite' ? sqliteRealText(cell) : String(cell);
	return cell;
}
