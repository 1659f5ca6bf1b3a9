import type { IDataObject } from 'n8n-workflow';

import { fetchPages, type Page, type Paging } from '../shared/paging';
import { apiRequest, type RequestSettings, type TravelPricingContext } from '../shared/transport';
import type { EventImpactResponse, EventRecord } from '../shared/types';

import type { EventImpactFilters } from './eventFilters';

export const EVENT_IMPACT_ENDPOINT = '/eventimpact/';

const ALL_EVENTS: EventImpactFilters = { eventStatusCode: 0 };

export interface EventSearch extends Paging, RequestSettings {}

/**
 * The events that match one set of filters (POST /eventimpact/, spec 4.5), all of them or the
 * first `limit`, read page by page with the shared pager.
 */
export async function findEvents(
	context: TravelPricingContext,
	filters: EventImpactFilters,
	search: EventSearch,
): Promise<EventRecord[]> {
	// Asking for fewer than a page when fewer are wanted keeps a small limit to one small request.
	const perPage = search.limit === undefined ? search.pageSize : Math.min(search.pageSize, search.limit);
	// Spec 4.5 requires the body as a whole, and n8n's request helper drops an empty object, so a
	// search without filters asks for status 0, "All events" (spec part 3), which filters nothing.
	const body = (Object.keys(filters).length > 0 ? filters : ALL_EVENTS) as IDataObject;
	return await fetchPages(
		async (pageNumber): Promise<Page<EventRecord>> => {
			const { retry, limiter, throttleAdvice, itemIndex } = search;
			const response = await apiRequest.call(context, 'POST', EVENT_IMPACT_ENDPOINT, {
				qs: { eventsImpactPerPage: perPage, pageNumber },
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
				pageSize: response?.pageInfo?.pageSize ?? perPage,
			};
		},
		{ limit: search.limit, concurrency: search.limiter?.size ?? 1 },
	);
}
