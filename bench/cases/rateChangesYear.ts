import { ONE_HOTEL_SET, runDailyShops, staysIn, type DailyShopsOptions, type DaySample, type StaySet, type TableRole } from '../../platform/engine/dailyShops';
import { stopEngine } from '../../platform/engine';
import { formatDuration } from '../../platform/n8n';
import { progress } from '../measure';
import type { BenchmarkResult, Row } from '../report';
import { row } from './common';

/**
 * Benchmark 8: a year of daily shops of the one-hotel set (a hotel and nine competitors, 5
 * websites, 2 room types, 365 days ahead: 36,500 stays), each followed by the morning Digest,
 * through Rate Changes in n8n's engine against the Data Tables stand-in, whose size models are
 * n8n's own measures (SQLite's dbstat pages; Postgres' pg_relation_size on 2.8.4 and
 * pg_total_relation_size on 2.41.1, exact against real n8n: platform/dataTables/README.md). The
 * bound of issue #28: each table after a year within 10 % of its size once the window is full,
 * and all of them inside 10 MiB on SQLite and 20 MiB on Postgres.
 */

const MIB = 1024 * 1024;

export interface YearCase {
	days: number;
	set?: StaySet;
	/** Days of the one-record deliveries' runs (every alert its own execution); 0: none. */
	singleRecordDays: number;
	/** The measures to run, by key (`sqlite`, `postgres-2.41.1`, `postgres-2.8.4`); all when not given. */
	measures?: readonly string[];
}

interface Measure {
	key: string;
	name: string;
	options: Pick<DailyShopsOptions, 'database' | 'version'>;
	/** The target after a year, in bytes. */
	target: number;
}

const MEASURES: Measure[] = [
	{ key: 'sqlite', name: 'SQLite (2.8.4 and 2.41.1 alike)', options: { database: 'sqlite', version: '2.41.1' }, target: 10 * MIB },
	{ key: 'postgres-2.41.1', name: 'Postgres, n8n 2.41.1 (heap, indexes, TOAST)', options: { database: 'postgres', version: '2.41.1' }, target: 20 * MIB },
	{ key: 'postgres-2.8.4', name: 'Postgres, n8n 2.8.4 (heap)', options: { database: 'postgres', version: '2.8.4' }, target: 20 * MIB },
];

/** Detect Changes' Change At Least (%): 0, every move alerts, and its default, 10. */
const CHANGE_AT_LEAST = [0, 10] as const;

/** The window is full, and so is Keep Changes (14 days): from this day on nothing is added that does not also go. */
const FULL_DAY = 15;

/** After a week of daily shops: the first shop and seven more (the Size table of the reference page). */
const WEEK_DAY = 8;

interface YearRun {
	measure: string;
	minChangePercent: number;
	perDelivery: number | 'one record';
	days: DaySample[];
	minutes: number;
}

const total = (bytes: Record<TableRole, number>): number => bytes.rates + bytes.changes;

function mib(bytes: number): string {
	return `${(bytes / MIB).toFixed(2)} MiB`;
}

async function yearRun(measure: Measure, minChangePercent: number, set: StaySet, days: number, alertsAlone: boolean): Promise<YearRun> {
	const started = Date.now();
	const samples = await runDailyShops({
		set,
		days,
		minChangePercent,
		...measure.options,
		alertsAlone,
		onDay: (sample) => {
			if (sample.day % 30 === 0 || sample.day === days || sample.day === FULL_DAY || sample.day === WEEK_DAY) {
				progress(`  ${measure.name}, Change At Least ${minChangePercent} %${alertsAlone ? ', one-record deliveries' : ''}: day ${sample.day}, ${mib(total(sample.bytes))} (peak ${mib(total(sample.shopBytes))}), ${sample.alerts} alerts, ${formatDuration(Date.now() - started)}`);
			}
		},
	});
	return { measure: measure.name, minChangePercent, perDelivery: alertsAlone ? 'one record' : 500, days: samples, minutes: Math.round((Date.now() - started) / 6000) / 10 };
}

/** What a run shows: its size once full and after the last day, its peak, its alerts, and whether they were exact. */
function summary(run: YearRun) {
	const full = run.days[Math.min(FULL_DAY, run.days.length) - 1];
	const last = run.days[run.days.length - 1];
	const after = run.days.slice(FULL_DAY - 1);
	const peak = Math.max(...after.map((day) => total(day.shopBytes)));
	const largest = (role: TableRole) => Math.max(...after.map((day) => day.bytes[role]));
	const growth = (role: TableRole) => (full.bytes[role] > 0 ? largest(role) / full.bytes[role] - 1 : 0);
	const wrong = run.days.reduce((sum, day) => sum + day.missing + day.unexpected + day.twice, 0);
	const undigested = run.days.reduce((sum, day) => sum + Math.abs(day.digested - day.alerts), 0);
	const alerts = run.days.reduce((sum, day) => sum + day.alerts, 0);
	return { full, last, peak, growth: Math.max(growth('rates'), growth('changes')), wrong, undigested, alerts };
}

export async function rateChangesYear(spec: YearCase): Promise<BenchmarkResult> {
	const set = spec.set ?? ONE_HOTEL_SET;
	const stays = staysIn(set);
	const runs: YearRun[] = [];
	const rows: Row[] = [];
	const notes: string[] = [];
	const measures = MEASURES.filter((measure) => spec.measures === undefined || spec.measures.includes(measure.key));
	try {
		for (const measure of measures) {
			const pair: YearRun[] = [];
			for (const percent of CHANGE_AT_LEAST) pair.push(await yearRun(measure, percent, set, spec.days, false));
			runs.push(...pair);
			const [everyMove, byDefault] = pair.map(summary);
			const target = `≤ ${mib(measure.target)}`;
			rows.push(
				row(`${measure.name}: size once the window is full (day ${FULL_DAY})`, 'MiB', total(everyMove.full.bytes) / MIB, total(byDefault.full.bytes) / MIB),
				row(`${measure.name}: size after day ${spec.days}`, 'MiB', total(everyMove.last.bytes) / MIB, total(byDefault.last.bytes) / MIB, target, total(everyMove.last.bytes) <= measure.target && total(byDefault.last.bytes) <= measure.target),
				row(`${measure.name}: rates table / changes table after day ${spec.days}`, '', `${mib(everyMove.last.bytes.rates)} / ${mib(everyMove.last.bytes.changes)}`, `${mib(byDefault.last.bytes.rates)} / ${mib(byDefault.last.bytes.changes)}`),
				row(`${measure.name}: largest day, once a shop is in and before its digest`, 'MiB', everyMove.peak / MIB, byDefault.peak / MIB, target, everyMove.peak <= measure.target && byDefault.peak <= measure.target),
				row(`${measure.name}: bytes per stay after day ${spec.days}`, 'bytes', total(everyMove.last.bytes) / stays, total(byDefault.last.bytes) / stays),
				row(`${measure.name}: most a table grew past its size once full`, '%', everyMove.growth * 100, byDefault.growth * 100, '≤ 10 %', everyMove.growth <= 0.1 && byDefault.growth <= 0.1),
				row(`${measure.name}: alerts (missing, unexpected or twice; digests that differed)`, '', `${everyMove.alerts.toLocaleString('en-US')} (${everyMove.wrong}; ${everyMove.undigested})`, `${byDefault.alerts.toLocaleString('en-US')} (${byDefault.wrong}; ${byDefault.undigested})`, 'exact', everyMove.wrong + everyMove.undigested + byDefault.wrong + byDefault.undigested === 0),
			);
			if (measure.options.version === '2.8.4') {
				const estimate = everyMove.last.estimateBytes ?? 0;
				rows.push(row(`${measure.name}: the node's own estimate, which Digest reports on 2.8 (n8n lists no sizes)`, 'MiB', estimate / MIB, (byDefault.last.estimateBytes ?? 0) / MIB));
			}
		}
		for (const measure of spec.singleRecordDays > 0 ? measures.filter((measure) => measure.key !== 'postgres-2.8.4') : []) {
			const single = await yearRun(measure, 0, set, spec.singleRecordDays, true);
			runs.push(single);
			const summed = summary(single);
			rows.push(
				row(
					`${measure.name}, one record per delivery (each alert its own execution), every move alerting, ${spec.singleRecordDays} days: largest day, before its digest / after it`,
					'',
					`${mib(summed.peak)} / ${mib(total(summed.last.bytes))}`,
					null,
					`≤ ${mib(measure.target)}`,
					summed.peak <= measure.target,
				),
			);
		}
	} finally {
		await stopEngine();
	}
	notes.push(
		`${stays.toLocaleString('en-US')} stays (${set.hotels} hotels × ${set.websites} websites × ${set.roomTypes} room types × ${set.windowDays} check-in days), shopped every day for ${spec.days} days; each day 11.7 % of the stays move by 5 to 30 % (up or down; none within 0.2 of 10 %), the window moves on a day (one check-in day passes, one comes in), and a Digest runs after the shop. Deliveries of 500 records, 2 executions at once; Keep Changes at its default (14 days). Postgres: every table vacuumed after each day, as autovacuum would have by then.`,
		`"Once the window is full": day ${FULL_DAY}, when the check-in window and Keep Changes are both full; from then on every day adds what it takes away. "Largest day": the size once a day's shop is in, before the digest packs its alerts.`,
		`One record per delivery: every alert its own execution and changes entry, as a service posting one record a delivery gives them (the sandbox's default); the digest packs the day's entries into its own rows, so the largest day is the packed days plus one day of entries.`,
		`Measured in-process (platform/engine/dailyShops.ts), ${runs.map((run) => `${run.measure} ${run.minChangePercent} %${run.perDelivery === 'one record' ? ' one record' : ''} ${run.minutes} min`).join(', ')}.`,
	);
	return {
		id: '8',
		title: `Rate Changes over a year: the one-hotel set's tables, day by day`,
		setup: `A year of daily shops of ${stays.toLocaleString('en-US')} stays through Rate Changes in n8n's engine against the Data Tables stand-in, whose size models give what n8n measures; each table's size after every day.`,
		packageSide: 'Rate Changes Detect Changes with Change At Least (%) 0, and Digest, otherwise at their defaults',
		builtInSide: 'the same with Change At Least (%) at its default, 10',
		columns: { package: 'Change At Least 0 % (any move alerts)', builtIn: 'Change At Least 10 % (the default)' },
		rows,
		notes,
		rounds: runs.map((run) => ({ ...run, days: run.days.filter((day) => day.day === 1 || day.day === WEEK_DAY || day.day === FULL_DAY || day.day % 30 === 0 || day.day === run.days.length) })),
	};
}
