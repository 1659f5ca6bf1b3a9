import type { IDataObject } from 'n8n-workflow';

import type { EventRecord } from '../shared/events';
import { keepFields } from '../shared/simplify';

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
