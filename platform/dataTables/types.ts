/**
 * The shapes the stand-in keeps: tables, their columns and rows, as n8n's data table module holds
 * them (README.md: what n8n stores and how it answers).
 */

export type ColumnType = 'string' | 'number' | 'boolean' | 'date';

/** The n8n versions whose public Data Tables API the stand-in answers as. */
export type ApiVersion = '2.8.4' | '2.41.1';

/**
 * The database n8n runs on, for what depends on it: how values compare and sort (SQLite compares
 * stored dates as text, Postgres as timestamps), database error texts, and how size is measured.
 */
export type Dialect = 'sqlite' | 'postgres';

export interface Column {
	id: string;
	name: string;
	type: ColumnType;
	/** Its position in the editor (n8n's `index`); the physical order is the order of creation. */
	index: number;
	createdAt: Date;
	updatedAt: Date;
}

/**
 * A cell as the database holds it: text for string columns (a number sent to a string column is
 * kept as its text, as SQLite's and Postgres' text columns do), numbers, booleans, and dates as
 * Date (the instant; SQLite's text form is derived where it matters).
 */
export type Cell = string | number | boolean | Date | null;

export interface Row {
	id: number;
	/** By column id, so that renaming a column keeps its cells. */
	cells: Map<string, Cell>;
	createdAt: Date;
	updatedAt: Date;
}

export interface Table {
	id: string;
	name: string;
	projectId: string;
	createdAt: Date;
	updatedAt: Date;
	/** Physical order: the columns a table was created with, then each added column at the end. */
	columns: Column[];
	/** By id, in id order. */
	rows: Map<number, Row>;
	/**
	 * The id the next row gets. Postgres' identity sequence never gives one twice; SQLite gives one
	 * more than the highest id (n8n's id is a plain INTEGER PRIMARY KEY, without AUTOINCREMENT), so
	 * deleting the last rows, or all of them, gives their ids again.
	 */
	nextRowId: number;
}

/** A row as n8n's API puts it out: user columns in physical order, then id, createdAt, updatedAt. */
export type RowJson = Record<string, string | number | boolean | null>;

/** The system columns every data table has, with the types filters and sorting treat them as. */
export const SYSTEM_COLUMNS: ReadonlyArray<{ name: string; type: ColumnType }> = [
	{ name: 'id', type: 'number' },
	{ name: 'createdAt', type: 'date' },
	{ name: 'updatedAt', type: 'date' },
];

export function columnByName(table: Table, name: string): Column | undefined {
	return table.columns.find((column) => column.name === name);
}

/** The columns in the editor's order (n8n's `index`), as n8n's column list and CSV use it. */
export function columnsByIndex(table: Table): Column[] {
	return [...table.columns].sort((a, b) => a.index - b.index);
}
