import { staysIn, type DaySample, type StaySet } from '../../platform/engine/dailyShops';
import type { Row } from '../report';
import { row } from './common';
import { GROUP_MOVED_SHARE, GROUP_SET } from './rateChangesGroup';
import { alertErrors, allTables, MEASURES, MIB, mib, yearRun, type Measure, type YearRun } from './yearRuns';

/**
 * Benchmark 8's hotel, issue #47's shape: one hotel of benchmark 9's group (10 websites × 3 room
 * types × 365 check-in days: 10,950 stays), shopped daily with the group's change model (10 % of
 * the stays moving 5 to 30 % a day), Detect Changes and Digest at their defaults, so Keep History
 * at 90 days unless asked otherwise. The history table grows for Keep History days and a month
 * more: a stay's entries older than Keep History are pruned as it is written, and a month's rows
 * stay until the month ended Keep History days ago.
 *
 * Targets (issue #47): the hotel's three tables inside 10 MiB on SQLite and on Postgres, after the
 * last day and on the largest day; each table, once the history is full, within 10 % of the most
 * it took in the month after. On Postgres 2.41.1, the database of benchmark 9, the group's size
 * is projected from the hotel's bytes per stay against n8n's default limit (200 MiB from 2.27).
 */

export const GROUP_HOTEL: StaySet = { ...GROUP_SET, hotels: 1 };

const TARGET = 10 * MIB;
const GROUP_LIMIT = 200 * MIB;
export const DEFAULT_KEEP_HISTORY = 90;

/**
 * The first day the daily clean-up deletes a month of history: the first shop's month (its
 * check-ins from day 2 to day 31) ended Keep History days before it. From then on each month's
 * rows go as a month of check-ins passes, so the table takes what it gives back within a month.
 */
const historyFullDay = (keep: number): number => keep + 32;

/** The days shown day by day in the table (and with every tenth day, kept in results.json's rounds). */
function checkpoints(keep: number, days: number): number[] {
	const wanted = [1, 8, 15, 30, 60, keep, keep + 1, historyFullDay(keep), 180, 270, 365, days];
	return [...new Set(wanted)].filter((day) => day <= days).sort((a, b) => a - b);
}

export interface HotelYearCase {
	days: number;
	measures?: readonly string[];
	keepHistory?: readonly number[];
}

export interface HotelYear {
	rows: Row[];
	notes: string[];
	runs: YearRun[];
	/** Each run's days of `checkpoints` and every tenth day. */
	rounds: unknown[];
}

interface HotelRun {
	measure: Measure;
	keep: number;
	run: YearRun;
}

const stays = staysIn(GROUP_HOTEL);
const groupStays = staysIn(GROUP_SET);
const projected = (bytes: number): number => (bytes / stays) * groupStays;
const largestDay = (days: readonly DaySample[]): number => Math.max(...days.map((day) => allTables(day.shopBytes)));

/** How much each table grew past the most it took in the month after the history was full; undefined before that month has passed. */
function growthPastFull(days: readonly DaySample[], keep: number): number | undefined {
	const full = historyFullDay(keep);
	if (days.length <= full + 30) return undefined;
	const month = days.slice(full - 1, full + 30);
	const after = days.slice(full + 30);
	const roles = ['rates', 'changes', 'history'] as const;
	return Math.max(...roles.map((role) => Math.max(...after.map((day) => day.bytes[role])) / Math.max(...month.map((day) => day.bytes[role])) - 1));
}

function runRows(hotel: HotelRun, days: number): Row[] {
	const { measure, keep, run } = hotel;
	const last = run.days[run.days.length - 1];
	const name = `One hotel, Keep History ${keep} days${keep === DEFAULT_KEEP_HISTORY ? ' (the default)' : ''}, ${measure.name}`;
	const peak = largestDay(run.days);
	const growth = growthPastFull(run.days, keep);
	const { alerts, wrong, undigested } = alertErrors(run);
	const byDay = checkpoints(keep, days)
		.map((day) => run.days[day - 1])
		.map((day) => `day ${day.day}: ${mib(allTables(day.bytes))} (history ${mib(day.bytes.history)})`)
		.join('; ');
	const lines = [
		row(`${name}: rates table / changes table / history table after day ${days}`, '', null, `${mib(last.bytes.rates)} / ${mib(last.bytes.changes)} / ${mib(last.bytes.history)}`),
		row(`${name}: all three tables after day ${days}`, 'MiB', null, allTables(last.bytes) / MIB, `≤ ${mib(TARGET)}`, allTables(last.bytes) <= TARGET),
		row(`${name}: all three tables on the largest day, once a shop is in and before its digest`, 'MiB', null, peak / MIB, `≤ ${mib(TARGET)}`, peak <= TARGET),
		row(`${name}: history table, bytes per stay after day ${days} (a stay a day kept: ÷ ${keep})`, '', null, `${Math.round(last.bytes.history / stays)} bytes (${(last.bytes.history / stays / keep).toFixed(2)})`),
		row(`${name}: all three tables and the history table, day by day`, '', null, byDay),
	];
	if (growth !== undefined) {
		lines.push(row(`${name}: most a table grew past the most it took in the month after the history was full (day ${historyFullDay(keep)} to ${historyFullDay(keep) + 30})`, '%', null, growth * 100, '≤ 10 %', growth <= 0.1));
	}
	lines.push(row(`${name}: alerts (missing, unexpected or twice; digests that differed)`, '', null, `${alerts.toLocaleString('en-US')} (${wrong}; ${undigested})`, 'exact', wrong + undigested === 0));
	if (measure.key === 'postgres-2.41.1') {
		lines.push(
			row(
				`${name}: benchmark 9's group (${groupStays.toLocaleString('en-US')} stays), projected by this hotel's bytes per stay: after day ${days} / largest day`,
				'',
				null,
				`${mib(projected(allTables(last.bytes)))} / ${mib(projected(peak))}`,
				`≤ ${mib(GROUP_LIMIT)} (n8n's default limit)`,
				projected(peak) <= GROUP_LIMIT,
			),
		);
	}
	return lines.map((line) => ({ ...line, ratio: null }));
}

export async function hotelYear(spec: HotelYearCase): Promise<HotelYear> {
	const keeps = spec.keepHistory ?? [DEFAULT_KEEP_HISTORY];
	const measures = MEASURES.filter((measure) => spec.measures === undefined || spec.measures.includes(measure.key));
	const hotelRuns: HotelRun[] = [];
	for (const measure of measures) {
		for (const keep of keeps) {
			const shown = new Set(checkpoints(keep, spec.days));
			const run = await yearRun(
				measure,
				`one hotel of the group, Keep History ${keep} days`,
				{ set: GROUP_HOTEL, days: spec.days, movedShare: GROUP_MOVED_SHARE, ...(keep === DEFAULT_KEEP_HISTORY ? {} : { keepHistoryDays: keep }) },
				(day) => shown.has(day) || day % 30 === 0,
			);
			hotelRuns.push({ measure, keep, run });
		}
	}
	return {
		rows: hotelRuns.flatMap((hotel) => runRows(hotel, spec.days)),
		notes: [
			`The hotel: one hotel of benchmark 9's group, ${stays.toLocaleString('en-US')} stays (${GROUP_HOTEL.websites} websites × ${GROUP_HOTEL.roomTypes} room types × ${GROUP_HOTEL.windowDays} check-in days), shopped every day for ${spec.days} days with the group's change model: ${GROUP_MOVED_SHARE * 100} % of the stays move by 5 to 30 % a day, the window moves on a day. Detect Changes and Digest at their defaults (Change At Least 10 %, Keep Changes 14 days, Keep History ${DEFAULT_KEEP_HISTORY} days unless the row says otherwise); deliveries of 500 records, 2 executions at once; on Postgres every table vacuumed after each day. Its values are in the second column: it runs at the default Change At Least only.`,
			`The history is full on day Keep History + 32 (day ${historyFullDay(DEFAULT_KEEP_HISTORY)} at ${DEFAULT_KEEP_HISTORY} days): the clean-up deletes the first month's history that day, and from then on gives back a month of rows as a month of check-ins passes. The stand-in does not model Postgres' compression of long texts (pglz, on values past about 2 KB: a history row holds a month of a stay's entries), so its Postgres figures are an upper bound.`,
			`The group's projection: 100 times the hotel's bytes per stay. Benchmark 9's own runs show one hotel overstating the group: projected, its days 1 and 2 came to 1.21 and 1.22 times what the whole group measured on Postgres 2.41.1.`,
		],
		runs: hotelRuns.map((hotel) => hotel.run),
		rounds: hotelRuns.map(({ measure, keep, run }) => ({
			shape: 'hotel',
			measure: measure.name,
			keepHistoryDays: keep,
			minutes: run.minutes,
			days: run.days.filter((day) => day.day % 10 === 0 || checkpoints(keep, spec.days).includes(day.day)).map((day) => ({
				day: day.day,
				date: day.date,
				bytes: day.bytes,
				allTables: allTables(day.bytes),
				largestBeforeDigest: allTables(day.shopBytes),
				historyBytesPerStay: Math.round((day.bytes.history / stays) * 10) / 10,
				rows: day.rows,
				alerts: day.alerts,
				expectedAlerts: day.expectedAlerts,
				wrong: day.missing + day.unexpected + day.twice,
				elapsedMs: day.elapsedMs,
			})),
		})),
	};
}
