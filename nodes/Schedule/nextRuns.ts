import { DateTime, IANAZone } from 'luxon';

import type { ScheduleFields } from './scheduleFields';

import {
	MONTH_NAMES,
	parseDaysOfMonth,
	parseDaysOfWeek,
	parseHours,
	parseMonths,
	parseYears,
} from './scheduleFields';

/**
 * When a schedule will next run, from its fields alone. Times are wall-clock times in the
 * workflow's timezone (the spec names no timezone for schedules; docs/nodes/schedule.md).
 *
 * Rules applied:
 * - Every field must match: year, month, day of week and day of month all filter the days.
 * - Spec 4.2: "all schedules are queued at the 55th minute of the previous hour; a job scheduled
 *   for the current hour runs only on the following day". So a run at T happens only if the
 *   schedule existed at floor_hour(T) - 5 minutes: created at 10:55:00 it runs at 11:30 the same
 *   day, created at 10:55:01 or later it first runs at 11:30 the next day.
 * - Start and end dates are inclusive days in the workflow's timezone.
 * - A wall time that a daylight-saving change skips (02:30 on the spring-forward night in
 *   Europe/Berlin) does not happen that day; one that occurs twice (fall back) runs once, at the
 *   first occurrence.
 */

export interface NextRunsOptions {
	/** When the schedule is (or was) stored: the queueing rule counts from here. Epoch ms. */
	createdAt: number;
	/** IANA timezone of the workflow. */
	zone: string;
	count: number;
	/** How far to look ahead from the first day the schedule may run. */
	horizonYears?: number;
}

export interface NextRuns {
	/** ISO 8601 with the zone's offset, earliest first. */
	runs: string[];
	/** `never` when no run time can ever come: almost always a mistake worth a warning. */
	outlook: 'runs' | 'fewer' | 'never' | 'inactive';
	/** Why there are fewer runs than asked for; absent when all were found. */
	note?: string;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** Queued at minute 55 of the previous hour: five minutes before the run's hour starts. */
const QUEUE_LEAD_MS = 5 * MINUTE_MS;
const DEFAULT_HORIZON_YEARS = 10;

interface Timing {
	years?: Set<number>;
	months?: Set<number>;
	weekdays?: Set<number>;
	days?: Set<number>;
	hours: number[];
	minute: number;
	second: number;
	/** Civil days as UTC midnight epoch ms. */
	start: number;
	end?: number;
}

function asSet(values: number[] | undefined): Set<number> | undefined {
	return values === undefined ? undefined : new Set(values);
}

function civilDay(isoDate: string): number {
	const [year, month, day] = isoDate.split('-').map(Number);
	return Date.UTC(year, month - 1, day);
}

function isoDay(civil: number): string {
	return new Date(civil).toISOString().slice(0, 10);
}

function timingOf(fields: ScheduleFields): Timing {
	return {
		years: asSet(parseYears(fields.year).values),
		months: asSet(parseMonths(fields.month).values),
		weekdays: asSet(parseDaysOfWeek(fields.dow).values),
		days: asSet(parseDaysOfMonth(fields.day).values),
		hours: parseHours(fields.hour).values ?? Array.from({ length: 24 }, (_, hour) => hour),
		minute: Number(fields.minute),
		second: Number(fields.seconds),
		start: civilDay(fields.startdate),
		end: fields.enddate ? civilDay(fields.enddate) : undefined,
	};
}

function dayMatches(timing: Timing, day: Date): boolean {
	return (
		(timing.months?.has(day.getUTCMonth() + 1) ?? true) &&
		(timing.days?.has(day.getUTCDate()) ?? true) &&
		(timing.weekdays?.has(day.getUTCDay()) ?? true)
	);
}

/**
 * The instant a wall-clock time happens in `zone`: the first one when it happens twice, undefined
 * when a daylight-saving change skips it. Tries the offsets in force a day before and after.
 */
export function wallTimeInstant(zone: IANAZone, wallAsUtc: number): number | undefined {
	const offsets = new Set([zone.offset(wallAsUtc - DAY_MS), zone.offset(wallAsUtc), zone.offset(wallAsUtc + DAY_MS)]);
	const instants = [...offsets]
		.map((offset) => wallAsUtc - offset * MINUTE_MS)
		.filter((instant) => zone.offset(instant) * MINUTE_MS === wallAsUtc - instant);
	return instants.length > 0 ? Math.min(...instants) : undefined;
}

/** The first day at or after `day` in a listed year, or undefined when no listed year is left. */
function nextDayInListedYear(timing: Timing, day: number): number | undefined {
	const year = new Date(day).getUTCFullYear();
	if (timing.years === undefined || timing.years.has(year)) return day;
	const later = [...timing.years].filter((listed) => listed > year);
	return later.length > 0 ? Date.UTC(Math.min(...later), 0, 1) : undefined;
}

/** Why the search stopped before finding `count` runs. */
type SearchEnd = 'endDate' | 'years' | 'horizon';

interface Search {
	runs: string[];
	/** The first day the schedule may run, undefined when none of its years is left. */
	firstDay?: number;
	stoppedBy?: SearchEnd;
	/** A run time was still ahead but too close to be queued (spec 4.2). */
	droppedByQueueing: boolean;
}

/** Walks day by day (cheap date checks), then through the day's hours; bounded by the horizon. */
function searchRuns(timing: Timing, zone: IANAZone, options: NextRunsOptions, horizonYears: number): Search {
	const today = civilDay(DateTime.fromMillis(options.createdAt, { zone }).toISODate() as string);
	const firstDay = nextDayInListedYear(timing, Math.max(today, timing.start));
	const search: Search = { runs: [], firstDay, droppedByQueueing: false };
	if (firstDay === undefined) return { ...search, stoppedBy: 'years' };

	const first = new Date(firstDay);
	const horizon = Date.UTC(first.getUTCFullYear() + horizonYears, first.getUTCMonth(), first.getUTCDate());
	const lastDay = timing.end === undefined ? horizon : Math.min(timing.end, horizon);
	const offsetInHourMs = (timing.minute * 60 + timing.second) * 1000;
	for (let day: number | undefined = firstDay; day !== undefined; day = nextDayInListedYear(timing, day + DAY_MS)) {
		if (day > lastDay) return { ...search, stoppedBy: lastDay === timing.end ? 'endDate' : 'horizon' };
		if (!dayMatches(timing, new Date(day))) continue;
		for (const hour of timing.hours) {
			const instant = wallTimeInstant(zone, day + hour * 3_600_000 + offsetInHourMs);
			if (instant === undefined || instant <= options.createdAt) continue;
			if (options.createdAt > instant - offsetInHourMs - QUEUE_LEAD_MS) {
				search.droppedByQueueing = true;
				continue;
			}
			search.runs.push(DateTime.fromMillis(instant, { zone }).toISO({ suppressMilliseconds: true }) as string);
			if (search.runs.length === options.count) return search;
		}
	}
	return { ...search, stoppedBy: 'years' };
}

export function nextRuns(fields: ScheduleFields, options: NextRunsOptions): NextRuns {
	if (fields.status === 0) {
		return {
			runs: [],
			outlook: 'inactive',
			note: 'This schedule is inactive, so it does not run. Set Status to Active to run it.',
		};
	}
	const zone = IANAZone.create(options.zone);
	if (!zone.isValid) throw new Error(`Unknown timezone "${options.zone}"`);
	const timing = timingOf(fields);
	const horizonYears = options.horizonYears ?? DEFAULT_HORIZON_YEARS;
	const search = searchRuns(timing, zone, options, horizonYears);
	const { runs } = search;
	if (search.stoppedBy === undefined) return { runs, outlook: 'runs' };
	if (runs.length === 0) {
		const reason = whyNoRun(fields, timing, options, search, horizonYears);
		return { runs, outlook: 'never', note: `This schedule can never run: ${reason}.` };
	}
	const left = `${runs.length} more ${runs.length === 1 ? 'run' : 'runs'}`;
	const notes: Record<SearchEnd, string> = {
		endDate: `This schedule ends on ${fields.enddate}: only ${left}.`,
		years: `Its Years "${fields.year}" leave only ${left}.`,
		horizon: `Only ${left} within the ${horizonYears} years this node looks ahead.`,
	};
	return { runs, outlook: 'fewer', note: notes[search.stoppedBy] };
}

const MAX_MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeapYear(year: number): boolean {
	return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** The most likely reason, most specific first, so a user knows which field to change. */
function whyNoRun(
	fields: ScheduleFields,
	timing: Timing,
	options: NextRunsOptions,
	search: Search,
	horizonYears: number,
): string {
	const months = timing.months ? [...timing.months] : Array.from({ length: 12 }, (_, index) => index + 1);
	const days = timing.days ? [...timing.days] : [1];
	const monthsWithADay = months.filter((month) => days.some((day) => day <= MAX_MONTH_DAYS[month - 1]));
	if (monthsWithADay.length === 0) {
		const monthNames = months.map((month) => MONTH_NAMES[month - 1]).join(', ');
		return `Days of Month "${fields.day}" never fall in ${monthNames}`;
	}
	const onlyLeapDay = monthsWithADay.every((month) => month === 2) && days.every((day) => day >= 29);
	if (onlyLeapDay && timing.years && ![...timing.years].some(isLeapYear)) {
		return `29 February exists only in leap years, and none of the Years "${fields.year}" is one`;
	}
	const today = DateTime.fromMillis(options.createdAt, { zone: options.zone }).toISODate() as string;
	if (fields.enddate !== undefined && fields.enddate < today) return `its End Date ${fields.enddate} has passed`;
	if (search.firstDay === undefined) return `its Years "${fields.year}" are all in the past`;
	const queueing = search.droppedByQueueing
		? ' (a run is queued at minute 55 of the hour before, so one in the current hour waits for the next day)'
		: '';
	const from = isoDay(search.firstDay);
	if (search.stoppedBy === 'endDate') {
		return `no run time still ahead falls between ${from} and its End Date ${fields.enddate}${queueing}`;
	}
	if (search.stoppedBy === 'years') return `no run time still ahead falls in its Years "${fields.year}"${queueing}`;
	return `no run time falls within ${horizonYears} years of ${from}${queueing}`;
}
