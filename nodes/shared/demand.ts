import { FieldError } from './errors';

/** The result of a hotel demand shop (SERVICE-SPEC.md part 2 and 4.7). One row of a demand value table: HotelCode, HotelName and one integer member per date. */
export type DemandValueRow = { HotelCode: number; HotelName: string } & Record<string, number | string>;

export interface DemandEventRecord {
	id: number;
	eventName: string;
	venue: string;
	category: string;
	city: string;
	date: string;
	Estimated_Attendees: number;
	latitude: number;
	longitude: number;
}

export interface HotelDemandResponse {
	'Absolute_Value.json': DemandValueRow[];
	'Events_registered.json': DemandValueRow[];
	'Relative_Values.json': DemandValueRow[];
	'Event_records.json': DemandEventRecord[];
}

/**
 * Pure shaping of a hotel demand shop result (GET /hoteldemanddata/{demandId}, spec 4.7): reading
 * its `nn/nn/yyyy` date members and pivoting the three value tables into rows a sheet, a chart or a
 * database table takes as they are. Hotel Demand puts them out; Rate Changes' Rate Calendar and
 * Suggest Rates read my hotel's demand on each date from them. Written for 1,000 hotels x 365 days: every date member is
 * parsed once, rows are found through Maps, and output rows are plain object literals.
 */

export type DateOrderChoice = 'auto' | 'dayFirst' | 'monthFirst';
export type DateOrder = 'dayFirst' | 'monthFirst';

export const DATE_ORDER_FIELD = 'Date Order';

const CHOICE_LABELS: Record<DateOrderChoice, string> = {
	auto: 'Auto',
	dayFirst: 'Day First',
	monthFirst: 'Month First',
};

/** The three value tables of spec 4.7 and the output field each becomes. */
export const DEMAND_VALUE_TABLES = [
	{ member: 'Absolute_Value.json', field: 'absoluteValue' },
	{ member: 'Events_registered.json', field: 'eventsRegistered' },
	{ member: 'Relative_Values.json', field: 'relativeValue' },
] as const;

export const EVENT_RECORDS_MEMBER = 'Event_records.json';

/** One hotel on one day: the tidy form. A value the hotel's row lacks is null. */
export interface HotelDemandDay {
	hotelCode: number;
	hotelName: string;
	date: string;
	absoluteValue: number | null;
	eventsRegistered: number | null;
	relativeValue: number | null;
}

/** One hotel with each table's values keyed by ISO date; a table without the hotel is null. */
export interface HotelDemandSeries {
	hotelCode: number;
	hotelName: string;
	absoluteValue: Record<string, number> | null;
	eventsRegistered: Record<string, number> | null;
	relativeValue: Record<string, number> | null;
}

/** Inclusive ISO days (`YYYY-MM-DD`); either end may be open. */
export interface DayRange {
	from?: string;
	to?: string;
}

/** How the response writes its dates, resolved once for the whole response. */
export interface DemandDates {
	order: DateOrder;
	/** The ISO day of every `nn/nn/yyyy` date the response uses, by the service's spelling. */
	isoByKey: Map<string, string>;
}

interface SlashDate {
	key: string;
	first: number;
	second: number;
	year: number;
}

const SLASH_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const HEAD_MEMBERS = new Set(['HotelCode', 'HotelName']);
const DAY_MS = 86_400_000;

function valueTable(response: HotelDemandResponse, member: string): DemandValueRow[] {
	const rows = (response as unknown as Record<string, unknown>)[member];
	return Array.isArray(rows) ? (rows as DemandValueRow[]) : [];
}

function eventRecords(response: HotelDemandResponse): DemandEventRecord[] {
	const records = (response as unknown as Record<string, unknown>)[EVENT_RECORDS_MEMBER];
	return Array.isArray(records) ? (records as DemandEventRecord[]) : [];
}

function parseSlashDate(key: string): SlashDate | undefined {
	const match = SLASH_DATE.exec(key);
	if (!match) return undefined;
	return { key, first: Number(match[1]), second: Number(match[2]), year: Number(match[3]) };
}

function monthAndDay(date: SlashDate, order: DateOrder): [month: number, day: number] {
	return order === 'monthFirst' ? [date.first, date.second] : [date.second, date.first];
}

function isRealDate(date: SlashDate, order: DateOrder): boolean {
	const [month, day] = monthAndDay(date, order);
	if (month < 1 || month > 12 || day < 1) return false;
	return day <= new Date(Date.UTC(date.year, month, 0)).getUTCDate();
}

function dayNumber(date: SlashDate, order: DateOrder): number {
	const [month, day] = monthAndDay(date, order);
	return Date.UTC(date.year, month - 1, day) / DAY_MS;
}

function isoDay(date: SlashDate, order: DateOrder): string {
	const [month, day] = monthAndDay(date, order);
	return `${date.year}-${month < 10 ? '0' : ''}${month}-${day < 10 ? '0' : ''}${day}`;
}

/** True when the dates, read in `order`, cover a run of days without a gap. */
function isConsecutive(dates: SlashDate[], order: DateOrder): boolean {
	const days = new Set(dates.map((date) => dayNumber(date, order)));
	let first = Infinity;
	let last = -Infinity;
	for (const day of days) {
		if (day < first) first = day;
		if (day > last) last = day;
	}
	return last - first + 1 === days.size;
}

const OTHER: Record<DateOrder, DateOrder> = { dayFirst: 'monthFirst', monthFirst: 'dayFirst' };

function notADate(choice: DateOrderChoice, date: SlashDate, reason: string): FieldError {
	return new FieldError(DATE_ORDER_FIELD, CHOICE_LABELS[choice], `the service wrote the date "${date.key}", ${reason}`);
}

/** An explicit choice must fit every date: Month First with 25/01/2026 is a mistake to report. */
function checkChosenOrder(dates: SlashDate[], order: DateOrder): void {
	const misfit = dates.find((date) => !isRealDate(date, order));
	if (!misfit) return;
	const other = OTHER[order];
	throw notADate(
		order,
		misfit,
		isRealDate(misfit, other)
			? `which is not a date with the ${order === 'monthFirst' ? 'month' : 'day'} first; choose ${CHOICE_LABELS[other]} or Auto`
			: 'which is not a date in either order',
	);
}

/**
 * Auto (spec 4.7 leaves the order open): a first part above 12 means day first, a second part
 * above 12 means month first, and a horizon of consecutive days must stay consecutive. When the
 * data cannot tell, the user must choose: a silent guess would swap months and days unnoticed.
 */
function detectOrder(dates: SlashDate[], horizon: SlashDate[]): DateOrder {
	const dayFirstMisfit = dates.find((date) => !isRealDate(date, 'dayFirst'));
	const monthFirstMisfit = dates.find((date) => !isRealDate(date, 'monthFirst'));
	if (!dayFirstMisfit) {
		if (monthFirstMisfit) return 'dayFirst';
	} else if (!monthFirstMisfit) {
		return 'monthFirst';
	} else {
		const neither = dates.find((date) => !isRealDate(date, 'dayFirst') && !isRealDate(date, 'monthFirst'));
		if (neither) throw notADate('auto', neither, 'which is not a date in either order');
		throw new FieldError(
			DATE_ORDER_FIELD,
			CHOICE_LABELS.auto,
			`the service wrote "${dayFirstMisfit.key}", which reads only month first, and "${monthFirstMisfit.key}", which reads only day first, in the same response`,
		);
	}
	// Both orders give real dates. Dates whose two parts are equal are the same day either way.
	if (dates.every((date) => date.first === date.second)) return 'dayFirst';
	const consecutive = (['dayFirst', 'monthFirst'] as const).filter((order) => isConsecutive(horizon, order));
	if (horizon.length > 1 && consecutive.length === 1) return consecutive[0];
	const sample = dates.find((date) => date.first !== date.second) as SlashDate;
	throw new FieldError(
		DATE_ORDER_FIELD,
		CHOICE_LABELS.auto,
		`the response cannot tell whether "${sample.key}" is day first or month first (no part above 12, and neither order gives a run of consecutive days); choose Day First or Month First under Options > Date Order`,
	);
}

/**
 * Reads every `nn/nn/yyyy` date of the response (value-table members and event record dates) once,
 * settles the day and month order for all of them, and maps each spelling to its ISO day.
 */
export function resolveDemandDates(response: HotelDemandResponse, choice: DateOrderChoice): DemandDates {
	const seen = new Set<string>();
	const horizon: SlashDate[] = [];
	for (const table of DEMAND_VALUE_TABLES) {
		for (const row of valueTable(response, table.member)) {
			for (const key in row) {
				if (seen.has(key) || HEAD_MEMBERS.has(key)) continue;
				seen.add(key);
				const date = parseSlashDate(key);
				if (date) horizon.push(date);
			}
		}
	}
	const dates = [...horizon];
	for (const record of eventRecords(response)) {
		if (typeof record?.date !== 'string' || seen.has(record.date)) continue;
		seen.add(record.date);
		const date = parseSlashDate(record.date);
		if (date) dates.push(date);
	}

	let order: DateOrder = 'dayFirst';
	if (dates.length > 0) {
		if (choice === 'auto') {
			order = detectOrder(dates, horizon);
		} else {
			order = choice;
			checkChosenOrder(dates, order);
		}
	}
	const isoByKey = new Map<string, string>();
	for (const date of dates) isoByKey.set(date.key, isoDay(date, order));
	return { order, isoByKey };
}

function inRange(iso: string, range: DayRange): boolean {
	return (range.from === undefined || iso >= range.from) && (range.to === undefined || iso <= range.to);
}

interface DemandDay {
	iso: string;
	/** The spellings of this day; one unless the tables disagree (`1/2/2026` and `01/02/2026`). */
	keys: string[];
}

/** The days of the horizon inside the range, in calendar order. */
function horizonDays(dates: DemandDates, range: DayRange): DemandDay[] {
	const byIso = new Map<string, DemandDay>();
	for (const [key, iso] of dates.isoByKey) {
		if (!inRange(iso, range)) continue;
		const day = byIso.get(iso);
		if (day) day.keys.push(key);
		else byIso.set(iso, { iso, keys: [key] });
	}
	return [...byIso.values()].sort((a, b) => (a.iso < b.iso ? -1 : a.iso > b.iso ? 1 : 0));
}

interface DemandHotel {
	hotelCode: number;
	hotelName: string;
	/** The hotel's row in each value table, in DEMAND_VALUE_TABLES order. */
	rows: Array<DemandValueRow | undefined>;
}

/** Hotels in order of first appearance, each with its row of every table that has one. */
function indexHotels(response: HotelDemandResponse): DemandHotel[] {
	const hotels = new Map<string, DemandHotel>();
	DEMAND_VALUE_TABLES.forEach((table, tableIndex) => {
		for (const row of valueTable(response, table.member)) {
			const code = String(row.HotelCode);
			let hotel = hotels.get(code);
			if (!hotel) {
				hotel = { hotelCode: row.HotelCode, hotelName: row.HotelName, rows: [undefined, undefined, undefined] };
				hotels.set(code, hotel);
			}
			hotel.rows[tableIndex] = row;
		}
	});
	return [...hotels.values()];
}

function valueOn(row: DemandValueRow | undefined, day: DemandDay): number | undefined {
	if (row === undefined) return undefined;
	for (const key of day.keys) {
		const value = row[key];
		if (value !== undefined && value !== null) return value as number;
	}
	return undefined;
}

/**
 * Per Hotel and Date: one row per hotel and day. A hotel missing from a table (or a day missing
 * from its row) gets null there; a day for which the hotel has no value in any table is left out.
 */
export function demandDays(response: HotelDemandResponse, dates: DemandDates, range: DayRange = {}): HotelDemandDay[] {
	const days = horizonDays(dates, range);
	const rows: HotelDemandDay[] = [];
	for (const { hotelCode, hotelName, rows: [absolute, registered, relative] } of indexHotels(response)) {
		for (const day of days) {
			const absoluteValue = valueOn(absolute, day);
			const eventsRegistered = valueOn(registered, day);
			const relativeValue = valueOn(relative, day);
			if (absoluteValue === undefined && eventsRegistered === undefined && relativeValue === undefined) continue;
			rows.push({
				hotelCode,
				hotelName,
				date: day.iso,
				absoluteValue: absoluteValue ?? null,
				eventsRegistered: eventsRegistered ?? null,
				relativeValue: relativeValue ?? null,
			});
		}
	}
	return rows;
}

function series(row: DemandValueRow | undefined, days: DemandDay[]): Record<string, number> | null {
	if (row === undefined) return null;
	const values: Record<string, number> = {};
	for (const day of days) {
		const value = valueOn(row, day);
		if (value !== undefined) values[day.iso] = value;
	}
	return values;
}

/** Per Hotel: one row per hotel, each table's values keyed by ISO day in calendar order. */
export function demandSeries(response: HotelDemandResponse, dates: DemandDates, range: DayRange = {}): HotelDemandSeries[] {
	const days = horizonDays(dates, range);
	return indexHotels(response).map(({ hotelCode, hotelName, rows: [absolute, registered, relative] }) => ({
		hotelCode,
		hotelName,
		absoluteValue: series(absolute, days),
		eventsRegistered: series(registered, days),
		relativeValue: series(relative, days),
	}));
}

/**
 * Event Records: the records of Event_records.json, their `date` as an ISO day when it is an
 * `nn/nn/yyyy` date. A record whose date is in neither form is kept as it came, whatever the range.
 */
export function demandEventRecords(
	response: HotelDemandResponse,
	dates: DemandDates,
	range: DayRange = {},
): DemandEventRecord[] {
	const records: DemandEventRecord[] = [];
	for (const record of eventRecords(response)) {
		const date = typeof record?.date === 'string' ? record.date : undefined;
		const iso = date === undefined ? undefined : (dates.isoByKey.get(date) ?? (ISO_DAY.test(date) ? date : undefined));
		if (iso === undefined) records.push(record);
		else if (inRange(iso, range)) records.push(iso === date ? record : { ...record, date: iso });
	}
	return records;
}

/** The node's optional From Date and To Date (ISO days), checked against each other. */
export function dayRange(from: string | undefined, to: string | undefined): DayRange {
	if (from !== undefined && to !== undefined && from > to) {
		throw new FieldError('To Date', to, `is before From Date (${from})`);
	}
	return { from, to };
}

export type DemandOutput = 'hotelDays' | 'hotels' | 'eventRecords' | 'raw';

/** The response shaped as the chosen output asks: the records of the node's output items. */
export function shapeDemand(
	response: HotelDemandResponse,
	output: DemandOutput,
	choice: DateOrderChoice,
	range: DayRange,
): object[] {
	if (output === 'raw') return [response];
	const dates = resolveDemandDates(response, choice);
	if (output === 'hotels') return demandSeries(response, dates, range);
	if (output === 'eventRecords') return demandEventRecords(response, dates, range);
	return demandDays(response, dates, range);
}
