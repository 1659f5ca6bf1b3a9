import { validationError } from '../errors';
import type { ApiVersion, Table } from '../types';
import type { SizeModelName, SizerFactory } from './model';
import { PostgresTableSizer } from './postgres';
import { SqliteTableSizer } from './sqlite';

export type { SizeModelName, SizerFactory, TableSizer } from './model';

/** The model of what this n8n version measures on this database. */
export function sizerFactory(model: SizeModelName, version: ApiVersion): SizerFactory {
	if (model === 'sqlite') return (table: Table) => new SqliteTableSizer(table);
	// n8n 2.8 asks Postgres for pg_relation_size (heap only), 2.41 for pg_total_relation_size.
	const measure = version === '2.8.4' ? 'relation' : 'totalRelation';
	return (table: Table) => new PostgresTableSizer(table, measure);
}

/** n8n's default N8N_DATA_TABLES_SIZE_CHECK_CACHE_DURATION_MS (5 s), the same in 2.8.4 and 2.41.1; the size limit's default is the version's (versions.ts). */
export const DEFAULT_SIZE_CACHE_MS = 5_000;

/** n8n rounds to whole MiB in its message: 0.4 MiB reads "0MB". */
const toMb = (bytes: number): number => Math.round(bytes / (1024 * 1024));

export const sizeLimitMessage = (usedBytes: number, limitBytes: number): string =>
	`Data table size limit exceeded: ${toMb(usedBytes)}MB used, limit is ${toMb(limitBytes)}MB`;

export type SizeStatus = 'ok' | 'warn' | 'error';

/**
 * n8n's size check (DataTableSizeValidator): before every insert, update and upsert (dry runs
 * too, deletes never), the total of all data tables, as last measured, is compared with the
 * limit; at or above it the write is refused (400) before anything is written. The measurement
 * is cached for `cacheMs` and dropped after every write, table creation and deletion, so a write
 * that crosses the limit goes through and the next one is refused.
 */
export class SizeGuard {
	private cached: { totalBytes: number; at: number } | undefined;

	constructor(
		private readonly measure: () => number,
		readonly maxBytes: number,
		private readonly cacheMs: number,
		private readonly warningBytes: number = Math.floor(0.8 * maxBytes),
		private readonly now: () => number = Date.now,
	) {}

	/** The total as n8n would report it now (the cached figure while it is fresh). */
	totalBytes(): number {
		const now = this.now();
		if (!this.cached || now - this.cached.at >= this.cacheMs) this.cached = { totalBytes: this.measure(), at: now };
		return this.cached.totalBytes;
	}

	check(): void {
		const total = this.totalBytes();
		if (total >= this.maxBytes) throw validationError(sizeLimitMessage(total, this.maxBytes));
	}

	/** The error n8n answers at the limit, as a fault would inject it. */
	refusal(): ReturnType<typeof validationError> {
		return validationError(sizeLimitMessage(Math.max(this.totalBytes(), this.maxBytes), this.maxBytes));
	}

	reset(): void {
		this.cached = undefined;
	}

	status(bytes: number): SizeStatus {
		if (bytes >= this.maxBytes) return 'error';
		return bytes >= this.warningBytes ? 'warn' : 'ok';
	}
}
