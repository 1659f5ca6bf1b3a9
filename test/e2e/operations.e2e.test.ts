import { e2eVersions, loadWorkflow, outputOf, startE2e, type E2eEnvironment, type WorkflowSeed } from './harness';

/**
 * Each operation node in a workflow that n8n runs with `n8n execute`, the way a scheduled or
 * CLI-started workflow runs, against the sandbox; the output is checked against the sandbox's data.
 */

// A city with several events, codes of airports that exist, a month-first demand shop: all taken
// from the sandbox's seeded data, so the expectations below come from the same source.
const HOTEL_CODES = [100001, 100002, 100250];
const DEMAND_ID = 1002;
const SHOP_ID = 7;

describe.each(e2eVersions())('operation nodes run by n8n %s', (version) => {
	let env: E2eEnvironment;
	let city: string;
	let airportCodes: string[];

	beforeAll(async () => {
		// The sandbox is started by startE2e; the workflow placeholders need its data first, and the
		// data is seeded (the same on every start), so a throwaway copy of the values is read here.
		const { buildData } = await import('../sandbox/data');
		const data = buildData();
		city = mostCommon(data.events.map((event) => event.city));
		airportCodes = [data.airports[0].airportCode, data.airports[data.airports.length - 1].airportCode];
		const workflows: WorkflowSeed[] = [
			loadWorkflow('hotel-info.json', { HOTEL_CODES: JSON.stringify(HOTEL_CODES) }),
			loadWorkflow('schedule.json'),
			loadWorkflow('event-impact.json', { CITY: city }),
			loadWorkflow('airports.json', { CODES: airportCodes.map((code) => code.toLowerCase()).join(', ') }),
			loadWorkflow('hotel-demand.json', { DEMAND_ID: String(DEMAND_ID) }),
			loadWorkflow('shop-update.json'),
		];
		env = await startE2e({ version, workflows, start: false });
	}, 30 * 60_000);

	afterAll(async () => {
		await env?.close();
	});

	test('Hotel Info returns each input item its hotel, asking the service once for all three', async () => {
		env.sandbox.clearRequests();
		const hotels = outputOf(await env.n8n.execute('e2eHotelInfo0001'), 'Hotel Info');

		const expected = HOTEL_CODES.map((code) => env.sandbox.data.hotels.find((hotel) => hotel.hotelcode === code));
		expect(hotels.map((hotel) => [hotel.hotelcode, hotel.hotelname])).toEqual(expected.map((hotel) => [hotel?.hotelcode, hotel?.hotelname]));
		for (const [index, hotel] of hotels.entries()) {
			const sources = expected[index]?.sources;
			expect(hotel.sources).toEqual(Array.isArray(sources) ? sources : Object.values(sources ?? {}));
		}
		const requests = env.sandbox.requests({ method: 'POST', path: '/hotelinfo' });
		expect(requests).toHaveLength(1);
		expect(requests[0].body).toEqual({ hotelcodes: HOTEL_CODES });
	});

	test('Schedule creates the schedule in the wire format and shows its next runs', async () => {
		const [created] = outputOf(await env.n8n.execute('e2eSchedule00001'), 'Create schedule');

		const stored = env.sandbox.schedules().find((schedule) => schedule.scheduleid === created.scheduleid);
		expect(stored).toMatchObject({
			schedulename: 'E2E weekday shop',
			rateshopid: 7,
			year: '*',
			month: '*',
			dow: '1,3,5',
			day: '*',
			hour: '6,18',
			minute: '30',
			seconds: '0',
			status: 1,
			startdate: '2030-01-07',
		});
		// 2030-01-07 is a Monday: Monday 06:30 and 18:30, then Wednesday, in the workflow's timezone (UTC).
		expect((created.nextRuns as string[]).map((run) => new Date(run).toISOString())).toEqual([
			'2030-01-07T06:30:00.000Z',
			'2030-01-07T18:30:00.000Z',
			'2030-01-09T06:30:00.000Z',
			'2030-01-09T18:30:00.000Z',
		]);
	});

	test("Event Impact with Return All gives every event of a city, as many as the service's total", async () => {
		const events = outputOf(await env.n8n.execute('e2eEventImpact01'), 'Event Impact');

		const total = await eventTotal(env, { city });
		expect(total).toBeGreaterThan(20);
		expect(events).toHaveLength(total);
		expect(new Set(events.map((event) => event.id)).size).toBe(total);
		expect(events.filter((event) => event.city !== city)).toEqual([]);
	});

	test('Airports finds airports by code and lists the whole reference with Return All', async () => {
		const run = await env.n8n.execute('e2eAirports00001');

		expect(outputOf(run, 'Airports by code').map((airport) => airport.airportCode).sort()).toEqual([...airportCodes].sort());
		const all = outputOf(run, 'All airports');
		expect(all).toHaveLength(env.sandbox.data.airports.length);
		expect(new Set(all.map((airport) => airport.airportCode))).toEqual(new Set(env.sandbox.data.airports.map((airport) => airport.airportCode)));
	});

	test("a 429 with Retry-After is waited out with the user's n8n-workflow, then the airports come back", async () => {
		env.sandbox.clearRequests();
		env.sandbox.setFaults({ endpoints: { airports: { p429: 1, retryAfterSeconds: 1, times: 1 } } });
		try {
			const run = await env.n8n.execute('e2eAirports00001');

			expect(outputOf(run, 'Airports by code').map((airport) => airport.airportCode).sort()).toEqual([...airportCodes].sort());
			const statuses = env.sandbox.requests({ endpoint: 'airports' }).map((request) => request.status);
			expect(statuses[0]).toBe(429);
			expect(statuses.slice(1).every((status) => status === 200)).toBe(true);
		} finally {
			env.sandbox.resetFaults();
		}
	});

	test('Hotel Demand gives one row per hotel and date of the chosen range, with the values of the three tables', async () => {
		const rows = outputOf(await env.n8n.execute('e2eHotelDemand01'), 'Hotel Demand');

		const result = env.sandbox.data.demand.result(DEMAND_ID);
		if (!result) throw new Error(`the sandbox has no demand shop ${DEMAND_ID}`);
		const absolute = result['Absolute_Value.json'];
		// Demand shop 1002 writes dates month first (mm/dd/yyyy); the workflow asks for 2026-12-30 to 2027-01-02.
		const days = { '12/30/2026': '2026-12-30', '12/31/2026': '2026-12-31', '01/01/2027': '2027-01-01', '01/02/2027': '2027-01-02' };
		expect(rows).toHaveLength(absolute.length * Object.keys(days).length);
		for (const hotelRow of [absolute[0], absolute[absolute.length - 1]]) {
			for (const [key, date] of Object.entries(days)) {
				const row = rows.find((candidate) => candidate.hotelCode === hotelRow.HotelCode && candidate.date === date);
				const valueIn = (table: 'Events_registered.json' | 'Relative_Values.json'): unknown =>
					result[table].find((entry) => entry.HotelCode === hotelRow.HotelCode)?.[key];
				expect(row).toMatchObject({
					hotelName: hotelRow.HotelName,
					absoluteValue: hotelRow[key],
					eventsRegistered: valueIn('Events_registered.json'),
					relativeValue: valueIn('Relative_Values.json'),
				});
			}
		}
	});

	test("Shop Update replaces the shop's configuration with the fields as the service expects them", async () => {
		const [result] = outputOf(await env.n8n.execute('e2eShopUpdate001'), 'Shop Update');

		expect(result).toMatchObject({ shopId: SHOP_ID });
		expect(env.sandbox.data.shops.get(SHOP_ID)?.config).toEqual({
			shopName: 'E2E JFK weekly',
			markets: [
				{ pickupLocation: 'JFK', dropLocation: 'JFK' },
				{ pickupLocation: 'LHR', dropLocation: 'CDG' },
			],
			websiteCode: [1, 2, 3],
			cob: 'US',
			lor: 3,
			currency: 'USD',
			horizon: 30,
			horizonDow: [1, 5],
			pickupTime: '10:00',
			dropTime: '12:30',
		});
	});
});

function mostCommon(values: string[]): string {
	const counts = new Map<string, number>();
	for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
	return [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
}

/** The service's own count of events for a filter (pageInfo.totalRecords), asked directly. */
async function eventTotal(env: E2eEnvironment, filters: Record<string, unknown>): Promise<number> {
	const response = await fetch(`${env.sandbox.baseUrl}/eventimpact/?eventsImpactPerPage=1&pageNumber=1`, {
		method: 'POST',
		headers: { authorization: `Bearer ${env.sandbox.credentials.accessToken}`, 'content-type': 'application/json' },
		body: JSON.stringify(filters),
	});
	const body = (await response.json()) as { pageInfo: { totalRecords: number } };
	return body.pageInfo.totalRecords;
}
