import type { Cell, Row, Table } from '../types';
import type { TableSizer } from './model';

/**
 * What SQLite's dbstat reports for a data table (n8n sums `pgsize` over the table's b-tree): its
 * 4096-byte pages. Each row is one cell of a leaf page, sized as SQLite's record format makes it
 * (https://www.sqlite.org/fileformat2.html); leaf pages fill up in id order (appending a row
 * to a full rightmost leaf starts a new one), rows that outgrow their page, and pages that fall
 * below a third full after deletes, are redistributed among three neighbouring pages as SQLite's
 * balance does; interior pages and overflow pages are counted too. Freed pages go to the
 * database's free list and no longer count.
 */

const PAGE_SIZE = 4096;
/** A leaf page's 8-byte header leaves this for cells and their 2-byte pointers. */
const LEAF_SPACE = PAGE_SIZE - 8;
/** SQLite balances a page once more than two thirds of it is free. */
const UNDERFULL_BELOW = LEAF_SPACE - Math.floor((PAGE_SIZE * 2) / 3);
/** The most payload a table leaf cell holds in the page itself (U - 35). */
const MAX_LOCAL = PAGE_SIZE - 35;
/** The least it keeps in the page when the rest overflows: ((U - 12) * 32 / 255) - 23. */
const MIN_LOCAL = Math.floor(((PAGE_SIZE - 12) * 32) / 255) - 23;
/** Payload bytes per overflow page (a 4-byte next-page number first). */
const OVERFLOW_SPACE = PAGE_SIZE - 4;
/** An interior page's 12-byte header leaves this; each child but the last takes a cell. */
const INTERIOR_SPACE = PAGE_SIZE - 12;
/** n8n's createdAt and updatedAt as SQLite holds them: "2024-01-02 03:04:05.678". */
const TIMESTAMP_TEXT_BYTES = 23;

export function varintBytes(value: number): number {
	let bytes = 1;
	let rest = value;
	while (rest > 0x7f && bytes < 9) {
		rest = Math.floor(rest / 128);
		bytes++;
	}
	return bytes;
}

/** A record field: its serial type and the bytes of its content. */
function field(cell: Cell): { serialType: number; bytes: number } {
	if (cell === null) return { serialType: 0, bytes: 0 };
	if (typeof cell === 'boolean') return { serialType: cell ? 9 : 8, bytes: 0 };
	if (cell instanceof Date) return { serialType: 13 + 2 * TIMESTAMP_TEXT_BYTES, bytes: TIMESTAMP_TEXT_BYTES };
	if (typeof cell === 'string') {
		const bytes = Buffer.byteLength(cell, 'utf8');
		return { serialType: 13 + 2 * bytes, bytes };
	}
	// Number columns have REAL affinity; SQLite writes whole numbers there as integers.
	if (Number.isInteger(cell) && Math.abs(cell) < 2 ** 63) return integerField(cell);
	return { serialType: 7, bytes: 8 };
}

function integerField(value: number): { serialType: number; bytes: number } {
	if (value === 0 || value === 1) return { serialType: 8 + value, bytes: 0 };
	const sizes: Array<[number, number, number]> = [
		[1, 1, 2 ** 7],
		[2, 2, 2 ** 15],
		[3, 3, 2 ** 23],
		[4, 4, 2 ** 31],
		[5, 6, 2 ** 47],
	];
	for (const [serialType, bytes, limit] of sizes) {
		if (value >= -limit && value < limit) return { serialType, bytes };
	}
	return { serialType: 6, bytes: 8 };
}

/**
 * The record of a row: id is the rowid (a NULL in the record), then every user column, then
 * createdAt and updatedAt as text. Only the set of fields matters for the size, not their order.
 */
export function recordBytes(table: Table, row: Row): number {
	const fields = [field(null), ...table.columns.map((column) => field(row.cells.get(column.id) ?? null)), field(row.createdAt), field(row.updatedAt)];
	const typeBytes = fields.reduce((sum, { serialType }) => sum + varintBytes(serialType), 0);
	let headerBytes = typeBytes + 1;
	while (varintBytes(headerBytes) + typeBytes !== headerBytes) headerBytes = varintBytes(headerBytes) + typeBytes;
	return headerBytes + fields.reduce((sum, { bytes }) => sum + bytes, 0);
}

/** The cell a record of `payload` bytes makes on a leaf page (pointer included), and its overflow pages. */
export function leafCell(rowId: number, payload: number): { bytes: number; overflowPages: number } {
	let local = payload;
	if (payload > MAX_LOCAL) {
		const kept = MIN_LOCAL + ((payload - MIN_LOCAL) % OVERFLOW_SPACE);
		local = kept <= MAX_LOCAL ? kept : MIN_LOCAL;
	}
	const overflowPages = Math.ceil((payload - local) / OVERFLOW_SPACE);
	return { bytes: varintBytes(payload) + varintBytes(rowId) + local + (overflowPages > 0 ? 4 : 0) + 2, overflowPages };
}

interface LeafPage {
	/** Cell bytes (pointer included) by row id, in id order. */
	cells: Map<number, number>;
	used: number;
}

/**
 * Cells spread over as few pages as they need, then evened out from the right as SQLite's
 * balance_nonroot does: a cell moves from a page to its right neighbour while that leaves the
 * right one no fuller than the left.
 */
export function redistribute(cells: Array<[number, number]>): LeafPage[] {
	const pages: Array<Array<[number, number]>> = [[]];
	let used = 0;
	for (const cell of cells) {
		if (used + cell[1] > LEAF_SPACE && pages[pages.length - 1].length > 0) {
			pages.push([]);
			used = 0;
		}
		pages[pages.length - 1].push(cell);
		used += cell[1];
	}
	const total = (page: Array<[number, number]>): number => page.reduce((sum, [, bytes]) => sum + bytes, 0);
	for (let i = pages.length - 1; i > 0; i--) {
		let left = total(pages[i - 1]);
		let right = total(pages[i]);
		while (pages[i - 1].length > 1) {
			const last = pages[i - 1][pages[i - 1].length - 1];
			if (right !== 0 && right + last[1] > left - last[1]) break;
			pages[i].unshift(pages[i - 1].pop() as [number, number]);
			left -= last[1];
			right += last[1];
		}
	}
	return pages.map((page) => ({ cells: new Map(page), used: total(page) }));
}

export class SqliteTableSizer implements TableSizer {
	/** Leaf pages in id order; an empty table is one empty page (its root). */
	private pages: LeafPage[] = [{ cells: new Map(), used: 0 }];

	private readonly pageOf = new Map<number, LeafPage>();

	private readonly overflow = new Map<number, number>();

	constructor(private readonly table: Table) {}

	insert(row: Row): void {
		const cell = this.cellOf(row);
		const last = this.pages[this.pages.length - 1];
		// Appending to a full rightmost leaf starts a new page holding just the new cell.
		const page = last.used + cell <= LEAF_SPACE || last.cells.size === 0 ? last : this.appendPage();
		page.cells.set(row.id, cell);
		page.used += cell;
		this.pageOf.set(row.id, page);
	}

	update(row: Row): void {
		const page = this.pageOf.get(row.id);
		if (!page) return;
		page.used -= page.cells.get(row.id) as number;
		const cell = this.cellOf(row);
		page.cells.set(row.id, cell);
		page.used += cell;
		if (page.used > LEAF_SPACE) this.balance(page);
	}

	remove(rowId: number): void {
		const page = this.pageOf.get(rowId);
		if (!page) return;
		page.used -= page.cells.get(rowId) as number;
		page.cells.delete(rowId);
		this.pageOf.delete(rowId);
		this.overflow.delete(rowId);
		if (page.used < UNDERFULL_BELOW) this.balance(page);
	}

	rewrite(rows: Iterable<Row>): void {
		this.pages = [{ cells: new Map(), used: 0 }];
		this.pageOf.clear();
		this.overflow.clear();
		for (const row of rows) this.insert(row);
	}

	bytes(): number {
		const leaves = this.pages.length;
		let overflowPages = 0;
		for (const pages of this.overflow.values()) overflowPages += pages;
		return (leaves + interiorPages(leaves, this.maxRowId()) + overflowPages) * PAGE_SIZE;
	}

	position(rowId: number): number {
		return rowId;
	}

	commit(): void {
		// SQLite frees a row's space at once.
	}

	vacuum(): void {
		// n8n never runs SQLite's VACUUM on data tables.
	}

	private cellOf(row: Row): number {
		const { bytes, overflowPages } = leafCell(row.id, recordBytes(this.table, row));
		if (overflowPages > 0) this.overflow.set(row.id, overflowPages);
		else this.overflow.delete(row.id);
		return bytes;
	}

	private appendPage(): LeafPage {
		const page: LeafPage = { cells: new Map(), used: 0 };
		this.pages.push(page);
		return page;
	}

	/** Redistributes a page with its neighbours (the two around it, or the two next to it at an end). */
	private balance(page: LeafPage): void {
		if (this.pages.length === 1 && page.used <= LEAF_SPACE) return;
		const index = this.pages.indexOf(page);
		const first = Math.max(0, Math.min(index - 1, this.pages.length - 3));
		const siblings = this.pages.slice(first, first + 3);
		const cells = siblings.flatMap((sibling) => [...sibling.cells]);
		const balanced = cells.length === 0 ? [] : redistribute(cells);
		this.pages.splice(first, siblings.length, ...balanced);
		if (this.pages.length === 0) this.pages.push({ cells: new Map(), used: 0 });
		for (const target of balanced) for (const rowId of target.cells.keys()) this.pageOf.set(rowId, target);
	}

	private maxRowId(): number {
		const last = this.pages[this.pages.length - 1];
		let max = 0;
		for (const rowId of last.cells.keys()) max = Math.max(max, rowId);
		return max;
	}
}

/** Interior pages above `leaves` leaf pages, each child but the last taking a 4-byte pointer, its key and a 2-byte cell pointer. */
function interiorPages(leaves: number, maxRowId: number): number {
	const perPage = Math.floor(INTERIOR_SPACE / (4 + varintBytes(maxRowId) + 2)) + 1;
	let pages = 0;
	let level = leaves;
	while (level > 1) {
		level = Math.ceil(level / perPage);
		pages += level;
	}
	return pages;
}
