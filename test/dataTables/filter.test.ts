import { ApiError } from '../../platform/dataTables/errors';
import { COMPARISONS, compileFilter, EMPTINESS, parseFilter, type Filter, type FilterContext } from '../../platform/dataTables/filter';
import type { Cell, Column, Row, Table } from '../../platform/dataTables/types';
import { toCell } from '../../platform/dataTables/values';

const SQLITE: FilterContext = { dialect: 'sqlite', version: '2.41.1', zone: 'UTC' };
const POSTGRES: FilterContext = { dialect: 'postgres', version: '2.41.1', zone: 'UTC' };

const columns: Column[] = [
	{ id: 'c-name', name: 'name', type: 'string', index: 0, createdAt: new Date(0), updatedAt: new Date(0) },
	{ id: 'c-price', name: 'price', type: 'number', index: 1, createdAt: new Date(0), updatedAt: new Date(0) },
	{ id: 'c-active', name: 'active', type: 'boolean', index: 2, createdAt: new Date(0), updatedAt: new Date(0) },
	{ id: 'c-seen', name: 'seen', type: 'date', index: 3, createdAt: new Date(0), updatedAt: new Date(0) },
];

function tableOf(values: Array<Partial<Record<'name' | 'price' | 'active' | 'seen', Cell>>>): Table {
	const rows = new Map<number, Row>();
	values.forEach((value, index) => {
		const id = index + 1;
		const cells = new Map<string, Cell>(columns.map((column) => [column.id, value[column.name as keyof typeof value] ?? null]));
		rows.set(id, { id, cells, createdAt: new Date('2025-01-01T00:00:00Z'), updatedAt: new Date('2025-01-01T00:00:00Z') });
	});
	return { id: 'table', name: 'table', projectId: 'project', createdAt: new Date(0), updatedAt: new Date(0), columns, rows, nextRowId: rows.size + 1 };
}

const table = tableOf([
	{ name: 'a', price: 1, active: true, seen: new Date('2024-01-02T03:04:05.678Z') },
	{ name: 'b', price: 2.5 },
	{ name: 'Abc_d', price: 12, active: false },
	{ name: null, price: null },
	{ name: '', price: -3 },
	{ name: 'x%y', price: 0 },
	{ name: '42', price: 1e21 },
]);

function ids(filter: Filter, context = SQLITE, on = table): number[] {
	const matches = compileFilter(on, filter, context);
	return [...on.rows.values()].filter(matches).map((row) => row.id);
}

const where = (columnName: string, condition: Filter['filters'][number]['condition'], value: string | number | boolean | null): Filter => ({
	type: 'and',
	filters: [{ columnName, condition, value }],
});

function refusal(run: () => unknown): string {
	try {
		run();
	} catch (error) {
		if (error instanceof ApiError) return `${error.status} ${error.message}`;
		throw error;
	}
	throw new Error('expected a refusal');
}

describe('parseFilter reads a filter as n8n\'s schema does', () => {
	it('defaults the type to and, the filters to none and a condition to eq', () => {
		expect(parseFilter({}, COMPARISONS)).toEqual({ type: 'and', filters: [] });
		expect(parseFilter({ filters: [{ columnName: 'name', value: 'a' }] }, COMPARISONS)).toEqual({
			type: 'and',
			filters: [{ columnName: 'name', condition: 'eq', value: 'a' }],
		});
	});

	it('refuses nested groups, unknown conditions, object values and malformed column names', () => {
		expect(typeof parseFilter({ filters: [{ type: 'or', filters: [] }] }, COMPARISONS)).toBe('string');
		expect(typeof parseFilter({ filters: [{ columnName: 'name', condition: 'contains', value: 'a' }] }, COMPARISONS)).toBe('string');
		expect(typeof parseFilter({ filters: [{ columnName: 'name', value: { a: 1 } }] }, COMPARISONS)).toBe('string');
		expect(parseFilter({ filters: [{ columnName: '1x', value: 'a' }] }, COMPARISONS)).toMatch(/^Only alphabetical characters/);
	});

	it('takes isEmpty and isNotEmpty only where the version has them', () => {
		const filter = { filters: [{ columnName: 'name', condition: 'isEmpty', value: null }] };
		expect(typeof parseFilter(filter, COMPARISONS)).toBe('string');
		expect(parseFilter(filter, [...COMPARISONS, ...EMPTINESS])).toEqual({ type: 'and', filters: [{ columnName: 'name', condition: 'isEmpty', value: null }] });
	});
});

describe('eq and neq', () => {
	it('eq null is IS NULL and neq null IS NOT NULL', () => {
		expect(ids(where('name', 'eq', null))).toEqual([4]);
		expect(ids(where('name', 'neq', null))).toEqual([1, 2, 3, 5, 6, 7]);
	});

	it('neq also matches empty cells, as n8n adds OR IS NULL', () => {
		expect(ids(where('name', 'neq', 'a'))).toEqual([2, 3, 4, 5, 6, 7]);
	});

	it('a number compared with a text column is compared as its text, and a text with a number column as its number', () => {
		expect(ids(where('name', 'eq', 42))).toEqual([7]);
		expect(ids(where('price', 'eq', '12'))).toEqual([3]);
	});

	it('booleans take true/false and their texts', () => {
		expect(ids(where('active', 'eq', 'false'))).toEqual([3]);
		expect(ids(where('active', 'neq', true))).toEqual([2, 3, 4, 5, 6, 7]);
	});
});

describe('gt, gte, lt, lte', () => {
	it('never match an empty cell, and compare texts by code point', () => {
		expect(ids(where('price', 'gt', 1))).toEqual([2, 3, 7]);
		expect(ids(where('price', 'lte', 0))).toEqual([5, 6]);
		expect(ids(where('name', 'gt', 'b'))).toEqual([6]);
	});

	it('refuse null with n8n\'s message', () => {
		expect(refusal(() => ids(where('price', 'gt', null)))).toBe('400 Validation error with data table request: GT filter value cannot be null or undefined');
	});
});

describe('like and ilike', () => {
	it('match anywhere when the value has no %, case-sensitively for like', () => {
		expect(ids(where('name', 'like', 'b'))).toEqual([2, 3]);
		expect(ids(where('name', 'like', 'abc'))).toEqual([]);
		expect(ids(where('name', 'ilike', 'abc'))).toEqual([3]);
	});

	it('take % as the only wildcard: _ is literal', () => {
		expect(ids(where('name', 'like', 'A%'))).toEqual([3]);
		expect(ids(where('name', 'like', 'c_d'))).toEqual([3]);
		expect(ids(where('name', 'ilike', 'C_D'))).toEqual([3]);
	});

	it('refuse null and values that are not texts', () => {
		expect(refusal(() => ids(where('name', 'like', null)))).toBe('400 Validation error with data table request: LIKE filter value cannot be null or undefined');
		expect(refusal(() => ids(where('price', 'ilike', '1')))).toBe('400 Validation error with data table request: ILIKE filter value must be a string');
	});

	it('on SQLite fold only ASCII letters, on Postgres every letter', () => {
		const accented = tableOf([{ name: 'Élan' }]);
		expect(ids(where('name', 'ilike', 'élan'), SQLITE, accented)).toEqual([]);
		expect(ids(where('name', 'ilike', 'élan'), POSTGRES, accented)).toEqual([1]);
	});
});

describe('isEmpty and isNotEmpty (n8n 2.41)', () => {
	it('on text columns match empty cells and empty texts', () => {
		expect(ids(where('name', 'isEmpty', null))).toEqual([4, 5]);
		expect(ids(where('name', 'isNotEmpty', null))).toEqual([1, 2, 3, 6, 7]);
	});

	it('on other columns are eq null and neq null', () => {
		expect(ids(where('price', 'isEmpty', null))).toEqual([4]);
		expect(ids(where('active', 'isNotEmpty', null))).toEqual([1, 3]);
	});
});

describe('dates', () => {
	it('on SQLite compare n8n\'s stored text with the filter\'s ISO text, so eq never matches and the same day compares lower', () => {
		expect(ids(where('seen', 'eq', '2024-01-02T03:04:05.678Z'))).toEqual([]);
		expect(ids(where('seen', 'gt', '2024-01-02T00:00:00.000Z'))).toEqual([]);
		expect(ids(where('seen', 'lt', '2024-01-02T00:00:00.000Z'))).toEqual([1]);
	});

	it('on Postgres compare instants', () => {
		expect(ids(where('seen', 'eq', '2024-01-02T03:04:05.678Z'), POSTGRES)).toEqual([1]);
		expect(ids(where('seen', 'gt', '2024-01-02'), POSTGRES)).toEqual([1]);
	});

	it('apply to createdAt and updatedAt, and id is a number', () => {
		expect(ids(where('createdAt', 'gt', '2000-01-01'))).toHaveLength(7);
		expect(ids(where('id', 'gte', '6'))).toEqual([6, 7]);
	});
});

describe('and, or and checks', () => {
	it('combine conditions with and or or', () => {
		const either: Filter = { type: 'or', filters: [{ columnName: 'name', condition: 'eq', value: 'a' }, { columnName: 'price', condition: 'eq', value: 2.5 }] };
		expect(ids(either)).toEqual([1, 2]);
		expect(ids({ type: 'and', filters: [...either.filters] })).toEqual([]);
	});

	it('refuse an unknown column and a value that does not fit its column, with n8n\'s texts', () => {
		expect(refusal(() => ids(where('nope', 'eq', 1)))).toBe("400 Validation error with data table request: unknown column name 'nope'");
		expect(refusal(() => ids(where('price', 'eq', 'abc')))).toBe(
			"400 Validation error with data table request: value 'abc' does not match column type 'number': 'price' expects a number but we got 'abc'",
		);
	});
});

describe('toCell converts values as n8n\'s field validation does', () => {
	it('keeps texts, and writes numbers and booleans sent to text columns as the database does', () => {
		expect(toCell('name', 'string', true, 'sqlite', 'UTC')).toBe('1');
		expect(toCell('name', 'string', true, 'postgres', 'UTC')).toBe('true');
		expect(toCell('name', 'string', 2 ** 40, 'sqlite', 'UTC')).toBe('1099511627776.0');
	});

	it('reads numbers, booleans and dates from texts', () => {
		expect(toCell('price', 'number', '', 'sqlite', 'UTC')).toBe(0);
		expect(toCell('active', 'boolean', 'TRUE', 'sqlite', 'UTC')).toBe(true);
		expect(toCell('active', 'boolean', '0', 'sqlite', 'UTC')).toBe(false);
		expect(toCell('seen', 'date', '2024-05-06T07:08:09+02:00', 'sqlite', 'UTC')).toEqual(new Date('2024-05-06T05:08:09.000Z'));
		expect(toCell('seen', 'date', '2024-05-06', 'sqlite', 'Europe/Paris')).toEqual(new Date('2024-05-05T22:00:00.000Z'));
	});

	it('refuses what it cannot read', () => {
		expect(refusal(() => toCell('active', 'boolean', 'yes', 'sqlite', 'UTC'))).toBe(
			"400 Validation error with data table request: value 'yes' does not match column type 'boolean': 'active' expects a boolean but we got 'yes'",
		);
		expect(refusal(() => toCell('seen', 'date', 'not a date', 'sqlite', 'UTC'))).toMatch(/'seen' expects a dateTime but we got 'not a date' <br\/>/);
	});
});
