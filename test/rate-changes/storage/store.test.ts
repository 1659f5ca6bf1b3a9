import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { DataTables, Row, RowFilter, TableHandle } from '../../../nodes/RateChanges/storage/dataTables';
import { Journal, packAlerts, type JournalAlert } from '../../../nodes/RateChanges/storage/journal';
import { MonthRows, WRITERS_KEPT, writersAfter, wroteBy } from '../../../nodes/RateChanges/storage/monthRows';
import { MAX_ROUNDS, Store, type Alerting, type MonthPlan } from '../../../nodes/RateChanges/storage/store';
import { changesTable, ratesTable } from '../../../nodes/RateChanges/storage/tables';

import { journalAlert } from './journalAlert';

/**
 * The month-row protocol behind the store's door, against tables kept in memory: the writers'
 * rules, every path of a round (nothing to write, a new row, a stored row, a row another execution
 * wrote meanwhile, a row it wrote every round, a lost answer, a confirm another execution made
 * first, writes without alerts) and the orphans an execution left.
 */

/** Tables in memory with n8n's filters as the node sends them; `beforeUpdate` lets another execution write first. */
class MemoryTables {
	readonly byTable = new Map<string, Row[]>();
	private nextId = 1;
	/** Requests in order: `<method> <table>`. */
	readonly log: string[] = [];
	beforeUpdate?: (table: string, filter: RowFilter) => void;
	/** The next update's answer is lost once n8n applied it. */
	loseNextAnswer = false;

	rows(table: string): Row[] {
		if (!this.byTable.has(table)) this.byTable.set(table, []);
		return this.byTable.get(table) as Row[];
	}

	seed(table: string, row: IDataObject): Row {
		const stored = { createdAt: new Date().toISOString(), ...row, id: this.nextId++ } as Row;
		this.rows(table).push(stored);
		return { ...stored };
	}

	async readRows(table: TableHandle, filter: RowFilter): Promise<Row[]> {
		this.log.push(`read ${table.id}`);
		return this.rows(table.id)
			.filter((row) => matches(row, filter))
			.map((row) => ({ ...row }));
	}

	async insertRows(table: TableHandle, rows: readonly IDataObject[]): Promise<void> {
		this.log.push(`insert ${table.id}`);
		for (const row of rows) this.seed(table.id, row);
	}

	async updateRows(table: TableHandle, filter: RowFilter, data: IDataObject): Promise<{ rows: Row[]; uncertain: boolean }> {
		this.beforeUpdate?.(table.id, filter);
		this.log.push(`update ${table.id}`);
		const hit = this.rows(table.id).filter((row) => matches(row, filter));
		for (const row of hit) Object.assign(row, data);
		if (this.loseNextAnswer) {
			this.loseNextAnswer = false;
			return { rows: [], uncertain: true };
		}
		return { rows: hit.map((row) => ({ ...row })), uncertain: false };
	}

	async deleteRows(table: TableHandle, filter: RowFilter): Promise<void> {
		this.log.push(`delete ${table.id}`);
		this.byTable.set(
			table.id,
			this.rows(table.id).filter((row) => !matches(row, filter)),
		);
	}

	async deleteIds(table: TableHandle, ids: readonly number[]): Promise<void> {
		this.log.push(`delete ${table.id}`);
		this.byTable.set(
			table.id,
			this.rows(table.id).filter((row) => !ids.includes(row.id)),
		);
	}
}

function matches(row: Row, filter: RowFilter): boolean {
	const tests = filter.filters.map(({ columnName, condition, value }) => {
		const cell = row[columnName] ?? null;
		if (condition !== 'eq') throw new Error(`no ${condition} here`);
		return value === null ? cell === null : cell === value;
	});
	return filter.type === 'or' ? tests.some(Boolean) : tests.every(Boolean);
}

const RATES: TableHandle = { id: 'rates', spec: ratesTable('rates') };
const CHANGES: TableHandle = { id: 'changes', spec: changesTable('changes') };

function alertOf(block: string, day = 7): JournalAlert {
	return journalAlert({ block, checkIn: `2027-02-${String(day).padStart(2, '0')}` });
}

let tables: MemoryTables;
let store: Store;
let journal: Journal;
let rows: MonthRows;

beforeEach(() => {
	tables = new MemoryTables();
	const api = tables as unknown as DataTables;
	store = new Store({ getExecutionId: () => 'mine' } as unknown as IExecuteFunctions, api);
	journal = new Journal(api, CHANGES);
	rows = new MonthRows(api, RATES);
});

function alerting(pinned: readonly string[] = []): Alerting {
	return { journal, operation: 'detectChanges', pinned: new Set(pinned) };
}

/** A plan that writes `rates` into the row and alerts once for it. */
function writing(rates: string): (key: string) => MonthPlan {
	return (key) => ({ key, data: { block: key, rates }, alerts: [alertOf(key)] });
}

function entries(): Row[] {
	return tables.rows('changes');
}

describe('the writers of a month row', () => {
	it('names the new write first and keeps the writes before it, WRITERS_KEPT in all', () => {
		expect(WRITERS_KEPT).toBe(4);
		expect(writersAfter('t5', 't4 t3 t2 t1')).toBe('t5 t4 t3 t2');
		expect(writersAfter('t1', undefined)).toBe('t1');
		expect(writersAfter('t1', '')).toBe('t1');
	});

	it('keeps a pinned writer (its entry is still tentative) after the recent ones, however many write after it', () => {
		const pinned = new Set(['p']);
		const once = writersAfter('t5', 't4 t3 t2 p', pinned);
		expect(once).toBe('t5 t4 t3 t2 p');
		expect(writersAfter('t6', once, pinned)).toBe('t6 t5 t4 t3 p');
	});

	it('lets a writer go once it is no longer pinned', () => {
		expect(writersAfter('t6', 't5 t4 t3 t2 p')).toBe('t6 t5 t4 t3');
	});

	it('tells whether a row names a token among its writers, word by word', () => {
		expect(wroteBy({ id: 1, writers: 'a.1 b.2' }, 'b.2')).toBe(true);
		expect(wroteBy({ id: 1, writers: 'a.1 b.2' }, 'b')).toBe(false);
		expect(wroteBy({ id: 1 }, 'a.1')).toBe(false);
		expect(wroteBy(undefined, 'a.1')).toBe(false);
	});
});

describe('a round of writes', () => {
	it('writes nothing and journals nothing when no row moves', async () => {
		const stored = tables.seed('rates', { block: 'A', rates: 'old', writers: 'w1' });
		const result = await store.writeInRounds({ rows, keys: ['A'], stored: new Map([['A', stored]]), plan: (key) => ({ key, alerts: [] }), alerting: alerting() });
		expect([...result.written.keys()]).toEqual(['A']);
		expect(result).toMatchObject({ alerts: [], contested: [] });
		expect(tables.log).toEqual([]);
	});

	it('journals the alerts tentative before the new row is inserted, and confirms them after', async () => {
		const result = await store.writeInRounds({ rows, keys: ['A'], stored: new Map(), plan: writing('new'), alerting: alerting() });
		expect(result.alerts).toEqual([alertOf('A')]);
		expect(tables.log.filter((request) => !request.startsWith('read'))).toEqual(['insert changes', 'insert rates', 'update changes']);
		const [entry] = entries();
		expect(entry).toMatchObject({ state: 'confirmed', operation: 'detectChanges', monthTable: 'rates', alertCount: 1 });
		expect(tables.rows('rates')).toMatchObject([{ block: 'A', rates: 'new', writers: entry.entry }]);
	});

	it('writes over a stored row with a compare-and-set on its writers', async () => {
		const stored = tables.seed('rates', { block: 'A', rates: 'old', writers: 'w1' });
		const result = await store.writeInRounds({ rows, keys: ['A'], stored: new Map([['A', stored]]), plan: writing('new'), alerting: alerting() });
		expect(result.alerts).toHaveLength(1);
		expect(tables.rows('rates')).toMatchObject([{ rates: 'new', writers: `${String(entries()[0].entry)} w1` }]);
	});

	it('reads a row another execution wrote meanwhile again, plans it anew, and puts out only what the write that got in alerted', async () => {
		const stored = tables.seed('rates', { block: 'A', rates: 'old', writers: 'w1' });
		tables.beforeUpdate = (table) => {
			if (table !== 'rates') return;
			tables.beforeUpdate = undefined;
			Object.assign(tables.rows('rates')[0], { rates: 'theirs', writers: 'other.1 w1' });
		};
		const seen: Array<string | undefined> = [];
		const plan = (key: string, row: Row | undefined): MonthPlan => {
			seen.push(row?.rates as string | undefined);
			return { key, data: { block: key, rates: `${String(row?.rates)}+mine` }, alerts: [alertOf(key, seen.length)] };
		};
		const result = await store.writeInRounds({ rows, keys: ['A'], stored: new Map([['A', stored]]), plan, alerting: alerting() });
		expect(seen).toEqual(['old', 'theirs']);
		expect(result.alerts).toEqual([alertOf('A', 2)]);
		expect(tables.rows('rates')[0]).toMatchObject({ rates: 'theirs+mine' });
		// The first round's entry had no row that got in: it went.
		expect(entries()).toHaveLength(1);
		expect(entries()[0]).toMatchObject({ state: 'confirmed' });
	});

	it('leaves a row another writer wrote every round (contested): nothing of it written, no alert put out, the other rows written', async () => {
		const [a, b] = [tables.seed('rates', { block: 'A', rates: 'old', writers: 'w1' }), tables.seed('rates', { block: 'B', rates: 'old', writers: 'w1' })];
		let theirs = 0;
		tables.beforeUpdate = (table, filter) => {
			const row = tables.rows('rates').find((candidate) => candidate.block === 'A');
			if (table === 'rates' && filter.filters.some((condition) => condition.columnName === 'id' && condition.value === row?.id)) {
				Object.assign(row as Row, { rates: `theirs ${++theirs}`, writers: `other.${theirs} w1` });
			}
		};
		let plans = 0;
		const plan = (key: string): MonthPlan => {
			if (key === 'A') plans++;
			return writing('mine')(key);
		};
		const result = await store.writeInRounds({ rows, keys: ['A', 'B'], stored: new Map([['A', a], ['B', b]]), plan, alerting: alerting() });
		expect(plans).toBe(MAX_ROUNDS);
		expect(result.contested).toEqual(['A']);
		expect([...result.written.keys()]).toEqual(['B']);
		expect(result.alerts).toEqual([alertOf('B')]);
		expect(tables.rows('rates').find((row) => row.block === 'A')).toMatchObject({ rates: `theirs ${MAX_ROUNDS}` });
		expect(entries().map((entry) => entry.state)).toEqual(['confirmed']);
	}, 10_000);

	it('counts a write whose answer was lost as done when the row names its token', async () => {
		const stored = tables.seed('rates', { block: 'A', rates: 'old', writers: 'w1' });
		tables.beforeUpdate = (table) => {
			if (table === 'rates') tables.loseNextAnswer = true;
		};
		const result = await store.writeInRounds({ rows, keys: ['A'], stored: new Map([['A', stored]]), plan: writing('new'), alerting: alerting() });
		tables.beforeUpdate = undefined;
		expect(result.alerts).toHaveLength(1);
		expect(result.contested).toEqual([]);
		// One round: the row, read back, named this write's token.
		expect(tables.log.filter((request) => request === 'update rates')).toHaveLength(1);
	});

	it('keeps the tokens it is given to pin among the writers, however many wrote before', async () => {
		const stored = tables.seed('rates', { block: 'A', rates: 'old', writers: 'dead.1 w1 w2 w3' });
		await store.writeInRounds({ rows, keys: ['A'], stored: new Map([['A', stored]]), plan: writing('new'), alerting: alerting(['dead.1']) });
		expect(String(tables.rows('rates')[0].writers).split(' ')).toEqual([String(entries()[0].entry), 'w1', 'w2', 'w3', 'dead.1']);
	});

	it('pins, in a later round, the entries tentative when it reads its rows again', async () => {
		const stored = tables.seed('rates', { block: 'A', rates: 'old', writers: 'w1' });
		tables.beforeUpdate = (table) => {
			if (table !== 'rates') return;
			tables.beforeUpdate = undefined;
			tables.seed('changes', { entry: 'other.1', state: 'tentative', operation: 'detectChanges', monthTable: 'rates' });
			Object.assign(tables.rows('rates')[0], { writers: 'x1 x2 x3 other.1' });
		};
		await store.writeInRounds({ rows, keys: ['A'], stored: new Map([['A', stored]]), plan: writing('new'), alerting: alerting() });
		expect(String(tables.rows('rates')[0].writers).split(' ').slice(1)).toEqual(['x1', 'x2', 'x3', 'other.1']);
	});

	it('puts out nothing of an entry another execution confirmed first (it took this one for an orphan)', async () => {
		tables.beforeUpdate = (table) => {
			if (table !== 'changes') return;
			tables.beforeUpdate = undefined;
			Object.assign(tables.rows('changes')[0], { state: 'confirmed', resolvedBy: 'other.2' });
		};
		const result = await store.writeInRounds({ rows, keys: ['A'], stored: new Map(), plan: writing('new'), alerting: alerting() });
		expect(result.alerts).toEqual([]);
		expect([...result.written.keys()]).toEqual(['A']);
	});

	it('writes rows that alert nothing without the changes table (Rate Calendar\'s memory)', async () => {
		const result = await store.writeInRounds({ rows, keys: ['A'], stored: new Map(), plan: (key) => ({ key, data: { block: key, rates: 'sent' }, alerts: [] }) });
		expect([...result.written.keys()]).toEqual(['A']);
		expect(entries()).toEqual([]);
		expect(tables.log.some((request) => request.endsWith('changes'))).toBe(false);
	});
});

describe('entries an execution left tentative (orphans)', () => {
	const OLD = new Date(Date.now() - 11 * 60_000).toISOString();

	function leftBehind(createdAt: string): void {
		tables.seed('changes', { entry: 'dead.1', state: 'tentative', operation: 'detectChanges', monthTable: 'rates', alertCount: 2, alerts: packAlerts([alertOf('A'), alertOf('B')]), createdAt });
		tables.seed('rates', { block: 'A', writers: 'w2 dead.1' });
		tables.seed('rates', { block: 'B', writers: 'w2' });
	}

	it('count for exactly the rows that name their token, and come out once, from whoever confirms them', async () => {
		leftBehind(OLD);
		const scan = await store.findOrphans(journal, { retry: false });
		expect([...scan.pinned]).toEqual(['dead.1']);
		expect(scan.orphans.map((orphan) => orphan.happened)).toEqual([[alertOf('A')]]);
		expect(await store.confirmOrphans(journal, scan.orphans)).toEqual([alertOf('A')]);
		expect(await store.confirmOrphans(journal, scan.orphans)).toEqual([]);
	});

	it('are left to their execution while young, but for a retry of the same records', async () => {
		leftBehind(new Date().toISOString());
		expect((await store.findOrphans(journal, { retry: false })).orphans).toEqual([]);
		const sameRecords = (alert: JournalAlert) => alert.block === 'A';
		expect((await store.findOrphans(journal, { retry: true, sameRecords })).orphans).toHaveLength(1);
		expect((await store.findOrphans(journal, { retry: true, sameRecords: () => false })).orphans).toEqual([]);
	});
});
