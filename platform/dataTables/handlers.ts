import { badRequest } from './errors';
import { COMPARISONS, compareText, EMPTINESS, parseFilter, type Filter } from './filter';
import { columnNameIssue, tableNameIssue } from './names';
import type { RoutedRequest } from './operations';
import { nextCursor, pageParameters, parseCount, type Page } from './paging';
import { rowJson, type SortDirection } from './rows';
import type { DataTableStore, InsertReturnType } from './store';
import { columnsByIndex, type Column, type ColumnType, type Table } from './types';
import type { JsonScalar } from './values';
import type { VersionBehaviour } from './versions';

/**
 * n8n's Data Tables handlers: each reads its request as n8n's zod DTOs do (first message, 400),
 * answers 404 for an unknown table, and calls the store. Their answers are n8n's, field for field.
 */

export interface Answer {
	status: number;
	/** Sent as JSON. */
	body?: unknown;
	/** Sent as an HTML page instead. */
	html?: string;
}

export interface HandlerContext {
	store: DataTableStore;
	behaviour: VersionBehaviour;
	projectId: string;
}

type Query = Record<string, string | number | boolean>;

const COLUMN_TYPES: ColumnType[] = ['string', 'number', 'boolean', 'date'];

export function handle(context: HandlerContext, routed: RoutedRequest, query: Query, body: unknown): Answer {
	const { store, behaviour } = context;
	const tableId = routed.params.dataTableId;
	const record = (body ?? {}) as Record<string, unknown>;
	switch (routed.spec.operation) {
		case 'listTables': {
			const { offset, limit } = pageParameters(textQuery(query));
			const page = parsePage(limit, offset, ['offset', 'limit']);
			const filter = parseTableFilter(query.filter as string | undefined, behaviour);
			const sortBy = parseTableSort(query.sortBy as string | undefined, behaviour);
			const { tables, count } = store.listTables({ filter, sortBy, page });
			return { status: 200, body: { data: tables.map((table) => tableJson(context, table, 'list')), nextCursor: nextCursor(page, count) } };
		}
		case 'createTable': {
			const name = String(record.name);
			const nameIssue = tableNameIssue(name);
			if (nameIssue) throw badRequest(nameIssue);
			const columns = (record.columns as Array<{ name: string; type: string }>).map(({ name: columnName, type }) => {
				const issue = columnNameIssue(columnName);
				if (issue) throw badRequest(issue);
				if (!COLUMN_TYPES.includes(type as ColumnType)) {
					throw badRequest(`Invalid enum value. Expected ${COLUMN_TYPES.map((each) => `'${each}'`).join(' | ')}, received '${type}'`);
				}
				return { name: columnName.trim(), type: type as ColumnType };
			});
			if (behaviour.version !== '2.8.4' && record.projectId !== undefined && record.projectId !== context.projectId) {
				throw badRequest(`Project with ID "${String(record.projectId)}" not found`);
			}
			return { status: 201, body: tableJson(context, store.createTable(name.trim(), columns), 'full') };
		}
		case 'getTable':
			return { status: 200, body: tableJson(context, store.table(tableId), 'full') };
		case 'updateTable': {
			const nameIssue = tableNameIssue(String(record.name));
			if (nameIssue) throw badRequest(nameIssue);
			return { status: 200, body: tableJson(context, store.renameTable(tableId, String(record.name).trim()), 'full') };
		}
		case 'deleteTable':
			store.deleteTable(tableId);
			return { status: 204 };
		case 'readRows': {
			const { offset, limit } = pageParameters(textQuery(query));
			const page = parsePage(limit, offset, ['limit', 'offset']);
			const filter = query.filter === undefined ? undefined : parseQueryFilter(String(query.filter), behaviour);
			const sortBy = parseRowSort(query.sortBy as string | undefined);
			store.table(tableId);
			const { rows, count } = store.readRows(tableId, { filter, sortBy, search: query.search as string | undefined, page });
			const table = store.table(tableId);
			return { status: 200, body: { data: rows.map((row) => rowJson(table, row)), nextCursor: nextCursor(page, count) } };
		}
		case 'insertRows': {
			const rows = (record.data as unknown[]).map((row) => parseRowValues(row));
			const returnType = (record.returnType ?? 'count') as InsertReturnType;
			store.table(tableId);
			return { status: 200, body: store.insertRows(tableId, rows, returnType) };
		}
		case 'updateRows':
		case 'upsertRows': {
			const change = parseChange(record);
			store.table(tableId);
			const result = routed.spec.operation === 'updateRows' ? store.updateRows(tableId, change) : store.upsertRow(tableId, change);
			return { status: 200, body: result };
		}
		case 'deleteRows': {
			const filter = parseQueryFilter(String(query.filter), behaviour);
			if (filter.filters.length === 0) throw badRequest('At least one filter condition is required for delete operations');
			store.table(tableId);
			return { status: 200, body: store.deleteRows(tableId, { filter, returnData: query.returnData === true, dryRun: query.dryRun === true }) };
		}
		case 'clearRows':
			return { status: 200, body: store.clearRows(tableId) };
		case 'listColumns': {
			const table = store.table(tableId);
			return { status: 200, body: columnsByIndex(table).map((column) => columnJson(table, column, 'full')) };
		}
		case 'addColumn': {
			const issue = columnNameIssue(String(record.name));
			if (issue) throw badRequest(issue);
			const table = store.table(tableId);
			const column = store.addColumn(tableId, { name: String(record.name).trim(), type: record.type as ColumnType, index: record.index as number | undefined });
			return { status: 201, body: columnJson(table, column, 'added') };
		}
		case 'updateColumn': {
			const table = store.table(tableId);
			const columnId = routed.params.columnId;
			if (record.name !== undefined) store.renameColumn(tableId, columnId, String(record.name).trim());
			const column = record.index !== undefined ? store.moveColumn(tableId, columnId, record.index as number) : store.column(table, columnId);
			return { status: 200, body: columnJson(table, column, 'full') };
		}
		case 'deleteColumn':
			store.deleteColumn(tableId, routed.params.columnId);
			return { status: 204 };
	}
}

function textQuery(query: Query): { limit?: string; cursor?: string } {
	return { limit: query.limit === undefined ? undefined : String(query.limit), cursor: query.cursor === undefined ? undefined : String(query.cursor) };
}

/** A page from the limit and offset texts; a wrong one is reported in the order n8n's DTO declares them. */
function parsePage(limit: string | undefined, offset: string | undefined, order: Array<'limit' | 'offset'>): Page {
	const parsed = { limit: parseCount('limit', limit), offset: parseCount('offset', offset) };
	for (const name of order) {
		const value = parsed[name];
		if (typeof value === 'string') throw badRequest(value);
	}
	return parsed as Page;
}

function parseQueryFilter(text: string, behaviour: VersionBehaviour): Filter {
	const parsed = parseFilter(JSON.parse(text), behaviour.emptinessConditions ? [...COMPARISONS, ...EMPTINESS] : COMPARISONS);
	if (typeof parsed === 'string') throw badRequest('Invalid filter fields');
	return parsed;
}

function parseTableFilter(text: string | undefined, behaviour: VersionBehaviour): { id?: string[]; name?: string[]; projectId?: string[] } {
	if (!text) return {};
	const raw = JSON.parse(text) as unknown;
	const invalid = badRequest('Invalid filter fields');
	if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalid;
	const filter: Record<string, string[]> = {};
	for (const [key, value] of Object.entries(raw)) {
		if (!['id', 'name', 'projectId'].includes(key)) throw invalid;
		// n8n 2.41's public list takes one projectId; ids and names may be lists on both versions.
		const listAllowed = key !== 'projectId' || behaviour.version === '2.8.4';
		if (typeof value === 'string') filter[key] = [value];
		else if (listAllowed && Array.isArray(value) && value.every((item) => typeof item === 'string')) filter[key] = value as string[];
		else if (value !== undefined) throw invalid;
	}
	return filter;
}

function parseTableSort(sortBy: string | undefined, behaviour: VersionBehaviour): string | undefined {
	if (sortBy === undefined) return undefined;
	const fields = ['name', 'createdAt', 'updatedAt', ...(behaviour.sortTablesBySize ? ['size'] : [])];
	const options = fields.flatMap((field) => [`${field}:asc`, `${field}:desc`]);
	if (!options.includes(sortBy)) throw badRequest(`sortBy must be one of: ${options.join(', ')}`);
	return sortBy;
}

/** `column:asc` or `column:desc` (any case); the column's form is checked, not that the table has it. */
function parseRowSort(sortBy: string | undefined): [string, SortDirection] | undefined {
	if (sortBy === undefined) return undefined;
	if (!sortBy.includes(':')) throw badRequest('Invalid sort format, expected <columnName>:<asc/desc>');
	const [column, direction] = sortBy.split(':');
	const issue = columnNameIssue(column);
	if (issue) throw badRequest(issue);
	const upper = direction?.toUpperCase();
	if (upper !== 'ASC' && upper !== 'DESC') throw badRequest('Invalid sort direction');
	return [column.trim(), upper];
}

/** A row's values as zod reads them: column names of n8n's form (trimmed), values text, number, boolean or null. */
function parseRowValues(row: unknown): Record<string, JsonScalar> {
	const values: Record<string, JsonScalar> = {};
	for (const [name, value] of Object.entries(row as Record<string, unknown>)) {
		const issue = columnNameIssue(name);
		if (issue) throw badRequest(issue);
		if (value !== null && !['string', 'number', 'boolean'].includes(typeof value)) throw badRequest('Invalid input');
		values[name.trim()] = value as JsonScalar;
	}
	return values;
}

function parseChange(record: Record<string, unknown>): { filter: Filter; data: Record<string, JsonScalar>; returnData: boolean; dryRun: boolean } {
	const filter = parseFilter(record.filter, COMPARISONS);
	if (typeof filter === 'string') throw badRequest(filter);
	const data = parseRowValues(record.data);
	if (Object.keys(data).length === 0) throw badRequest('data must not be empty');
	return { filter, data, returnData: record.returnData === true, dryRun: record.dryRun === true };
}

/**
 * A table as n8n answers it: its columns by name (on Postgres, lists come in no set order), with
 * their table's id except in lists; from 2.41 with the cached size.
 */
function tableJson(context: HandlerContext, table: Table, form: 'full' | 'list'): Record<string, unknown> {
	const columns = [...table.columns].sort((a, b) => compareText(a.name, b.name)).map((column) => columnJson(table, column, form));
	const json: Record<string, unknown> = {
		updatedAt: table.updatedAt.toISOString(),
		createdAt: table.createdAt.toISOString(),
		id: table.id,
		name: table.name,
		projectId: table.projectId,
		columns,
	};
	if (context.behaviour.tableSizeBytes) json.sizeBytes = context.store.sizes().dataTables[table.id]?.sizeBytes ?? 0;
	return json;
}

function columnJson(table: Table, column: Column, form: 'full' | 'list' | 'added'): Record<string, unknown> {
	const times = { updatedAt: column.updatedAt.toISOString(), createdAt: column.createdAt.toISOString() };
	if (form === 'added') return { dataTableId: table.id, name: column.name, type: column.type, index: column.index, id: column.id, ...times };
	return { ...times, id: column.id, ...(form === 'full' ? { dataTableId: table.id } : {}), name: column.name, type: column.type, index: column.index };
}
