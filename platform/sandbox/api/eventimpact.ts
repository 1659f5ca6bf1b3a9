import { badRequest } from './errors';
import { parseEventFilters } from './eventFilters';
import { positiveQueryInteger } from './fields';
import type { ApiHandler } from './types';

export const DEFAULT_EVENTS_PER_PAGE = 10;
export const MAX_EVENTS_PER_PAGE = 500;

/** POST /eventimpact/: filters the seeded events and pages them in id order. */
export const eventImpact: ApiHandler = (call, { data, clock }) => {
	const pageSize = positiveQueryInteger(call.query.get('eventsImpactPerPage'), 'eventsImpactPerPage', DEFAULT_EVENTS_PER_PAGE);
	if (pageSize > MAX_EVENTS_PER_PAGE) throw badRequest(`eventsImpactPerPage must be at most ${MAX_EVENTS_PER_PAGE}`);
	const currentPage = positiveQueryInteger(call.query.get('pageNumber'), 'pageNumber', 1);
	const today = new Date(clock.now()).toISOString().slice(0, 10);
	const filters = parseEventFilters(call.body, today);
	const matching = data.seedEvents.filter((event) => filters.every((filter) => filter(event)));
	const events = matching.slice((currentPage - 1) * pageSize, currentPage * pageSize).map((seedEvent) => ({ ...seedEvent.event }));
	return {
		status: 200,
		body: {
			pageInfo: {
				totalRecords: matching.length,
				fetchedRecords: events.length,
				totalPages: Math.ceil(matching.length / pageSize),
				currentPage,
				pageSize,
			},
			events,
		},
	};
};
