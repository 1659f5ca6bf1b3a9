import { ONE_HOTEL_SET, staysIn, type DaySample, type StaySet, type TableRole } from '../../platform/engine/dailyShops';
import { stopEngine } from '../../platform/engine';
import type { BenchmarkResult, Row } from '../report';
import { row } from './common';
import { hotelYear } from './rateHistoryYear';
import { alertErrors, allTables, MEASURES, MIB, mib, yearRun, type YearRun } from './yearRuns';

/**
 * Benchmark 8, in two shapes, each a year of daily shops followed by the morning Digest through
 * Rate Changes in n8n's engine against the Data Tables stand-in (yearRuns.ts):
 * - `set`, the one-hotel set of issue #28 (a hotel and nine competitors, 5 websites, 2 room types,
 *   365 days ahead: 36,500 stays) at Change At Least 0 % and 10 %. Issue #28's bound is on its
 *   rates and changes tables: each after a year within 10 % of its size once the window is full,
 *   and both inside 10 MiB on SQLite and 20 MiB on Postgres. The history table is measured beside
 *   them.
 * - `hotel`, one hotel of benchmark 9's group with its rate history (rateHistoryYear.ts).
 */

export interface YearCase {
	days: number;
	set?: StaySet;
	/** Days of the set's one-record deliveries' runs (every alert its own execution); 0: none. */
	singleRecordDays: number;
	/** The measures to run, by key (`sqlite`, `postgres-2.41.1`, `postgres-2.8.4`); all when not given. */
	measures?: readonly string[];
	/** The shapes to run, by key (`set`, `hotel`); both when not given. */
	shapes?: readonly string[];
	/** Keep History (Days) of the hotel's runs, one run per value and measure; the node's default (90) alone when not given. */
	keepHistory?: readonly number[];
}

/** Issue #28's bound on the set's rates and changes tables after a year, by database. */
const SET_TARGETS: Record<string, number> = { sqlite: 10 * MIB, postgres: 20 * MIB };

/** Detect Changes' Change At Least (%): 0, every move alerts, and its default, 10. */
const CHANGE_AT_LEAST = [0, 10] as const;

/** The window is full, and so is Keep Changes (14 days): from this day on nothing is added to the rates and changes tables that does not also go. */
const FULL_DAY = 15;

/** After a week of daily shops: the first shop and seven more (the Size table of the reference page). */
const WEEK_DAY = 8;

/** The tables issue #28's bound is on. */
const ratesAndChanges = (bytes: Record<TableRole, number>): number => bytes.rates + bytes.changes;

const shownDay = (day: number): boolean => day % 30 === 0 || day === FULL_DAY || day === WEEK_DAY;

/** What a run of the set shows: its size once full and after the last day, its peak, its alerts. */
function summary(run: YearRun) {
	const full = run.days[Math.min(FULL_DAY, run.days.length) - 1];
	const last = run.days[run.days.length - 1];
	const after = run.days.slice(FULL_DAY - 1);
	const peak = Math.max(...after.map((day) => ratesAndChanges(day.shopBytes)));
	const largest = (role: TableRole) => Math.max(...after.map((day) => day.bytes[role]));
	const growth = (role: TableRole) => (full.bytes[role] > 0 ? largest(role) / full.bytes[role] - 1 : 0);
	return { full, last, peak, growth: Math.max(growth('rates'), growth('changes')), ...alertErrors(run) };
}

async function setYear(spec: YearCase, set: StaySet, rows: Row[]): Promise<YearRun[]> {
	const runs: YearRun[] = [];
	const measures = MEASURES.filter((measure) => spec.measures === undefined || spec.measures.includes(measure.key));
	for (const measure of measures) {
		const pair: YearRun[] = [];
		for (const percent of CHANGE_AT_LEAST) pair.push(await yearRun(measure, `Change At Least ${percent} %`, { set, days: spec.days, minChangePercent: percent }, shownDay));
		runs.push(...pair);
		const [everyMove, byDefault] = pair.map(summary);
		const bound = SET_TARGETS[measure.options.database ?? 'sqlite'];
		const target = `≤ ${mib(bound)}`;
		rows.push(
			row(`${measure.name}: rates and changes tables once the window is full (day ${FULL_DAY})`, 'MiB', ratesAndChanges(everyMove.full.bytes) / MIB, ratesAndChanges(byDefault.full.bytes) / MIB),
			row(`${measure.name}: rates and changes tables after day ${spec.days}`, 'MiB', ratesAndChanges(everyMove.last.bytes) / MIB, ratesAndChanges(byDefault.last.bytes) / MIB, target, ratesAndChanges(everyMove.last.bytes) <= bound && ratesAndChanges(byDefault.last.bytes) <= bound),
			row(`${measure.name}: rates table / changes table after day ${spec.days}`, '', `${mib(everyMove.last.bytes.rates)} / ${mib(everyMove.last.bytes.changes)}`, `${mib(byDefault.last.bytes.rates)} / ${mib(byDefault.last.bytes.changes)}`),
			row(`${measure.name}: rates and changes tables on the largest day, once a shop is in and before its digest`, 'MiB', everyMove.peak / MIB, byDefault.peak / MIB, target, everyMove.peak <= bound && byDefault.peak <= bound),
			row(`${measure.name}: rates and changes tables, bytes per stay after day ${spec.days}`, 'bytes', ratesAndChanges(everyMove.last.bytes) / staysIn(set), ratesAndChanges(byDefault.last.bytes) / staysIn(set)),
			row(`${measure.name}: most the rates or the changes table grew past its size once full`, '%', everyMove.growth * 100, byDefault.growth * 100, '≤ 10 %', everyMove.growth <= 0.1 && byDefault.growth <= 0.1),
			row(`${measure.name}: history table (Keep History at its default, 90 days) / all three tables after day ${spec.days}`, '', `${mib(everyMove.last.bytes.history)} / ${mib(allTables(everyMove.last.bytes))}`, `${mib(byDefault.last.bytes.history)} / ${mib(allTables(byDefault.last.bytes))}`),
			row(`${measure.name}: alerts (missing, unexpected or twice; digests that differed)`, '', `${everyMove.alerts.toLocaleString('en-US')} (${everyMove.wrong}; ${everyMove.undigested})`, `${byDefault.alerts.toLocaleString('en-US')} (${byDefault.wrong}; ${byDefault.undigested})`, 'exact', everyMove.wrong + everyMove.undigested + byDefault.wrong + byDefault.undigested === 0),
		);
		if (measure.options.version === '2.8.4') {
			const estimate = everyMove.last.estimateBytes ?? 0;
			rows.push(row(`${measure.name}: the node's own estimate, which Digest reports on 2.8 (n8n lists no sizes)`, 'MiB', estimate / MIB, (byDefault.last.estimateBytes ?? 0) / MIB));
		}
	}
	for (const measure of spec.singleRecordDays > 0 ? measures.filter((measure) => measure.key !== 'postgres-2.8.4') : []) {
		const single = await yearRun(measure, 'Change At Least 0 %, one-record deliveries', { set, days: spec.singleRecordDays, minChangePercent: 0, alertsAlone: true }, shownDay);
		runs.push(single);
		const summed = summary(single);
		const bound = SET_TARGETS[measure.options.database ?? 'sqlite'];
		rows.push(
			row(
				`${measure.name}, one record per delivery (each alert its own execution), every move alerting, ${spec.singleRecordDays} days: rates and changes tables on the largest day, before its digest / after it`,
				'',
				`${mib(summed.peak)} / ${mib(ratesAndChanges(summed.last.bytes))}`,
				null,
				`≤ ${mib(bound)}`,
				summed.peak <= bound,
			),
		);
	}
	return runs;
}

/** What the shapes run were, in a sentence. */
function shapeText(shapes: readonly string[], stays: number): string {
	const parts = [
		...(shapes.includes('set') ? [`the one-hotel set of issue #28 (${stays.toLocaleString('en-US')} stays) at Change At Least 0 % and 10 %`] : []),
		...(shapes.includes('hotel') ? ["one hotel of benchmark 9's group (10,950 stays) with its rate history, at the defaults (second column)"] : []),
	].join('; ');
	return parts.charAt(0).toUpperCase() + parts.slice(1);
}

/** The days a run of the set keeps in results.json. */
const keptDay = (day: DaySample, last: number): boolean => day.day === 1 || day.day === WEEK_DAY || day.day === FULL_DAY || day.day % 30 === 0 || day.day === last;

export async function rateChangesYear(spec: YearCase): Promise<BenchmarkResult> {
	const set = spec.set ?? ONE_HOTEL_SET;
	const stays = staysIn(set);
	const shapes = spec.shapes ?? ['set', 'hotel'];
	const rows: Row[] = [];
	const notes: string[] = [];
	let setRuns: YearRun[] = [];
	let hotelRuns: YearRun[] = [];
	let hotelRounds: unknown[] = [];
	try {
		if (shapes.includes('set')) {
			setRuns = await setYear(spec, set, rows);
			notes.push(
				`The set: ${stays.toLocaleString('en-US')} stays (${set.hotels} hotels × ${set.websites} websites × ${set.roomTypes} room types × ${set.windowDays} check-in days), shopped every day for ${spec.days} days; each day 11.7 % of the stays move by 5 to 30 % (up or down; none within 0.2 of 10 %), the window moves on a day (one check-in day passes, one comes in), and a Digest runs after the shop. Deliveries of 500 records, 2 executions at once; Keep Changes at its default (14 days), Keep History at its default (90 days). Postgres: every table vacuumed after each day, as autovacuum would have by then.`,
				`"Once the window is full": day ${FULL_DAY}, when the check-in window and Keep Changes are both full; from then on every day adds to the rates and changes tables what it takes away. "Largest day": the size once a day's shop is in, before the digest packs its alerts.`,
				`One record per delivery: every alert its own execution and changes entry, as a service posting one record a delivery gives them (the sandbox's default); the digest packs the day's entries into its own rows, so the largest day is the packed days plus one day of entries.`,
			);
		}
		if (shapes.includes('hotel')) {
			const hotel = await hotelYear({ days: spec.days, measures: spec.measures, keepHistory: spec.keepHistory });
			rows.push(...hotel.rows);
			notes.push(...hotel.notes);
			hotelRuns = hotel.runs;
			hotelRounds = hotel.rounds;
		}
	} finally {
		await stopEngine();
	}
	notes.push(`Measured in-process (platform/engine/dailyShops.ts): ${[...setRuns, ...hotelRuns].map((run) => `${run.measure}, ${run.label}, ${run.minutes} min`).join('; ')}.`);
	return {
		id: '8',
		title: `Rate Changes over a year: the one-hotel set's tables and one hotel's history, day by day`,
		setup: `A year of daily shops through Rate Changes in n8n's engine against the Data Tables stand-in, whose size models give what n8n measures; each table's size after every day. ${shapeText(shapes, stays)}.`,
		packageSide: 'Rate Changes Detect Changes with Change At Least (%) 0, and Digest, otherwise at their defaults',
		builtInSide: 'the same with Change At Least (%) at its default, 10',
		columns: { package: 'Change At Least 0 % (any move alerts)', builtIn: 'Change At Least 10 % (the default)' },
		rows,
		notes,
		rounds: [...setRuns.map((run) => ({ ...run, days: run.days.filter((day) => keptDay(day, run.days.length)) })), ...hotelRounds],
	};
}
