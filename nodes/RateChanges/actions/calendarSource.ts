import { DateTime } from 'luxon';
import { NodeOperationError, type IDataObject, type IExecuteFunctions, type INodeProperties, type NodeApiError } from 'n8n-workflow';

import { findEvents } from '../../EventImpact/eventImpact';
import { DEFAULT_PROXIMITY_MILES } from '../../EventImpact/eventFilters';
import { demandDays, resolveDemandDates, type DateOrderChoice, type HotelDemandResponse } from '../../HotelDemand/demand';
import { RequestLimiter } from '../../shared/concurrency';
import { ACCESS_TOKEN_CREDENTIAL, ACCESS_TOKEN_CREDENTIAL_DISPLAY_NAME } from '../../shared/credentialNames';
import { FieldError, invalidValueMessage } from '../../shared/errors';
import { parseCalendarDay, parseCodes } from '../../shared/fields';
import { DEFAULT_PAGE_SIZE } from '../../shared/options';
import { apiRequest } from '../../shared/transport';
import {
	DEFAULT_EVENT_MIN_SCORE,
	DEFAULT_WINDOW_DAYS,
	myDemandByDate,
	pickDailyEvents,
	rangeDates,
	windowDates,
	type CompSet,
	type DayEvent,
	type RememberedRate,
	type WebsiteChoice,
} from '../rules/calendar';
import type { RateField } from '../rules/observation';
import { allOf, DataTables, eq } from '../storage/dataTables';
import { MonthRows } from '../storage/monthRows';
import { readStayMonth, storedStays, type StayMonth } from '../storage/stayMonths';
import { ratesTable } from '../storage/tables';

import { CALENDAR_OPERATIONS, codeField, collectionOption, numberField, optionField, ratesTableField, showFor, textField } from './fields';

/**
 * What Rate Calendar and Suggest Rates share: the fields that say whose dates (my hotel, its comp
 * set, a website, nights and guests, a window of dates) and what the service adds to them (events
 * near my hotel, my demand), and the reading of it all: the rates table Detect Changes keeps, and,
 * with a Travel Pricing API credential, Event Impact's search and a Hotel Demand shop. Both run
 * once an execution, whatever comes in: they read what is remembered, not the incoming items.
 */

const show = showFor(CALENDAR_OPERATIONS);

const myHotelCode: INodeProperties = {
	displayName: 'My Hotel Code',
	name: 'myHotelCode',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. 100085',
	displayOptions: show,
	description: 'Your hotel: its rate on each date, against the comp set',
};

const compSet: INodeProperties = {
	displayName: 'Comp Set',
	name: 'compSet',
	type: 'options',
	default: 'all',
	displayOptions: show,
	options: [
		{ name: 'Every Other Hotel Shopped', value: 'all', description: 'Every other hotel the rates table holds for the date' },
		{ name: 'These Hotels', value: 'codes', description: 'Only the hotel codes you list' },
	],
	description: 'The competitors your rate is set against',
};

const competitorCodes: INodeProperties = {
	displayName: 'Competitor Codes',
	name: 'competitorCodes',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. 100154, 100024, 100015',
	displayOptions: showFor(CALENDAR_OPERATIONS, { compSet: ['codes'] }),
	description: 'The hotel codes of your comp set, separated by commas',
};

const website: INodeProperties = {
	displayName: 'Website',
	name: 'website',
	type: 'options',
	default: 'lowest',
	displayOptions: show,
	options: [
		{ name: 'Lowest of All Websites', value: 'lowest', description: "Each hotel's cheapest rate on any website shopped" },
		{ name: 'One Website', value: 'one', description: 'Every hotel on the website you name' },
	],
	description: "Each hotel's rate on a date is its cheapest room on sale, on this website or on any",
};

const websiteCode: INodeProperties = {
	displayName: 'Website Code',
	name: 'websiteCode',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. 1',
	displayOptions: showFor(CALENDAR_OPERATIONS, { website: ['one'] }),
	description: 'The website code, as in the rate records (1 Booking.com, 2 Expedia, …)',
};

const nights: INodeProperties = {
	displayName: 'Nights',
	name: 'nights',
	type: 'number',
	typeOptions: { minValue: 1, numberPrecision: 0 },
	// One night: the length of stay rate shops and rate calendars show by default.
	default: 1,
	displayOptions: show,
	description: "The length of stay (the records' los) whose rates to show",
};

const guests: INodeProperties = {
	displayName: 'Guests',
	name: 'guests',
	type: 'number',
	typeOptions: { minValue: 1, numberPrecision: 0 },
	default: 2,
	displayOptions: show,
	description: 'The guests per room whose rates to show',
};

const window: INodeProperties = {
	displayName: 'Dates',
	name: 'window',
	type: 'options',
	default: 'nextDays',
	displayOptions: show,
	options: [
		{ name: 'From Today', value: 'nextDays', description: "Today and the days after it, in the workflow's timezone" },
		{ name: 'Date Range', value: 'range', description: 'From one date to another, both included' },
	],
	description: 'Which check-in dates the calendar covers',
};

const days: INodeProperties = {
	displayName: 'Days',
	name: 'days',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 366, numberPrecision: 0 },
	default: DEFAULT_WINDOW_DAYS,
	displayOptions: showFor(CALENDAR_OPERATIONS, { window: ['nextDays'] }),
	description: 'How many dates, today first: 30 is the month a rate calendar opens on',
};

const fromDate: INodeProperties = {
	displayName: 'From Date',
	name: 'fromDate',
	type: 'dateTime',
	default: '',
	required: true,
	displayOptions: showFor(CALENDAR_OPERATIONS, { window: ['range'] }),
	description: "The first check-in date (a day in the workflow's timezone)",
};

const toDate: INodeProperties = {
	displayName: 'To Date',
	name: 'toDate',
	type: 'dateTime',
	default: '',
	required: true,
	displayOptions: showFor(CALENDAR_OPERATIONS, { window: ['range'] }),
	description: 'The last check-in date, at most 366 days after From Date',
};

export const serviceData: INodeProperties = {
	displayName: 'Events and Demand',
	name: 'serviceData',
	type: 'multiOptions',
	default: [],
	displayOptions: show,
	options: [
		{ name: 'Events Near My Hotel', value: 'events', description: 'The highest-impact event of each date, from Event Impact' },
		{ name: "My Hotel's Demand", value: 'demand', description: 'My demand on each date, from a hotel demand shop' },
	],
	description: `What the Travel Pricing service adds to each date. Needs a ${ACCESS_TOKEN_CREDENTIAL_DISPLAY_NAME} credential.`,
};

const proximity: INodeProperties = {
	displayName: 'Proximity (Miles)',
	name: 'proximityMiles',
	type: 'number',
	typeOptions: { minValue: 0.1, numberPrecision: 1 },
	// Event Impact's own default: a city's events, seen from a hotel in it.
	default: DEFAULT_PROXIMITY_MILES,
	displayOptions: showFor(CALENDAR_OPERATIONS, { serviceData: ['events'] }),
	description: "How far from your hotel an event may be. Your hotel's place is the latitude and longitude of its latest rate record.",
};

const minImpactScore: INodeProperties = {
	displayName: 'Minimum Impact Score',
	name: 'minImpactScore',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 100, numberPrecision: 0 },
	// Medium Impact (40) and up: a Low Impact event moves nothing and would mark every date.
	default: DEFAULT_EVENT_MIN_SCORE,
	displayOptions: showFor(CALENDAR_OPERATIONS, { serviceData: ['events'] }),
	description: 'Events below this impact score (0 to 100) are left out. 40 is where Medium Impact starts.',
};

const demandShopId: INodeProperties = {
	displayName: 'Demand Shop ID',
	name: 'demandShopId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. 1001',
	displayOptions: showFor(CALENDAR_OPERATIONS, { serviceData: ['demand'] }),
	description: "The hotel demand shop whose result holds your hotel: each date's relative demand (0 to 100), as Hotel Demand reads it",
};

export const outputField: INodeProperties = {
	displayName: 'Output',
	name: 'calendarOutput',
	type: 'options',
	// One item: what a Send Email, Slack or approval node after it sends once. Each Date is for a
	// sheet or a chart; the summary holds every date too.
	default: 'summary',
	displayOptions: show,
	options: [
		{ name: 'Summary', value: 'summary', description: 'One item: the text, the HTML, the counts and every date' },
		{ name: 'Each Date', value: 'dates', description: 'One item per date, for a sheet or a chart' },
		{ name: 'Both', value: 'both', description: 'One item per date, then the summary' },
	],
	description: 'What comes out',
};

/** Options both operations offer in their Options collections. */
export const currencyOption: INodeProperties = {
	displayName: 'Currency',
	name: 'currency',
	type: 'string',
	default: '',
	placeholder: 'e.g. EUR',
	description: "The currency to compare in. Empty: the one your hotel's rates are in. A hotel shopped in another currency is left out and named, never converted.",
};

export const rateFieldOption: INodeProperties = {
	displayName: 'Rate Field',
	name: 'rateField',
	type: 'options',
	default: 'onsiteRate',
	options: [
		{ name: 'Onsite Rate', value: 'onsiteRate', description: 'The rate the website shows (onsiteRate)' },
		{ name: 'Net Rate', value: 'netRate', description: 'The rate net of taxes (netRate)' },
	],
	description: 'Which rate of each stay to compare. A rate of 0 means sold out.',
};

export const dateOrderOption: INodeProperties = {
	displayName: 'Demand Date Order',
	name: 'demandDateOrder',
	type: 'options',
	default: 'auto',
	options: [
		{ name: 'Auto', value: 'auto', description: 'Decide from the whole response, as Hotel Demand does: a part above 12 is a day, and consecutive dates must stay consecutive' },
		{ name: 'Day First (DD/MM/YYYY)', value: 'dayFirst' },
		{ name: 'Month First (MM/DD/YYYY)', value: 'monthFirst' },
	],
	description: 'The demand shop writes dates as nn/nn/yyyy without saying which part is the day; Auto stops with an error when the data cannot tell',
};

export const properties: INodeProperties[] = [
	myHotelCode,
	compSet,
	competitorCodes,
	website,
	websiteCode,
	nights,
	guests,
	window,
	days,
	fromDate,
	toDate,
	serviceData,
	proximity,
	minImpactScore,
	demandShopId,
	outputField,
];

export type CalendarOutput = 'summary' | 'dates' | 'both';

/** Whose dates, which dates, and what to add to them. */
export interface CalendarSource {
	myHotelCode: number;
	compSet: CompSet;
	website: WebsiteChoice;
	los: number;
	guests: number;
	dates: string[];
	ratesTable: string;
	rateField: RateField;
	/** Empty: my hotel's own. */
	currency: string;
	events?: { proximityMiles: number; minScore: number };
	demand?: { demandId: number; dateOrder: DateOrderChoice };
	output: CalendarOutput;
}

/** The longest window: a year of dates, the horizon rate shops go to. */
const MAX_WINDOW_DAYS = 366;

function windowOf(context: IExecuteFunctions): string[] {
	const zone = context.getTimezone();
	if (optionField(context, window) === 'nextDays') {
		const today = DateTime.now().setZone(zone).toISODate() as string;
		return windowDates(today, numberField(context, days));
	}
	const from = parseCalendarDay(fromDate.displayName, context.getNodeParameter(fromDate.name, 0, ''), zone);
	const to = parseCalendarDay(toDate.displayName, context.getNodeParameter(toDate.name, 0, ''), zone);
	if (to < from) throw new FieldError(toDate.displayName, to, `is before From Date (${from})`);
	const dates = rangeDates(from, to);
	if (dates.length > MAX_WINDOW_DAYS) throw new FieldError(toDate.displayName, to, `is ${dates.length - 1} days after From Date; a calendar covers at most ${MAX_WINDOW_DAYS} dates`);
	return dates;
}

function compSetOf(context: IExecuteFunctions): CompSet {
	if (optionField(context, compSet) === 'all') return 'all';
	const codes = parseCodes(competitorCodes.displayName, context.getNodeParameter(competitorCodes.name, 0, ''));
	if (codes.length === 0) throw new FieldError(competitorCodes.displayName, '', 'needs at least one hotel code');
	return codes;
}

function currencyOf(options: IDataObject): string {
	const value = options[currencyOption.name];
	if (value === undefined || value === '') return '';
	if (typeof value !== 'string' || !/^[A-Za-z]{3}$/.test(value.trim())) throw new FieldError(currencyOption.displayName, value, 'must be a three-letter currency code such as EUR');
	return value.trim().toUpperCase();
}

/** The settings both operations read the same way; `options` is the operation's Options collection. */
export function calendarSource(context: IExecuteFunctions, options: IDataObject): CalendarSource {
	const added = context.getNodeParameter(serviceData.name, 0, []) as string[];
	if (!Array.isArray(added)) throw new FieldError(serviceData.displayName, added, 'must be a list of events, demand or both');
	const source: CalendarSource = {
		myHotelCode: codeField(context, myHotelCode),
		compSet: compSetOf(context),
		website: optionField(context, website) === 'lowest' ? 'lowest' : codeField(context, websiteCode),
		los: numberField(context, nights),
		guests: numberField(context, guests),
		dates: windowOf(context),
		ratesTable: textField(context, ratesTableField),
		rateField: collectionOption<RateField>(options, rateFieldOption),
		currency: currencyOf(options),
		output: optionField<CalendarOutput>(context, outputField),
	};
	if (added.includes('events')) source.events = { proximityMiles: numberField(context, proximity), minScore: numberField(context, minImpactScore) };
	if (added.includes('demand')) {
		source.demand = { demandId: codeField(context, demandShopId), dateOrder: collectionOption<DateOrderChoice>(options, dateOrderOption) };
	}
	return source;
}

/** What the figures of the window are worked out from. */
export interface CalendarFacts {
	rates: RememberedRate[];
	/** My hotel's name, from its newest record; '' when it has none. */
	hotelName: string;
	events?: Map<string, DayEvent>;
	demand?: Map<string, number>;
}

/** Read in one go per month of the window: my hotel and every competitor share a month's rows. */
async function readStayMonths(context: IExecuteFunctions, source: CalendarSource): Promise<StayMonth[]> {
	const api = new DataTables(context, new RequestLimiter(4));
	const rows = new MonthRows(api, await api.ensureTable(ratesTable(source.ratesTable)));
	const months = [...new Set(source.dates.map((date) => date.slice(0, 7)))];
	const read = await Promise.all(
		months.map(async (month) => {
			const filter = allOf(eq('month', month), eq('los', source.los), eq('guests', source.guests), ...(source.website === 'lowest' ? [] : [eq('websiteCode', source.website)]));
			return [...(await rows.readWhere(filter)).values()].map(readStayMonth);
		}),
	);
	return read.flat();
}

function rememberedRates(months: readonly StayMonth[], rateField: RateField): RememberedRate[] {
	return months.flatMap(storedStays).map((stay) => ({
		hotelCode: stay.hotelCode,
		hotelName: stay.hotelName,
		websiteCode: stay.websiteCode,
		roomType: stay.roomType,
		checkIn: stay.checkIn,
		currency: stay.currency,
		rate: stay[rateField],
		dtCollected: stay.dtCollected,
	}));
}

/** My hotel's newest row: its name, and its place for the events around it. */
function newestOfMine(months: readonly StayMonth[], myHotelCode: number): StayMonth | undefined {
	const newest = (month: StayMonth) => [...month.days.values()].map((day) => day.dtCollected).sort().at(-1) ?? '';
	return months.filter((month) => month.hotelCode === myHotelCode).sort((a, b) => (newest(a) < newest(b) ? 1 : newest(a) > newest(b) ? -1 : 0))[0];
}

/** Events that will not take place on their dates are no reason a date sells (spec part 3: 3 Postponed, 5 Cancelled). */
const NOT_TAKING_PLACE = new Set(['postponed', 'cancelled', 'canceled']);

function needsServiceCredential(context: IExecuteFunctions): void {
	if (context.getNode().credentials?.[ACCESS_TOKEN_CREDENTIAL]) return;
	throw new NodeOperationError(context.getNode(), `Events and Demand need a ${ACCESS_TOKEN_CREDENTIAL_DISPLAY_NAME} credential`, {
		description: `Pick your ${ACCESS_TOKEN_CREDENTIAL_DISPLAY_NAME} credential at the top of the node (it appears once Events and Demand has an entry), or empty Events and Demand.`,
	});
}

async function eventsNear(context: IExecuteFunctions, source: CalendarSource, mine: StayMonth | undefined): Promise<Map<string, DayEvent>> {
	const settings = source.events as NonNullable<CalendarSource['events']>;
	const stay = `${source.los} night${source.los === 1 ? '' : 's'} and ${source.guests} guest${source.guests === 1 ? '' : 's'}`;
	if (!mine || mine.latitude === null || mine.longitude === null) {
		const what = mine ? `no place (latitude and longitude) for hotel ${source.myHotelCode}` : `no rate of hotel ${source.myHotelCode} for ${stay} in the months of these dates`;
		throw new NodeOperationError(context.getNode(), `The rates table holds ${what}: no events can be searched around it`, {
			description: `Events near My Hotel are searched around the latitude and longitude of its latest rate record in "${source.ratesTable}". Check My Hotel Code, Nights and Guests against your shops, or take Events Near My Hotel out of Events and Demand.`,
		});
	}
	const [first, last] = [source.dates[0], source.dates[source.dates.length - 1]];
	// Spec 4.5 leaves horizon's unit open; the events are kept to the window by their own dates
	// below, so a service that reads it otherwise changes only how many are read.
	const filters = { lat: String(mine.latitude), lng: String(mine.longitude), proximity: settings.proximityMiles, startDate: first, horizon: source.dates.length - 1 };
	const found = await findEvents(context, filters, { pageSize: DEFAULT_PAGE_SIZE });
	const taking = found.filter((event) => !NOT_TAKING_PLACE.has(String(event.eventStatus ?? '').toLowerCase()));
	return pickDailyEvents(taking, rangeDates(first, last), settings.minScore);
}

async function demandOf(context: IExecuteFunctions, source: CalendarSource): Promise<Map<string, number>> {
	const { demandId, dateOrder } = source.demand as NonNullable<CalendarSource['demand']>;
	const response = (await apiRequest.call(context, 'GET', `/hoteldemanddata/${demandId}`, { idempotent: true, resource: `demand shop ${demandId}` })) as HotelDemandResponse;
	try {
		const dates = resolveDemandDates(response, dateOrder);
		return myDemandByDate(demandDays(response, dates, { from: source.dates[0], to: source.dates[source.dates.length - 1] }), source.myHotelCode);
	} catch (error) {
		if (!(error instanceof FieldError)) throw error as NodeApiError;
		throw new NodeOperationError(context.getNode(), invalidValueMessage(error), {
			description: "The demand shop answered, but its nn/nn/yyyy dates cannot be read in this order. Set Options > Demand Date Order to Day First or Month First (Hotel Demand's Raw output shows the dates as sent).",
		});
	}
}

/** Everything the window's figures need, read at once. */
export async function readCalendarFacts(context: IExecuteFunctions, source: CalendarSource): Promise<CalendarFacts> {
	if (source.events || source.demand) needsServiceCredential(context);
	const months = await readStayMonths(context, source);
	const mine = newestOfMine(months, source.myHotelCode);
	const [events, demand] = await Promise.all([source.events ? eventsNear(context, source, mine) : undefined, source.demand ? demandOf(context, source) : undefined]);
	return { rates: rememberedRates(months, source.rateField), hotelName: mine?.hotelName ?? '', events, demand };
}
