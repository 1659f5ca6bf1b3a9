import { DateTime } from 'luxon';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { ACCESS_TOKEN_CREDENTIAL_DISPLAY_NAME } from '../../shared/credentialNames';
import type { DateOrderChoice } from '../../shared/demand';
import { FieldError } from '../../shared/errors';
import { DEFAULT_PROXIMITY_MILES } from '../../shared/events';
import { parseCalendarDay, parseCodes } from '../../shared/fields';
import { DEFAULT_EVENT_MIN_SCORE, DEFAULT_WINDOW_DAYS, rangeDates, windowDates, type CompSet, type WebsiteChoice } from '../rules/calendar';
import type { RateField } from '../rules/observation';

import { CALENDAR_OPERATIONS, codeField, SERVICE_DATA_OPERATIONS, collectionOption, numberField, optionField, ratesTableField, showFor, textField } from './fields';

/**
 * The fields Rate Calendar, Suggest Rates and Rate History share, and the settings they read from them: whose
 * dates (my hotel, its comp set, a website, nights and guests, a window of dates) and what the
 * service adds to them (events near my hotel, my demand). Both run once an execution, whatever
 * comes in: they read what is remembered, not the incoming items.
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
	displayOptions: showFor(SERVICE_DATA_OPERATIONS),
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
	displayOptions: showFor(SERVICE_DATA_OPERATIONS, { serviceData: ['events'] }),
	description: "How far from your hotel an event may be. Your hotel's place is the latitude and longitude of its latest rate record.",
};

const minImpactScore: INodeProperties = {
	displayName: 'Minimum Impact Score',
	name: 'minImpactScore',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 100, numberPrecision: 0 },
	// Medium Impact (40) and up: a Low Impact event moves nothing and would mark every date.
	default: DEFAULT_EVENT_MIN_SCORE,
	displayOptions: showFor(SERVICE_DATA_OPERATIONS, { serviceData: ['events'] }),
	description: 'Events below this impact score (0 to 100) are left out. 40 is where Medium Impact starts.',
};

const demandShopId: INodeProperties = {
	displayName: 'Demand Shop ID',
	name: 'demandShopId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. 1001',
	displayOptions: showFor(SERVICE_DATA_OPERATIONS, { serviceData: ['demand'] }),
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
	const added = SERVICE_DATA_OPERATIONS.includes(context.getNodeParameter('operation', 0) as string) ? (context.getNodeParameter(serviceData.name, 0, []) as string[]) : [];
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
