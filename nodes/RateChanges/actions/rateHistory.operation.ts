import { NodeOperationError, type IDataObject, type IExecuteFunctions, type INodeExecutionData, type INodeProperties } from 'n8n-workflow';

import { buildCurve, type BookingCurve } from '../rules/bookingCurve';
import { buildHistory, peakDates, type DateHistory, type StayHistory } from '../rules/history';
import { curveHtml, curveSlackText, curveText, historyCounts, historyHtml, historySlackText, historyText, type HistoryMeta } from '../rules/historyView';
import { historyByCheckIn, readHistoryMonth } from '../storage/stayHistory';
import { checkInOf } from '../storage/stayMonths';
import type { Store } from '../storage/store';
import { historyTable, ratesTable } from '../storage/tables';

import { readStayMonths, readWindowMonths } from './calendarRates';
import { calendarSource, currencyOption, rateFieldOption, type CalendarSource } from './calendarFields';
import { numberField, optionField, optionsOf, readSettings, showFor } from './fields';

/**
 * Rate History: how the rates of stay dates moved as their arrival came nearer, from the history
 * table Detect Changes keeps with Keep History on, and the booking-window curve of a period's
 * stays (docs/nodes/rate-changes.md). Reads only: the history table, and the rates table for each
 * stay's last collection.
 */

/** Its option in the Operation field (the router lists it). */
export const option = {
	name: 'Rate History',
	value: 'rateHistory',
	description: "How each stay date's rates moved shop day by shop day (yours, each competitor's, the comp median) and the booking-window curve of your index, with a ready text and HTML chart",
	action: 'Get the rate history of stay dates',
} as const;

const show = showFor(['rateHistory']);

const showField: INodeProperties = {
	displayName: 'Show',
	name: 'historyShow',
	type: 'options',
	default: 'history',
	displayOptions: show,
	options: [
		{ name: 'History of Each Date', value: 'history', description: 'Each stay date shop day by shop day: your rate, each competitor’s, the comp median, lowest and highest' },
		{ name: 'Booking Window Curve', value: 'curve', description: 'Your index against the comp median by days before arrival (0–7 to 61–90), over the stays of the dates' },
	],
	description: 'What to put out',
};

const lookBack: INodeProperties = {
	displayName: 'Look Back (Days)',
	name: 'lookBackDays',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 366, numberPrecision: 0 },
	// A month: the window in which a stay's rates move most, and a chart that reads on a phone.
	default: 30,
	displayOptions: showFor(['rateHistory'], { historyShow: ['history'] }),
	description: "The shop days each date's series covers, up to its arrival (or the newest shop). The history goes back as far as Detect Changes' Keep History.",
};

const onlyPeakDates: INodeProperties = {
	displayName: 'Only Peak Dates',
	name: 'onlyPeakDates',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 366, numberPrecision: 0 },
	default: 0,
	displayOptions: showFor(['rateHistory'], { historyShow: ['history'] }),
	description: 'Only this many dates, those with the highest comp median now (for a weekly email of the dates that matter). 0: every date.',
};

const optionsField: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	displayOptions: show,
	options: [currencyOption, rateFieldOption],
};

export const properties: INodeProperties[] = [showField, lookBack, onlyPeakDates, optionsField];

type Show = 'history' | 'curve';

interface HistorySettings {
	source: CalendarSource;
	show: Show;
	lookBackDays: number;
	peaks: number;
}

function settings(context: IExecuteFunctions): HistorySettings {
	const historyShow = optionField<Show>(context, showField);
	return {
		source: calendarSource(context, optionsOf(context)),
		show: historyShow,
		lookBackDays: historyShow === 'history' ? numberField(context, lookBack) : 0,
		peaks: historyShow === 'history' ? numberField(context, onlyPeakDates) : 0,
	};
}

const stayKey = (hotelCode: number, websiteCode: number, roomType: string, checkIn: string) => [hotelCode, websiteCode, roomType, checkIn].join('|');

/** Each stay's last collection, from the rates table; none when there is no rates table (Rate History creates no table). */
async function lastSeenOf(store: Store, source: CalendarSource): Promise<Map<string, string>> {
	const seen = new Map<string, string>();
	if (!(await store.api.existingTable(ratesTable(source.ratesTable).name))) return seen;
	for (const month of await readStayMonths(store, source)) {
		for (const [day, cell] of month.days) seen.set(stayKey(month.hotelCode, month.websiteCode, month.roomType, checkInOf(month.month, day)), cell.dtCollected);
	}
	return seen;
}

function noHistory(context: IExecuteFunctions, message: string, ratesTableName: string): NodeOperationError {
	return new NodeOperationError(context.getNode(), message, {
		description: `Rate History reads what Detect Changes keeps with its option Keep History on, in the data table "${ratesTableName}_history" beside the rates table "${ratesTableName}". Turn Keep History on in the Detect Changes node that reads your shops (same Rates Table), and run Rate History after its next shops.`,
	});
}

/** The stays of the dates, with my hotel's name; stops with what to do when there is no history to read. */
async function readStays(context: IExecuteFunctions, store: Store, source: CalendarSource): Promise<{ stays: StayHistory[]; hotelName: string }> {
	const spec = historyTable(source.ratesTable);
	if (!(await store.api.existingTable(spec.name))) throw noHistory(context, `No rate history yet: there is no data table "${spec.name}"`, source.ratesTable);
	const months = await readWindowMonths(await store.monthRows(spec), source, readHistoryMonth);
	const dates = new Set(source.dates);
	const lastSeen = await lastSeenOf(store, source);
	const stays = months.flatMap((month) =>
		[...historyByCheckIn(month)].flatMap(([checkIn, entries]) => {
			if (!dates.has(checkIn)) return [];
			const { hotelCode, hotelName, websiteCode, roomType } = month;
			return [{ hotelCode, hotelName, websiteCode, roomType, checkIn, entries, lastSeen: lastSeen.get(stayKey(hotelCode, websiteCode, roomType, checkIn)) ?? null }];
		}),
	);
	if (!stays.some((stay) => stay.hotelCode === source.myHotelCode)) {
		const span = `${source.dates[0]} to ${source.dates[source.dates.length - 1]}`;
		throw noHistory(context, `No rate history of hotel ${source.myHotelCode} from ${span} (${source.los} night${source.los === 1 ? '' : 's'}, ${source.guests} guest${source.guests === 1 ? '' : 's'}) in "${spec.name}"`, source.ratesTable);
	}
	const hotelName = months.find((month) => month.hotelCode === source.myHotelCode)?.hotelName ?? '';
	return { stays, hotelName };
}

/** A model reads everything a tool returns: called as a tool, the summary leaves out the HTML and the Slack text, which say what `text` says. */
function asTool(context: IExecuteFunctions): boolean {
	return context.getNode().type.endsWith('Tool');
}

function headOf(history: HistorySettings, meta: HistoryMeta): IDataObject {
	const { myHotelCode, website, los, guests, dates } = history.source;
	return { myHotelCode, hotelName: meta.hotelName, show: history.show, website, nights: los, guests, from: dates[0], to: dates[dates.length - 1] };
}

/** A date of the summary: its line and figures, without the series (Each Date has it). */
function summaryDate(history: DateHistory): IDataObject {
	const latest = history.series.at(-1);
	return {
		date: history.date,
		weekday: history.weekday,
		line: history.line,
		compMedianFrom: history.compMedianFrom,
		compMedianTo: history.compMedianTo,
		compMedianChangePercent: history.compMedianChangePercent,
		myMoves: history.myMoves as unknown as IDataObject[],
		myRate: latest?.myRate ?? null,
		mySoldOut: latest?.mySoldOut ?? false,
		priceIndex: latest?.priceIndex ?? null,
		lastShopDay: latest?.shopDay ?? null,
	};
}

function historyItems(history: HistorySettings, meta: HistoryMeta, histories: readonly DateHistory[], tool: boolean): IDataObject[] {
	const output = history.source.output;
	const summary: IDataObject = {
		...headOf(history, meta),
		lookBackDays: history.lookBackDays,
		currency: histories.find((date) => date.currency !== null)?.currency ?? null,
		counts: { ...historyCounts(histories) },
		text: historyText(histories, meta),
		...(tool ? {} : { slackText: historySlackText(histories, meta), html: historyHtml(histories, meta) }),
		dates: histories.map(summaryDate),
	};
	return [
		...(output === 'summary' ? [] : histories.map((date) => ({ myHotelCode: history.source.myHotelCode, ...date }) as unknown as IDataObject)),
		...(output === 'dates' ? [] : [summary]),
	];
}

function curveItems(history: HistorySettings, meta: HistoryMeta, curve: BookingCurve, tool: boolean): IDataObject[] {
	const output = history.source.output;
	const summary: IDataObject = {
		...headOf(history, meta),
		currency: curve.currency,
		counts: { dates: curve.stays.length, withIndex: curve.stays.filter((stay) => stay.buckets.some((bucket) => bucket.myIndex !== null)).length },
		line: curve.line,
		curve: curve.buckets as unknown as IDataObject[],
		text: curveText(curve, meta),
		...(tool ? {} : { slackText: curveSlackText(curve, meta), html: curveHtml(curve, meta) }),
		dates: curve.stays as unknown as IDataObject[],
	};
	return [
		...(output === 'summary' ? [] : curve.stays.map((stay) => ({ myHotelCode: history.source.myHotelCode, ...stay }) as unknown as IDataObject)),
		...(output === 'dates' ? [] : [summary]),
	];
}

export async function execute(this: IExecuteFunctions, store: Store): Promise<INodeExecutionData[]> {
	const history = readSettings(this, () => settings(this));
	const { source } = history;
	const { stays, hotelName } = await readStays(this, store, source);
	const rules = { myHotelCode: source.myHotelCode, compSet: source.compSet, website: source.website, dates: source.dates, rateField: source.rateField, ...(source.currency ? { currency: source.currency } : {}) };
	const meta: HistoryMeta = { hotelName, hotelCode: source.myHotelCode, website: source.website, los: source.los, guests: source.guests, lookBackDays: history.lookBackDays };
	const items =
		history.show === 'curve'
			? curveItems(history, meta, buildCurve(stays, rules), asTool(this))
			: historyItems(history, meta, peakDates(buildHistory(stays, { ...rules, lookBackDays: history.lookBackDays }), history.peaks), asTool(this));
	return items.map((json) => ({ json, pairedItem: { item: 0 } }));
}
