import { FieldError } from '../shared/errors';
import {
	listEntries,
	optionalCalendarDay,
	parseCalendarDay,
	parsePositiveInteger,
	parseRequiredText,
	parseWholeNumber,
	WEEKDAY_RULE_TEXT,
	weekdayNumber,
} from '../shared/fields';

/** A schedule's fields, as SERVICE-SPEC.md part 2 gives them: what create and update send. */
export interface ScheduleFields {
	schedulename: string;
	rateshopid: number;
	year: string;
	month: string;
	dow: string;
	day: string;
	hour: string;
	minute: string;
	seconds: string;
	status?: 0 | 1;
	startdate: string;
	enddate?: string;
}

export interface Schedule extends ScheduleFields {
	scheduleid: number;
}

/**
 * Parsers for the schedule fields (SERVICE-SPEC part 2, "Schedule"). Each takes what n8n hands
 * over, typed in, picked from a list or produced by an expression (a sheet row holding `1,3,5`,
 * an array, a number), checks it against the spec's limits and returns the spec's string form:
 * `*` for "all", otherwise a comma list. A bad value throws FieldError naming the field and the
 * value; the node adds the item.
 */

export const SCHEDULE_FIELD_LABELS = {
	scheduleId: 'Schedule ID',
	name: 'Name',
	rateShopId: 'Rate Shop ID',
	years: 'Years',
	months: 'Months',
	daysOfWeek: 'Days of Week',
	daysOfMonth: 'Days of Month',
	hours: 'Hours',
	minute: 'Minute',
	second: 'Second',
	status: 'Status',
	startDate: 'Start Date',
	endDate: 'End Date',
} as const;

const L = SCHEDULE_FIELD_LABELS;

export const ALL = '*';

export const MONTH_NAMES = [
	'January',
	'February',
	'March',
	'April',
	'May',
	'June',
	'July',
	'August',
	'September',
	'October',
	'November',
	'December',
] as const;


/** A list field after parsing: its wire form and the values it selects (undefined = all). */
export interface ParsedList {
	wire: string;
	values?: number[];
}

interface ListRule {
	field: string;
	min: number;
	max: number;
	/** What one item is, for messages: "a month (1 to 12)". */
	itemIs: string;
	/** Empty means "all" for Years, Days of Month and Hours; Months and Days of Week have a mode. */
	emptyMeansAll: boolean;
	/** Reads a name a spreadsheet may hold instead of a number ("Mon", "march"). */
	named?: (text: string) => number | undefined;
	/** The spec allows ranges on the wire only for the day of month; elsewhere they are expanded. */
	keepRanges?: boolean;
	/** Weekdays wrap: Friday-Monday (5-1) is Friday, Saturday, Sunday, Monday. */
	wraps?: boolean;
}

/** Month names, whole or in three letters, any case: "March", "mar". */
const MONTH_BY_NAME = new Map<string, number>(
	MONTH_NAMES.flatMap((name, index) => [
		[name.toLowerCase(), index + 1],
		[name.slice(0, 3).toLowerCase(), index + 1],
	]),
);

const YEAR_RULE: ListRule = {
	field: L.years,
	min: 1970,
	max: 9999,
	itemIs: 'a four-digit year (1970 to 9999)',
	emptyMeansAll: true,
};

const MONTH_RULE: ListRule = {
	field: L.months,
	min: 1,
	max: 12,
	itemIs: 'a month (1 January to 12 December, or a name such as March)',
	emptyMeansAll: false,
	named: (text) => MONTH_BY_NAME.get(text.toLowerCase()),
};

const WEEKDAY_RULE: ListRule = {
	field: L.daysOfWeek,
	min: 0,
	max: 6,
	itemIs: WEEKDAY_RULE_TEXT,
	emptyMeansAll: false,
	named: weekdayNumber,
	wraps: true,
};

const DAY_RULE: ListRule = {
	field: L.daysOfMonth,
	min: 1,
	max: 31,
	itemIs: 'a day of the month (1 to 31)',
	emptyMeansAll: true,
	keepRanges: true,
};

const HOUR_RULE: ListRule = {
	field: L.hours,
	min: 0,
	max: 23,
	itemIs: 'an hour (0 to 23)',
	emptyMeansAll: true,
};

/** The list's items as text (the one list rule every node reads by); undefined when empty. */
function listItems(value: unknown, field: string): string[] | undefined {
	const items = listEntries(value).map((entry) => {
		if (typeof entry === 'number') return String(entry);
		if (typeof entry === 'string') return entry;
		throw new FieldError(field, value, 'expected a comma-separated list such as 1,3,5');
	});
	return items.length === 0 ? undefined : items;
}

function itemNumber(item: string, value: unknown, rule: ListRule): number {
	const named = rule.named?.(item);
	if (named !== undefined) return named;
	const number = /^\d+$/.test(item) ? Number(item) : NaN;
	if (!Number.isInteger(number) || number < rule.min || number > rule.max) {
		throw new FieldError(rule.field, value, `"${item}" is not ${rule.itemIs}`);
	}
	return number;
}

/** from..to inclusive; a weekday range that passes Saturday continues at Sunday. */
function rangeValues(from: number, to: number, rule: ListRule): number[] {
	const span = rule.max - rule.min + 1;
	const length = (((to - from) % span) + span) % span + 1;
	return Array.from({ length }, (_, step) => rule.min + ((from - rule.min + step) % span));
}

function parseList(value: unknown, rule: ListRule): ParsedList {
	const items = listItems(value, rule.field);
	if (items === undefined || (items.length === 1 && items[0] === ALL)) {
		if (items === undefined && !rule.emptyMeansAll) {
			throw new FieldError(rule.field, value, 'choose at least one, or set it to All');
		}
		return { wire: ALL };
	}

	const selected = new Set<number>();
	const wireItems: string[] = [];
	for (const item of items) {
		if (item === ALL) {
			throw new FieldError(rule.field, value, '"*" means all and cannot be combined with other values');
		}
		const range = /^(\w+)\s*-\s*(\w+)$/.exec(item);
		if (range) {
			const from = itemNumber(range[1], value, rule);
			const to = itemNumber(range[2], value, rule);
			if (from > to && !rule.wraps) {
				throw new FieldError(rule.field, value, `the range "${item}" runs backwards; write it as ${to}-${from}`);
			}
			for (const number of rangeValues(from, to, rule)) selected.add(number);
			wireItems.push(`${from}-${to}`);
		} else {
			const number = itemNumber(item, value, rule);
			selected.add(number);
			wireItems.push(String(number));
		}
	}
	const values = [...selected].sort((a, b) => a - b);
	const wire = rule.keepRanges ? [...new Set(wireItems)].join(',') : values.join(',');
	return { wire, values };
}

/** Years: empty or `*` = every year; otherwise a list such as `2025,2026` (ranges expanded). */
export function parseYears(value: unknown): ParsedList {
	return parseList(value, YEAR_RULE);
}

/** Months: `*` = all; a list of 1 to 12 or month names. Empty means nothing was chosen. */
export function parseMonths(value: unknown): ParsedList {
	return parseList(value, MONTH_RULE);
}

/** Days of week: `*` = all; 1 Monday ... 6 Saturday, 0 Sunday, or names. */
export function parseDaysOfWeek(value: unknown): ParsedList {
	return parseList(value, WEEKDAY_RULE);
}

/** Days of month: empty or `*` = every day; lists and ranges such as `1,15,20-25`, sent as typed. */
export function parseDaysOfMonth(value: unknown): ParsedList {
	return parseList(value, DAY_RULE);
}

/** Hours: empty or `*` = every hour; otherwise a list of 0 to 23. */
export function parseHours(value: unknown): ParsedList {
	return parseList(value, HOUR_RULE);
}

/** Months and Days of Week are a mode (All or Selected) plus the selection. */
export function selectionOrAll(field: string, mode: unknown, selection: unknown): unknown {
	if (mode === 'all') return ALL;
	if (mode === 'selected') return selection;
	throw new FieldError(field, mode, 'must be "all" or "selected"');
}

/** The spec gives minute and seconds as one value each, 0 to 59. */
export function parseMinute(value: unknown): string {
	return String(parseWholeNumber(L.minute, value, { min: 0, max: 59 }));
}

export function parseSecond(value: unknown): string {
	return String(parseWholeNumber(L.second, value, { min: 0, max: 59 }));
}

const INT32_MAX = 2_147_483_647;

/** Read like every ID the nodes take (Shop ID, Demand ID, Event ID): a whole number, 1 or more. */
export function parseRateShopId(value: unknown): number {
	return parsePositiveInteger(L.rateShopId, value);
}

export const DEFAULT_NEXT_RUNS = 5;

/** "Next Runs to Show" in the node options. */
export function parseNextRunsToShow(value: unknown): number {
	if (value === undefined) return DEFAULT_NEXT_RUNS;
	return parseWholeNumber('Next Runs to Show', value, { min: 1, max: 100 });
}

/** An ID like the others, and the path parameter is an int32 (spec 4.3). */
export function parseScheduleId(value: unknown): number {
	const scheduleId = parsePositiveInteger(L.scheduleId, value);
	if (scheduleId > INT32_MAX) throw new FieldError(L.scheduleId, value, `must be at most ${INT32_MAX}`);
	return scheduleId;
}

/** Create or Update: an empty Schedule ID (a row never sent) means the schedule is created. */
export function parseOptionalScheduleId(value: unknown): number | undefined {
	if (value === undefined || value === null || String(value).trim() === '') return undefined;
	return parseScheduleId(value);
}

export function parseScheduleName(value: unknown): string {
	return parseRequiredText(L.name, value);
}

/** Spec: 1 = active, 0 = inactive. Expressions may also say "active" / "inactive". */
export function parseStatus(value: unknown): 0 | 1 {
	const text = String(value).trim().toLowerCase();
	if (text === '1' || text === 'active') return 1;
	if (text === '0' || text === 'inactive') return 0;
	throw new FieldError(L.status, value, 'must be Active (1) or Inactive (0)');
}

/** The node's parameters for one item, as n8n returned them. */
export interface ScheduleInput {
	name: unknown;
	rateShopId: unknown;
	years: unknown;
	/** `*` when the user chose All; otherwise the selection or an expression's value. */
	months: unknown;
	daysOfWeek: unknown;
	daysOfMonth: unknown;
	hours: unknown;
	minute: unknown;
	second: unknown;
	status: unknown;
	startDate: unknown;
	endDate: unknown;
}

/**
 * The request body of POST /schedule and PUT /schedule/{id}. Every field is checked before
 * anything is sent; the first problem is thrown as a FieldError.
 */
export function scheduleFieldsFrom(input: ScheduleInput, zone: string): ScheduleFields {
	const schedulename = parseScheduleName(input.name);
	const rateshopid = parseRateShopId(input.rateShopId);
	const year = parseYears(input.years).wire;
	const month = parseMonths(input.months).wire;
	const dow = parseDaysOfWeek(input.daysOfWeek).wire;
	const day = parseDaysOfMonth(input.daysOfMonth).wire;
	const hour = parseHours(input.hours).wire;
	const minute = parseMinute(input.minute);
	const seconds = parseSecond(input.second);
	const status = parseStatus(input.status);
	const startdate = parseCalendarDay(L.startDate, input.startDate, zone);
	const enddate = optionalCalendarDay(L.endDate, input.endDate, zone);
	if (enddate !== undefined && enddate < startdate) {
		throw new FieldError(L.endDate, input.endDate, `is before the Start Date ${startdate}`);
	}
	const fields: ScheduleFields = {
		schedulename,
		rateshopid,
		year,
		month,
		dow,
		day,
		hour,
		minute,
		seconds,
		status,
		startdate,
	};
	// The spec: without an end date the schedule runs indefinitely, so none is sent.
	if (enddate !== undefined) fields.enddate = enddate;
	return fields;
}
