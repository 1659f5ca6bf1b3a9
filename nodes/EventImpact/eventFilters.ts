import type { IDataObject } from 'n8n-workflow';

import { FieldError } from '../shared/errors';
import {
	listEntries,
	parseCalendarDay,
	parseDecimal,
	parseInteger,
	parsePositiveInteger,
	parseRequiredText,
	parseWholeNumber,
} from '../shared/fields';
import { DEFAULT_PROXIMITY_MILES, type EventImpactFilters } from '../shared/events';

/** Spec part 3: the six event status codes the `eventStatusCode` filter takes. */
export const EVENT_STATUS_CODES: ReadonlyArray<{ code: number; name: string }> = [
	{ code: 0, name: 'All Events' },
	{ code: 1, name: 'Scheduled' },
	{ code: 2, name: 'Rescheduled' },
	{ code: 3, name: 'Postponed' },
	{ code: 4, name: 'Holiday Events' },
	{ code: 5, name: 'Cancelled' },
];

/** The labels users see in the node's Filters collection, so errors name the field they know. */
export const EVENT_FILTER_LABELS: Readonly<Record<keyof EventImpactFilters, string>> = {
	eventId: 'Event ID',
	eventName: 'Event Name',
	category: 'Category',
	subCategory: 'Subcategory',
	startDate: 'Start Date',
	estimatedAttendee: 'Estimated Attendees',
	venue: 'Venue',
	address: 'Address',
	city: 'City',
	state: 'State',
	zip: 'Zip',
	country: 'Country',
	region: 'Region',
	lat: 'Latitude',
	lng: 'Longitude',
	proximity: 'Proximity (Miles)',
	horizon: 'Horizon',
	impactEventType: 'Impact Event Type',
	eventStatusCode: 'Event Status',
};

const TEXT_FILTERS = [
	'eventName',
	'venue',
	'address',
	'city',
	'state',
	'zip',
	'country',
	'region',
	'impactEventType',
] as const;

/**
 * Category and subcategory codes (spec 4.5: "number, range, or combination"): `4`, `1,4,7-9`, or
 * a list from an expression by the shared list rule (`{{ ["1,2", 3] }}`). Returns the list without
 * spaces, the form the spec's example writes.
 */
export function parseCodeList(field: string, value: unknown): string {
	const parts = listEntries(value).map((entry) => (typeof entry === 'string' ? entry : JSON.stringify(entry)));
	if (parts.length === 0) {
		throw new FieldError(field, value, 'is empty; give codes such as 4, 1,4 or 7-9, or remove the filter');
	}
	for (const part of parts) {
		const range = /^(\d+)\s*-\s*(\d+)$/.exec(part);
		if (range) {
			if (Number(range[1]) > Number(range[2])) {
				throw new FieldError(field, value, `the range "${part}" runs backwards; write the lower code first`);
			}
			continue;
		}
		if (!/^\d+$/.test(part)) {
			throw new FieldError(
				field,
				value,
				`"${part}" is not a code or a range; use whole numbers, commas and dashes, for example 1,4,7-9`,
			);
		}
	}
	return parts.map((part) => part.replace(/\s+/g, '')).join(',');
}

/**
 * Estimated attendees in one of the four forms of spec 4.5: a range `a-b`, `<n` (which the spec
 * labels "minimum value"), `>n` (labelled "maximum value") or an exact `n`. The form is sent as
 * typed, spaces removed; how the service reads `<` and `>` is its own business.
 */
export function parseAttendeeFilter(field: string, value: unknown): string {
	const text = typeof value === 'number' ? String(value) : value;
	if (typeof text !== 'string' || text.trim() === '') {
		throw new FieldError(field, value, 'is empty; give 1000-5000, <1000, >5000 or 2500, or remove the filter');
	}
	const compact = text.replace(/\s+/g, '');
	const range = /^(\d+)-(\d+)$/.exec(compact);
	if (range) {
		if (Number(range[1]) > Number(range[2])) {
			throw new FieldError(field, value, 'the range runs backwards; write the smaller number first, for example 1000-5000');
		}
		return compact;
	}
	if (/^[<>]?\d+$/.test(compact)) return compact;
	throw new FieldError(
		field,
		value,
		'must be a range a-b (1000-5000), <n (minimum value), >n (maximum value) or an exact number n',
	);
}

/** Degrees as the spec's example writes them, a decimal in text: "40.7128". */
function parseCoordinate(field: string, value: unknown, limit: number): string {
	return String(parseDecimal(field, value, { min: -limit, max: limit }));
}

/**
 * Turns the Filters collection of one item into the POST /eventimpact/ body, each filter checked
 * and in the spec's form, so a bad value stops the item before anything is sent. Start Date is a
 * day in the workflow's timezone `zone` (the calendar-day rule of shared/fields.ts).
 */
export function eventImpactFilters(filters: IDataObject, zone: string): EventImpactFilters {
	const label = EVENT_FILTER_LABELS;
	const has = (name: keyof EventImpactFilters) => filters[name] !== undefined;
	const body: EventImpactFilters = {};

	if (has('eventId')) body.eventId = parsePositiveInteger(label.eventId, filters.eventId);
	for (const name of TEXT_FILTERS) {
		// An added filter that comes out empty would quietly search every event: it is required instead.
		if (has(name)) body[name] = parseRequiredText(label[name], filters[name]);
	}
	if (has('category')) body.category = parseCodeList(label.category, filters.category);
	if (has('subCategory')) body.subCategory = parseCodeList(label.subCategory, filters.subCategory);
	if (has('startDate')) body.startDate = parseCalendarDay(label.startDate, filters.startDate, zone);
	if (has('estimatedAttendee')) {
		body.estimatedAttendee = parseAttendeeFilter(label.estimatedAttendee, filters.estimatedAttendee);
	}
	if (has('lat')) body.lat = parseCoordinate(label.lat, filters.lat, 90);
	if (has('lng')) body.lng = parseCoordinate(label.lng, filters.lng, 180);
	if (has('proximity')) body.proximity = parseDecimal(label.proximity, filters.proximity, { above: 0 });
	if (has('horizon')) body.horizon = parseWholeNumber(label.horizon, filters.horizon, { min: 0 });
	if (has('eventStatusCode')) body.eventStatusCode = parseEventStatus(filters.eventStatusCode);

	requireCompleteLocation(body, filters);
	return body;
}

function parseEventStatus(value: unknown): number {
	const code = parseInteger(EVENT_FILTER_LABELS.eventStatusCode, value);
	if (!EVENT_STATUS_CODES.some((status) => status.code === code)) {
		throw new FieldError(
			EVENT_FILTER_LABELS.eventStatusCode,
			value,
			`must be one of ${EVENT_STATUS_CODES.map((status) => `${status.code} (${status.name})`).join(', ')}`,
		);
	}
	return code;
}


/**
 * Spec 4.5: proximity is required when lat and lng are used, so a point without one is sent with
 * the field's default; a point needs both coordinates, and a radius needs a point.
 */
function requireCompleteLocation(body: EventImpactFilters, filters: IDataObject): void {
	const label = EVENT_FILTER_LABELS;
	if (body.lat !== undefined && body.lng === undefined) {
		throw new FieldError(label.lng, filters.lng, 'is required when Latitude is given');
	}
	if (body.lng !== undefined && body.lat === undefined) {
		throw new FieldError(label.lat, filters.lat, 'is required when Longitude is given');
	}
	if (body.lat !== undefined && body.proximity === undefined) body.proximity = DEFAULT_PROXIMITY_MILES;
	if (body.proximity !== undefined && body.lat === undefined) {
		throw new FieldError(label.lat, filters.lat, 'and Longitude are required when Proximity is given');
	}
}
