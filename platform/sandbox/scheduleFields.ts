import { badRequest } from './api/errors';

/**
 * Schedule fields (spec part 2) parsed into sets, and the next-run computation.
 * Pure functions: the API validates with them and the scheduler runs with them.
 * Schedules are evaluated in UTC (the spec names no time zone).
 */
export interface SchedulePattern {
	/** null = `*` (any). */
	years: Set<number> | null;
	months: Set<number> | null;
	dows: Set<number> | null;
	days: Set<number> | null;
	/** Sorted hours; all 24 when `*` ("run hourly"). */
	hours: number[];
	minute: number;
	second: number;
	startdate: string;
	enddate: string | null;
}

interface ListRule {
	min: number;
	max: number;
	/** `day` alone accepts ranges such as `20-25` (spec: "single days, lists or ranges"). */
	ranges?: boolean;
	/** `year` items are written with four digits. */
	fourDigits?: boolean;
	hint: string;
}

/** Parses `*` or a comma list; returns null for `*`. Spaces around items are tolerated. */
export function parseList(value: unknown, field: string, rule: ListRule): Set<number> | null {
	if (typeof value !== 'string') throw badRequest(`${field} must be a string: ${rule.hint}`);
	const text = value.trim();
	if (text === '*') return null;
	if (text === '') throw badRequest(`${field} must not be empty: ${rule.hint}`);
	const result = new Set<number>();
	for (const rawItem of text.split(',')) {
		const item = rawItem.trim();
		const digits = rule.fourDigits ? '\\d{4}' : '\\d{1,2}';
		const range = rule.ranges ? new RegExp(`^(${digits})-(${digits})$`).exec(item) : null;
		const single = new RegExp(`^${digits}$`).test(item);
		if (!range && !single) throw badRequest(`${field} has an invalid item '${item}': ${rule.hint}`);
		const [from, to] = range ? [Number(range[1]), Number(range[2])] : [Number(item), Number(item)];
		for (const bound of [from, to]) {
			if (bound < rule.min || bound > rule.max) throw badRequest(`${field} value ${bound} is out of range ${rule.min}-${rule.max}: ${rule.hint}`);
		}
		if (from > to) throw badRequest(`${field} range '${item}' runs backwards: ${rule.hint}`);
		for (let n = from; n <= to; n++) result.add(n);
	}
	return result;
}

/** minute and seconds are single values 0-59 (the spec shows no `*` or lists for them). */
function parseSingle(value: unknown, field: string): number {
	if (typeof value !== 'string' || !/^\s*\d{1,2}\s*$/.test(value)) throw badRequest(`${field} must be a string holding one number 0-59`);
	const number = Number(value);
	if (number > 59) throw badRequest(`${field} value ${number} is out of range 0-59`);
	return number;
}

export interface PatternFields {
	year: unknown;
	month: unknown;
	dow: unknown;
	day: unknown;
	hour: unknown;
	minute: unknown;
	seconds: unknown;
	startdate: string;
	enddate: string | null;
}

export function parsePattern(fields: PatternFields): SchedulePattern {
	const hours = parseList(fields.hour, 'hour', { min: 0, max: 23, hint: "'*' (hourly) or 0-23, comma list allowed" });
	return {
		years: parseList(fields.year, 'year', { min: 1000, max: 9999, fourDigits: true, hint: "'*', a 4-digit year or a comma list such as '2026,2027'" }),
		months: parseList(fields.month, 'month', { min: 1, max: 12, hint: "'*' or 1-12 (1 = January), comma list allowed" }),
		dows: parseList(fields.dow, 'dow', { min: 0, max: 6, hint: "'*' or 0-6 (0 = Sunday, 1 = Monday), comma list allowed" }),
		days: parseList(fields.day, 'day', { min: 1, max: 31, ranges: true, hint: "'*' or 1-31, comma list and ranges such as '1,15,20-25'" }),
		hours: hours ? [...hours].sort((a, b) => a - b) : Array.from({ length: 24 }, (_, h) => h),
		minute: parseSingle(fields.minute, 'minute'),
		second: parseSingle(fields.seconds, 'seconds'),
		startdate: fields.startdate,
		enddate: fields.enddate,
	};
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** How far ahead a next run is searched for before the schedule counts as finished. */
const SEARCH_DAYS = 366 * 30;

function dayMatches(pattern: SchedulePattern, dayStart: number): boolean {
	const date = new Date(dayStart);
	const iso = date.toISOString().slice(0, 10);
	if (iso < pattern.startdate) return false;
	if (pattern.enddate !== null && iso > pattern.enddate) return false;
	// All restricted fields must match (unlike cron, day and dow are not OR-ed).
	return (
		(pattern.years === null || pattern.years.has(date.getUTCFullYear())) &&
		(pattern.months === null || pattern.months.has(date.getUTCMonth() + 1)) &&
		(pattern.days === null || pattern.days.has(date.getUTCDate())) &&
		(pattern.dows === null || pattern.dows.has(date.getUTCDay()))
	);
}

/** The first run time at or after `fromMs`, or null when the schedule has no run left. */
export function nextRunAtOrAfter(pattern: SchedulePattern, fromMs: number): number | null {
	const firstDay = Math.floor(fromMs / DAY_MS) * DAY_MS;
	const lastYear = pattern.years ? Math.max(...pattern.years) : Infinity;
	for (let i = 0; i < SEARCH_DAYS; i++) {
		const dayStart = firstDay + i * DAY_MS;
		const date = new Date(dayStart);
		if (date.getUTCFullYear() > lastYear) return null;
		if (pattern.enddate !== null && date.toISOString().slice(0, 10) > pattern.enddate) return null;
		if (!dayMatches(pattern, dayStart)) continue;
		for (const hour of pattern.hours) {
			const at = dayStart + hour * HOUR_MS + pattern.minute * 60_000 + pattern.second * 1000;
			if (at >= fromMs) return at;
		}
	}
	return null;
}

/**
 * Spec rule: "all schedules are queued at the 55th minute of the previous hour; a job scheduled
 * for the current hour runs only on the following day". A run at T is honoured only if the
 * schedule was saved at or before (hour of T − 1):55, so the earliest honoured run of a schedule
 * saved at `savedAt` is the first full hour at or after savedAt + 5 minutes.
 */
export function firstQueueableRun(savedAt: number): number {
	return Math.ceil((savedAt + 5 * 60_000) / HOUR_MS) * HOUR_MS;
}
