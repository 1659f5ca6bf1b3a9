import { createPrng, deriveSeed, type Prng } from '../prng';
import type { ServiceEvent } from '../types';
import { CITIES, jitterAround, STREET_NAMES, type City } from './cities';

export const EVENT_COUNT = 5000;

export interface Subcategory {
	code: number;
	name: string;
}

export interface Category {
	code: number;
	name: string;
	subcategories: Subcategory[];
}

/** Category codes stand in for the /category/ and /subcategory/ reference methods (not shown in the spec). */
export const CATEGORIES: readonly Category[] = [
	{ code: 1, name: 'Concerts', subcategories: [{ code: 101, name: 'Rock' }, { code: 102, name: 'Pop' }, { code: 103, name: 'Jazz' }, { code: 104, name: 'Classical' }, { code: 105, name: 'Hip-Hop' }] },
	{ code: 2, name: 'Sports', subcategories: [{ code: 201, name: 'Football' }, { code: 202, name: 'Basketball' }, { code: 203, name: 'Tennis' }, { code: 204, name: 'Marathon' }, { code: 205, name: 'Motorsport' }] },
	{ code: 3, name: 'Conferences', subcategories: [{ code: 301, name: 'Technology' }, { code: 302, name: 'Medical' }, { code: 303, name: 'Finance' }, { code: 304, name: 'Academic Conference' }] },
	{ code: 4, name: 'Expos', subcategories: [{ code: 401, name: 'Trade Show' }, { code: 402, name: 'Consumer Show' }, { code: 403, name: 'Auto Show' }] },
	{ code: 5, name: 'Festivals', subcategories: [{ code: 501, name: 'Music Festival' }, { code: 502, name: 'Food & Drink Festival' }, { code: 503, name: 'Film Festival' }, { code: 504, name: 'Cultural Festival' }] },
	{ code: 6, name: 'Performing Arts', subcategories: [{ code: 601, name: 'Theatre' }, { code: 602, name: 'Opera' }, { code: 603, name: 'Ballet' }, { code: 604, name: 'Comedy' }] },
	{ code: 7, name: 'Community', subcategories: [{ code: 701, name: 'Parade' }, { code: 702, name: 'Street Market' }, { code: 703, name: 'Charity Run' }] },
	{ code: 8, name: 'Public Holidays', subcategories: [{ code: 801, name: 'National Holiday' }, { code: 802, name: 'Religious Holiday' }] },
	{ code: 9, name: 'Observances', subcategories: [{ code: 901, name: 'Awareness Day' }, { code: 902, name: 'Cultural Observance' }] },
	{ code: 10, name: 'School Holidays', subcategories: [{ code: 1001, name: 'Term Break' }, { code: 1002, name: 'Summer Break' }] },
	{ code: 11, name: 'Politics', subcategories: [{ code: 1101, name: 'Election' }, { code: 1102, name: 'Summit' }] },
	{ code: 12, name: 'Academic', subcategories: [{ code: 1201, name: 'Graduation' }, { code: 1202, name: 'Exam Period' }] },
	{ code: 13, name: 'Severe Weather', subcategories: [{ code: 1301, name: 'Storm' }, { code: 1302, name: 'Heatwave' }] },
	{ code: 14, name: 'Airport Delays', subcategories: [{ code: 1401, name: 'Strike' }, { code: 1402, name: 'Air Traffic Control' }] },
	{ code: 15, name: 'Health Warnings', subcategories: [{ code: 1501, name: 'Outbreak Advisory' }] },
];

/** Status names by eventStatusCode (spec part 3); 0 ("All events") exists only as a filter. */
export const EVENT_STATUSES: Readonly<Record<number, string>> = {
	1: 'Scheduled',
	2: 'Rescheduled',
	3: 'Postponed',
	4: 'Holiday events',
	5: 'Cancelled',
};

/** Our impact classes for `impactEventType` (the spec does not list them); derived from impactScore. */
export const IMPACT_EVENT_TYPES = ['Low Impact', 'Medium Impact', 'High Impact'] as const;

const HOLIDAY_CATEGORIES = new Set([8, 9, 10]);
/** Events fall on the 730 days from the day the data is built for (the sandbox's first day). */
const DAY_COUNT = 730;
const DAY_MS = 86_400_000;

type Season = 'Spring' | 'Summer' | 'Autumn' | 'Winter';
const NORTHERN_SEASONS: readonly Season[] = ['Winter', 'Winter', 'Spring', 'Spring', 'Spring', 'Summer', 'Summer', 'Summer', 'Autumn', 'Autumn', 'Autumn', 'Winter'];
const OPPOSITE: Record<Season, Season> = { Spring: 'Autumn', Summer: 'Winter', Autumn: 'Spring', Winter: 'Summer' };

/** The season a day falls in where the city is: the southern hemisphere's are the other way round. */
export function seasonAt(city: City, dayMs: number): Season {
	const northern = NORTHERN_SEASONS[new Date(dayMs).getUTCMonth()];
	return city.lat < 0 ? OPPOSITE[northern] : northern;
}

const ARTISTS = ['The Midnight Echoes', 'Luna Vega', 'Northern Lights Orchestra', 'DJ Kairo', 'The Velvet Keys', 'Amara Stone', 'Blue Harbor', 'Los Soñadores', 'Kenji Ito Trio', 'Static Bloom'];
const TEAMS = ['United', 'City', 'Rovers', 'Athletic', 'Lions', 'Falcons', 'Wanderers', 'Kings'];
const VENUE_KINDS = ['Arena', 'Stadium', 'Convention Center', 'Concert Hall', 'Exhibition Centre', 'Opera House', 'Central Park', 'Grand Theatre', 'Expo Hall', 'Town Square'];

/** Attendee bounds per category; values are drawn log-uniformly between them. */
const ATTENDEE_RANGES: Record<number, [number, number]> = {
	1: [500, 60000], 2: [3000, 90000], 3: [150, 20000], 4: [800, 100000], 5: [2000, 250000],
	6: [100, 3000], 7: [100, 20000], 8: [50000, 2000000], 9: [1000, 50000], 10: [20000, 500000],
	11: [1000, 80000], 12: [200, 10000], 13: [5000, 1000000], 14: [2000, 200000], 15: [10000, 500000],
};

interface Venue {
	venueId: number;
	name: string;
	address: string;
	zip: string;
	lat: number;
	lng: number;
}

/** An event plus the codes and parsed values the filters need, computed once at seed time. */
export interface SeedEvent {
	event: ServiceEvent;
	categoryCode: number;
	subCategoryCode: number;
	/** eventStatusCode 1..5 of `event.eventStatus`. */
	statusCode: number;
	/** `YYYY-MM-DD` of startDate and endDate. */
	startDay: string;
	endDay: string;
	lat: number;
	lng: number;
}

function venuesFor(random: Prng, city: City, cityIndex: number): Venue[] {
	return VENUE_KINDS.map((kind, i) => {
		const point = jitterAround(city, 12, random.next);
		return {
			venueId: 40000 + cityIndex * 100 + i,
			name: `${city.name} ${kind}`,
			address: `${random.int(1, 500)} ${random.pick(STREET_NAMES)}`,
			zip: `${city.zipPrefix}${random.int(10, 99)}`,
			lat: point.lat,
			lng: point.lng,
		};
	});
}

/**
 * A name that fits the city and the day: seasons are the city's own, and a holiday or observance
 * is named after its kind and city, never after a real holiday it would fall on the wrong day for.
 */
function eventName(random: Prng, category: Category, sub: Subcategory, city: City, dayMs: number): string {
	const year = new Date(dayMs).getUTCFullYear();
	switch (category.code) {
		case 1: return `${random.pick(ARTISTS)} – ${sub.name} Live in ${city.name}`;
		case 2: return sub.code === 204 ? `${city.name} Marathon ${year}` : `${city.name} ${random.pick(TEAMS)} vs ${random.pick(CITIES).name} ${random.pick(TEAMS)} (${sub.name})`;
		case 3: return `${random.pick(['Global', 'International', city.region, 'Annual', 'Future of'])} ${sub.name.replace(' Conference', '')} Summit ${city.name} ${year}`;
		case 4: return `${city.name} ${random.chance(0.25) ? 'International' : seasonAt(city, dayMs)} ${sub.name} ${year}`;
		case 5: return `${city.name} ${sub.name} ${year}`;
		case 6: case 7: return `${city.name} ${sub.name} ${random.pick(['Week', 'Night', 'Day', 'Gala', 'Series'])}`;
		default: return `${city.name} ${sub.name}`;
	}
}

function durationDays(random: Prng, categoryCode: number): number {
	if ([3, 4, 11].includes(categoryCode)) return random.int(1, 4);
	if (categoryCode === 5) return random.int(2, 5);
	if (categoryCode === 10) return random.int(5, 14);
	if ([13, 14, 15].includes(categoryCode)) return random.int(1, 3);
	return 1;
}

function dateTime(ms: number): string {
	return new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
}

function statusFor(random: Prng, categoryCode: number): number {
	if (HOLIDAY_CATEGORIES.has(categoryCode)) return 4;
	const roll = random.next();
	if (roll < 0.75) return 1;
	if (roll < 0.85) return 2;
	if (roll < 0.92) return 3;
	return 5;
}

export function impactTypeFor(score: number): string {
	if (score >= 70) return 'High Impact';
	if (score >= 40) return 'Medium Impact';
	return 'Low Impact';
}

/** A subcategory that fits the day where it depends on the season: summer breaks and heatwaves in the city's summer. */
function seasonalSubcategory(category: Category, drawn: Subcategory, city: City, dayMs: number): Subcategory {
	const summer = seasonAt(city, dayMs) === 'Summer';
	if (category.code === 10) return category.subcategories[summer ? 1 : 0];
	if (category.code === 13) return category.subcategories[summer ? 1 : 0];
	return drawn;
}

/** The UTC day (midnight) of a time. */
export function utcDay(ms: number): number {
	return Math.floor(ms / DAY_MS) * DAY_MS;
}

/**
 * The seeded events, ids 1 upwards, on the 730 days from `firstDay` (the sandbox's first day, so
 * that its events are upcoming); a larger count keeps the first events and appends more.
 */
export function buildEvents(seed: number, count: number = EVENT_COUNT, firstDay: number = utcDay(Date.now())): SeedEvent[] {
	const random = createPrng(deriveSeed(seed, 'events'));
	const venues = CITIES.map((city, i) => venuesFor(random, city, i));
	const events: SeedEvent[] = [];
	for (let id = 1; id <= count; id++) {
		const cityIndex = random.int(0, CITIES.length - 1);
		const city = CITIES[cityIndex];
		const category = random.pick(CATEGORIES);
		const drawnSub = random.pick(category.subcategories);
		const holiday = HOLIDAY_CATEGORIES.has(category.code);
		const venue = random.pick(venues[cityIndex]);
		const dayStart = utcDay(firstDay) + random.int(0, DAY_COUNT - 1) * DAY_MS;
		const sub = seasonalSubcategory(category, drawnSub, city, dayStart);
		const days = durationDays(random, category.code);
		const startMs = holiday ? dayStart : dayStart + random.pick([9, 10, 13, 14, 18, 19, 20]) * 3_600_000 + random.pick([0, 30]) * 60_000;
		const endMs = holiday ? dayStart + days * DAY_MS - 1000 : startMs + (days - 1) * DAY_MS + random.int(2, 5) * 3_600_000;
		const [low, high] = ATTENDEE_RANGES[category.code];
		const attendees = Math.round(Math.exp(Math.log(low) + random.next() * (Math.log(high) - Math.log(low))));
		const statusCode = statusFor(random, category.code);
		const attendeeWeight = (Math.log(attendees) - Math.log(50)) / (Math.log(2_000_000) - Math.log(50));
		const rawScore = attendeeWeight * 85 + random.int(-15, 15);
		const impactScore = Math.max(0, Math.min(100, Math.round(statusCode === 5 ? rawScore / 4 : rawScore)));
		const name = eventName(random, category, sub, city, dayStart);
		const venueName = holiday ? 'Citywide' : venue.name;
		events.push({
			event: {
				id,
				eventId: 3_100_000 + id * 7,
				venueId: holiday ? 40000 + cityIndex * 100 + 99 : venue.venueId,
				eventName: name,
				category: category.name,
				subCategory: sub.name,
				description: `${name} at ${venueName}, ${city.name}. ${sub.name} (${category.name}).`,
				startDate: dateTime(startMs),
				endDate: dateTime(endMs),
				estimatedAttendees: attendees,
				impactEventType: impactTypeFor(impactScore),
				venue: venueName,
				address: holiday ? '' : venue.address,
				city: city.name,
				state: city.state,
				zip: holiday ? '' : venue.zip,
				country: city.country,
				countryCode: city.countryCode,
				region: city.region,
				latitude: (holiday ? city.lat : venue.lat).toFixed(6),
				longitude: (holiday ? city.lng : venue.lng).toFixed(6),
				impactScore,
				eventStatus: EVENT_STATUSES[statusCode],
			},
			categoryCode: category.code,
			subCategoryCode: sub.code,
			statusCode,
			startDay: dateTime(startMs).slice(0, 10),
			endDay: dateTime(endMs).slice(0, 10),
			lat: holiday ? city.lat : venue.lat,
			lng: holiday ? city.lng : venue.lng,
		});
	}
	return events;
}
