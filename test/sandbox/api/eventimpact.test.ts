import { milesBetween } from '../../../platform/sandbox/api/eventFilters';
import type { ServiceEvent } from '../../../platform/sandbox';
import { expectError, useFrozenSandbox } from '../frozenSandbox';

const { sandbox, api } = useFrozenSandbox();

describe('POST /eventimpact/ filters and paging', () => {
	const events = (): ServiceEvent[] => sandbox.data.events;
	const all = async (body: object): Promise<ServiceEvent[]> => {
		const { data } = await api.post('/eventimpact/?eventsImpactPerPage=500', body);
		expect(data.pageInfo.totalRecords).toBeLessThanOrEqual(500);
		return data.events;
	};
	const total = async (body: object): Promise<number> => (await api.post('/eventimpact/', body)).data.pageInfo.totalRecords;

	it('accepts the path with and without the trailing slash', async () => {
		expect((await api.post('/eventimpact/', {})).status).toBe(200);
		expect((await api.post('/eventimpact', {})).status).toBe(200);
	});

	it('pages 10 events by default, in id order, with a correct pageInfo', async () => {
		const { data } = await api.post('/eventimpact/', {});
		expect(data.pageInfo).toEqual({ totalRecords: 5000, fetchedRecords: 10, totalPages: 500, currentPage: 1, pageSize: 10 });
		expect(data.events.map((event: ServiceEvent) => event.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
	});

	it('returns every Event field with the spec types', async () => {
		const [event] = (await api.post('/eventimpact/', {})).data.events;
		expect(event).toEqual({
			id: expect.any(Number), eventId: expect.any(Number), venueId: expect.any(Number), eventName: expect.any(String),
			category: expect.any(String), subCategory: expect.any(String), description: expect.any(String),
			startDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/), endDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
			estimatedAttendees: expect.any(Number), impactEventType: expect.any(String), venue: expect.any(String), address: expect.any(String),
			city: expect.any(String), state: expect.any(String), zip: expect.any(String), country: expect.any(String), countryCode: expect.any(String),
			region: expect.any(String), latitude: expect.stringMatching(/^-?\d+\.\d+$/), longitude: expect.stringMatching(/^-?\d+\.\d+$/),
			impactScore: expect.any(Number), eventStatus: expect.any(String),
		});
	});

	it('walks every page of a filter without gaps or repeats', async () => {
		const body = { category: '2' };
		const first = (await api.post('/eventimpact/?eventsImpactPerPage=100&pageNumber=1', body)).data;
		const ids: number[] = [];
		for (let page = 1; page <= first.pageInfo.totalPages; page++) {
			const { data } = await api.post(`/eventimpact/?eventsImpactPerPage=100&pageNumber=${page}`, body);
			expect(data.pageInfo).toMatchObject({ currentPage: page, pageSize: 100, totalPages: first.pageInfo.totalPages });
			ids.push(...data.events.map((event: ServiceEvent) => event.id));
		}
		const expected = events().filter((event) => event.category === 'Sports').map((event) => event.id);
		expect(ids).toEqual(expected);
		const beyond = (await api.post(`/eventimpact/?eventsImpactPerPage=100&pageNumber=${first.pageInfo.totalPages + 1}`, body)).data;
		expect(beyond.pageInfo).toMatchObject({ fetchedRecords: 0, currentPage: first.pageInfo.totalPages + 1 });
	});

	it('filters category and subCategory by comma lists and dash ranges', async () => {
		const wanted = new Set(['Concerts', 'Expos', 'Community', 'Public Holidays', 'Observances']);
		expect(await total({ category: '1,4,7-9' })).toBe(events().filter((event) => wanted.has(event.category)).length);
		expect(await total({ subCategory: '101-102' })).toBe(events().filter((event) => ['Rock', 'Pop'].includes(event.subCategory)).length);
		expect(await total({ category: '99' })).toBe(0);
	});

	it.each([
		['1000-2000', (n: number) => n >= 1000 && n <= 2000],
		['<500', (n: number) => n < 500],
		['>100000', (n: number) => n > 100000],
	])('filters estimatedAttendee %s with its natural meaning', async (form, keep) => {
		expect(await total({ estimatedAttendee: form })).toBe(events().filter((event) => keep(event.estimatedAttendees)).length);
	});

	it('filters an exact estimatedAttendee value', async () => {
		const exact = events()[42].estimatedAttendees;
		const found = await all({ estimatedAttendee: String(exact) });
		expect(found.length).toBeGreaterThan(0);
		expect(found.every((event) => event.estimatedAttendees === exact)).toBe(true);
	});

	it('filters by proximity in miles around lat/lng (haversine)', async () => {
		const paris = { lat: '48.8566', lng: '2.3522', proximity: 5 };
		const found = await all(paris);
		const expected = events().filter((event) => milesBetween(48.8566, 2.3522, Number(event.latitude), Number(event.longitude)) <= 5);
		expect(found.map((event) => event.id)).toEqual(expected.map((event) => event.id));
		expect(found.length).toBeGreaterThan(0);
		expect(found.every((event) => event.city === 'Paris')).toBe(true);
	});

	it.each([1, 2, 3, 4, 5])('filters eventStatusCode %i to its status name', async (code) => {
		const names = ['', 'Scheduled', 'Rescheduled', 'Postponed', 'Holiday events', 'Cancelled'];
		const count = await total({ eventStatusCode: code });
		expect(count).toBeGreaterThan(0);
		expect(count).toBe(events().filter((event) => event.eventStatus === names[code]).length);
	});

	it('treats eventStatusCode 0 as all events', async () => {
		expect(await total({ eventStatusCode: 0 })).toBe(5000);
	});

	it('matches eventName as a case-insensitive substring and city/country by case-insensitive equality', async () => {
		const found = await all({ eventName: 'MARATHON', city: 'berlin' });
		expect(found.length).toBeGreaterThan(0);
		expect(found.every((event) => /marathon/i.test(event.eventName) && event.city === 'Berlin')).toBe(true);
		expect(await total({ country: 'jp' })).toBe(await total({ country: 'Japan' }));
		expect(await total({ city: 'Berl' })).toBe(0);
	});

	it('finds events on startDate, including events that span it, and widens the window by horizon days', async () => {
		const onDay = events().filter((event) => event.startDate.slice(0, 10) <= '2026-12-24' && event.endDate.slice(0, 10) >= '2026-12-24');
		expect((await all({ startDate: '2026-12-24' })).map((event) => event.id)).toEqual(onDay.map((event) => event.id));
		const week = events().filter((event) => event.startDate.slice(0, 10) <= '2026-12-31' && event.endDate.slice(0, 10) >= '2026-12-24');
		expect(await total({ startDate: '2026-12-24', horizon: 7 })).toBe(week.length);
		// Without startDate, horizon counts from today on the sandbox clock (2026-12-01).
		const fromToday = events().filter((event) => event.startDate.slice(0, 10) <= '2026-12-03' && event.endDate.slice(0, 10) >= '2026-12-01');
		expect(await total({ horizon: 2 })).toBe(fromToday.length);
	});

	it('filters impactEventType case-insensitively and eventId exactly', async () => {
		expect(await total({ impactEventType: 'high impact' })).toBe(events().filter((event) => event.impactScore >= 70).length);
		const target = events()[99];
		expect((await all({ eventId: target.eventId })).map((event) => event.id)).toEqual([target.id]);
	});

	it.each([
		['eventStatusCode is 6', {}, { eventStatusCode: 6 }, /eventStatusCode must be at most 5/],
		['lat comes without lng', {}, { lat: '48.85' }, /lat and lng must be given together/],
		['lat and lng come without proximity', {}, { lat: '48.85', lng: '2.35' }, /proximity \(miles\) is required/],
		['lat is not numeric', {}, { lat: 'north', lng: '2.35', proximity: 5 }, /lat must be a number/],
		['category is not a code list', {}, { category: 'music' }, /category has an invalid item 'music'/],
		['estimatedAttendee has an unknown form', {}, { estimatedAttendee: '>=5' }, /estimatedAttendee must be/],
		['startDate is not a real date', {}, { startDate: '2026-13-01' }, /startDate must be a real date/],
		['impactEventType is unknown', {}, { impactEventType: 'Huge' }, /impactEventType must be one of/],
		['a field is misspelt', {}, { eventname: 'x' }, /unknown field 'eventname'/],
		['eventsImpactPerPage is above 500', { eventsImpactPerPage: 501 }, {}, /eventsImpactPerPage must be at most 500/],
		['pageNumber is 0', { pageNumber: 0 }, {}, /pageNumber must be a positive integer/],
	])('answers 400 when %s', async (_case, params, body, reason) => {
		expectError(await api.post('/eventimpact/', body, { params }), 400, reason);
	});

	it('answers 400 when the body is missing', async () => {
		expectError(await api.post('/eventimpact/'), 400, /request body is required/);
	});
});
