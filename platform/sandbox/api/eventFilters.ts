import { IMPACT_EVENT_TYPES, type SeedEvent } from '../data/events';
import { badRequest } from './errors';
import { calendarDate, integerLike, isPresent, numberLike, rejectUnknownFields, requireBody, type Body } from './fields';

/** One predicate per body field of POST /eventimpact/; all given filters must hold. */
export type EventFilter = (event: SeedEvent) => boolean;

const TEXT_FIELDS = ['venue', 'address', 'city', 'state', 'zip', 'region'] as const;
const ALLOWED = ['eventId', 'eventName', 'category', 'subCategory', 'startDate', 'estimatedAttendee', 'country', 'lat', 'lng', 'proximity', 'horizon', 'impactEventType', 'eventStatusCode', ...TEXT_FIELDS];
const EARTH_RADIUS_MILES = 3958.8;
const DAY_MS = 86_400_000;

/** `1,4,7-9`: comma-separated codes and dash ranges, as the spec describes category filters. */
export function parseCodeList(value: unknown, field: string): Set<number> {
	const text = typeof value === 'number' ? String(value) : value;
	if (typeof text !== 'string' || text.trim() === '') throw badRequest(`${field} must be a string of codes such as '1,4,7-9'`);
	const codes = new Set<number>();
	for (const item of text.split(',').map((part) => part.trim())) {
		const match = /^(\d+)(?:-(\d+))?$/.exec(item);
		if (!match) throw badRequest(`${field} has an invalid item '${item}'; use numbers and ranges such as '1,4,7-9'`);
		const from = Number(match[1]);
		const to = match[2] === undefined ? from : Number(match[2]);
		if (from > to) throw badRequest(`${field} range '${item}' runs backwards`);
		if (to - from > 100_000) throw badRequest(`${field} range '${item}' is too wide`);
		for (let code = from; code <= to; code++) codes.add(code);
	}
	return codes;
}

/**
 * estimatedAttendee forms: `a-b` (inclusive), `<n`, `>n`, exact `n`. The spec labels `<n`
 * "minimum value" and `>n` "maximum value"; we implement the natural reading of the symbols:
 * `<n` = fewer than n attendees, `>n` = more than n.
 */
export function parseAttendees(value: unknown): (attendees: number) => boolean {
	const text = (typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '').replace(/\s+/g, '');
	const range = /^(\d+)-(\d+)$/.exec(text);
	if (range) {
		const [low, high] = [Number(range[1]), Number(range[2])];
		if (low > high) throw badRequest(`estimatedAttendee range '${text}' runs backwards`);
		return (n) => n >= low && n <= high;
	}
	const bound = /^([<>])(\d+)$/.exec(text);
	if (bound) {
		const limit = Number(bound[2]);
		return bound[1] === '<' ? (n) => n < limit : (n) => n > limit;
	}
	if (/^\d+$/.test(text)) return (n) => n === Number(text);
	throw badRequest("estimatedAttendee must be 'a-b', '<n', '>n' or an exact number 'n'");
}

export function milesBetween(lat1: number, lng1: number, lat2: number, lng2: number): number {
	const rad = (deg: number): number => (deg * Math.PI) / 180;
	const dLat = rad(lat2 - lat1);
	const dLng = rad(lng2 - lng1);
	const a = Math.sin(dLat / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(dLng / 2) ** 2;
	return 2 * EARTH_RADIUS_MILES * Math.asin(Math.sqrt(a));
}

function addDays(day: string, days: number): string {
	return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

function textFilter(field: string, value: unknown, read: (event: SeedEvent) => string[]): EventFilter {
	if (typeof value !== 'string') throw badRequest(`${field} must be a string`);
	const wanted = value.trim().toLowerCase();
	return (event) => read(event).some((text) => text.toLowerCase() === wanted);
}

function locationFilter(body: Body): EventFilter | null {
	const hasLat = isPresent(body.lat);
	const hasLng = isPresent(body.lng);
	if (!hasLat && !hasLng) {
		if (isPresent(body.proximity)) throw badRequest('proximity needs lat and lng');
		return null;
	}
	if (hasLat !== hasLng) throw badRequest('lat and lng must be given together');
	const lat = numberLike(body.lat, 'lat');
	const lng = numberLike(body.lng, 'lng');
	if (lat < -90 || lat > 90) throw badRequest('lat must be between -90 and 90');
	if (lng < -180 || lng > 180) throw badRequest('lng must be between -180 and 180');
	if (!isPresent(body.proximity)) throw badRequest('proximity (miles) is required when lat and lng are given');
	const proximity = numberLike(body.proximity, 'proximity');
	if (proximity <= 0) throw badRequest('proximity must be a positive number of miles');
	return (event) => milesBetween(lat, lng, event.lat, event.lng) <= proximity;
}

/**
 * Date window. Without horizon: events on startDate (starting that day or spanning it).
 * horizon (our reading: a number of days) widens the window to [base, base + horizon], where
 * base is startDate, or today on the sandbox clock when no startDate is given.
 */
function dateFilter(body: Body, today: string): EventFilter | null {
	const startDate = isPresent(body.startDate) ? calendarDate(body.startDate, 'startDate') : null;
	const horizon = isPresent(body.horizon) ? integerLike(body.horizon, 'horizon', { min: 0, max: 3650 }) : null;
	if (startDate === null && horizon === null) return null;
	const from = startDate ?? today;
	const to = addDays(from, horizon ?? 0);
	return (event) => event.startDay <= to && event.endDay >= from;
}

export function parseEventFilters(input: unknown, today: string): EventFilter[] {
	const body = requireBody(input);
	rejectUnknownFields(body, ALLOWED);
	const filters: EventFilter[] = [];
	if (isPresent(body.eventId)) {
		const eventId = integerLike(body.eventId, 'eventId', { min: 1 });
		filters.push((event) => event.event.eventId === eventId);
	}
	if (isPresent(body.eventName)) {
		if (typeof body.eventName !== 'string') throw badRequest('eventName must be a string');
		const part = body.eventName.trim().toLowerCase();
		filters.push((event) => event.event.eventName.toLowerCase().includes(part));
	}
	if (isPresent(body.category)) {
		const codes = parseCodeList(body.category, 'category');
		filters.push((event) => codes.has(event.categoryCode));
	}
	if (isPresent(body.subCategory)) {
		const codes = parseCodeList(body.subCategory, 'subCategory');
		filters.push((event) => codes.has(event.subCategoryCode));
	}
	if (isPresent(body.estimatedAttendee)) {
		const matches = parseAttendees(body.estimatedAttendee);
		filters.push((event) => matches(event.event.estimatedAttendees));
	}
	for (const field of TEXT_FIELDS) {
		if (isPresent(body[field])) filters.push(textFilter(field, body[field], (event) => [event.event[field]]));
	}
	// country matches the country name or its ISO code.
	if (isPresent(body.country)) filters.push(textFilter('country', body.country, (event) => [event.event.country, event.event.countryCode]));
	if (isPresent(body.impactEventType)) {
		if (typeof body.impactEventType !== 'string') throw badRequest('impactEventType must be a string');
		const wanted = body.impactEventType.trim().toLowerCase();
		if (!IMPACT_EVENT_TYPES.some((type) => type.toLowerCase() === wanted)) throw badRequest(`impactEventType must be one of ${IMPACT_EVENT_TYPES.join(', ')}`);
		filters.push((event) => event.event.impactEventType.toLowerCase() === wanted);
	}
	if (isPresent(body.eventStatusCode)) {
		const code = integerLike(body.eventStatusCode, 'eventStatusCode', { min: 0, max: 5 });
		// 0 means "All events".
		if (code !== 0) filters.push((event) => event.statusCode === code);
	}
	const location = locationFilter(body);
	if (location) filters.push(location);
	const window = dateFilter(body, today);
	if (window) filters.push(window);
	return filters;
}
