import type { DataTables, Row } from './dataTables';

/**
 * How full n8n's Data Tables are, for Digest to say: n8n limits all data tables of an instance
 * together (N8N_DATA_TABLES_MAX_SIZE_BYTES) and refuses every insert and update at the limit.
 * n8n's own figure where its API gives one (`sizeBytes` of each listed table, newer 2.x), else an
 * estimate from the rows' contents, which the daily clean-up writes (housekeeping.ts).
 */

export interface Fullness {
	/** Every data table the key lists (n8n's figure), or Rate Changes' own tables (the estimate). */
	usedBytes: number;
	/** Rate Changes' own tables. */
	ownBytes: number;
	source: 'n8n' | 'estimate' | 'unknown';
	limitBytes: number;
	/** Where the limit comes from: the node's setting, n8n's refusal, or n8n's default for its version. */
	limitSource: 'setting' | 'n8n' | 'default';
	percent: number;
	/** As n8n's Data tables screen: warn from 80 %, full at the limit. */
	state: 'ok' | 'warn' | 'full';
}

const MB = 1024 * 1024;

/** n8n's default limit: 50 MB up to 2.26, 200 MB from 2.27, which also lists table sizes through its API (2.8 does not). */
function defaultLimit(sizesListed: boolean): number {
	return (sizesListed ? 200 : 50) * MB;
}

/** "…MB used, limit is 50MB": the limit as n8n states it when it refuses. */
export function limitFromRefusal(message: string | undefined): number | undefined {
	const match = /limit is (\d+(?:\.\d+)?)\s*MB/i.exec(message ?? '');
	return match ? Number(match[1]) * MB : undefined;
}

/**
 * An estimate of a table's size from its rows: what each row's values take as text, plus what n8n
 * and the database add to a row (its id, times and the database's own row header), about 64 bytes.
 * Postgres may count up to twice as much while updated rows await its vacuum.
 */
export function estimateBytes(rows: readonly Row[]): number {
	const ROW_OVERHEAD = 64;
	return rows.reduce((sum, row) => sum + ROW_OVERHEAD + Object.values(row).reduce<number>((bytes, value) => bytes + (value === null || value === undefined ? 1 : String(value).length), 0), 0);
}

export async function fullness(
	api: DataTables,
	own: { tableIds: ReadonlySet<string>; estimate?: number },
	limit: { settingMb: number; refusal?: string },
): Promise<Fullness> {
	const tables = await api.listTables({ fresh: true });
	const sizesListed = tables.length > 0 && tables.every((table) => typeof table.sizeBytes === 'number');
	const refused = limitFromRefusal(limit.refusal);
	const limitBytes = limit.settingMb > 0 ? limit.settingMb * MB : (refused ?? defaultLimit(sizesListed));
	const limitSource = limit.settingMb > 0 ? 'setting' : refused !== undefined ? 'n8n' : 'default';
	let usedBytes: number;
	let ownBytes: number;
	let source: Fullness['source'];
	if (sizesListed) {
		usedBytes = tables.reduce((sum, table) => sum + (table.sizeBytes ?? 0), 0);
		ownBytes = tables.filter((table) => own.tableIds.has(table.id)).reduce((sum, table) => sum + (table.sizeBytes ?? 0), 0);
		source = 'n8n';
	} else {
		usedBytes = ownBytes = own.estimate ?? 0;
		source = own.estimate === undefined ? 'unknown' : 'estimate';
	}
	const percent = Math.round((usedBytes / limitBytes) * 1000) / 10;
	const state = refused !== undefined || usedBytes >= limitBytes ? 'full' : percent >= 80 ? 'warn' : 'ok';
	return { usedBytes, ownBytes, source, limitBytes, limitSource, percent, state };
}

function mb(bytes: number): string {
	return `${(bytes / MB).toFixed(1)} MB`;
}

/** One line for a digest: how full, and what to do from 80 %. */
export function fullnessLine(fullness: Fullness): string {
	const figure = fullness.source === 'n8n' ? "n8n's figure" : fullness.source === 'estimate' ? 'estimated from their rows' : 'n8n gives no figure';
	const used =
		fullness.source === 'n8n'
			? `Data tables use ${mb(fullness.usedBytes)} of ${mb(fullness.limitBytes)} (${fullness.percent} %, ${figure}); Rate Changes' tables ${mb(fullness.ownBytes)}`
			: `Rate Changes' tables use about ${mb(fullness.usedBytes)} of ${mb(fullness.limitBytes)} (${fullness.percent} %, ${figure})`;
	switch (fullness.state) {
		case 'full':
			return `n8n's Data Tables are full: ${used}. n8n refuses every insert and update, so rate alerts are held back until there is room: raise N8N_DATA_TABLES_MAX_SIZE_BYTES (self-hosted n8n) or delete rows in n8n's Data tables screen, then retry the failed executions; they put out the alerts held back.`;
		case 'warn':
			return `n8n's Data Tables are nearly full: ${used}. At the limit n8n refuses every insert and update: make room before then (N8N_DATA_TABLES_MAX_SIZE_BYTES on self-hosted n8n, or fewer Keep Changes days).`;
		default:
			return used;
	}
}
