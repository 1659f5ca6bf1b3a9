import type { Sandbox } from '../../platform/sandbox';
import { outputOf, type WorkflowRun, type WorkflowSeed } from '../../platform/n8n';
import { loadWorkflow } from './loadWorkflow';

/**
 * The operation nodes' workflows and what each run must show, shared by every suite that runs them
 * (one n8n process in operations.e2e.test.ts, queue mode in test/queue/): a suite decides how a
 * workflow is run, these cases decide what the run and the sandbox must then hold.
 */

// A city with several events, codes of airports that exist, a month-first demand shop: all taken
// from the sandbox's seeded data, so the expectations below come from the same source.
export const HOTEL_CODES = [100001, 100002, 100250];
const DEMAND_ID = 1002;
const SHOP_ID = 7;

/** Values read from the sandbox's seeded data before the workflows are built. */
export interface OperationData {
	city: string;
	airportCodes: string[];
}

export interface OperationContext {
	sandbox: Sandbox;
	data: OperationData;
}

export interface OperationCase {
	title: string;
	workflowId: string;
	/** Prepares the sandbox just before the run (clears its request log, sets a fault). */
	before?(sandbox: Sandbox): void;
	/** Checks the run (as n8n stored or reported it) against the sandbox's data. */
	check(run: WorkflowRun, context: OperationContext): Promise<void> | void;
	/** Undoes `before`, whether the run passed or not. */
	after?(sandbox: Sandbox): void;
}

/**
 * The seeded values the workflows need. The data is the same on every start of the sandbox, so a
 * throwaway copy is read before any sandbox runs.
 */
export async function operationData(): Promise<OperationData> {
	const { buildData } = await import('../../platform/sandbox/data');
	const data = buildData();
	return {
		city: mostCommon(data.events.map((event) => event.city)),
		airportCodes: [data.airports[0].airportCode, data.airports[data.airports.length - 1].airportCode],
	};
}

/** Every operation node's workflow, as loaded from test/e2e/workflows/ with its placeholders filled. */
export function operationWorkflows({ city, airportCodes }: OperationData): WorkflowSeed[] {
	return [
		loadWorkflow('hotel-info.json', { HOTEL_CODES: JSON.stringify(HOTEL_CODES) }),
		loadWorkflow('schedule.json'),
		loadWorkflow('event-impact.json', { CITY: city }),
		loadWorkflow('airports.json', { CODES: airportCodes.map((code) => code.toLowerCase()).join(', ') }),
		loadWorkflow('hotel-demand.json', { DEMAND_ID: String(DEMAND_ID) }),
		loadWorkflow('shop-update.json'),
	];
}

function expectAirportsByCode(run: WorkflowRun, { airportCodes }: OperationData): void {
	expect(outputOf(run, 'Airports by code').map((airport) => airport.airportCode).sort()).toEqual([...airportCodes].sort());
}

export const OPERATION_CASES: OperationCase[] = [
	{
		title: 'Hotel Info returns each input item its hotel, one request for the three codes: version 1 the whole hotel, version 1.1 simplified',
		workflowId: 'e2eHotelInfo0001',
		before: (sandbox) => sandbox.clearRequests(),
		check(run, { sandbox }) {
			const hotels = outputOf(run, 'Hotel Info');
			const expected = HOTEL_CODES.map((code) => sandbox.data.hotels.find((hotel) => hotel.hotelcode === code));
			// Version 1, as workflows saved before Simplify have it: the service's whole hotel.
			expect(hotels).toEqual(expected);
			expect(outputOf(run, 'Hotel Info (simplified)')).toEqual(
				expected.map((hotel) => ({
					hotelcode: hotel?.hotelcode,
					hotelname: hotel?.hotelname,
					city: hotel?.city,
					country: hotel?.country,
					starrating: hotel?.starrating,
					lat: hotel?.lat,
					long: hotel?.long,
					sources: hotel?.sources.map(({ websitecode, websitename, channeltype }) => ({ websitecode, websitename, channeltype })),
				})),
			);
			// One request for the three codes from each of the two nodes.
			const requests = sandbox.requests({ method: 'POST', path: '/hotelinfo' });
			expect(requests.map((request) => request.body)).toEqual([{ hotelcodes: HOTEL_CODES }, { hotelcodes: HOTEL_CODES }]);
		},
	},
	{
		title: 'Schedule creates the schedule in the wire format and shows its next runs',
		workflowId: 'e2eSchedule00001',
		check(run, { sandbox }) {
			const [created] = outputOf(run, 'Create schedule');
			const stored = sandbox.schedules().find((schedule) => schedule.scheduleid === created.scheduleid);
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
			expect((created.nextRuns as string[]).map((next) => new Date(next).toISOString())).toEqual([
				'2030-01-07T06:30:00.000Z',
				'2030-01-07T18:30:00.000Z',
				'2030-01-09T06:30:00.000Z',
				'2030-01-09T18:30:00.000Z',
			]);
		},
	},
	{
		title: "Event Impact with Return All gives every event of a city, as many as the service's total",
		workflowId: 'e2eEventImpact01',
		async check(run, { sandbox, data }) {
			const events = outputOf(run, 'Event Impact');
			const total = await eventTotal(sandbox, { city: data.city });
			expect(total).toBeGreaterThan(20);
			expect(events).toHaveLength(total);
			expect(new Set(events.map((event) => event.id)).size).toBe(total);
			expect(events.filter((event) => event.city !== data.city)).toEqual([]);
			// Version 1 keeps all 23 fields of an event; version 1.1 keeps ten by default.
			expect(Object.keys(events[0])).toHaveLength(23);
			const simplified = outputOf(run, 'Event Impact (simplified)');
			expect(simplified).toHaveLength(5);
			for (const event of simplified) {
				expect(Object.keys(event)).toEqual(['eventId', 'eventName', 'category', 'startDate', 'endDate', 'city', 'venue', 'estimatedAttendees', 'impactScore', 'eventStatus']);
			}
			expect(simplified.map((event) => event.eventId)).toEqual(events.slice(0, 5).map((event) => event.eventId));
		},
	},
	{
		title: 'Airports finds airports by code and lists the whole reference with Return All',
		workflowId: 'e2eAirports00001',
		check(run, { sandbox, data }) {
			expectAirportsByCode(run, data);
			const all = outputOf(run, 'All airports');
			expect(all).toHaveLength(sandbox.data.airports.length);
			expect(new Set(all.map((airport) => airport.airportCode))).toEqual(new Set(sandbox.data.airports.map((airport) => airport.airportCode)));
		},
	},
	{
		title: "a 429 with Retry-After is waited out with the user's n8n-workflow, then the airports come back",
		workflowId: 'e2eAirports00001',
		before(sandbox) {
			sandbox.clearRequests();
			sandbox.setFaults({ endpoints: { airports: { p429: 1, retryAfterSeconds: 1, times: 1 } } });
		},
		check(run, { sandbox, data }) {
			expectAirportsByCode(run, data);
			const statuses = sandbox.requests({ endpoint: 'airports' }).map((request) => request.status);
			expect(statuses[0]).toBe(429);
			expect(statuses.slice(1).every((status) => status === 200)).toBe(true);
		},
		after: (sandbox) => sandbox.resetFaults(),
	},
	{
		title: 'Hotel Demand gives one row per hotel and date of the chosen range, with the values of the three tables',
		workflowId: 'e2eHotelDemand01',
		check(run, { sandbox }) {
			const rows = outputOf(run, 'Hotel Demand');
			const result = sandbox.data.demand.result(DEMAND_ID);
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
		},
	},
	{
		title: "Shop Update replaces the shop's configuration with the fields as the service expects them",
		workflowId: 'e2eShopUpdate001',
		check(run, { sandbox }) {
			const [result] = outputOf(run, 'Shop Update');
			expect(result).toMatchObject({ shopId: SHOP_ID });
			expect(sandbox.data.shops.get(SHOP_ID)?.config).toEqual({
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
		},
	},
];

/** Runs one case: its sandbox preparation, the run the suite makes, its checks, then its cleanup. */
export async function runOperationCase(
	item: OperationCase,
	context: OperationContext,
	run: (workflowId: string) => Promise<WorkflowRun>,
): Promise<WorkflowRun> {
	item.before?.(context.sandbox);
	try {
		const result = await run(item.workflowId);
		await item.check(result, context);
		return result;
	} finally {
		item.after?.(context.sandbox);
	}
}

function mostCommon(values: string[]): string {
	const counts = new Map<string, number>();
	for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
	return [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
}

/** The service's own count of events for a filter (pageInfo.totalRecords), asked directly. */
async function eventTotal(sandbox: Sandbox, filters: Record<string, unknown>): Promise<number> {
	const response = await fetch(`${sandbox.baseUrl}/eventimpact/?eventsImpactPerPage=1&pageNumber=1`, {
		method: 'POST',
		headers: { authorization: `Bearer ${sandbox.credentials.accessToken}`, 'content-type': 'application/json' },
		body: JSON.stringify(filters),
	});
	const body = (await response.json()) as { pageInfo: { totalRecords: number } };
	return body.pageInfo.totalRecords;
}
