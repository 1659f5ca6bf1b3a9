import { ApiError, badRequest } from './errors';
import { COMPARISONS } from './filter';
import { schemaIssue, type Schema } from './schema';
import type { VersionBehaviour } from './versions';

/**
 * The operations of n8n's public Data Tables API as its OpenAPI document declares them (paths,
 * query parameters, bodies, the API key scope each needs), and the checks n8n's OpenAPI validator
 * makes before a handler runs: unknown path 404, wrong method 405, then (after the API key)
 * query parameters that are not url-encoded, unknown or empty, then types, formats and bodies.
 */

export type Operation =
	| 'listTables'
	| 'createTable'
	| 'getTable'
	| 'updateTable'
	| 'deleteTable'
	| 'readRows'
	| 'insertRows'
	| 'updateRows'
	| 'upsertRows'
	| 'deleteRows'
	| 'clearRows'
	| 'listColumns'
	| 'addColumn'
	| 'updateColumn'
	| 'deleteColumn';

interface QueryParameter {
	type: 'number' | 'string' | 'boolean';
	required?: boolean;
	maximum?: number;
	format?: 'jsonString';
}

export interface OperationSpec {
	operation: Operation;
	method: string;
	/** Below /api/v1, with {dataTableId} and {columnId}. */
	path: string;
	scope: string;
	/** Whether it changes state (and so can be committed before a fault). */
	writes: boolean;
	query?: Record<string, QueryParameter>;
	body?: Schema;
	/** Only n8n 2.41 has it. */
	newer?: boolean;
}

const limitAndCursor: Record<string, QueryParameter> = {
	limit: { type: 'number', maximum: 250 },
	cursor: { type: 'string' },
	filter: { type: 'string', format: 'jsonString' },
	sortBy: { type: 'string' },
};

const columnNameSchema: Schema = { type: 'string', minLength: 1, maxLength: 63, pattern: '^[a-zA-Z][a-zA-Z0-9_]*$' };

const rowFilterSchema: Schema = {
	type: 'object',
	required: ['filters'],
	properties: {
		type: { type: 'string', enum: ['and', 'or'] },
		filters: {
			type: 'array',
			minItems: 1,
			items: {
				type: 'object',
				required: ['columnName', 'condition', 'value'],
				properties: { columnName: { type: 'string' }, condition: { type: 'string', enum: [...COMPARISONS] }, value: {} },
			},
		},
	},
};

const changeSchema: Schema = {
	type: 'object',
	required: ['filter', 'data'],
	properties: { filter: rowFilterSchema, data: { type: 'object' }, returnData: { type: 'boolean' }, dryRun: { type: 'boolean' } },
};

export const OPERATIONS: OperationSpec[] = [
	{ operation: 'listTables', method: 'GET', path: '/data-tables', scope: 'dataTable:list', writes: false, query: limitAndCursor },
	{
		operation: 'createTable',
		method: 'POST',
		path: '/data-tables',
		scope: 'dataTable:create',
		writes: true,
		body: {
			type: 'object',
			required: ['name', 'columns'],
			properties: {
				name: { type: 'string', minLength: 1, maxLength: 128 },
				columns: {
					type: 'array',
					items: {
						type: 'object',
						required: ['name', 'type'],
						properties: { name: { type: 'string', minLength: 1 }, type: { type: 'string', enum: ['string', 'number', 'boolean', 'date', 'json'] } },
					},
				},
				projectId: { type: 'string' },
			},
		},
	},
	{ operation: 'getTable', method: 'GET', path: '/data-tables/{dataTableId}', scope: 'dataTable:read', writes: false },
	{
		operation: 'updateTable',
		method: 'PATCH',
		path: '/data-tables/{dataTableId}',
		scope: 'dataTable:update',
		writes: true,
		body: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1, maxLength: 128 } } },
	},
	{ operation: 'deleteTable', method: 'DELETE', path: '/data-tables/{dataTableId}', scope: 'dataTable:delete', writes: true },
	{
		operation: 'readRows',
		method: 'GET',
		path: '/data-tables/{dataTableId}/rows',
		scope: 'dataTableRow:read',
		writes: false,
		query: { ...limitAndCursor, search: { type: 'string' } },
	},
	{
		operation: 'insertRows',
		method: 'POST',
		path: '/data-tables/{dataTableId}/rows',
		scope: 'dataTableRow:create',
		writes: true,
		body: {
			type: 'object',
			required: ['data'],
			properties: { data: { type: 'array', minItems: 1, items: { type: 'object' } }, returnType: { type: 'string', enum: ['count', 'id', 'all'] } },
		},
	},
	{ operation: 'updateRows', method: 'PATCH', path: '/data-tables/{dataTableId}/rows/update', scope: 'dataTableRow:update', writes: true, body: changeSchema },
	{ operation: 'upsertRows', method: 'POST', path: '/data-tables/{dataTableId}/rows/upsert', scope: 'dataTableRow:upsert', writes: true, body: changeSchema },
	{
		operation: 'deleteRows',
		method: 'DELETE',
		path: '/data-tables/{dataTableId}/rows/delete',
		scope: 'dataTableRow:delete',
		writes: true,
		query: { filter: { type: 'string', required: true, format: 'jsonString' }, returnData: { type: 'boolean' }, dryRun: { type: 'boolean' } },
	},
	{ operation: 'clearRows', method: 'DELETE', path: '/data-tables/{dataTableId}/rows/clear', scope: 'dataTableRow:delete', writes: true, newer: true },
	{ operation: 'listColumns', method: 'GET', path: '/data-tables/{dataTableId}/columns', scope: 'dataTableColumn:read', writes: false, newer: true },
	{
		operation: 'addColumn',
		method: 'POST',
		path: '/data-tables/{dataTableId}/columns',
		scope: 'dataTableColumn:create',
		writes: true,
		newer: true,
		body: {
			type: 'object',
			required: ['name', 'type'],
			properties: { name: columnNameSchema, type: { type: 'string', enum: ['string', 'number', 'boolean', 'date'] }, index: { type: 'integer', minimum: 0 } },
		},
	},
	{
		operation: 'updateColumn',
		method: 'PATCH',
		path: '/data-tables/{dataTableId}/columns/{columnId}',
		scope: 'dataTableColumn:update',
		writes: true,
		newer: true,
		body: {
			type: 'object',
			additionalProperties: false,
			anyOf: [{ required: ['name'] }, { required: ['index'] }],
			properties: { name: columnNameSchema, index: { type: 'integer', minimum: 0 } },
		},
	},
	{ operation: 'deleteColumn', method: 'DELETE', path: '/data-tables/{dataTableId}/columns/{columnId}', scope: 'dataTableColumn:delete', writes: true, newer: true },
];

export interface RoutedRequest {
	spec: OperationSpec;
	params: Record<string, string>;
}

/** The operation a method and path (below /api/v1) name on this version: 404 "not found" or 405 when none. */
export function route(behaviour: VersionBehaviour, method: string, path: string): RoutedRequest {
	const available = OPERATIONS.filter((spec) => !spec.newer || behaviour.columnEndpoints);
	const segments = path.split('/').filter(Boolean);
	let pathKnown = false;
	for (const spec of available) {
		const template = spec.path.split('/').filter(Boolean);
		if (template.length !== segments.length) continue;
		const params: Record<string, string> = {};
		const same = template.every((part, index) => {
			if (part.startsWith('{')) {
				params[part.slice(1, -1)] = decodeURIComponent(segments[index]);
				return true;
			}
			return part === segments[index];
		});
		if (!same) continue;
		pathKnown = true;
		if (spec.method === method) return { spec, params };
	}
	throw pathKnown ? new ApiError(405, `${method} method not allowed`) : new ApiError(404, 'not found');
}

/** RFC 3986's reserved characters, which n8n's validator refuses unencoded in a query parameter. */
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;

/**
 * The validator's checks of a routed request; the parsed query comes back with the validator's
 * conversions (numbers, booleans). `rawQuery` is the query string as sent.
 */
export function checkRequest(routed: RoutedRequest, rawQuery: string, body: unknown): Record<string, string | number | boolean> {
	const declared = routed.spec.query ?? {};
	const raw = rawPairs(rawQuery);
	for (const name of Object.keys(declared)) {
		if ((raw.get(name) ?? []).some((value) => RESERVED.test(value))) {
			throw badRequest(`Parameter '${name}' must be url encoded. Its value may not contain reserved characters.`);
		}
	}
	const query = Object.fromEntries(new URLSearchParams(rawQuery));
	for (const [name, value] of Object.entries(query)) {
		if (!(name in declared)) throw badRequest(`Unknown query parameter '${name}'`);
		if (value === '') throw badRequest(`Empty value found for query parameter '${name}'`);
	}
	const issues: string[] = [];
	const { converted, issue } = convertQuery(declared, query);
	if (issue) issues.push(issue);
	else {
		const paramIssue = Object.entries(routed.params)
			.filter(([, value]) => !/^[A-Za-z0-9]{16}$/.test(value))
			.map(([name]) => `request/params/${name} must match format "nanoid"`)[0];
		if (paramIssue) issues.push(paramIssue);
	}
	const bodyIssue = routed.spec.body ? schemaIssue(routed.spec.body, body, 'request/body') : undefined;
	if (bodyIssue) issues.push(bodyIssue);
	if (issues.length > 0) throw badRequest(issues.join(', '));
	return converted;
}

function convertQuery(
	declared: Record<string, QueryParameter>,
	query: Record<string, string>,
): { converted: Record<string, string | number | boolean>; issue?: string } {
	const converted: Record<string, string | number | boolean> = {};
	const missing = Object.entries(declared).find(([name, parameter]) => parameter.required && !(name in query));
	if (missing) return { converted, issue: `request/query must have required property '${missing[0]}'` };
	for (const [name, parameter] of Object.entries(declared)) {
		const text = query[name];
		if (text === undefined) continue;
		const path = `request/query/${name}`;
		if (parameter.type === 'number') {
			const number = Number(text);
			if (text.trim() === '' || Number.isNaN(number)) return { converted, issue: `${path} must be number` };
			if (parameter.maximum !== undefined && number > parameter.maximum) return { converted, issue: `${path} must be <= ${parameter.maximum}` };
			converted[name] = number;
		} else if (parameter.type === 'boolean') {
			if (text !== 'true' && text !== 'false') return { converted, issue: `${path} must be boolean` };
			converted[name] = text === 'true';
		} else {
			if (parameter.format === 'jsonString' && !isJson(text)) return { converted, issue: `${path} must match format "jsonString"` };
			converted[name] = text;
		}
	}
	return { converted };
}

function isJson(text: string): boolean {
	try {
		JSON.parse(text);
		return true;
	} catch {
		return false;
	}
}

function rawPairs(rawQuery: string): Map<string, string[]> {
	const pairs = new Map<string, string[]>();
	for (const pair of rawQuery.split('&').filter(Boolean)) {
		const [key, value = ''] = pair.split('=');
		pairs.set(key, [...(pairs.get(key) ?? []), value]);
	}
	return pairs;
}
