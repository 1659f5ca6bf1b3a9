import { NodeOperationError, type IDataObject, type IExecuteFunctions, type INodeExecutionData, type INodeProperties } from 'n8n-workflow';

import { numberOption } from '../../shared/options';
import {
	buildCalendar,
	calendarFigures,
	type CalendarDay,
	type IndexBands,
	type OutlierThresholds,
	type PreviousFigures,
} from '../rules/calendar';
import { calendarCounts, calendarHtml, calendarText, type CalendarMeta } from '../rules/calendarView';
import { baselineOf, calendarMonthKey, decodeCalendarCell, runTag, sentCell } from '../storage/calendarMonths';
import { tidyCalendarTable } from '../storage/housekeeping';
import { emptyPositionMonth, positionMonthRow, readPositionMonth, type PositionMonth } from '../storage/positionMonths';
import { dayOf } from '../storage/stayMonths';
import type { MonthPlan, MonthRows, Store, StoredRow } from '../storage/store';
import { positionsTable } from '../storage/tables';

import { readCalendarFacts, type CalendarFacts } from './calendarFacts';
import { calendarSource, currencyOption, dateOrderOption, rateFieldOption, type CalendarSource } from './calendarFields';
import { booleanOption, optionField, optionsOf, positionsTableField, readSettings, showFor, textField } from './fields';

/**
 * Rate Calendar: each date of a window, my rate against the comp set's lowest, median and highest,
 * my rank and price index (coloured by bands), sold-out counts, the date's event and my demand,
 * the dates priced out of line, and the arrows of what moved since the reader's last calendar
 * (docs/nodes/rate-changes.md).
 */

/** Its option in the Operation field (the router lists it). */
export const option = {
	name: 'Rate Calendar',
	value: 'rateCalendar',
	description: "Each date of a window: your rate against the comp set's median, price index, events, demand, outliers and what moved since the last calendar, with a ready text and HTML month grid",
	action: 'Build a rate calendar',
} as const;

const show = showFor(['rateCalendar']);

const remember: INodeProperties = {
	displayName: 'Remember What Was Sent',
	name: 'rememberSent',
	type: 'options',
	// As Digest's Mark as Reported: a test run in the editor, or an AI agent calling the node as a
	// tool, shows the arrows since the last calendar without moving them on.
	default: 'production',
	displayOptions: show,
	options: [
		{
			name: 'In Production Runs Only',
			value: 'production',
			description: 'A published workflow remembers what it sends; a test run in the editor or a call as an AI tool only previews',
		},
		{ name: 'Always', value: 'always', description: 'Every run remembers what it sends, test runs and tool calls too' },
		{ name: 'Never (Preview)', value: 'never', description: 'Show the arrows without remembering: the next calendar compares with the same one' },
	],
	description: "Whether this calendar's figures are kept as what the reader last saw, so the next calendar's arrows (▲ ▼) show what moved since",
};

// The defaults are DEFAULT_INDEX_BANDS and DEFAULT_OUTLIER_THRESHOLDS (rules/calendar.ts says why
// each); the lint rule wants literals here, and a test holds the two together.
const cheaperBelow: INodeProperties = {
	displayName: 'Cheaper Below (Index)',
	name: 'cheaperBelow',
	type: 'number',
	typeOptions: { minValue: 0, numberPrecision: 2 },
	default: 95,
	description: 'A date whose price index (my rate as a percentage of the comp median) is below this is coloured cheaper. 95: more than 5 % under the market.',
};

const dearerAbove: INodeProperties = {
	displayName: 'Dearer Above (Index)',
	name: 'dearerAbove',
	type: 'number',
	typeOptions: { minValue: 0, numberPrecision: 2 },
	default: 105,
	description: 'A date whose price index is above this is coloured dearer; between the two, on par. 105: more than 5 % over the market.',
};

const busyEventScore: INodeProperties = {
	displayName: 'Busy Day: Event Score At Least',
	name: 'busyEventScore',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 100, numberPrecision: 0 },
	default: 70,
	description: 'An event of at least this impact score makes a date busy. 70: High Impact.',
};

const highDemand: INodeProperties = {
	displayName: 'Busy Day: Demand At Least',
	name: 'highDemand',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 100, numberPrecision: 0 },
	default: 80,
	description: 'My demand (0 to 100) of at least this makes a date busy. 80: where occupancy pricing rules start raising rates.',
};

const busyDayIndexAtMost: INodeProperties = {
	displayName: 'Busy Day: Index At Most',
	name: 'busyDayIndexAtMost',
	type: 'number',
	typeOptions: { minValue: 0, numberPrecision: 2 },
	default: 100,
	description: 'A busy date with my index at or below this is an outlier: priced under the market on a busy day. 100: at or under the comp median.',
};

const lowDemand: INodeProperties = {
	displayName: 'Quiet Day: Demand At Most',
	name: 'lowDemand',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 100, numberPrecision: 0 },
	default: 40,
	description: 'My demand of at most this, with no busy event, makes a date quiet. 40: where occupancy pricing rules start lowering rates.',
};

const quietDayIndexAbove: INodeProperties = {
	displayName: 'Quiet Day: Index Above',
	name: 'quietDayIndexAbove',
	type: 'number',
	typeOptions: { minValue: 0, numberPrecision: 2 },
	default: 110,
	description: 'A quiet date with my index above this is an outlier: priced over the market on a quiet day. 110: more than 10 % over the comp median.',
};

const farFromMedianPercent: INodeProperties = {
	displayName: 'Far From Median (%)',
	name: 'farFromMedianPercent',
	type: 'number',
	typeOptions: { minValue: 0, numberPrecision: 2 },
	default: 20,
	description: 'Any other date with my rate this share or more above or below the comp median (index 80 or less, 120 or more) is an outlier: priced far from the market. 0: none.',
};

const quietWithoutDemand: INodeProperties = {
	displayName: 'Quiet Day Without Demand Data',
	name: 'quietWithoutDemand',
	type: 'boolean',
	default: false,
	description: 'Whether a date without demand (and without a busy event) counts as quiet. Off: no event is no proof of a quiet date; on, for a hotel without a demand shop.',
};

const calendarName: INodeProperties = {
	displayName: 'Calendar Name',
	name: 'calendarName',
	type: 'string',
	default: '',
	placeholder: 'e.g. gm-email',
	description: 'Keeps the arrows of two calendars of the same hotel, website and stay apart, when they go to different readers',
};

const optionsField: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	displayOptions: show,
	// Alphabetical, as n8n lists a collection's fields.
	options: [highDemand, busyEventScore, busyDayIndexAtMost, calendarName, cheaperBelow, currencyOption, dearerAbove, dateOrderOption, farFromMedianPercent, quietWithoutDemand, lowDemand, quietDayIndexAbove, rateFieldOption],
};

const calendarPositionsTable: INodeProperties = {
	...positionsTableField,
	displayOptions: show,
	description: "The n8n data table that remembers what each calendar last sent, for the arrows (the one Compare With My Hotel keeps ranks in). The node creates it when it doesn't exist.",
};

export const properties: INodeProperties[] = [remember, calendarPositionsTable, optionsField];

type Remember = 'production' | 'always' | 'never';

interface CalendarSettings {
	source: CalendarSource;
	positionsTable: string;
	remember: Remember;
	bands: IndexBands;
	outliers: OutlierThresholds;
	name: string;
}

function settings(context: IExecuteFunctions): CalendarSettings {
	const options = optionsOf(context);
	const bands = { cheaperBelow: numberOption(options, cheaperBelow), dearerAbove: numberOption(options, dearerAbove) };
	return {
		source: calendarSource(context, options),
		positionsTable: textField(context, calendarPositionsTable),
		remember: optionField<Remember>(context, remember),
		bands,
		outliers: {
			busyEventScore: numberOption(options, busyEventScore),
			highDemand: numberOption(options, highDemand),
			lowDemand: numberOption(options, lowDemand),
			busyDayIndexAtMost: numberOption(options, busyDayIndexAtMost),
			quietDayIndexAbove: numberOption(options, quietDayIndexAbove),
			quietWithoutDemand: booleanOption(options, quietWithoutDemand),
			farFromMedianPercent: numberOption(options, farFromMedianPercent),
		},
		name: typeof options.calendarName === 'string' ? options.calendarName.trim() : '',
	};
}

/** A run that only previews: asked to, or a test run in the editor or a tool call where remembering happens in production only. */
function previews(context: IExecuteFunctions, mode: Remember): boolean {
	if (mode !== 'production') return mode === 'never';
	return context.getMode() === 'manual' || context.getNode().type.endsWith('Tool');
}

/** The calendar's month rows in the positions table, one per month of the window. */
class CalendarMemory {
	private constructor(
		private readonly store: Store,
		private readonly rows: MonthRows,
		private readonly keys: Map<string, string>,
		private readonly calendar: CalendarSettings,
	) {}

	static async open(store: Store, calendar: CalendarSettings): Promise<CalendarMemory> {
		const rows = await store.monthRows(positionsTable(calendar.positionsTable));
		const { myHotelCode, website, compSet, los, guests, dates } = calendar.source;
		const keys = new Map(dates.map((date) => date.slice(0, 7)).map((month) => [month, calendarMonthKey({ name: calendar.name, myHotelCode, website, compSet, los, guests, month })]));
		return new CalendarMemory(store, rows, keys, calendar);
	}

	async read(): Promise<Map<string, StoredRow>> {
		return await this.rows.read([...this.keys.values()]);
	}

	/** The day's clean-up of the table, as of the newest rate the calendar read. */
	async tidy(rates: CalendarFacts['rates']): Promise<void> {
		await tidyCalendarTable(this.rows, rates.map((rate) => rate.dtCollected).sort().at(-1));
	}

	monthOf(month: string, row: StoredRow | undefined): PositionMonth {
		return row ? readPositionMonth(row) : emptyPositionMonth(this.keys.get(month) as string, 'calendar', this.calendar.source.myHotelCode, month);
	}

	/** What the calendar compares each date with. */
	baselines(stored: ReadonlyMap<string, StoredRow>, tag: string, retry: boolean): PreviousFigures[] {
		return this.calendar.source.dates.flatMap((date) => {
			const cell = this.monthOf(date.slice(0, 7), stored.get(this.keys.get(date.slice(0, 7)) as string)).days.get(dayOf(date));
			const baseline = baselineOf(cell && decodeCalendarCell(cell.value), tag, retry);
			return baseline ? [{ date, ...baseline }] : [];
		});
	}

	/**
	 * Writes what this calendar sent over each month row, in rounds as every operation writes its
	 * month rows (storage/store.ts), without alerts: a row another calendar wrote meanwhile is read
	 * again and written over anew.
	 */
	async remember(days: readonly CalendarDay[], stored: ReadonlyMap<string, StoredRow>, tag: string, retry: boolean): Promise<void> {
		const sentAt = new Date().toISOString();
		const byMonth = new Map<string, CalendarDay[]>();
		for (const day of days) byMonth.set(day.date.slice(0, 7), [...(byMonth.get(day.date.slice(0, 7)) ?? []), day]);
		const monthOfKey = new Map([...this.keys].map(([month, key]) => [key, month]));
		const plan = (key: string, row: StoredRow | undefined): MonthPlan => {
			const month = monthOfKey.get(key) as string;
			const before = this.monthOf(month, row);
			const cells = new Map(before.days);
			for (const day of calendarFigures(byMonth.get(month) as CalendarDay[])) {
				cells.set(dayOf(day.date), sentCell(before.days.get(dayOf(day.date)), tag, retry, day, sentAt));
			}
			return { key, data: positionMonthRow({ ...before, days: cells }), alerts: [] };
		};
		const keys = [...byMonth.keys()].map((month) => this.keys.get(month) as string);
		const { contested } = await this.store.writeInRounds({ rows: this.rows, keys, stored, plan });
		if (contested.length > 0) {
			const { context } = this.store;
			throw new NodeOperationError(context.getNode(), `Other executions kept writing this calendar's memory while this one tried to (${contested.map((key) => monthOfKey.get(key)).join(', ')})`, {
				description: `Two runs of the same calendar (${this.calendar.name || 'unnamed'}) went at once. Nothing of those months was remembered: run it again, or give the calendars different Calendar Names.`,
			});
		}
	}
}

function meta(calendar: CalendarSettings, facts: CalendarFacts): CalendarMeta {
	const { myHotelCode, website, los, guests } = calendar.source;
	return { hotelName: facts.hotelName, hotelCode: myHotelCode, website, websiteName: facts.websiteName, los, guests, bands: calendar.bands, outliers: calendar.outliers };
}

function summaryItem(calendar: CalendarSettings, facts: CalendarFacts, days: readonly CalendarDay[], remembered: boolean): IDataObject {
	const { myHotelCode, website, los, guests, dates } = calendar.source;
	const calendarMeta = meta(calendar, facts);
	return {
		calendarName: calendar.name,
		myHotelCode,
		hotelName: facts.hotelName,
		website,
		websiteName: facts.websiteName,
		nights: los,
		guests,
		from: dates[0],
		to: dates[dates.length - 1],
		currency: days.find((day) => day.myCurrency !== null)?.myCurrency ?? null,
		counts: { ...calendarCounts(days) },
		outliers: days.flatMap((day) => (day.outlier ? [{ date: day.date, ...day.outlier }] : [])),
		remembered,
		text: calendarText(days, calendarMeta),
		html: calendarHtml(days, calendarMeta),
		dates: days as unknown as IDataObject[],
	};
}

export async function execute(this: IExecuteFunctions, store: Store): Promise<INodeExecutionData[]> {
	const calendar = readSettings(this, () => settings(this));
	const facts = await readCalendarFacts(store, calendar.source);
	const memory = await CalendarMemory.open(store, calendar);
	const stored = await memory.read();
	const tag = runTag(this.getWorkflow().id ?? '', this.getNode().name, this.getInputData().map((item) => item.json));
	const retry = this.getMode() === 'retry';
	const { myHotelCode, compSet, website, dates, currency } = calendar.source;
	const days = buildCalendar({
		rates: facts.rates,
		settings: { myHotelCode, compSet, website, dates, bands: calendar.bands, outliers: calendar.outliers, ...(currency ? { currency } : {}) },
		events: facts.events,
		demand: facts.demand,
		previous: memory.baselines(stored, tag, retry),
	});
	const remembered = !previews(this, calendar.remember);
	if (remembered) {
		await memory.remember(days, stored, tag, retry);
		await memory.tidy(facts.rates);
	}
	const output = calendar.source.output;
	const items: IDataObject[] = [
		...(output === 'summary' ? [] : days.map((day) => ({ myHotelCode: calendar.source.myHotelCode, ...day }) as unknown as IDataObject)),
		...(output === 'dates' ? [] : [summaryItem(calendar, facts, days, remembered)]),
	];
	return items.map((json) => ({ json, pairedItem: { item: 0 } }));
}
