import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { credentialsFor, runNode, useSandbox } from '../harness';
import type { Sandbox } from '../../platform/sandbox';

type SeedEvent = Sandbox['data']['seedEvents'][number];

const sandbox = useSandbox();

/** A day `days` after today: the sandbox's events are upcoming, laid out from the day it starts. */
const daysAhead = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

beforeEach(() => {
	sandbox.resetFaults();
	sandbox.clearRequests();
});

/** The events' whole records (Simplify off), which the filters are checked against. */
async function findEvents(parameters: IDataObject, items: IDataObject[] = [{}], continueOnFail = false, timezone?: string) {
	return await runNode({
		nodeType: 'travelPricingEventImpact',
		parameters: { returnAll: true, simplify: false, ...parameters, options: { pageSize: 500, ...(parameters.options as IDataObject) } },
		items,
		credentials: credentialsFor(sandbox),
		continueOnFail,
		timezone,
	});
}

function eventRequests() {
	return sandbox.requests({ endpoint: 'eventimpact' });
}

function milesBetween(lat1: number, lng1: number, lat2: number, lng2: number): number {
	const rad = (deg: number) => (deg * Math.PI) / 180;
	const a = Math.sin(rad(lat2 - lat1) / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lng2 - lng1) / 2) ** 2;
	return 2 * 3958.8 * Math.asin(Math.sqrt(a));
}

describe('each filter reaches the service in the spec\'s form and filters for real', () => {
	const sample = (): SeedEvent => sandbox.data.seedEvents.find((seed) => seed.event.address !== '' && seed.categoryCode === 2) as SeedEvent;

	const cases: Array<{
		filter: string;
		filters: (seed: SeedEvent) => IDataObject;
		sent: (seed: SeedEvent) => IDataObject;
		matches: (candidate: SeedEvent, seed: SeedEvent) => boolean;
	}> = [
		{
			filter: 'Event ID as an integer',
			filters: (seed) => ({ eventId: String(seed.event.eventId) }),
			sent: (seed) => ({ eventId: seed.event.eventId }),
			matches: (candidate, seed) => candidate.event.eventId === seed.event.eventId,
		},
		{
			filter: 'Event Name',
			filters: () => ({ eventName: 'Marathon' }),
			sent: () => ({ eventName: 'Marathon' }),
			matches: (candidate) => candidate.event.eventName.toLowerCase().includes('marathon'),
		},
		{
			filter: 'Category as a list with a range',
			filters: () => ({ category: '1, 4-5' }),
			sent: () => ({ category: '1,4-5' }),
			matches: (candidate) => [1, 4, 5].includes(candidate.categoryCode),
		},
		{
			filter: 'Subcategory',
			filters: () => ({ subCategory: '204,101-102' }),
			sent: () => ({ subCategory: '204,101-102' }),
			matches: (candidate) => [204, 101, 102].includes(candidate.subCategoryCode),
		},
		{
			filter: 'Start Date as YYYY-MM-DD',
			filters: () => ({ startDate: `${daysAhead(60)}T00:00:00` }),
			sent: () => ({ startDate: daysAhead(60) }),
			matches: (candidate) => candidate.startDay <= daysAhead(60) && candidate.endDay >= daysAhead(60),
		},
		{
			filter: 'Start Date with a Horizon as an integer',
			filters: () => ({ startDate: daysAhead(60), horizon: 6 }),
			sent: () => ({ startDate: daysAhead(60), horizon: 6 }),
			matches: (candidate) => candidate.startDay <= daysAhead(66) && candidate.endDay >= daysAhead(60),
		},
		{
			filter: 'Estimated Attendees as a range a-b',
			filters: () => ({ estimatedAttendee: '1000 - 5000' }),
			sent: () => ({ estimatedAttendee: '1000-5000' }),
			matches: (candidate) => candidate.event.estimatedAttendees >= 1000 && candidate.event.estimatedAttendees <= 5000,
		},
		{
			filter: 'Estimated Attendees as <n',
			filters: () => ({ estimatedAttendee: '<500' }),
			sent: () => ({ estimatedAttendee: '<500' }),
			matches: (candidate) => candidate.event.estimatedAttendees < 500,
		},
		{
			filter: 'Estimated Attendees as >n',
			filters: () => ({ estimatedAttendee: '>500000' }),
			sent: () => ({ estimatedAttendee: '>500000' }),
			matches: (candidate) => candidate.event.estimatedAttendees > 500000,
		},
		{
			filter: 'Estimated Attendees as an exact n',
			filters: (seed) => ({ estimatedAttendee: String(seed.event.estimatedAttendees) }),
			sent: (seed) => ({ estimatedAttendee: String(seed.event.estimatedAttendees) }),
			matches: (candidate, seed) => candidate.event.estimatedAttendees === seed.event.estimatedAttendees,
		},
		...(['venue', 'address', 'city', 'state', 'zip', 'region'] as const).map((field) => ({
			filter: field,
			filters: (seed: SeedEvent) => ({ [field]: seed.event[field] }),
			sent: (seed: SeedEvent) => ({ [field]: seed.event[field] }),
			matches: (candidate: SeedEvent, seed: SeedEvent) => candidate.event[field].toLowerCase() === seed.event[field].toLowerCase(),
		})),
		{
			filter: 'Country',
			filters: (seed) => ({ country: seed.event.country }),
			sent: (seed) => ({ country: seed.event.country }),
			matches: (candidate, seed) => candidate.event.country === seed.event.country,
		},
		{
			filter: 'Latitude and Longitude as strings with Proximity as a number',
			filters: (seed) => ({ lat: seed.lat, lng: String(seed.lng), proximity: 3 }),
			sent: (seed) => ({ lat: String(seed.lat), lng: String(seed.lng), proximity: 3 }),
			matches: (candidate, seed) => milesBetween(seed.lat, seed.lng, candidate.lat, candidate.lng) <= 3,
		},
		{
			filter: 'Impact Event Type',
			filters: () => ({ impactEventType: 'High Impact' }),
			sent: () => ({ impactEventType: 'High Impact' }),
			matches: (candidate) => candidate.event.impactEventType === 'High Impact',
		},
		{
			filter: 'Event Status as an integer code',
			filters: () => ({ eventStatusCode: 5 }),
			sent: () => ({ eventStatusCode: 5 }),
			matches: (candidate) => candidate.event.eventStatus === 'Cancelled',
		},
		{
			filter: 'Event Status All Events as code 0',
			filters: () => ({ eventStatusCode: 0, category: '8' }),
			sent: () => ({ eventStatusCode: 0, category: '8' }),
			matches: (candidate) => candidate.categoryCode === 8,
		},
	];

	it.each(cases)('$filter', async ({ filters, sent, matches }) => {
		const seed = sample();
		const result = await findEvents({ filters: filters(seed) });

		expect(result.error).toBeUndefined();
		const requests = eventRequests();
		expect(requests.length).toBeGreaterThan(0);
		for (const request of requests) expect(request.body).toEqual(sent(seed));

		const expected = sandbox.data.seedEvents.filter((candidate) => matches(candidate, seed)).map((e) => e.event.id);
		expect(expected.length).toBeGreaterThan(0);
		expect(result.items.map((item) => item.json.id)).toEqual(expected);
	});

	it('combines filters: every added filter must hold', async () => {
		const result = await findEvents({ filters: { category: '2', city: 'Berlin', eventStatusCode: 1 } });
		const ids = result.items.map((item) => item.json);
		expect(ids.length).toBeGreaterThan(0);
		for (const event of ids) {
			expect(event).toMatchObject({ category: 'Sports', city: 'Berlin', eventStatus: 'Scheduled' });
		}
		expect(eventRequests()[0].body).toEqual({ category: '2', city: 'Berlin', eventStatusCode: 1 });
	});

	it('asks for All Events (status 0) when no filter is added, since the spec requires a body', async () => {
		const result = await findEvents({ returnAll: false, limit: 1 });
		expect(result.items).toHaveLength(1);
		expect(eventRequests()[0].body).toEqual({ eventStatusCode: 0 });
	});
});

describe('Start Date is a day in the workflow\'s timezone, as in every node', () => {
	// The same rule in every node, with timezones far from UTC: test/package/workflowTimezone.engine.test.ts.
	it('reads {{ $now }} as today where the workflow runs', async () => {
		const timezone = 'Pacific/Kiritimati';
		const result = await findEvents({ returnAll: false, limit: 1, filters: { startDate: '={{ $now }}' } }, [{}], false, timezone);
		expect(result.error).toBeUndefined();
		const today = DateTime.now().setZone(timezone).toISODate();
		expect(eventRequests().map((request) => (request.body as IDataObject).startDate)).toEqual([today]);
	});
});

describe('Latitude and Longitude without Proximity search the documented 25 miles around the point', () => {
	it('sends proximity 25 and finds only events within 25 miles', async () => {
		const seed = sandbox.data.seedEvents[0];
		const result = await findEvents({ filters: { lat: String(seed.lat), lng: String(seed.lng) } });

		expect(result.error).toBeUndefined();
		expect(eventRequests()[0].body).toEqual({ lat: String(seed.lat), lng: String(seed.lng), proximity: 25 });
		const expected = sandbox.data.seedEvents
			.filter((candidate) => milesBetween(seed.lat, seed.lng, candidate.lat, candidate.lng) <= 25)
			.map((candidate) => candidate.event.id);
		expect(expected.length).toBeGreaterThan(0);
		expect(result.items.map((item) => item.json.id)).toEqual(expected);
	});

	it('still asks for Latitude and Longitude when only Proximity is given, before any request', async () => {
		const result = await findEvents({ filters: { proximity: 10 } });
		expect(result.error?.message).toBe(
			'Invalid Latitude (empty) in item 0: and Longitude are required when Proximity is given',
		);
		expect(eventRequests()).toEqual([]);
	});
});

describe('each input item is its own search, and its events are paired with it', () => {
	it('runs the filters of every item and links each event to the item that found it', async () => {
		const result = await findEvents({ filters: { city: '={{ $json.city }}', category: '={{ $json.category }}' } }, [
			{ city: 'Berlin', category: '2' },
			{ city: 'Tokyo', category: '1' },
		]);
		expect(result.error).toBeUndefined();
		const berlin = result.items.filter((item) => (item.pairedItem as { item: number }).item === 0);
		const tokyo = result.items.filter((item) => (item.pairedItem as { item: number }).item === 1);
		expect(berlin.length).toBeGreaterThan(0);
		expect(tokyo.length).toBeGreaterThan(0);
		expect(berlin.every((item) => item.json.city === 'Berlin' && item.json.category === 'Sports')).toBe(true);
		expect(tokyo.every((item) => item.json.city === 'Tokyo' && item.json.category === 'Concerts')).toBe(true);
		expect(berlin.length + tokyo.length).toBe(result.items.length);
	});
});

describe('the searches of many items run several at once, their events still in item order', () => {
	it('has up to Concurrency searches in flight and puts the events out item by item', async () => {
		sandbox.setFaults({ latencyMs: 300 });
		const cities = ['Berlin', 'Tokyo', 'Paris', 'London', 'Madrid'];
		const result = await findEvents(
			{ returnAll: false, limit: 3, filters: { city: '={{ $json.city }}' }, options: { concurrency: 5, concurrencyMode: 'fixed' } },
			cities.map((city) => ({ city })),
		);

		expect(result.items.map((item) => (item.pairedItem as { item: number }).item)).toEqual([0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]);
		expect(result.items.map((item) => item.json.city)).toEqual(cities.flatMap((city) => [city, city, city]));
		// One after another, five searches at 300 ms each would arrive over more than a second.
		const arrivals = eventRequests().map((request) => Date.parse(request.at));
		expect(arrivals).toHaveLength(5);
		expect(Math.max(...arrivals) - Math.min(...arrivals)).toBeLessThan(300);
	});
});

describe('bad filter values stop the item before any request, naming field, value and item', () => {
	it.each([
		['category', '2', '1,x', 'Invalid Category "1,x" in item 1'],
		['subCategory', '204', '9-7', 'Invalid Subcategory "9-7" in item 1'],
		['estimatedAttendee', '>1000', 'lots', 'Invalid Estimated Attendees "lots" in item 1'],
		['startDate', '2026-02-28', '2026-02-30', 'Invalid Start Date "2026-02-30" in item 1'],
		['eventId', '3100007', 'abc', 'Invalid Event ID "abc" in item 1'],
		['eventStatusCode', 1, 9, 'Invalid Event Status "9" in item 1'],
		['lat', '52.52', '91', 'Invalid Latitude "91" in item 1'],
	])('%s: item 1 with %p is refused and never sent', async (field, good, bad, message) => {
		const coordinates = field === 'lat' ? { lng: '13.4', proximity: 10 } : {};
		const result = await findEvents({ filters: { [field]: '={{ $json.value }}', ...coordinates }, returnAll: false, limit: 1 }, [
			{ value: good },
			{ value: bad },
		]);
		expect(result.error?.message).toContain(message);
		expect(result.error?.description).toContain('Nothing was sent to the service for this item');
		const sent = eventRequests().map((request) => (request.body as IDataObject)[field]);
		expect(sent).not.toContain(bad);
	});

	it('sends nothing at all when the first item is bad', async () => {
		const result = await findEvents({ filters: { category: 'concerts' } });
		expect(result.error?.message).toBe(
			'Invalid Category "concerts" in item 0: "concerts" is not a code or a range; use whole numbers, commas and dashes, for example 1,4,7-9',
		);
		expect(eventRequests()).toEqual([]);
	});

	it('with On Error: Continue, a bad item becomes an error item and the others go on', async () => {
		const result = await findEvents(
			{ filters: { category: '={{ $json.category }}', city: 'Berlin' } },
			[{ category: '2' }, { category: 'two' }, { category: '1' }],
			true,
		);
		const errors = result.items.filter((item) => item.json.error !== undefined);
		expect(errors).toEqual([
			{ json: { error: expect.stringContaining('Invalid Category "two" in item 1') }, pairedItem: { item: 1 } },
		]);
		const paired = new Set(result.items.filter((item) => item.json.error === undefined).map((item) => (item.pairedItem as { item: number }).item));
		expect(paired).toEqual(new Set([0, 2]));
		expect(eventRequests().map((request) => (request.body as IDataObject).category)).toEqual(['2', '1']);
	});
});

describe('Return All returns exactly the service\'s total, with no duplicates and no gaps', () => {
	const allIds = () => sandbox.data.events.map((event) => event.id);

	it('reads every page of all 5,000 events in the service\'s order', async () => {
		const result = await findEvents({ options: { pageSize: 100 } });
		expect(result.items.map((item) => item.json.id)).toEqual(allIds());
		const pages = eventRequests().map((request) => Number(request.query.pageNumber)).sort((a, b) => a - b);
		expect(pages).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
	});

	it('still does when 30% of the requests are answered 429 or 500', async () => {
		sandbox.setFaults({ endpoints: { eventimpact: { p429: 0.15, p500: 0.15, retryAfterSeconds: 0 } } });
		const result = await findEvents({ options: { pageSize: 100, concurrency: 5, maxAttempts: 10, maxRetryWaitSeconds: 30 } });

		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.id)).toEqual(allIds());
		const statuses = eventRequests().map((request) => request.status);
		expect(statuses).toContain(429);
		expect(statuses).toContain(500);
		expect(statuses.filter((status) => status === 200)).toHaveLength(50);
	});
});

describe('Limit makes no more requests than it needs', () => {
	it('stops after the pages that hold the limit', async () => {
		const result = await findEvents({ returnAll: false, limit: 250, options: { pageSize: 100 } });
		expect(result.items.map((item) => item.json.id)).toEqual(sandbox.data.events.slice(0, 250).map((event) => event.id));
		expect(eventRequests()).toHaveLength(3);
	});

	it('asks for only as many events as the limit when it is below a page', async () => {
		const result = await findEvents({ returnAll: false, limit: 5, options: { pageSize: 100 } });
		expect(result.items).toHaveLength(5);
		expect(eventRequests()).toHaveLength(1);
		expect(eventRequests()[0].query).toEqual({ eventsImpactPerPage: '5', pageNumber: '1' });
	});
});

describe('Simplify: version 1 keeps the whole event; from version 1.1 the ten simplified fields are the default', () => {
	const BERLIN = { city: 'Berlin' };

	async function searchBerlin(typeVersion: number, simplify?: boolean) {
		const result = await runNode({
			nodeType: 'travelPricingEventImpact',
			parameters: { returnAll: true, filters: BERLIN, options: { pageSize: 500 }, ...(simplify === undefined ? {} : { simplify }) },
			credentials: credentialsFor(sandbox),
			typeVersion,
		});
		expect(result.error).toBeUndefined();
		return result.items.map((item) => item.json);
	}

	const berlinEvents = () => sandbox.data.seedEvents.filter((seed) => seed.event.city === 'Berlin').map((seed) => seed.event);

	it('version 1, as saved workflows have it, puts out every event exactly as the service sends it', async () => {
		const events = await searchBerlin(1);
		expect(events.length).toBeGreaterThan(0);
		expect(events).toEqual(berlinEvents());
	});

	it('version 1.1 puts out ID, name, category, start, end, city, venue, attendees, impact score and status by default', async () => {
		const events = await searchBerlin(1.1);
		expect(events).toEqual(
			berlinEvents().map((event) => ({
				eventId: event.eventId,
				eventName: event.eventName,
				category: event.category,
				startDate: event.startDate,
				endDate: event.endDate,
				city: event.city,
				venue: event.venue,
				estimatedAttendees: event.estimatedAttendees,
				impactScore: event.impactScore,
				eventStatus: event.eventStatus,
			})),
		);
	});

	it('version 1.1 with Simplify off puts out what version 1 does', async () => {
		expect(await searchBerlin(1.1, false)).toEqual(await searchBerlin(1));
	});
});
