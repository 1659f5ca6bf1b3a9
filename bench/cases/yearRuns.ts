import { runDailyShops, type DailyShopsOptions, type DaySample, type TableRole } from '../../platform/engine/dailyShops';
import { formatDuration } from '../../platform/n8n';
import { progress } from '../measure';

/**
 * What both shapes of benchmark 8 run on: a series of daily shops in n8n's engine against the
 * Data Tables stand-in, measured by one of its size models, which are n8n's own measures (SQLite's
 * dbstat pages; Postgres' pg_relation_size on 2.8.4 and pg_total_relation_size on 2.41.1, exact
 * against real n8n: platform/dataTables/README.md).
 */

export const MIB = 1024 * 1024;

export interface Measure {
	key: string;
	name: string;
	options: Pick<DailyShopsOptions, 'database' | 'version'>;
}

export const MEASURES: Measure[] = [
	{ key: 'sqlite', name: 'SQLite (2.8.4 and 2.41.1 alike)', options: { database: 'sqlite', version: '2.41.1' } },
	{ key: 'postgres-2.41.1', name: 'Postgres, n8n 2.41.1 (heap, indexes, TOAST)', options: { database: 'postgres', version: '2.41.1' } },
	{ key: 'postgres-2.8.4', name: 'Postgres, n8n 2.8.4 (heap)', options: { database: 'postgres', version: '2.8.4' } },
];

export interface YearRun {
	/** The stays shopped and the settings that differ from the node's defaults, as the progress lines and the notes name the run. */
	label: string;
	measure: string;
	days: DaySample[];
	minutes: number;
}

export const mib = (bytes: number): string => `${(bytes / MIB).toFixed(2)} MiB`;

/** Every table Rate Changes keeps for a shop: rates, changes and history. */
export const allTables = (bytes: Record<TableRole, number>): number => bytes.rates + bytes.changes + bytes.history;

/** Runs the daily shops on one measure, with a progress line on the days `shown` picks. */
export async function yearRun(measure: Measure, label: string, options: Omit<DailyShopsOptions, 'database' | 'version' | 'onDay'>, shown: (day: number) => boolean): Promise<YearRun> {
	const started = Date.now();
	const samples = await runDailyShops({
		...options,
		...measure.options,
		onDay: (sample) => {
			if (shown(sample.day) || sample.day === options.days) {
				const { rates, changes, history } = sample.bytes;
				progress(`  ${measure.name}, ${label}: day ${sample.day}, ${mib(allTables(sample.bytes))} (rates ${mib(rates)}, changes ${mib(changes)}, history ${mib(history)}; peak ${mib(allTables(sample.shopBytes))}), ${sample.alerts} alerts, ${formatDuration(Date.now() - started)}`);
			}
		},
	});
	return { label, measure: measure.name, days: samples, minutes: Math.round((Date.now() - started) / 6000) / 10 };
}

/** Alerts missing, unexpected or put out twice, and digests that listed other than the day's alerts, over a run. */
export function alertErrors(run: YearRun): { alerts: number; wrong: number; undigested: number } {
	return {
		alerts: run.days.reduce((sum, day) => sum + day.alerts, 0),
		wrong: run.days.reduce((sum, day) => sum + day.missing + day.unexpected + day.twice, 0),
		undigested: run.days.reduce((sum, day) => sum + Math.abs(day.digested - day.alerts), 0),
	};
}
