import http from 'node:http';
import type { AddressInfo } from 'node:net';
import axios, { type AxiosInstance, type AxiosResponse } from 'axios';
import { buildData } from './data';
import { milesBetween } from './api/eventFilters';
import { startSandbox, type Sandbox, type RateRecord, type ServiceEvent, type Hotel } from './index';

/** A local webhook receiver that records every delivery and answers with `answer`. */
interface Received {
	path: string;
	headers: http.IncomingHttpHeaders;
	body: unknown;
}

async function startReceiver(answer: (path: string) => number = () => 200): Promise<{ url: string; received: Received[]; close: () => Promise<void> }> {
	const received: Received[] = [];
	const server = http.createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			received.push({ path: request.url ?? '', headers: request.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
			response.writeHead(answer(request.url ?? ''), { 'content-type': 'application/json' });
			response.end('{"ok":true}');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		received,
		close: () => new Promise<void>((resolve) => {
			server.close(() => resolve());
			server.closeAllConnections();
		}),
	};
}

const START = '2026-12-01T10:54:00.000Z';
const HOUR = 3_600_000;
const MINUTE = 60_000;

let sandbox: Sandbox;
let api: AxiosInstance;
let airportsApi: AxiosInstance;
let control: AxiosInstance;

function client(baseURL: string, authorization?: string): AxiosInstance {
	return axios.create({ baseURL, validateStatus: () => true, headers: authorization ? { Authorization: authorization } : {} });
}

const validSchedule = {
	schedulename: 'Morning shop',
	rateshopid: 5,
	year: '*',
	month: '*',
	dow: '*',
	day: '*',
	hour: '11',
	minute: '30',
	seconds: '0',
	status: 1,
	startdate: '2026-12-01',
};

const validShop = {
	shopName: 'Airport compset',
	markets: [{ pickupLocation: 'JFK', dropLocation: 'LGA' }],
	websiteCode: [1, 2],
	cob: 'US',
	lor: 3,
	currency: 'USD',
	horizon: 30,
	horizonDow: [1, 2, 3],
	pickupTime: '10:00',
	dropTime: '18:30',
};

function expectError(response: AxiosResponse, status: number, reason?: RegExp): void {
	expect(response.status).toBe(status);
	expect(response.data).toEqual({ error: true, status, message: expect.any(String) });
	if (reason) expect(response.data.message).toMatch(reason);
}

beforeAll(async () => {
	// A frozen clock: time moves only when a test moves it.
	sandbox = await startSandbox({ port: 0, speed: 0, clock: START });
	api = client(sandbox.baseUrl, `Bearer ${sandbox.credentials.accessToken}`);
	airportsApi = client(sandbox.baseUrl, sandbox.credentials.apiKey);
	control = client(sandbox.baseUrl);
});

afterAll(async () => {
	await sandbox.close();
});

beforeEach(() => {
	sandbox.reset();
	sandbox.setClock(START);
});

describe('authentication (spec part 5)', () => {
	it('accepts Authorization: Bearer <access token> on API endpoints', async () => {
		expect((await api.post('/hotelinfo', { hotelcode: 100001 })).status).toBe(200);
	});

	it('answers 401 with the error body when the header is missing or the token is wrong', async () => {
		expectError(await client(sandbox.baseUrl).post('/hotelinfo', { hotelcode: 100001 }), 401, /authentication required/);
		expectError(await client(sandbox.baseUrl, 'Bearer nope').post('/hotelinfo', { hotelcode: 100001 }), 401, /authentication failed/);
	});

	it('answers 401 "account validity expired" for the expired token', async () => {
		expectError(await client(sandbox.baseUrl, 'Bearer expired-access-token').post('/eventimpact/', {}), 401, /account validity expired/);
	});

	it('takes the bare API key on airports and refuses a Bearer prefix there', async () => {
		const ok = await airportsApi.get('/api/v1/references/airports');
		expect(ok.status).toBe(200);
		expect(ok.data.error).toBe(false);
		expectError(await client(sandbox.baseUrl, `Bearer ${sandbox.credentials.apiKey}`).get('/api/v1/references/airports'), 401);
		expectError(await client(sandbox.baseUrl, sandbox.credentials.accessToken).get('/api/v1/references/airports'), 401);
		expectError(await client(sandbox.baseUrl, 'expired-airports-key').get('/api/v1/references/airports'), 401, /expired/);
	});

	it('refuses the bare API key or a bare token on Bearer endpoints', async () => {
		expectError(await client(sandbox.baseUrl, sandbox.credentials.apiKey).post('/hotelinfo', { hotelcode: 100001 }), 401);
		expectError(await client(sandbox.baseUrl, sandbox.credentials.accessToken).post('/hotelinfo', { hotelcode: 100001 }), 401);
	});
});

describe('unknown paths, methods and bodies', () => {
	it('answers 404 for unknown paths and 405 for a known path with the wrong method', async () => {
		expectError(await api.get('/hotels'), 404);
		const wrongMethod = await api.get('/hotelinfo');
		expectError(wrongMethod, 405);
		expect(wrongMethod.headers.allow).toBe('POST');
	});

	it('answers 400 for malformed JSON and 413 above the 10 MB body limit', async () => {
		const malformed = await api.post('/hotelinfo', '{"hotelcode": ', { headers: { 'content-type': 'application/json' }, transformRequest: [(body) => body] });
		expectError(malformed, 400, /malformed JSON/);
		const huge = await api.post('/eventimpact/', JSON.stringify({ eventName: 'x'.repeat(11 * 1024 * 1024) }), { headers: { 'content-type': 'application/json' }, maxBodyLength: Infinity });
		expectError(huge, 413);
	});
});

describe('POST /hotelinfo', () => {
	it('returns one Hotel object with its sources as a list for `hotelcode`', async () => {
		const { status, data } = await api.post('/hotelinfo', { hotelcode: 100007 });
		expect(status).toBe(200);
		expect(data).toEqual({
			hotelcode: 100007,
			hotelname: expect.any(String),
			address: expect.any(String),
			city: expect.any(String),
			state: expect.any(String),
			zip: expect.any(String),
			country: expect.any(String),
			starrating: expect.stringMatching(/^[2-5]$/),
			lat: expect.any(Number),
			long: expect.any(Number),
			sources: expect.any(Array),
		});
		expect(data.sources.length).toBeGreaterThanOrEqual(2);
		expect(data.sources.length).toBeLessThanOrEqual(8);
		for (const source of data.sources) {
			expect(source).toEqual({ websitecode: expect.any(Number), websitename: expect.any(String), url: expect.stringMatching(/^https:\/\//), channeltype: expect.stringMatching(/^(OTA|Brand|Metasearch|GDS)$/), snapshotavailable: expect.any(Boolean) });
		}
	});

	it('returns an array for `hotelcodes`, in request order, leaving unknown codes out', async () => {
		const { data } = await api.post('/hotelinfo', { hotelcodes: [100010, 999999, 100003] });
		expect(data.map((hotel: Hotel) => hotel.hotelcode)).toEqual([100010, 100003]);
	});

	it('lets `hotelcodes` win when both are sent', async () => {
		const { data } = await api.post('/hotelinfo', { hotelcode: 100001, hotelcodes: [100002] });
		expect(data.map((hotel: Hotel) => hotel.hotelcode)).toEqual([100002]);
	});

	it.each([
		['neither code is sent', {}, /hotelcode or hotelcodes is required/],
		['hotelcode is unknown', { hotelcode: 123 }, /unknown hotelcode 123/],
		['hotelcode is a string', { hotelcode: '100001' }, /hotelcode must be an integer/],
		['hotelcodes is empty', { hotelcodes: [] }, /hotelcodes must be a non-empty array/],
		['hotelcodes has more than 100 codes', { hotelcodes: Array.from({ length: 101 }, (_, i) => 100001 + i) }, /at most 100/],
		['an unknown field is sent', { hotelcode: 100001, hotel: 1 }, /unknown field 'hotel'/],
	])('answers 400 when %s', async (_case, body, reason) => {
		expectError(await api.post('/hotelinfo', body), 400, reason);
	});

	it('serves sources as an object keyed by websitecode under the sourcesAsObject variant (control route)', async () => {
		expect((await control.put('/__sandbox/variants', { sourcesAsObject: true })).status).toBe(200);
		const { data } = await api.post('/hotelinfo', { hotelcode: 100001 });
		expect(Array.isArray(data.sources)).toBe(false);
		for (const [key, source] of Object.entries(data.sources as Record<string, { websitecode: number }>)) expect(source.websitecode).toBe(Number(key));
	});

	it('serves a single code as [hotel] under the singleHotelAsArray variant', async () => {
		sandbox.setVariants({ singleHotelAsArray: true });
		const { data } = await api.post('/hotelinfo', { hotelcode: 100001 });
		expect(data).toHaveLength(1);
		expect(data[0].hotelcode).toBe(100001);
	});
});

describe('POST /schedule and PUT /schedule/{scheduleid}', () => {
	it('stores the schedule and returns it with a new integer scheduleid', async () => {
		const first = await api.post('/schedule', validSchedule);
		const second = await api.post('/schedule', { ...validSchedule, status: 0, enddate: '2027-01-31' });
		expect(first.status).toBe(200);
		expect(first.data).toEqual({ scheduleid: expect.any(Number), ...validSchedule, enddate: null });
		expect(second.data.scheduleid).toBe(first.data.scheduleid + 1);
		expect(second.data).toMatchObject({ status: 0, enddate: '2027-01-31' });
		expect(sandbox.schedules()).toHaveLength(2);
	});

	it('makes a schedule sent without status active', async () => {
		const withoutStatus: Partial<typeof validSchedule> = { ...validSchedule };
		delete withoutStatus.status;
		expect((await api.post('/schedule', withoutStatus)).data.status).toBe(1);
	});

	it('replaces the configuration on PUT, including the status, and returns it', async () => {
		const created = (await api.post('/schedule', validSchedule)).data;
		const updated = await api.put(`/schedule/${created.scheduleid}`, { ...validSchedule, schedulename: 'Evening', hour: '18,20', status: 0 });
		expect(updated.status).toBe(200);
		expect(updated.data).toMatchObject({ scheduleid: created.scheduleid, schedulename: 'Evening', hour: '18,20', status: 0 });
		expect(sandbox.schedules()[0]).toMatchObject({ schedulename: 'Evening', status: 0, nextRun: null });
	});

	it('answers 400 for a PUT on an unknown id or on another account’s schedule', async () => {
		expectError(await api.put('/schedule/4242', validSchedule), 400, /unknown scheduleid 4242/);
		const created = (await api.post('/schedule', validSchedule)).data;
		const other = client(sandbox.baseUrl, `Bearer ${sandbox.credentials.otherAccountToken}`);
		expectError(await other.put(`/schedule/${created.scheduleid}`, validSchedule), 400, /unknown scheduleid/);
		expectError(await api.put('/schedule/abc', validSchedule), 400, /scheduleid must be an int32/);
	});

	it.each([
		['required fields are missing', { schedulename: undefined, rateshopid: undefined }, /missing required fields: schedulename, rateshopid/],
		['rateshopid is a string', { rateshopid: '5' }, /rateshopid must be an integer/],
		['year has two digits', { year: '26' }, /year has an invalid item '26'/],
		['a year in the list has two digits', { year: '2026,27' }, /year has an invalid item '27'/],
		['month is 13', { month: '13' }, /month value 13 is out of range 1-12/],
		['month is a range', { month: '1-3' }, /month has an invalid item/],
		['dow is 7', { dow: '7' }, /dow value 7 is out of range 0-6/],
		['day is 0', { day: '0' }, /day value 0 is out of range 1-31/],
		['a day range runs backwards', { day: '25-20' }, /day range '25-20' runs backwards/],
		['hour is 24', { hour: '24' }, /hour value 24 is out of range 0-23/],
		['minute is 60', { minute: '60' }, /minute value 60/],
		['minute is *', { minute: '*' }, /minute must be a string holding one number/],
		['seconds is a number', { seconds: 5 }, /seconds must be a string/],
		['status is 2', { status: 2 }, /status must be at most 1/],
		['startdate is not a real date', { startdate: '2026-02-30' }, /startdate must be a real date/],
		['startdate is not YYYY-MM-DD', { startdate: '01/12/2026' }, /startdate must be a real date in the form YYYY-MM-DD/],
		['enddate is before startdate', { enddate: '2026-11-30' }, /enddate 2026-11-30 is before startdate 2026-12-01/],
		['a field is misspelt', { rateShopId: 5 }, /unknown field 'rateShopId'/],
	])('answers 400 naming the field when %s', async (_case, change, reason) => {
		expectError(await api.post('/schedule', { ...validSchedule, ...change }), 400, reason);
	});

	it('accepts lists and day ranges in the pattern fields', async () => {
		const response = await api.post('/schedule', { ...validSchedule, year: '2026,2027', month: '1,6,12', dow: '1,3,5', day: '1,15,20-25', hour: '*' });
		expect(response.status).toBe(200);
	});
});

describe('schedule queueing rule: queued at minute 55 of the previous hour (virtual clock)', () => {
	let receiver: Awaited<ReturnType<typeof startReceiver>>;

	beforeAll(async () => {
		receiver = await startReceiver();
	});

	afterAll(async () => {
		await receiver.close();
	});

	beforeEach(async () => {
		receiver.received.length = 0;
		await api.post('/webhook', { endpoint: `${receiver.url}/rates`, authType: 'none' });
	});

	it('runs today at 11:30 a schedule created at 10:54', async () => {
		await api.post('/schedule', validSchedule);
		expect(sandbox.schedules()[0].nextRun).toBe('2026-12-01T11:30:00.000Z');
		const runs = await sandbox.advanceClock(36 * MINUTE);
		expect(runs).toHaveLength(1);
		expect(runs[0]).toMatchObject({ collectedAt: '2026-12-01T11:30:00.000Z', shopId: 5, scheduleId: 1, records: 10 });
		expect(receiver.received).toHaveLength(10);
		expect((receiver.received[0].body as RateRecord).dtCollected).toBe('2026-12-01T11:30:00.000Z');
	});

	it('runs a schedule created at 10:56 first on the following day at 11:30', async () => {
		sandbox.setClock('2026-12-01T10:56:00.000Z');
		await api.post('/schedule', validSchedule);
		expect(await sandbox.advanceClock(HOUR)).toEqual([]);
		const runs = await sandbox.advanceClock(24 * HOUR);
		expect(runs.map((run) => run.collectedAt)).toEqual(['2026-12-02T11:30:00.000Z']);
	});

	it('honours a schedule saved exactly at 10:55:00 for the 11:30 run', async () => {
		sandbox.setClock('2026-12-01T10:55:00.000Z');
		await api.post('/schedule', validSchedule);
		expect(sandbox.schedules()[0].nextRun).toBe('2026-12-01T11:30:00.000Z');
	});

	it('counts an update as a new save: a PUT at 10:56 moves the first run to tomorrow', async () => {
		const { scheduleid } = (await api.post('/schedule', validSchedule)).data;
		sandbox.setClock('2026-12-01T10:56:00.000Z');
		await api.put(`/schedule/${scheduleid}`, validSchedule);
		expect(sandbox.schedules()[0].nextRun).toBe('2026-12-02T11:30:00.000Z');
	});

	it('runs an hourly schedule every hour from the first queueable hour', async () => {
		await api.post('/schedule', { ...validSchedule, hour: '*', minute: '0' });
		const runs = await sandbox.advanceClock(3 * HOUR);
		expect(runs.map((run) => run.collectedAt)).toEqual(['2026-12-01T11:00:00.000Z', '2026-12-01T12:00:00.000Z', '2026-12-01T13:00:00.000Z']);
	});

	it('never runs inactive schedules, and stops after enddate', async () => {
		await api.post('/schedule', { ...validSchedule, status: 0 });
		await api.post('/schedule', { ...validSchedule, enddate: '2026-12-02' });
		const runs = await sandbox.advanceClock(4 * 24 * HOUR);
		expect(runs.map((run) => [run.scheduleId, run.collectedAt])).toEqual([
			[2, '2026-12-01T11:30:00.000Z'],
			[2, '2026-12-02T11:30:00.000Z'],
		]);
	});

	it('matches year, month, day ranges and day of week together (UTC)', async () => {
		// 2026-12-01 is a Tuesday: day 20-25 and dow 5 (Friday) leaves only Friday 2026-12-25.
		await api.post('/schedule', { ...validSchedule, year: '2026', month: '12', day: '20-25', dow: '5' });
		expect(sandbox.schedules()[0].nextRun).toBe('2026-12-25T11:30:00.000Z');
	});

	it('skips the runs in between when the clock is set rather than advanced', async () => {
		await api.post('/schedule', validSchedule);
		sandbox.setClock('2026-12-05T12:00:00.000Z');
		expect(sandbox.schedules()[0].nextRun).toBe('2026-12-06T11:30:00.000Z');
		expect(sandbox.runs()).toEqual([]);
	});

	it('exposes the clock on GET/PUT /__sandbox/clock; advanceMs performs due runs', async () => {
		await api.post('/schedule', validSchedule);
		const advanced = await control.put('/__sandbox/clock', { advanceMs: 40 * MINUTE });
		expect(advanced.data).toMatchObject({ now: '2026-12-01T11:34:00.000Z', speed: 0 });
		expect(advanced.data.runs).toHaveLength(1);
		await control.put('/__sandbox/clock', { now: '2027-01-01T00:00:00Z' });
		expect((await control.get('/__sandbox/clock')).data.now).toBe('2027-01-01T00:00:00.000Z');
	});
});

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

describe('GET /api/v1/references/airports', () => {
	it('pages 20 airports by default out of 3,000', async () => {
		const { data } = await airportsApi.get('/api/v1/references/airports');
		expect(data).toMatchObject({ error: false, totalData: 3000, totalPages: 150, page: 1, size: 20 });
		expect(data.airports).toHaveLength(20);
		expect(data.airports[0]).toEqual({ _id: expect.stringMatching(/^[0-9a-f]{24}$/), id: expect.any(String), airportName: expect.any(String), city: expect.any(String), airportCode: expect.stringMatching(/^[A-Z]{3}$/), isActiveStatus: expect.any(Boolean) });
	});

	it('serves any page and size up to 500, in a stable order', async () => {
		const { data } = await airportsApi.get('/api/v1/references/airports?page=3&size=500');
		expect(data).toMatchObject({ page: 3, size: 500, totalPages: 6 });
		expect(data.airports.map((airport: { airportCode: string }) => airport.airportCode)).toEqual(sandbox.data.airports.slice(1000, 1500).map((airport) => airport.airportCode));
	});

	it('searches a comma-separated, case-insensitive list of codes', async () => {
		const { data } = await airportsApi.get('/api/v1/references/airports', { params: { codes: 'jfk,LHR, cdg' } });
		expect(data.airports.map((airport: { airportCode: string }) => airport.airportCode).sort()).toEqual(['CDG', 'JFK', 'LHR']);
		expect(data.totalData).toBe(3);
	});

	it.each([
		['size=501', /request data failed validation: size must be at most 500/],
		['page=0', /request data failed validation: page must be a positive integer/],
		['size=ten', /request data failed validation/],
		['codes=JFK,LONDON', /request data failed validation: codes/],
	])('answers 400 "request data failed validation" for %s', async (query, reason) => {
		expectError(await airportsApi.get(`/api/v1/references/airports?${query}`), 400, reason);
	});
});

describe('GET /hoteldemanddata/{demandId}', () => {
	const MEMBERS = ['Absolute_Value.json', 'Events_registered.json', 'Relative_Values.json', 'Event_records.json'];
	const dateKeys = (row: Record<string, unknown>): string[] => Object.keys(row).filter((key) => key !== 'HotelCode' && key !== 'HotelName');

	it('returns the four members of spec 4.7 with their row fields', async () => {
		const { status, data } = await api.get('/hoteldemanddata/1002');
		expect(status).toBe(200);
		expect(Object.keys(data)).toEqual(MEMBERS);
		const row = data['Absolute_Value.json'][0];
		expect(row).toMatchObject({ HotelCode: 100001, HotelName: expect.any(String) });
		expect(dateKeys(row)).toHaveLength(90);
		expect(dateKeys(row).every((key) => /^\d{2}\/\d{2}\/\d{4}$/.test(key) && Number.isInteger(row[key]))).toBe(true);
		expect(data['Absolute_Value.json']).toHaveLength(100);
		expect(data['Event_records.json'][0]).toEqual({ id: expect.any(Number), eventName: expect.any(String), venue: expect.any(String), category: expect.any(String), city: expect.any(String), date: expect.stringMatching(/^\d{2}\/\d{2}\/\d{4}$/), Estimated_Attendees: expect.any(Number), latitude: expect.any(Number), longitude: expect.any(Number) });
	});

	it('writes 1001 day-first, 1002 month-first, and 1003/1004 undecidably', async () => {
		const keys = async (id: number): Promise<string[]> => dateKeys((await api.get(`/hoteldemanddata/${id}`)).data['Relative_Values.json'][0]);
		expect((await keys(1001)).some((key) => Number(key.slice(0, 2)) > 12)).toBe(true);
		expect((await keys(1002)).some((key) => Number(key.slice(3, 5)) > 12)).toBe(true);
		const ambiguous = await keys(1003);
		expect(ambiguous).toHaveLength(90);
		expect(ambiguous.every((key) => Number(key.slice(0, 2)) <= 12 && Number(key.slice(3, 5)) <= 12)).toBe(true);
		expect(await keys(1004)).toEqual(['05/05/2026']);
	});

	it('leaves hotel 100043 out of Relative_Values.json in 1005 only', async () => {
		const { data } = await api.get('/hoteldemanddata/1005');
		const codes = (member: string): number[] => data[member].map((row: { HotelCode: number }) => row.HotelCode);
		expect(codes('Absolute_Value.json')).toContain(100043);
		expect(codes('Events_registered.json')).toContain(100043);
		expect(codes('Relative_Values.json')).not.toContain(100043);
		expect(codes('Relative_Values.json')).toHaveLength(99);
	});

	it('serves the large shop 1006: 1,000 hotels by 365 dates', async () => {
		const { data } = await api.get('/hoteldemanddata/1006');
		expect(data['Absolute_Value.json']).toHaveLength(1000);
		expect(dateKeys(data['Absolute_Value.json'][999])).toHaveLength(365);
	});

	it('answers 400 for an unknown or non-numeric demandId', async () => {
		expectError(await api.get('/hoteldemanddata/7'), 400, /unknown demandId 7/);
		expectError(await api.get('/hoteldemanddata/abc'), 400, /demandId must be a number/);
	});
});

describe('PUT /shops/{shopId}', () => {
	it('updates a shop of the caller and answers 200 with a message', async () => {
		const { status, data } = await api.put('/shops/7', validShop);
		expect(status).toBe(200);
		expect(data).toEqual({ message: expect.any(String) });
		expect(sandbox.data.shops.get(7)?.config).toEqual(validShop);
	});

	it('answers 403 for another account’s shop and 404 for an unknown shop', async () => {
		expectError(await api.put('/shops/900', validShop), 403, /access denied/);
		expect((await client(sandbox.baseUrl, `Bearer ${sandbox.credentials.otherAccountToken}`).put('/shops/900', validShop)).status).toBe(200);
		expectError(await api.put('/shops/500', validShop), 404, /shop 500 not found/);
	});

	it('accepts horizon as a number or a numeric string', async () => {
		expect((await api.put('/shops/8', { ...validShop, horizon: '45' })).status).toBe(200);
		expect(sandbox.data.shops.get(8)?.config.horizon).toBe(45);
	});

	it.each([
		['shopName is missing', { shopName: undefined }, /missing required field: shopName/],
		['markets is empty', { markets: [] }, /markets must be a non-empty array/],
		['a market has no dropLocation', { markets: [{ pickupLocation: 'JFK' }] }, /markets\[0\]\.dropLocation is required/],
		['websiteCode holds strings', { websiteCode: ['1'] }, /websiteCode\[0\] must be an integer/],
		['lor is 0', { lor: 0 }, /lor must be at least 1/],
		['currency has 4 letters', { currency: 'EURO' }, /currency must be a 3-letter/],
		['horizon is not numeric', { horizon: 'soon' }, /horizon must be an integer/],
		['horizonDow holds 7', { horizonDow: [7] }, /horizonDow\[0\] must be at most 6/],
		['pickupTime is 24:00', { pickupTime: '24:00' }, /pickupTime must be a time HH:MM/],
		['dropTime is not HH:MM', { dropTime: '9:00' }, /dropTime must be a time HH:MM/],
	])('answers 400 naming the field when %s', async (_case, change, reason) => {
		expectError(await api.put('/shops/9', { ...validShop, ...change }), 400, reason);
	});
});

describe('POST /webhook', () => {
	it('answers 201 with a message and stores the registration', async () => {
		const { status, data } = await api.post('/webhook', { endpoint: 'https://example.com/hook', authType: 'bearer', token: 't' });
		expect(status).toBe(201);
		expect(data).toEqual({ message: expect.any(String) });
		expect(sandbox.webhooks()).toEqual([expect.objectContaining({ endpoint: 'https://example.com/hook', authType: 'bearer', token: 't', account: 'demo' })]);
		expect((await control.get('/__sandbox/webhooks')).data).toHaveLength(1);
	});

	it('replaces an earlier registration of the same endpoint', async () => {
		await api.post('/webhook', { endpoint: 'https://example.com/hook', authType: 'none' });
		await api.post('/webhook', { endpoint: 'https://example.com/hook', authType: 'bearer', token: 't' });
		expect(sandbox.webhooks()).toHaveLength(1);
	});

	it.each([
		['endpoint is missing', { authType: 'none' }, /endpoint is required/],
		['endpoint is not a URL', { endpoint: 'not a url', authType: 'none' }, /endpoint must be an absolute http\(s\) URL/],
		['endpoint is not http(s)', { endpoint: 'ftp://example.com', authType: 'none' }, /endpoint must use http or https/],
		['authType is not lowercase', { endpoint: 'https://example.com', authType: 'Basic', userName: 'u', password: 'p' }, /authType must be one of none, basic, bearer, header \(lowercase\)/],
		['basic has no password', { endpoint: 'https://example.com', authType: 'basic', userName: 'u' }, /password is required when authType is 'basic'/],
		['bearer has no token', { endpoint: 'https://example.com', authType: 'bearer' }, /token is required when authType is 'bearer'/],
		['header has no headerName', { endpoint: 'https://example.com', authType: 'header', token: 'k' }, /headerName is required when authType is 'header'/],
		['headerName is not a header name', { endpoint: 'https://example.com', authType: 'header', token: 'k', headerName: 'bad header' }, /not a valid HTTP header name/],
	])('answers 400 when %s', async (_case, body, reason) => {
		expectError(await api.post('/webhook', body), 400, reason);
	});
});

describe('rate record delivery (runShop)', () => {
	let receiver: Awaited<ReturnType<typeof startReceiver>>;

	beforeAll(async () => {
		receiver = await startReceiver((path) => (path === '/broken' ? 500 : 200));
	});

	afterAll(async () => {
		await receiver.close();
	});

	beforeEach(() => {
		receiver.received.length = 0;
	});

	const registerAll = async (): Promise<void> => {
		await api.post('/webhook', { endpoint: `${receiver.url}/none`, authType: 'none' });
		await api.post('/webhook', { endpoint: `${receiver.url}/basic`, authType: 'basic', userName: 'ana', password: 's3cret' });
		await api.post('/webhook', { endpoint: `${receiver.url}/bearer`, authType: 'bearer', token: 'tok-123' });
		await api.post('/webhook', { endpoint: `${receiver.url}/header`, authType: 'header', headerName: 'X-Api-Key', token: 'key-456' });
	};

	it('posts each record to every webhook of the shop’s account with that webhook’s authType', async () => {
		await registerAll();
		const summary = await sandbox.runShop({ shopId: 3, records: 5 });
		expect(summary).toMatchObject({ shopId: 3, account: 'demo', webhooks: 4, deliveries: 20, records: 5, byStatus: { '200': 20 } });
		const at = (path: string): Received[] => receiver.received.filter((delivery) => delivery.path === path);
		expect(at('/none').every((delivery) => delivery.headers.authorization === undefined)).toBe(true);
		expect(at('/basic').every((delivery) => delivery.headers.authorization === `Basic ${Buffer.from('ana:s3cret').toString('base64')}`)).toBe(true);
		expect(at('/bearer').every((delivery) => delivery.headers.authorization === 'Bearer tok-123')).toBe(true);
		expect(at('/header').every((delivery) => delivery.headers['x-api-key'] === 'key-456' && delivery.headers.authorization === undefined)).toBe(true);
		for (const path of ['/none', '/basic', '/bearer', '/header']) expect(at(path)).toHaveLength(5);
	});

	it('sends records carrying every field of spec part 6 with the right types, each with a unique recordId', async () => {
		await api.post('/webhook', { endpoint: `${receiver.url}/none`, authType: 'none' });
		await sandbox.runShop({ shopId: 3, records: 12 });
		const records = receiver.received.map((delivery) => delivery.body as RateRecord);
		expect(new Set(records.map((record) => record.recordId)).size).toBe(12);
		const shop = sandbox.data.shops.get(3)!;
		for (const record of records) {
			expect(record).toEqual({
				recordId: expect.stringMatching(/^shop3-run\d+-rec\d+$/),
				shopId: 3, dtCollected: '2026-12-01T10:54:00.000Z', websiteCode: expect.any(Number),
				checkIn: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/), checkOut: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/),
				los: shop.config.lor, pos: expect.any(Number), guests: expect.any(Number), hotelId: expect.any(Number), hotelCode: expect.any(Number),
				hotelName: expect.any(String), sourceUrl: expect.stringMatching(/^https:\/\//), address: expect.any(String), city: expect.any(String),
				state: expect.any(String), country: expect.any(String), latitude: expect.stringMatching(/^-?\d+\.\d+$/), longitude: expect.stringMatching(/^-?\d+\.\d+$/),
				currency: shop.config.currency, isLAR: expect.any(Boolean), propertyType: expect.any(String), roomType: expect.any(String),
				roomDescription: expect.any(String), roomAmenities: expect.any(String), mapLink: expect.any(String), roomAvailable: expect.any(String),
				roomLeft: expect.any(String), reviewRating: expect.any(Number), reviewsCount: expect.any(Number), taxAmount: expect.any(Number),
				taxType: expect.any(String), taxStatus: expect.any(Number), mealPlan: expect.any(String), ratePlan: expect.any(String),
				locationRating: expect.any(Number), promo: expect.any(String), ratingText: expect.any(String), onsiteRate: expect.any(Number),
				netRate: expect.any(Number), discount: expect.any(Number), occupancy: expect.any(Number), paymentType: expect.any(String),
				rankingListingCount: expect.any(Number), navigationPage: expect.any(Number), newArrival: expect.any(String),
				distanceHotel: expect.any(Number), otherInformation: expect.any(String), statusCode: expect.any(Number),
				otherRatings: { htlRating: expect.any(Number), aptRating: expect.any(Number), dotsRating: expect.any(Number) },
				ratingFlags: { preferredPartner: expect.any(Boolean), preferredPlus: expect.any(Boolean) },
			});
			expect(shop.hotelCodes).toContain(record.hotelCode);
			expect(Number.isInteger(record.reviewsCount) && Number.isInteger(record.taxStatus) && Number.isInteger(record.los)).toBe(true);
		}
	});

	it('sends arrays when perDelivery > 1 and honours hotelCodes and websiteCodes', async () => {
		await api.post('/webhook', { endpoint: `${receiver.url}/none`, authType: 'none' });
		const summary = await sandbox.runShop({ shopId: 3, records: 7, perDelivery: 3, hotelCodes: [100001], websiteCodes: [2] });
		expect(summary.deliveries).toBe(3);
		const bodies = receiver.received.map((delivery) => delivery.body as RateRecord[]);
		expect(bodies.map((body) => body.length)).toEqual(expect.arrayContaining([3, 3, 1]));
		expect(bodies.flat().every((record) => record.hotelCode === 100001 && record.websiteCode === 2)).toBe(true);
	});

	it('records each receiver status and delivers nothing to other accounts', async () => {
		await api.post('/webhook', { endpoint: `${receiver.url}/broken`, authType: 'none' });
		await client(sandbox.baseUrl, `Bearer ${sandbox.credentials.otherAccountToken}`).post('/webhook', { endpoint: `${receiver.url}/other`, authType: 'none' });
		const summary = await sandbox.runShop({ shopId: 4, records: 3 });
		expect(summary.byStatus).toEqual({ '500': 3 });
		expect(sandbox.deliveries().map((delivery) => delivery.status)).toEqual([500, 500, 500]);
		expect(receiver.received.some((delivery) => delivery.path === '/other')).toBe(false);
		const otherRun = await sandbox.runShop({ shopId: 901, records: 2 });
		expect(otherRun).toMatchObject({ account: 'other', deliveries: 2 });
	});

	it('is driven by POST /__sandbox/run-shop and reported by GET /__sandbox/deliveries', async () => {
		await api.post('/webhook', { endpoint: `${receiver.url}/none`, authType: 'none' });
		const { data } = await control.post('/__sandbox/run-shop', { shopId: 2, records: 4, concurrency: 2 });
		expect(data).toMatchObject({ deliveries: 4, byStatus: { '200': 4 } });
		const deliveries = (await control.get('/__sandbox/deliveries')).data;
		expect(deliveries).toHaveLength(4);
		expect(deliveries[0]).toMatchObject({ endpoint: `${receiver.url}/none`, status: 200, recordIds: [expect.any(String)] });
		expectError(await control.post('/__sandbox/run-shop', { shopId: 'x' }), 400, /shopId must be an integer/);
	});

	it('delivers 2,000 records concurrently over keep-alive connections', async () => {
		await api.post('/webhook', { endpoint: `${receiver.url}/none`, authType: 'none' });
		const summary = await sandbox.runShop({ shopId: 1, records: 2000, concurrency: 50 });
		expect(summary.byStatus).toEqual({ '200': 2000 });
		expect(new Set(receiver.received.map((delivery) => (delivery.body as RateRecord).recordId)).size).toBe(2000);
	});
});

describe('faults', () => {
	afterEach(() => sandbox.resetFaults());

	it('answers 429 with Retry-After when p429 fires, and stops after `times`', async () => {
		sandbox.setFaults({ endpoints: { hotelinfo: { p429: 1, retryAfterSeconds: 3, times: 1 } } });
		const limited = await api.post('/hotelinfo', { hotelcode: 100001 });
		expectError(limited, 429);
		expect(limited.headers['retry-after']).toBe('3');
		expect((await api.post('/hotelinfo', { hotelcode: 100001 })).status).toBe(200);
	});

	it('answers 500 when p500 fires; "*" covers every endpoint; endpoint keys work at the top level too', async () => {
		sandbox.setFaults({ '*': { p500: 1 } });
		expectError(await api.post('/eventimpact/', {}), 500);
		expectError(await airportsApi.get('/api/v1/references/airports'), 500);
		await control.put('/__sandbox/faults', { eventimpact: { p500: 0 } });
		expect((await api.post('/eventimpact/', {})).status).toBe(200);
		expect((await control.get('/__sandbox/faults')).data).toEqual({ endpoints: { eventimpact: { p500: 0 } } });
	});

	it('repeats the same fault sequence for the same seed', async () => {
		const sequence = async (): Promise<number[]> => {
			sandbox.setFaults({ seed: 7, endpoints: { airports: { p500: 0.5 } } });
			const statuses: number[] = [];
			for (let i = 0; i < 12; i++) statuses.push((await airportsApi.get('/api/v1/references/airports?size=1')).status);
			return statuses;
		};
		const first = await sequence();
		expect(first).toContain(500);
		expect(first).toContain(200);
		expect(await sequence()).toEqual(first);
	});

	it('adds latencyMs before answering', async () => {
		sandbox.setFaults({ latencyMs: 150 });
		const started = Date.now();
		await api.post('/hotelinfo', { hotelcode: 100001 });
		expect(Date.now() - started).toBeGreaterThanOrEqual(145);
	});

	it('rate limits each credential per one-second window with 429 and Retry-After', async () => {
		sandbox.setFaults({ rateLimitPerSecond: 3 });
		const statuses = await Promise.all(Array.from({ length: 5 }, () => api.post('/hotelinfo', { hotelcode: 100001 })));
		expect(statuses.map((response) => response.status).sort()).toEqual([200, 200, 200, 429, 429]);
		expect(statuses.find((response) => response.status === 429)?.headers['retry-after']).toBe('1');
		// Another credential has its own window.
		expect((await airportsApi.get('/api/v1/references/airports')).status).toBe(200);
	});

	it('never applies to /__sandbox/ routes', async () => {
		sandbox.setFaults({ '*': { p500: 1 }, rateLimitPerSecond: 1 });
		for (let i = 0; i < 3; i++) expect((await control.get('/__sandbox/health')).status).toBe(200);
	});

	it('pDrop serves the request, then drops the connection without an answer', async () => {
		await control.put('/__sandbox/faults', { schedule: { pDrop: 1, times: 1 } });
		const dropped = await api.post('/schedule', validSchedule).then(
			() => 'answered',
			(error: { code?: string }) => error.code,
		);
		expect(dropped).toBe('ECONNRESET');
		// The schedule was stored all the same: the caller cannot tell whether it was.
		expect(sandbox.schedules()).toHaveLength(1);
		expect(sandbox.requests({ endpoint: 'schedule' })).toEqual([expect.objectContaining({ status: 200, dropped: true })]);
		expect((await api.post('/schedule', validSchedule)).status).toBe(200);
		expect(sandbox.schedules()).toHaveLength(2);
	});

	it('refuses unknown fault settings', async () => {
		expectError(await control.put('/__sandbox/faults', { hotelinfo: { pDrop: 0.6, p500: 0.6 } }), 400, /must not pass 1/);
		expectError(await control.put('/__sandbox/faults', { hotelinfo: { p429: 2 } }), 400, /probability/);
		expectError(await control.put('/__sandbox/faults', { everything: {} }), 400, /unknown fault setting/);
	});
});

describe('request log', () => {
	it('records method, path, query, body, status and which account and credential kind called', async () => {
		await api.post('/hotelinfo', { hotelcode: 100001 });
		await airportsApi.get('/api/v1/references/airports?page=2');
		await client(sandbox.baseUrl, 'Bearer expired-access-token').post('/schedule', validSchedule);
		expect(sandbox.requests()).toEqual([
			expect.objectContaining({ seq: expect.any(Number), method: 'POST', path: '/hotelinfo', body: { hotelcode: 100001 }, status: 200, account: 'demo', credential: 'bearer', endpoint: 'hotelinfo' }),
			expect.objectContaining({ method: 'GET', path: '/api/v1/references/airports', query: { page: '2' }, status: 200, account: 'demo', credential: 'apiKey' }),
			expect.objectContaining({ method: 'POST', path: '/schedule', status: 401, account: null, credential: 'expired' }),
		]);
	});

	it('never keeps Authorization values', async () => {
		await api.post('/hotelinfo', { hotelcode: 100001 });
		await airportsApi.get('/api/v1/references/airports');
		const text = JSON.stringify(sandbox.requests());
		expect(text).not.toContain(sandbox.credentials.accessToken);
		expect(text).not.toContain(sandbox.credentials.apiKey);
	});

	it('filters by path (with its children) and method over GET /__sandbox/requests, and clears on DELETE', async () => {
		const created = (await api.post('/schedule', validSchedule)).data;
		await api.put(`/schedule/${created.scheduleid}`, validSchedule);
		await api.post('/hotelinfo', { hotelcode: 100001 });
		expect((await control.get('/__sandbox/requests?path=/schedule')).data).toHaveLength(2);
		expect((await control.get('/__sandbox/requests?path=/schedule&method=put')).data).toHaveLength(1);
		expect(sandbox.requests({ path: '/hotelinfo/' })).toHaveLength(1);
		await control.delete('/__sandbox/requests');
		expect(sandbox.requests()).toEqual([]);
	});
});

describe('control routes', () => {
	it('reports health with the data set sizes', async () => {
		const { data } = await control.get('/__sandbox/health');
		expect(data).toMatchObject({ ok: true, baseUrl: sandbox.baseUrl, data: { hotels: 250, events: 5000, airports: 3000 } });
	});

	it('resets schedules, webhooks, log, faults and variants but keeps the seed data', async () => {
		await api.post('/schedule', validSchedule);
		await api.post('/webhook', { endpoint: 'https://example.com/hook', authType: 'none' });
		await api.put('/shops/7', validShop);
		sandbox.setFaults({ latencyMs: 5 });
		sandbox.setVariants({ sourcesAsObject: true });
		expect((await control.post('/__sandbox/reset')).status).toBe(200);
		expect(sandbox.schedules()).toEqual([]);
		expect(sandbox.webhooks()).toEqual([]);
		expect(sandbox.requests()).toEqual([]);
		expect(sandbox.faults()).toEqual({ endpoints: {} });
		expect(sandbox.variants()).toEqual({ sourcesAsObject: false, singleHotelAsArray: false });
		expect(sandbox.data.shops.get(7)?.config.shopName).not.toBe(validShop.shopName);
		expect(sandbox.data.hotels).toHaveLength(250);
	});

	it('reports the most API requests served at once since the stats were reset', async () => {
		sandbox.setFaults({ latencyMs: 100 });
		expect((await control.delete('/__sandbox/stats')).data).toEqual({ inFlight: 0, maxInFlight: 0 });
		await Promise.all(Array.from({ length: 3 }, () => api.post('/hotelinfo', { hotelcode: 100001 })));
		await api.post('/hotelinfo', { hotelcode: 100001 });
		expect((await control.get('/__sandbox/stats')).data).toEqual({ inFlight: 0, maxInFlight: 3 });
		sandbox.resetStats();
		expect(sandbox.stats()).toEqual({ inFlight: 0, maxInFlight: 0 });
	});

	it('answers 404 for an unknown control route', async () => {
		expectError(await control.get('/__sandbox/nope'), 404);
	});
});

describe('seeded data set', () => {
	it('is identical for the same seed', () => {
		const again = buildData(sandbox.data.seed);
		expect(again.hotels).toEqual(sandbox.data.hotels);
		expect(again.events.slice(0, 200)).toEqual(sandbox.data.events.slice(0, 200));
		expect(again.airports).toEqual(sandbox.data.airports);
	});

	it('has 250 hotels with 2-8 sources, 5,000 events over 40+ cities and 3,000 unique airport codes', () => {
		expect(sandbox.data.hotels.map((hotel) => hotel.hotelcode)).toEqual(Array.from({ length: 250 }, (_, i) => 100001 + i));
		expect(sandbox.data.hotels.every((hotel) => hotel.sources.length >= 2 && hotel.sources.length <= 8)).toBe(true);
		expect(new Set(sandbox.data.events.map((event) => event.city)).size).toBeGreaterThanOrEqual(40);
		expect(new Set(sandbox.data.events.map((event) => event.category)).size).toBeGreaterThanOrEqual(12);
		expect(sandbox.data.events.every((event) => event.impactScore >= 0 && event.impactScore <= 100)).toBe(true);
		const codes = sandbox.data.airports.map((airport) => airport.airportCode);
		expect(new Set(codes).size).toBe(3000);
		expect(codes).toEqual(expect.arrayContaining(['JFK', 'LHR', 'CDG', 'DXB', 'SIN', 'LAX', 'ORD', 'FRA', 'AMS', 'MAD']));
	});
});

describe('concurrency', () => {
	it('answers 1,000 concurrent hotelinfo requests', async () => {
		const agent = new http.Agent({ keepAlive: true, maxSockets: 1000 });
		const responses = await Promise.all(Array.from({ length: 1000 }, (_, i) => api.post('/hotelinfo', { hotelcode: 100001 + (i % 250) }, { httpAgent: agent })));
		agent.destroy();
		expect(responses.every((response) => response.status === 200)).toBe(true);
	});
});
