import type { Row, Table } from '../types';

/**
 * What a size model answers for one table: the bytes n8n would report for it, kept up to date row
 * by row. n8n measures the database itself (SQLite: the table's pages in dbstat; Postgres:
 * pg_relation_size on 2.8, pg_total_relation_size on 2.41); a model estimates what that would be.
 */
export interface TableSizer {
	/** A new row, with an id above every other (ids only grow). */
	insert(row: Row): void;
	/** A row written again with new cells. */
	update(row: Row): void;
	remove(rowId: number): void;
	/** Every row written anew, as after a column is dropped (SQLite and Postgres rewrite the table). */
	rewrite(rows: Iterable<Row>): void;
	bytes(): number;
	/** Where the row's current version lies in a scan of the table: rowid order in SQLite, page and slot in Postgres' heap. */
	position(rowId: number): number;
	/** The end of one statement (one request's write): Postgres can prune its dead row versions from then on. */
	commit(): void;
	/** Postgres' VACUUM: the space of dead row versions becomes free for new ones. SQLite: nothing. */
	vacuum(): void;
}

export type SizeModelName = 'sqlite' | 'postgres';

export type SizerFactory = (table: Table) => TableSizer;
