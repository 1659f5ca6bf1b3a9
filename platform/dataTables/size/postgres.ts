import type { Cell, Column, Row, Table } from '../types';
import type { TableSizer } from './model';

/**
 * What Postgres reports for a data table: its heap only (pg_relation_size, n8n 2.8) or heap,
 * primary key index, free space and visibility maps, TOAST table and its index
 * (pg_total_relation_size, n8n 2.41).
 *
 * Heap: 8192-byte pages with a 24-byte header; each row version is a 4-byte line pointer and a
 * tuple: a 23-byte header (plus a null bitmap when a cell is empty) padded to 8, then the cells,
 * each aligned to its type (integer id 4, double and timestamps 8, boolean 1, text 1 with a
 * 1-byte length below 127 bytes, else 4 with a 4-byte length), the whole padded to 8. A row goes
 * where Postgres would put it (Placement).
 *
 * An update writes a new version and leaves the old one dead, a delete leaves it dead. Once the
 * statement is over, a page's dead versions can be pruned (their line pointers stay), which lets
 * a later update of a row on that page put its new version there (a HOT update); any other new
 * version goes where an insert would, adding an index entry. Without vacuum() (autovacuum) nothing
 * else reuses dead space; after it, the free space map sends new versions to pages with room.
 * Tables never shrink, and neither do indexes.
 *
 * Rows over 2032 bytes move their longest texts to the TOAST table, uncompressed, in 1996-byte
 * chunks (each a tuple of its own, placed as a row is), leaving an 18-byte pointer. Postgres first
 * tries pglz compression, so repetitive long texts take far less than this model says.
 */

const PAGE_SIZE = 8192;
const PAGE_SPACE = PAGE_SIZE - 24;
const LINE_POINTER = 4;
const TUPLE_HEADER = 23;
const TOAST_THRESHOLD = 2032;
const TOAST_CHUNK = 1996;
const TOAST_POINTER = 18;
/** A TOAST chunk's tuple: header 24, chunk_id 4, chunk_seq 4, a 4-byte length and the chunk, padded, and its line pointer. */
const toastTuple = (chunk: number): number => align(24 + 4 + 4 + 4 + chunk, 8) + LINE_POINTER;

/** The tuples a value of `length` bytes takes in the TOAST table. */
function toastTuples(length: number): number[] {
	const tuples = Array.from({ length: Math.floor(length / TOAST_CHUNK) }, () => toastTuple(TOAST_CHUNK));
	return length % TOAST_CHUNK > 0 ? [...tuples, toastTuple(length % TOAST_CHUNK)] : tuples;
}
/** Btree pages: 24-byte header and 16-byte special space, entries of 16 bytes and a pointer. */
const INDEX_PAGE_ENTRIES = Math.floor((PAGE_SIZE - 24 - 16) / (16 + LINE_POINTER));
/** Appending splits the rightmost page, leaving the left one 90 % full. */
const INDEX_SPLIT_ENTRIES = Math.floor(INDEX_PAGE_ENTRIES * 0.9);
/** The free space map of a small table: 3 pages, made when the heap first outgrows one page (or by vacuum). */
const FSM_PAGES = 3;
/** The visibility map: 1 page, made by vacuum. */
const VM_PAGES = 1;
/** The free space map notes a page's free space in steps of 1/256 of a page. */
const FSM_STEP = PAGE_SIZE / 256;

export type PostgresMeasure = 'relation' | 'totalRelation';

function align(bytes: number, to: number): number {
	return Math.ceil(bytes / to) * to;
}

interface HeapPage {
	index: number;
	/** Line pointers handed out: a new version takes the next one, so it comes last in a scan of the page. */
	slots: number;
	/** Bytes taken: line pointers, live tuples and dead tuples not yet pruned. */
	used: number;
	/** Dead tuples of finished statements, which pruning frees. */
	prunable: number;
	/** Dead tuples of the statement under way. */
	dying: number;
	/** Line pointers of dead tuples, which only vacuum frees. */
	deadPointers: number;
}

interface Version {
	page: HeapPage;
	slot: number;
	bytes: number;
	/** Its TOAST chunks: the TOAST page each went to and its bytes. */
	toast: Array<[number, number]>;
}

/** A cell's stored length and alignment (0 length: empty, only its null bit). */
function cellLayout(column: Column, cell: Cell): { bytes: number; alignment: number } {
	if (cell === null) return { bytes: 0, alignment: 1 };
	switch (column.type) {
		case 'number':
		case 'date':
			return { bytes: 8, alignment: 8 };
		case 'boolean':
			return { bytes: 1, alignment: 1 };
		case 'string': {
			const length = Buffer.byteLength(String(cell), 'utf8');
			return length < 127 ? { bytes: length + 1, alignment: 1 } : { bytes: length + 4, alignment: 4 };
		}
	}
}

/** A row version's tuple with its line pointer, and the TOAST tuples of its long texts. */
export function tupleBytes(table: Table, row: Row): { bytes: number; toast: number[] } {
	const cells = table.columns.map((column) => ({ column, cell: row.cells.get(column.id) ?? null }));
	const hasNull = cells.some(({ cell }) => cell === null);
	const header = align(TUPLE_HEADER + (hasNull ? Math.ceil((cells.length + 3) / 8) : 0), 8);
	const layouts = cells.map(({ column, cell }) => cellLayout(column, cell));
	const dataBytes = (): number => {
		let offset = 4; // the integer id
		for (const layout of layouts) if (layout.bytes > 0) offset = align(offset, layout.alignment) + layout.bytes;
		return align(offset, 8) + 16; // createdAt and updatedAt, 8 bytes each
	};
	const toast: number[] = [];
	while (header + dataBytes() > TOAST_THRESHOLD) {
		const longest = layouts.reduce((best, layout, index) => (layout.alignment === 4 && layout.bytes > (layouts[best]?.bytes ?? 0) ? index : best), -1);
		if (longest < 0) break;
		toast.push(...toastTuples(layouts[longest].bytes - 4));
		layouts[longest] = { bytes: TOAST_POINTER, alignment: 1 };
	}
	return { bytes: align(header + dataBytes(), 8) + LINE_POINTER, toast };
}

/** Pages of one btree level holding `entries` appended entries: full ones left 90 % full, the last filled up. */
function levelPages(entries: number): number {
	return entries <= INDEX_PAGE_ENTRIES ? 1 : Math.ceil((entries - INDEX_PAGE_ENTRIES) / INDEX_SPLIT_ENTRIES) + 1;
}

/** A relation's free space map (3 pages, made when it first outgrows one page, or by vacuum) and visibility map (1 page, made by vacuum). */
function mapPages(relationPages: number, vacuumed: boolean): number {
	return (relationPages > 1 || vacuumed ? FSM_PAGES : 0) + (vacuumed ? VM_PAGES : 0);
}

/** Btree pages for `entries` entries: the metapage, leaves and inner pages (the metapage alone while empty). */
function indexPages(entries: number): number {
	if (entries === 0) return 1;
	let pages = 1;
	let level = levelPages(entries);
	pages += level;
	while (level > 1) {
		level = levelPages(level);
		pages += level;
	}
	return pages;
}

interface Page {
	index: number;
	used: number;
}

/**
 * How Postgres picks the page for a new tuple (RelationGetBufferForTuple): the page it used last
 * if the tuple fits there; else, having noted that page's free space in the free space map (in
 * 32-byte steps), the first page the map says has room; else a new page. Vacuum notes every page.
 */
class Placement<P extends Page> {
	private target: P | undefined;

	/** Free space as the map has it, by page: whole 32-byte steps, as of when it was noted. */
	private readonly noted = new Map<number, number>();

	constructor(
		private readonly pages: P[],
		private readonly newPage: (index: number) => P,
	) {}

	place(bytes: number): P {
		const tried = new Set<number>();
		let candidate = this.target;
		while (candidate) {
			if (PAGE_SPACE - candidate.used >= bytes) return (this.target = candidate);
			this.note(candidate);
			tried.add(candidate.index);
			const steps = Math.ceil(bytes / FSM_STEP);
			const found = [...this.noted].find(([index, free]) => free >= steps && !tried.has(index));
			candidate = found ? this.pages[found[0]] : undefined;
		}
		const page = this.newPage(this.pages.length);
		this.pages.push(page);
		return (this.target = page);
	}

	noteAll(): void {
		for (const page of this.pages) this.note(page);
	}

	private note(page: P): void {
		this.noted.set(page.index, Math.floor((PAGE_SPACE - page.used) / FSM_STEP));
	}
}

export class PostgresTableSizer implements TableSizer {
	private readonly pages: HeapPage[] = [];

	private readonly heapPlacement = new Placement<HeapPage>(this.pages, (index) => ({ index, slots: 0, used: 0, prunable: 0, dying: 0, deadPointers: 0 }));

	private readonly versions = new Map<number, Version>();

	private readonly touched = new Set<HeapPage>();

	/** Index entries now (live and dead versions) and the most there ever were: the index keeps its pages. */
	private indexEntries = 0;

	private indexHighWater = 0;

	/** The TOAST table's pages (bytes used, dead chunks included until vacuum) and its index entries. */
	private readonly toastPages: Page[] = [];

	private readonly toastPlacement = new Placement<Page>(this.toastPages, (index) => ({ index, used: 0 }));

	private toastEntries = 0;

	private toastHighWater = 0;

	private vacuumed = false;

	constructor(
		private readonly table: Table,
		private readonly measure: PostgresMeasure,
	) {}

	insert(row: Row): void {
		const { bytes, toast } = tupleBytes(this.table, row);
		this.place(row.id, this.heapPlacement.place(bytes), bytes, toast);
		this.addIndexEntry();
	}

	update(row: Row): void {
		const old = this.versions.get(row.id);
		if (!old) return;
		this.kill(old);
		const { bytes, toast } = tupleBytes(this.table, row);
		const page = old.page;
		if (!this.fits(page, bytes) && page.prunable > 0) {
			page.used -= page.prunable;
			page.prunable = 0;
		}
		if (this.fits(page, bytes)) {
			this.place(row.id, page, bytes, toast);
		} else {
			this.place(row.id, this.heapPlacement.place(bytes), bytes, toast);
			this.addIndexEntry();
		}
	}

	remove(rowId: number): void {
		const old = this.versions.get(rowId);
		if (!old) return;
		this.kill(old);
		this.versions.delete(rowId);
	}

	rewrite(): void {
		// ALTER TABLE … DROP COLUMN only marks the column dropped: rows keep their bytes.
	}

	commit(): void {
		for (const page of this.touched) {
			page.prunable += page.dying;
			page.dying = 0;
		}
		this.touched.clear();
	}

	bytes(): number {
		const heap = this.pages.length * PAGE_SIZE;
		if (this.measure === 'relation') return heap;
		let pages = this.pages.length + indexPages(this.indexHighWater) + mapPages(this.pages.length, this.vacuumed);
		// Postgres gives a table with a text column a TOAST table and its index.
		if (this.table.columns.some((column) => column.type === 'string')) {
			pages += this.toastPages.length + indexPages(this.toastHighWater) + mapPages(this.toastPages.length, this.vacuumed);
		}
		return pages * PAGE_SIZE;
	}

	position(rowId: number): number {
		const version = this.versions.get(rowId);
		return version ? version.page.index * 1_000_000 + version.slot : Number.MAX_SAFE_INTEGER;
	}

	vacuum(): void {
		this.commit();
		for (const page of this.pages) {
			page.used -= page.prunable + page.deadPointers;
			page.prunable = 0;
			page.deadPointers = 0;
		}
		for (const page of this.toastPages) page.used = 0;
		for (const version of this.versions.values()) for (const [page, bytes] of version.toast) this.toastPages[page].used += bytes;
		this.heapPlacement.noteAll();
		this.toastPlacement.noteAll();
		this.indexEntries = this.versions.size;
		this.toastEntries = [...this.versions.values()].reduce((sum, version) => sum + version.toast.length, 0);
		this.vacuumed = true;
	}

	private fits(page: HeapPage, bytes: number): boolean {
		return PAGE_SPACE - page.used >= bytes;
	}

	private place(rowId: number, page: HeapPage, bytes: number, toast: number[]): void {
		page.used += bytes;
		this.versions.set(rowId, { page, slot: page.slots++, bytes, toast: toast.map((chunk) => [this.placeToast(chunk), chunk]) });
		this.toastEntries += toast.length;
		this.toastHighWater = Math.max(this.toastHighWater, this.toastEntries);
	}

	private placeToast(bytes: number): number {
		const page = this.toastPlacement.place(bytes);
		page.used += bytes;
		return page.index;
	}

	private kill(version: Version): void {
		version.page.dying += version.bytes - LINE_POINTER;
		version.page.deadPointers += LINE_POINTER;
		this.touched.add(version.page);
	}

	private addIndexEntry(): void {
		this.indexEntries++;
		this.indexHighWater = Math.max(this.indexHighWater, this.indexEntries);
	}

}
