import { databaseError, validationError } from './errors';
import { columnNameIssue } from './names';
import { SYSTEM_COLUMNS, type Cell, type ColumnType, type Dialect, type Row, type Table } from './types';
import { sqliteDateText, toCell, type JsonScalar } from './values';

/**
 * Row filters as n8n's public API takes them: `{ type: 'and' | 'or', filters: [{ columnName,
 * condition, value }] }`, one level only (no nested groups), and what each condition means in
 * SQL on either database (n8n's data table rows repository, README.md "Filters").
 */

export type Condition = 'eq' | 'neq' | 'like' | 'ilike' | 'gt' | 'gte' | 'lt' | 'lte' | 'isEmpty' | 'isNotEmpty';

/** The eight conditions of every version (and of update and upsert bodies on every version). */
export const COMPARISONS: readonly Condition[] = ['eq', 'neq', 'like', 'ilike', 'gt', 'gte', 'lt', 'lte'];
/** n8n 2.41 adds these two to reads and deletes. */
export const EMPTINESS: readonly Condition[] = ['isEmpty', 'isNotEmpty'];

export interface FilterCondition {
	columnName: string;
	condition: Condition;
	value: JsonScalar;
}

export interface Filter {
	type: 'and' | 'or';
	filters: FilterCondition[];
}

export interface FilterContext {
	dialect: Dialect;
	version: string;
	/** The zone zone-less date texts are read in (n8n's process zone). */
	zone: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const isScalar = (value: unknown): value is JsonScalar => value === null || ['string', 'number', 'boolean'].includes(typeof value);

/**
 * The filter n8n's schema reads from `raw`, or the first message its validation gives: `type`
 * defaults to 'and', `filters` to none, a condition to 'eq'; unknown keys are dropped.
 */
export function parseFilter(raw: unknown, conditions: readonly Condition[]): Filter | string {
	if (!isRecord(raw)) return 'Expected object';
	const type = raw.type ?? 'and';
	if (type !== 'and' && type !== 'or') return 'Invalid input';
	const items = raw.filters ?? [];
	if (!Array.isArray(items)) return 'Expected array';
	const filters: FilterCondition[] = [];
	for (const item of items) {
		if (!isRecord(item)) return 'Expected object';
		if (typeof item.columnName !== 'string') return 'Required';
		const nameIssue = columnNameIssue(item.columnName);
		if (nameIssue) return nameIssue;
		const condition = item.condition ?? 'eq';
		if (!conditions.includes(condition as Condition)) return 'Invalid input';
		if (!isScalar(item.value)) return 'Invalid input';
		filters.push({ columnName: item.columnName.trim(), condition: condition as Condition, value: item.value });
	}
	return { type, filters };
}

/** A column a filter or sort can name: a user column, or one of id, createdAt, updatedAt. */
export interface ColumnRef {
	name: string;
	type: ColumnType;
	cell(row: Row): Cell;
}

export function columnRef(table: Table, name: string): ColumnRef | undefined {
	const column = table.columns.find((candidate) => candidate.name === name);
	if (column) return { name, type: column.type, cell: (row) => row.cells.get(column.id) ?? null };
	const system = SYSTEM_COLUMNS.find((candidate) => candidate.name === name);
	if (!system) return undefined;
	return { name, type: system.type, cell: (row) => (name === 'id' ? row.id : name === 'createdAt' ? row.createdAt : row.updatedAt) };
}

export type RowPredicate = (row: Row) => boolean;

/**
 * The rows a filter selects, checked as n8n checks it: first every value against its column's
 * type (unknown column, value that does not fit), then each condition's own rules. No filters
 * select every row.
 */
export function compileFilter(table: Table, filter: Filter, context: FilterContext): RowPredicate {
	const resolved = filter.filters.map((item) => {
		const ref = columnRef(table, item.columnName);
		if (!ref) throw validationError(`unknown column name '${item.columnName}'`);
		return { item, ref, value: toCell(ref.name, ref.type, item.value, context.dialect, context.zone) };
	});
	const tests = resolved.map(({ item, ref, value }) => conditionTest(item.condition, ref, value, context));
	if (tests.length === 0) return () => true;
	return filter.type === 'or' ? (row) => tests.some((test) => test(row)) : (row) => tests.every((test) => test(row));
}

function conditionTest(condition: Condition, ref: ColumnRef, value: Cell, context: FilterContext): RowPredicate {
	const upper = condition.toUpperCase();
	if (condition === 'like' || condition === 'ilike') {
		if (value === null) throw validationError(`${upper} filter value cannot be null or undefined`);
		if (typeof value !== 'string' && !(value instanceof Date)) throw validationError(`${upper} filter value must be a string`);
		return likeTest(condition, ref, value, context);
	}
	if (['gt', 'gte', 'lt', 'lte'].includes(condition) && value === null) {
		throw validationError(`${upper} filter value cannot be null or undefined`);
	}
	if (condition === 'isEmpty' || condition === 'isNotEmpty') {
		if (ref.type !== 'string') return conditionTest(condition === 'isEmpty' ? 'eq' : 'neq', ref, null, context);
		const empty = (row: Row): boolean => {
			const cell = ref.cell(row);
			return cell === null || cell === '';
		};
		return condition === 'isEmpty' ? empty : (row) => !empty(row);
	}
	if (value === null) {
		// eq null is IS NULL, neq null IS NOT NULL.
		return condition === 'eq' ? (row) => ref.cell(row) === null : (row) => ref.cell(row) !== null;
	}
	const target = comparable(value, ref.type, context.dialect, 'filter');
	/** How the row's cell compares with the value; an empty cell compares with nothing. */
	const holds = (accepts: (order: number) => boolean): RowPredicate => (row) => {
		const cell = ref.cell(row);
		return cell !== null && accepts(compareComparables(comparable(cell, ref.type, context.dialect, 'stored'), target));
	};
	switch (condition) {
		case 'eq':
			return holds((order) => order === 0);
		case 'neq': {
			// n8n writes neq as (column != value OR column IS NULL): empty cells count as different.
			const same = holds((order) => order === 0);
			return (row) => !same(row);
		}
		case 'gt':
			return holds((order) => order > 0);
		case 'gte':
			return holds((order) => order >= 0);
		case 'lt':
			return holds((order) => order < 0);
		default:
			return holds((order) => order <= 0);
	}
}

type Comparable = string | number;

/**
 * What the database compares. SQLite keeps n8n's dates as text ("2024-01-02 03:04:05.678") and
 * n8n passes a filter's date as an ISO text ("2024-01-02T03:04:05.678Z"), so SQLite compares
 * the two texts, which no stored date ever equals; Postgres compares instants.
 */
export function comparable(cell: Exclude<Cell, null>, type: ColumnType, dialect: Dialect, side: 'stored' | 'filter'): Comparable {
	if (cell instanceof Date) {
		if (dialect === 'postgres') return cell.getTime();
		return side === 'stored' ? sqliteDateText(cell) : cell.toISOString();
	}
	if (typeof cell === 'boolean') return cell ? 1 : 0;
	if (type === 'string') return String(cell);
	return cell;
}

/** Texts compare by code point (SQLite's BINARY collation; Postgres with the C collation). */
export function compareComparables(a: Comparable, b: Comparable): number {
	if (typeof a === 'number' && typeof b === 'number') return a === b ? 0 : a < b ? -1 : 1;
	if (typeof a === 'number') return -1;
	if (typeof b === 'number') return 1;
	return compareText(a, b);
}

export function compareText(a: string, b: string): number {
	if (a === b) return 0;
	const length = Math.min(a.length, b.length);
	for (let i = 0; i < length; i++) {
		if (a.charCodeAt(i) === b.charCodeAt(i)) continue;
		// At the first unit that differs, the code points there order the texts (a surrogate pair's
		// code point is above every unit outside it, which the units alone would not say).
		return (a.codePointAt(i) as number) < (b.codePointAt(i) as number) ? -1 : 1;
	}
	return a.length < b.length ? -1 : 1;
}

/**
 * like and ilike: `%` is the only wildcard (n8n escapes `_` and `\`, and SQLite's like is a GLOB
 * with its own wildcards escaped), and a value without `%` matches anywhere (`%value%`). like is
 * case-sensitive; ilike ignores case, only of ASCII letters on SQLite (UPPER on both sides).
 */
function likeTest(condition: 'like' | 'ilike', ref: ColumnRef, value: string | Date, context: FilterContext): RowPredicate {
	if (ref.type === 'date' && context.dialect === 'postgres') {
		throw databaseError(context.version, `operator does not exist: timestamp with time zone ${condition === 'like' ? '~~' : '~~*'} unknown`);
	}
	const text = value instanceof Date ? value.toISOString() : value;
	const pattern = text.includes('%') ? text : `%${text}%`;
	const matcher = likeMatcher(pattern, condition === 'ilike', context.dialect);
	return (row) => {
		const cell = ref.cell(row);
		if (cell === null) return false;
		return matcher(cell instanceof Date ? (context.dialect === 'sqlite' ? sqliteDateText(cell) : cell.toISOString()) : String(cell));
	};
}

const asciiUpper = (text: string): string => text.replace(/[a-z]/g, (letter) => letter.toUpperCase());

export function likeMatcher(pattern: string, ignoreCase: boolean, dialect: Dialect): (text: string) => boolean {
	const fold = ignoreCase && dialect === 'sqlite' ? asciiUpper : (text: string) => text;
	const source = fold(pattern)
		.split('%')
		.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
		.join('[\\s\\S]*');
	const expression = new RegExp(`^${source}$`, ignoreCase && dialect === 'postgres' ? 'iu' : 'u');
	return (text) => expression.test(fold(text));
}
