import { NodeOperationError, type IExecuteFunctions, type NodeApiError } from 'n8n-workflow';

import { ACCESS_TOKEN_CREDENTIAL, ACCESS_TOKEN_CREDENTIAL_DISPLAY_NAME } from '../../shared/credentialNames';
import { demandDays, resolveDemandDates, type HotelDemandResponse } from '../../shared/demand';
import { FieldError, invalidValueMessage } from '../../shared/errors';
import { findEvents } from '../../shared/events';
import { hotelsFromResponse, indexHotelsByCode } from '../../shared/hotels';
import { DEFAULT_PAGE_SIZE } from '../../shared/options';
import { apiRequest } from '../../shared/transport';
import { myDemandByDate, pickDailyEvents, rangeDates, type DayEvent, type RememberedRate } from '../rules/calendar';
import type { StayMonth } from '../storage/stayMonths';
import type { Store } from '../storage/store';

import type { CalendarSource } from './calendarFields';
import { newestOfMine, readStayMonths, rememberedRates } from './calendarRates';

/**
 * Everything Rate Calendar's and Suggest Rates' figures need, read at once: the remembered rates of
 * the window (calendarRates.ts), and, with a Travel Pricing API credential, the events near my hotel (the service's event
 * search, nodes/shared/events.ts) and my demand (a hotel demand shop, nodes/shared/demand.ts).
 */

/** What the figures of the window are worked out from. */
export interface CalendarFacts {
	rates: RememberedRate[];
	/** My hotel's name, from its newest record; '' when it has none. */
	hotelName: string;
	/** The website's name (Hotel Info's websitename) with one website and the Travel Pricing API credential; '' otherwise. */
	websiteName: string;
	events?: Map<string, DayEvent>;
	demand?: Map<string, number>;
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

/**
 * The calendar's website by name: the rates table keeps codes only, so with a Travel Pricing API
 * credential on the node, Hotel Info's websitename of my hotel's source (one POST /hotelinfo an
 * execution). A name is for the reader only: without the credential, or when Hotel Info does not
 * answer with the source, the calendar names the website by its code as before, and runs on.
 */
async function websiteNameOf(context: IExecuteFunctions, source: CalendarSource): Promise<string> {
	if (source.website === 'lowest' || !context.getNode().credentials?.[ACCESS_TOKEN_CREDENTIAL]) return '';
	try {
		const response = await apiRequest.call(context, 'POST', '/hotelinfo', { body: { hotelcode: source.myHotelCode }, idempotent: true, resource: `hotel ${source.myHotelCode}` });
		const hotel = indexHotelsByCode(hotelsFromResponse(response)).get(source.myHotelCode);
		const name = hotel?.sources.find((site) => Number(site.websitecode) === source.website)?.websitename;
		return typeof name === 'string' ? name.trim() : '';
	} catch {
		return '';
	}
}

/** Everything the window's figures need, read at once. */
export async function readCalendarFacts(store: Store, source: CalendarSource): Promise<CalendarFacts> {
	const { context } = store;
	if (source.events || source.demand) needsServiceCredential(context);
	const months = await readStayMonths(store, source);
	const mine = newestOfMine(months, source.myHotelCode);
	const [events, demand, websiteName] = await Promise.all([
		source.events ? eventsNear(context, source, mine) : undefined,
		source.demand ? demandOf(context, source) : undefined,
		websiteNameOf(context, source),
	]);
	return { rates: rememberedRates(months, source.rateField), hotelName: mine?.hotelName ?? '', websiteName, events, demand };
}
