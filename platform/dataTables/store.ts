import { randomInt } from 'node:crypto';

import { ApiError, columnNotFound, databaseError, tableNotFound, validationError } from './errors';
import { compileFilter, type Filter, type FilterContext } from './filter';
import { reservedColumnKind, reservedColumnMessage } from './names';
import { pageOf, type Page } from './paging';
import { rowJson, searchPredicate, sortRows, type SortDirection } from './rows';
import { SizeGuard, type SizerFactory, type SizeStatus, type TableSizer } from './size';
import { columnsByIndex, type Cell, type Column, type ColumnType, type Dialect, type Row, type RowJson, type Table } from './types';
import { sqliteDateText, toCell, type JsonScalar } from './values';
import type { VersionBehaviour } from './versions';

/**
 * The state of n8n's Data Tables and the operations of its data table service, each checked the
 * way n8n checks it and applied at once: every operation validates everything first and then
 * changes the state in one synchronous step, as n8n's transactions do (SQLite's are serialised
 * by BEGIN IMMEDIATE; Postgres' UPDATE … WHERE re-checks the filter on the row it locks), so
 * of two updates whose filter names the same current state only one changes the row.
 */

export interface StoreOptions {
	behaviour: VersionBehaviour;
	dialect: Dialect;
	zone: string;
	sizer: SizerFactory;
	maxSizeBytes: number;
	sizeCacheMs: number;
	projectId: string;
	projectName: string;
	now: () => Date;
}

export type InsertReturnType = 'count' | 'id' | 'all';

export interface RowQuery {
	filter?: Filter;
	sortBy?: [string, SortDirection];
	search?: string;
	page: Page;
}

export interface TableQuery {
	filter: { id?: string[]; name?: string[]; projectId?: string[] };
	sortBy?: string;
	page: Page;
}

export interface TableSize {
	id: string;
	name: string;
	projectId: string;
	projectName: string;
	sizeBytes: number;
}

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** n8n's ids of tables, columns and projects: 16 letters and digits. */
export function newId(): string {
	let id = '';
	for (let i = 0; i < 16; i++) id += ID_ALPHABET[randomInt(ID_ALPHABET.length)];
	return id;
}

export class DataTableStore {
	readonly tables = new Map<string, Table>();

	readonly guard: SizeGuard;

	private readonly sizers = new Map<string, TableSizer>();

	private readonly context: FilterContext;

	/** Each table's bytes as of the last measure, which n8n caches with the total. */
	private tableBytesAtMeasure = new Map<string, number>();

	/** SQLite tables whose highest row was deleted, so that the next id is one more than the highest left. */
	private readonly highestDeleted = new Set<string>();

	constructor(private readonly options: StoreOptions) {
		this.context = { dialect: options.dialect, version: options.behaviour.version, zone: options.zone };
		this.guard = new SizeGuard(() => this.measuredBytes(), options.maxSizeBytes, options.sizeCacheMs);
	}

	table(id: string): Table {
		const table = this.tables.get(id);
		if (!table) throw tableNotFound(id);
		return table;
	}

	tableByName(name: string): Table | undefined {
		return [...this.tables.values()].find((table) => table.name === name);
	}

	createTable(name: string, columns: ReadonlyArray<{ name: string; type: ColumnType }>): Table {
		this.assertUniqueName(name);
		this.assertCreatableColumns(columns);
		const now = this.options.now();
		const table: Table = {
			id: newId(),
			name,
			projectId: this.options.projectId,
			createdAt: now,
			updatedAt: now,
			columns: columns.map((column, index) => ({ id: newId(), name: column.name, type: column.type, index, createdAt: now, updatedAt: now })),
			rows: new Map(),
			nextRowId: 1,
		};
		this.tables.set(table.id, table);
		this.sizers.set(table.id, this.options.sizer(table));
		this.guard.reset();
		return table;
	}

	renameTable(id: string, name: string): Table {
		const table = this.table(id);
		// n8n looks for the name among all the project's tables, this one included.
		this.assertUniqueName(name);
		table.name = name;
		table.updatedAt = this.options.now();
		return table;
	}

	deleteTable(id: string): void {
		this.table(id);
		this.tables.delete(id);
		this.sizers.delete(id);
		this.guard.reset();
	}

	/** Tables by n8n's list rules: name matched as a case-insensitive LIKE '%name%' (`_` and `%` in it are wildcards), newest change first by default. */
	listTables(query: TableQuery): { tables: Table[]; count: number } {
		const { id, name, projectId } = query.filter;
		const lower = (text: string): string => (this.options.dialect === 'sqlite' ? text.replace(/[A-Z]/g, (letter) => letter.toLowerCase()) : text.toLowerCase());
		const nameMatchers = (name ?? []).map((part) => likeWithUnderscore(lower(`%${part}%`)));
		const tables = [...this.tables.values()].filter(
			(table) =>
				(!id || id.includes(table.id)) &&
				(!projectId || projectId.includes(table.projectId)) &&
				nameMatchers.every((matches) => matches(lower(table.name))),
		);
		const [field, direction] = (query.sortBy ?? 'updatedAt:desc').split(':');
		const key = (table: Table): number | string =>
			field === 'name' ? lower(table.name) : field === 'size' ? this.cachedTableBytes(table.id) : table[field as 'createdAt' | 'updatedAt'].getTime();
		const sign = direction === 'desc' ? -1 : 1;
		tables.sort((a, b) => {
			const left = key(a);
			const right = key(b);
			return left === right ? 0 : (left < right ? -1 : 1) * sign;
		});
		return { tables: pageOf(tables, query.page), count: tables.length };
	}

	addColumn(tableId: string, spec: { name: string; type: ColumnType; index?: number }): Column {
		const table = this.table(tableId);
		this.assertNotReserved(spec.name, 409);
		if (table.columns.some((column) => column.name === spec.name)) {
			throw new ApiError(409, `Data table column with name '${spec.name}' already exists in data table '${table.name}'`);
		}
		const ordered = columnsByIndex(table);
		if (spec.index !== undefined && spec.index < 0) throw validationError('tried to add column at a negative index');
		const index = spec.index === undefined || spec.index > ordered.length ? ordered.length : spec.index;
		const now = this.options.now();
		const column: Column = { id: newId(), name: spec.name, type: spec.type, index, createdAt: now, updatedAt: now };
		ordered.splice(index, 0, column);
		reindex(ordered);
		table.columns.push(column);
		table.updatedAt = now;
		return column;
	}

	renameColumn(tableId: string, columnId: string, name: string): Column {
		const table = this.table(tableId);
		const column = this.column(table, columnId);
		this.assertNotReserved(name, 409);
		if (table.columns.some((other) => other.name === name)) {
			throw new ApiError(409, `Data table column with name '${name}' already exists in data table '${table.name}'`);
		}
		column.name = name;
		column.updatedAt = this.options.now();
		return column;
	}

	moveColumn(tableId: string, columnId: string, index: number): Column {
		const table = this.table(tableId);
		const column = this.column(table, columnId);
		if (index >= table.columns.length) throw validationError('tried to move column to an index larger than column count');
		const ordered = columnsByIndex(table).filter((other) => other !== column);
		ordered.splice(index, 0, column);
		reindex(ordered);
		column.updatedAt = this.options.now();
		return column;
	}

	deleteColumn(tableId: string, columnId: string): void {
		const table = this.table(tableId);
		const column = this.column(table, columnId);
		table.columns = table.columns.filter((other) => other !== column);
		reindex(columnsByIndex(table));
		for (const row of table.rows.values()) row.cells.delete(column.id);
		this.sizer(table).rewrite(table.rows.values());
		table.updatedAt = this.options.now();
	}

	readRows(tableId: string, query: RowQuery): { rows: Row[]; count: number } {
		const table = this.table(tableId);
		const matches = query.filter ? compileFilter(table, query.filter, this.context) : () => true;
		const found = query.search?.trim() ? searchPredicate(table, query.search, this.options.dialect, this.context.version) : () => true;
		const selected = [...table.rows.values()].filter((row) => matches(row) && found(row));
		// n8n 2.41 orders by id after the sort column; 2.8.4 leaves it to the database's scan.
		const tieOrder = this.options.behaviour.version === '2.8.4' ? this.scanOrder(table) : (a: Row, b: Row) => a.id - b.id;
		const sorted = sortRows(table, selected, query.sortBy, this.context, tieOrder);
		return { rows: pageOf(sorted, query.page), count: sorted.length };
	}

	insertRows(tableId: string, rows: ReadonlyArray<Record<string, JsonScalar>>, returnType: InsertReturnType): unknown {
		this.guard.check();
		const table = this.table(tableId);
		const cellsOfRows = rows.map((row) => this.cellsOf(table, row));
		const inserted = cellsOfRows.map((cells) => this.addRow(table, cells));
		this.afterWrite(table);
		if (returnType === 'count') return { success: true, insertedRows: inserted.length };
		if (returnType === 'id') return inserted.map((row) => ({ id: row.id }));
		return inserted.map((row) => rowJson(table, row));
	}

	updateRows(tableId: string, change: { filter: Filter; data: Record<string, JsonScalar>; returnData: boolean; dryRun: boolean }): unknown {
		this.guard.check();
		const table = this.table(tableId);
		const { cells, matches } = this.updateParameters(table, change.filter, change.data);
		const targets = this.scanned(table, matches);
		if (change.dryRun) return targets.flatMap((row) => this.dryRunPair(table, row, cells));
		const updated = targets.map((row) => this.changeRow(table, row, cells));
		this.afterWrite(table);
		return change.returnData ? updated.map((row) => rowJson(table, row)) : true;
	}

	/** Updates the rows the filter matches; when none, inserts `data` alone (the filter's values are not added to it). */
	upsertRow(tableId: string, change: { filter: Filter; data: Record<string, JsonScalar>; returnData: boolean; dryRun: boolean }): unknown {
		this.guard.check();
		const table = this.table(tableId);
		const { cells, matches } = this.updateParameters(table, change.filter, change.data);
		const targets = this.scanned(table, matches);
		if (change.dryRun) {
			if (targets.length > 0) return targets.flatMap((row) => this.dryRunPair(table, row, cells));
			const now = this.options.now().toISOString();
			const inserted: RowJson = { id: 0, createdAt: now, updatedAt: now, ...this.dryRunCells(table, cells) };
			return [{ ...nullRow(inserted), dryRunState: 'before' }, { ...inserted, dryRunState: 'after' }];
		}
		const written = targets.length > 0 ? targets.map((row) => this.changeRow(table, row, cells)) : [this.addRow(table, cells)];
		this.afterWrite(table);
		return change.returnData ? written.map((row) => rowJson(table, row)) : true;
	}

	deleteRows(tableId: string, removal: { filter: Filter; returnData: boolean; dryRun: boolean }): unknown {
		const table = this.table(tableId);
		const targets = this.scanned(table, compileFilter(table, removal.filter, this.context));
		if (removal.dryRun) {
			return targets.flatMap((row) => {
				const before = rowJson(table, row);
				return [{ ...before, dryRunState: 'before' }, { ...nullRow(before), dryRunState: 'after' }];
			});
		}
		const removed = targets.map((row) => rowJson(table, row));
		for (const row of targets) this.removeRow(table, row);
		this.afterWrite(table);
		return removal.returnData ? removed : true;
	}

	clearRows(tableId: string): { deletedCount: number } {
		const table = this.table(tableId);
		const rows = [...table.rows.values()];
		for (const row of rows) this.removeRow(table, row);
		this.afterWrite(table);
		return { deletedCount: rows.length };
	}

	/** What n8n's limits route reports: every table's bytes and their total, as last measured. */
	sizes(): { totalBytes: number; quotaStatus: SizeStatus; dataTables: Record<string, TableSize> } {
		const totalBytes = this.guard.totalBytes();
		const dataTables = Object.fromEntries(
			[...this.tables.values()].map((table) => [
				table.id,
				{ id: table.id, name: table.name, projectId: table.projectId, projectName: this.options.projectName, sizeBytes: this.cachedTableBytes(table.id) },
			]),
		);
		return { totalBytes, quotaStatus: this.guard.status(totalBytes), dataTables };
	}

	/** The model's bytes for one table now, not cached. */
	tableBytes(tableId: string): number {
		return this.sizer(this.table(tableId)).bytes();
	}

	vacuum(): void {
		for (const sizer of this.sizers.values()) sizer.vacuum();
		this.guard.reset();
	}

	private measuredBytes(): number {
		this.tableBytesAtMeasure = new Map([...this.sizers].map(([id, sizer]) => [id, sizer.bytes()]));
		return [...this.tableBytesAtMeasure.values()].reduce((sum, bytes) => sum + bytes, 0);
	}

	private cachedTableBytes(tableId: string): number {
		this.guard.totalBytes();
		return this.tableBytesAtMeasure.get(tableId) ?? 0;
	}

	/**
	 * The rows a write touches, in the order the database meets them: the order of its answer
	 * (SQLite: by id; Postgres' RETURNING: where each row's current version lies in the heap).
	 */
	private scanned(table: Table, matches: (row: Row) => boolean): Row[] {
		return [...table.rows.values()].filter(matches).sort(this.scanOrder(table));
	}

	private scanOrder(table: Table): (a: Row, b: Row) => number {
		const sizer = this.sizer(table);
		return (a, b) => sizer.position(a.id) - sizer.position(b.id);
	}

	private sizer(table: Table): TableSizer {
		return this.sizers.get(table.id) as TableSizer;
	}

	column(table: Table, columnId: string): Column {
		const column = table.columns.find((candidate) => candidate.id === columnId);
		if (!column) throw columnNotFound(table.id, columnId);
		return column;
	}

	private assertUniqueName(name: string): void {
		if (this.tableByName(name)) throw new ApiError(409, `Data table with name '${name}' already exists in this project`);
	}

	private assertNotReserved(name: string, status: number): void {
		const kind = reservedColumnKind(name);
		if (kind) throw new ApiError(status, reservedColumnMessage(name, kind));
	}

	/**
	 * n8n 2.41 refuses reserved column names itself (400); 2.8.4 leaves the system columns to the
	 * database, which refuses a second column of the same name (SQLite ignores case there), and
	 * lets dryRunState through. Before that, two columns of one name break the column table's
	 * unique index (n8n writes the column list before it creates the table).
	 */
	private assertCreatableColumns(columns: ReadonlyArray<{ name: string; type: ColumnType }>): void {
		const { behaviour, dialect } = this.options;
		if (behaviour.reservedColumnNamesChecked) {
			for (const column of columns) this.assertNotReserved(column.name, 400);
		}
		const names = columns.map((column) => column.name);
		if (new Set(names).size !== names.length) {
			const message =
				dialect === 'sqlite'
					? 'SQLITE_CONSTRAINT: UNIQUE constraint failed: data_table_column.dataTableId, data_table_column.name'
					: 'duplicate key value violates unique constraint "UQ_8082ec4890f892f0bc77473a123"';
			throw databaseError(behaviour.version, message);
		}
		if (behaviour.reservedColumnNamesChecked) return;
		const physical = ['id', ...names, 'createdAt', 'updatedAt'];
		const same = (a: string, b: string): boolean => (dialect === 'sqlite' ? a.toLowerCase() === b.toLowerCase() : a === b);
		const duplicate = physical.find((name, index) => physical.slice(0, index).some((earlier) => same(earlier, name)));
		if (duplicate) {
			throw databaseError(behaviour.version, dialect === 'sqlite' ? `SQLITE_ERROR: duplicate column name: ${duplicate}` : `column "${duplicate}" specified more than once`);
		}
	}

	/** A row's values checked against the table's columns: an unknown column or a value that does not fit is refused. */
	private cellsOf(table: Table, values: Record<string, JsonScalar>): Map<string, Cell> {
		const cells = new Map<string, Cell>();
		for (const [name, value] of Object.entries(values)) {
			const column = table.columns.find((candidate) => candidate.name === name);
			if (!column) throw validationError(`unknown column name '${name}'`);
			cells.set(column.id, toCell(name, column.type, value, this.options.dialect, this.options.zone));
		}
		return cells;
	}

	/** n8n checks an update's data before its filter. */
	private updateParameters(table: Table, filter: Filter, data: Record<string, JsonScalar>): { cells: Map<string, Cell>; matches: (row: Row) => boolean } {
		if (table.columns.length === 0) throw validationError('No columns found for this data table or data table not found');
		const cells = this.cellsOf(table, data);
		return { cells, matches: compileFilter(table, filter, this.context) };
	}

	/** A new row's id (Table.nextRowId), found again on SQLite after the highest row was deleted. */
	private nextId(table: Table): number {
		if (this.highestDeleted.delete(table.id)) {
			let highest = 0;
			for (const id of table.rows.keys()) highest = Math.max(highest, id);
			table.nextRowId = highest + 1;
		}
		return table.nextRowId++;
	}

	private addRow(table: Table, cells: Map<string, Cell>): Row {
		const now = this.options.now();
		const row: Row = { id: this.nextId(table), cells: new Map(table.columns.map((column) => [column.id, cells.get(column.id) ?? null])), createdAt: now, updatedAt: now };
		table.rows.set(row.id, row);
		this.sizer(table).insert(row);
		return row;
	}

	private changeRow(table: Table, row: Row, cells: Map<string, Cell>): Row {
		for (const [columnId, cell] of cells) row.cells.set(columnId, cell);
		row.updatedAt = this.options.now();
		this.sizer(table).update(row);
		return row;
	}

	private removeRow(table: Table, row: Row): void {
		if (this.options.dialect === 'sqlite' && row.id === table.nextRowId - 1) this.highestDeleted.add(table.id);
		table.rows.delete(row.id);
		this.sizer(table).remove(row.id);
	}

	/** The end of a write's transaction: the table's change time, the size cache dropped. */
	private afterWrite(table: Table): void {
		this.sizer(table).commit();
		table.updatedAt = this.options.now();
		this.guard.reset();
	}

	/** A dry run's pair: the row now and as the update would leave it (dates as the database takes them). */
	private dryRunPair(table: Table, row: Row, cells: Map<string, Cell>): RowJson[] {
		const before = rowJson(table, row);
		const after = { ...before, ...this.dryRunCells(table, cells), updatedAt: this.options.now().toISOString() };
		return [
			{ ...before, dryRunState: 'before' },
			{ ...after, dryRunState: 'after' },
		];
	}

	private dryRunCells(table: Table, cells: Map<string, Cell>): RowJson {
		const json: RowJson = {};
		for (const [columnId, cell] of cells) {
			const column = table.columns.find((candidate) => candidate.id === columnId) as Column;
			json[column.name] = cell instanceof Date ? (this.options.dialect === 'sqlite' ? sqliteDateText(cell) : cell.toISOString()) : cell;
		}
		return json;
	}
}

function reindex(ordered: Column[]): void {
	ordered.forEach((column, index) => {
		column.index = index;
	});
}

/** A dry run's empty side: id, createdAt, updatedAt and every key of the other side, all null. */
function nullRow(template: RowJson): RowJson {
	const json: RowJson = { id: null, createdAt: null, updatedAt: null };
	for (const key of Object.keys(template)) json[key] = null;
	return json;
}

/** SQL LIKE with both wildcards, `%` and `_`, as n8n's table name filter leaves them unescaped. */
function likeWithUnderscore(pattern: string): (text: string) => boolean {
	const source = [...pattern].map((char) => (char === '%' ? '[\\s\\S]*' : char === '_' ? '[\\s\\S]' : char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('');
	const expression = new RegExp(`^${source}$`, 'u');
	return (text) => expression.test(text);
}

