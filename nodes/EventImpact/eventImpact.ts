import type { IDataObject } from 'n8n-workflow';

import { readListing, type ListingSettings, type Page } from '../shared/paging';
import { keepFields } from '../shared/simplify';
import { apiRequest, type TravelPricingContext } from '../shared/transport';

import type { EventImpactFilters } from './eventFilters';

/** An event record, as SERVICE-SPEC.md part 2 gives it. */
export interface EventRecord {
	id: number;
	eventId: number;
	venueId: number;
	eventName: string;
	category: string;
	subCategory: string;
	description: string;
	startDate: string;
	endDate: string;
	estimatedAttendees: number;
	impactEventType: string;
	venue: string;
	address: string;
	city: string;
	state: string;
	zip: string;
	country: string;
	countryCode: string;
	region: string;
	latitude: string;
	longitude: string;
	impactScore: number;
	eventStatus: string;
}

/**
 * What Simplify keeps of an event: what it is, when, where, how big and how sure, the fields a
 * question about demand around a hotel is answered with. `eventId` is what the Event ID filter
 * takes; the place is the city and the venue (the address, coordinates and region codes are for
 * maps); the impact class and the description are dropped, the first being the score in words, the
 * second the longest field and free text.
 */
export const SIMPLIFIED_EVENT_FIELDS = [
	'eventId',
	'eventName',
	'category',
	'startDate',
	'endDate',
	'city',
	'venue',
	'estimatedAttendees',
	'impactScore',
	'eventStatus',
] as const satisfies ReadonlyArray<keyof EventRecord>;

export function simplifyEvent(event: EventRecord): IDataObject {
	return keepFields(event, SIMPLIFIED_EVENT_FIELDS);
}

export interface PageInfo {
	totalRecords: number;
	fetchedRecords: number;
	totalPages: number;
	currentPage: number;
	pageSize: number;
}

export interface EventImpactResponse {
	pageInfo: PageInfo;
	events: EventRecord[];
}

export const EVENT_IMPACT_ENDPOINT = '/eventimpact/';

const ALL_EVENTS: EventImpactFilters = { eventStatusCode: 0 };

/**
 * The events that match one set of filters (POST /eventimpact/, spec 4.5), all of them or the
 * first `limit`, read page by page with the shared pager.
 */
export async function findEvents(
	context: TravelPricingContext,
	filters: EventImpactFilters,
	settings: ListingSettings,
): Promise<EventRecord[]> {
	// Spec 4.5 requires the body as a whole, and n8n's request helper drops an empty object, so a
	// search without filters asks for status 0, "All events" (spec part 3), which filters nothing.
	const body = (Object.keys(filters).length > 0 ? filters : ALL_EVENTS) as IDataObject;
	const { retry, limiter, throttleAdvice, itemIndex } = settings;
	return await readListing(settings, async (pageNumber, pageSize): Promise<Page<EventRecord>> => {
		const response = await apiRequest.call(context, 'POST', EVENT_IMPACT_ENDPOINT, {
			qs: { eventsImpactPerPage: pageSize, pageNumber },
			body,
			idempotent: true,
			retry,
			limiter,
			throttleAdvice,
			itemIndex,
		}) as EventImpactResponse;
		const events = Array.isArray(response?.events) ? response.events : [];
		return {
			records: events,
			totalRecords: response?.pageInfo?.totalRecords ?? events.length,
			totalPages: response?.pageInfo?.totalPages ?? 1,
			pageSize: response?.pageInfo?.pageSize ?? pageSize,
		};
	});
}
