import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { credentialsFor, runNode, useSandbox } from '../harness';

/**
 * A date means one thing in every node: a day in the workflow's timezone (Settings > Timezone).
 * The same value, in workflows set 14 hours ahead of UTC and 11 hours behind, lands on the same
 * day whether Event Impact sends it, Schedule stores it or Hotel Demand filters by it.
 */

const sandbox = useSandbox();

beforeEach(() => {
	sandbox.reset();
});

const cases: Array<[timezone: string, value: string, day: string]> = [
	// An instant: 10:30 UTC is already the next day at +14 and still the day before at -11.
	['Pacific/Kiritimati', '2027-01-15T10:30:00Z', '2027-01-16'],
	['Pacific/Pago_Pago', '2027-01-15T10:30:00Z', '2027-01-14'],
	['Pacific/Pago_Pago', '2027-01-15T00:30:00+14:00', '2027-01-13'],
	// What the date picker gives: a wall time in the workflow's timezone, so the day as written.
	['Pacific/Kiritimati', '2027-01-15T00:30:00', '2027-01-15'],
	['Pacific/Pago_Pago', '2027-01-15T23:30:00', '2027-01-15'],
	['Pacific/Kiritimati', '2027-01-15', '2027-01-15'],
];

async function run(nodeType: string, parameters: INodeParameters, timezone: string) {
	const result = await runNode({ nodeType, parameters, credentials: credentialsFor(sandbox), timezone });
	expect(result.error).toBeUndefined();
	return result;
}

describe.each(cases)('in a workflow set to %s, %s is %s', (timezone, value, day) => {
	it('in Event Impact\'s Start Date', async () => {
		await run('travelPricingEventImpact', { returnAll: false, limit: 1, filters: { startDate: value } }, timezone);
		const sent = sandbox.requests({ endpoint: 'eventimpact' }).map((request) => (request.body as IDataObject).startDate);
		expect(sent).toEqual([day]);
	});

	it('in Schedule\'s Start Date and End Date', async () => {
		await run(
			'travelPricingSchedule',
			{ operation: 'create', name: 'Timezone check', rateShopId: '42', hours: '6', startDate: value, endDate: value },
			timezone,
		);
		const [request] = sandbox.requests({ endpoint: 'schedule' });
		expect(request.body).toMatchObject({ startdate: day, enddate: day });
	});

	it('in Hotel Demand\'s From Date and To Date', async () => {
		const result = await run(
			'travelPricingHotelDemand',
			{ demandId: '1001', options: { fromDate: value, toDate: value } },
			timezone,
		);
		expect(sandbox.requests({ endpoint: 'hoteldemanddata' })).toHaveLength(1);
		expect(result.items.length).toBeGreaterThan(0);
		expect([...new Set(result.items.map((item) => item.json.date))]).toEqual([day]);
	});
});
