import type { IDataObject } from 'n8n-workflow';

import { readListing, type ListingSettings, type Page } from './paging';
import { apiRequest, type TravelPricingContext } from './transport';

/**
 * The service's event search (POST /eventimpact/, spec 4.5) and its records, read by Event Impact
 * and by Rate Changes' Rate Calendar and Suggest Rates for the events near a hotel.
 */

/** The body of POST /eventimpact/ (spec 4.5), each filter in the type the spec gives it. */
export interface EventImpactFilters {
	eventId?: number;
	eventName?: string;
	category?: string;
	subCategory?: string;
	startDate?: string;
	estimatedAttendee?: string;
	venue?: string;
	address?: string;
	city?: string;
	state?: string;
	zip?: string;
	country?: string;
	region?: string;
	lat?: string;
	lng?: string;
	proximity?: number;
	horizon?: number;
	impactEventType?: string;
	eventStatusCode?: number;
}

/**
 * The radius a point is searched with when the user adds Latitude and Longitude but not Proximity:
 * the default the Proximity field shows (Event Impact's, and Rate Changes' Proximity (Miles)), so what the form shows is what is sent.
 */
export const DEFAULT_PROXIMITY_MILES = 25;

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
