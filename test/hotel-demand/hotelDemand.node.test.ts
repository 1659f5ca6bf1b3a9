import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { credentialsFor, runNode, useSandbox } from '../harness';
import type { Sandbox } from '../../platform/sandbox';

const sandbox = useSandbox();

beforeEach(() => {
	sandbox.clearRequests();
});

async function getDemand(parameters: INodeParameters, items: IDataObject[] = [{}], continueOnFail = false) {
	return await runNode({
		nodeType: 'travelPricingHotelDemand',
		parameters,
		items,
		credentials: credentialsFor(sandbox),
		continueOnFail,
	});
}

const demandRequests = () => sandbox.requests({ endpoint: 'hoteldemanddata' });

function raw(demandId: number) {
	return sandbox.data.demand.result(demandId) as NonNullable<ReturnType<Sandbox['data']['demand']['result']>>;
}

function consecutiveDays(first: string, count: number): string[] {
	const start = Date.parse(`${first}T00:00:00Z`);
	return Array.from({ length: count }, (_, i) => new Date(start + i * 86_400_000).toISOString().slice(0, 10));
}

describe('Per Hotel and Date gives one item per hotel and date, joining the three tables', () => {
	it('turns 100 hotels x 90 dd/mm/yyyy dates into 9,000 tidy rows', async () => {
		const result = await getDemand({ demandId: '1001' });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(9000);

		const absolute = raw(1001)['Absolute_Value.json'];
		const days = consecutiveDays('2026-12-01', 90);
		expect(result.items.slice(0, 90).map((item) => item.json.date)).toEqual(days);
		expect(result.items[0]).toEqual({
			json: {
				hotelCode: absolute[0].HotelCode,
				hotelName: absolute[0].HotelName,
				date: '2026-12-01',
				absoluteValue: absolute[0]['01/12/2026'],
				eventsRegistered: raw(1001)['Events_registered.json'][0]['01/12/2026'],
				relativeValue: raw(1001)['Relative_Values.json'][0]['01/12/2026'],
			},
			pairedItem: { item: 0 },
		});
		const last = result.items[8999].json;
		expect(last).toMatchObject({ hotelCode: absolute[99].HotelCode, date: '2027-02-28', absoluteValue: absolute[99]['28/02/2027'] });
		expect(demandRequests()).toHaveLength(1);
	});

	it('reads mm/dd/yyyy dates month first on its own', async () => {
		const result = await getDemand({ demandId: '1002' });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(9000);
		expect(result.items.slice(0, 90).map((item) => item.json.date)).toEqual(consecutiveDays('2026-12-01', 90));
		expect(result.items[12].json.absoluteValue).toBe(raw(1002)['Absolute_Value.json'][0]['12/13/2026']);
	});

	it('keeps a hotel missing from one table, with that table\'s values null', async () => {
		const result = await getDemand({ demandId: '1005' });
		expect(result.items).toHaveLength(9000);
		const missing = result.items.filter((item) => item.json.hotelCode === 100043).map((item) => item.json);
		expect(missing).toHaveLength(90);
		expect(missing.every((row) => row.relativeValue === null && typeof row.absoluteValue === 'number' && typeof row.eventsRegistered === 'number')).toBe(true);
		expect(result.items.filter((item) => item.json.relativeValue === null)).toHaveLength(90);
	});

	it('keeps only the dates from From Date to To Date', async () => {
		const result = await getDemand({ demandId: '1001', options: { fromDate: '2027-01-30', toDate: '2027-02-01T00:00:00' } });
		expect(result.items).toHaveLength(300);
		expect([...new Set(result.items.map((item) => item.json.date))]).toEqual(['2027-01-30', '2027-01-31', '2027-02-01']);
	});
});

describe('the date order is read from the data, never guessed', () => {
	it('stops with an error asking the user to choose when the response cannot tell', async () => {
		const result = await getDemand({ demandId: '1003' });
		expect(result.items).toEqual([]);
		expect(result.error?.message).toMatch(/^Invalid Date Order "Auto" in item 0: the response cannot tell whether ".*" is day first or month first/);
		expect(result.error?.message).toContain('choose Day First or Month First under Options > Date Order');
		expect(result.error?.description).toContain('The service answered');
	});

	it('follows the user\'s choice on a response that cannot tell', async () => {
		const firstKey = Object.keys(raw(1003)['Absolute_Value.json'][0]).find((key) => key.includes('/')) as string;
		const [first, second, year] = firstKey.split('/');
		const monthFirst = await getDemand({ demandId: '1003', options: { dateOrder: 'monthFirst' } });
		const dayFirst = await getDemand({ demandId: '1003', options: { dateOrder: 'dayFirst' } });
		expect(monthFirst.items).toHaveLength(9000);
		expect(monthFirst.items.map((item) => item.json.date)).toContain(`${year}-${first}-${second}`);
		expect(dayFirst.items.map((item) => item.json.date)).toContain(`${year}-${second}-${first}`);
	});

	it('reads a response whose only date has equal day and month', async () => {
		const result = await getDemand({ demandId: '1004' });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(100);
		expect(new Set(result.items.map((item) => item.json.date))).toEqual(new Set(['2026-05-05']));
	});

	it('refuses a chosen order the data contradicts, naming the date', async () => {
		const result = await getDemand({ demandId: '1001', options: { dateOrder: 'monthFirst' } });
		expect(result.error?.message).toMatch(
			/^Invalid Date Order "Month First" in item 0: the service wrote the date "\d\d\/12\/2026", which is not a date with the month first; choose Day First or Auto$/,
		);
	});
});

describe('Per Hotel gives one item per hotel, each table keyed by ISO date', () => {
	it('gives 100 hotels with 90 dates in each table', async () => {
		const result = await getDemand({ demandId: '1001', output: 'hotels' });
		expect(result.items).toHaveLength(100);
		const first = result.items[0].json;
		const table = raw(1001)['Events_registered.json'][0];
		expect(first.hotelCode).toBe(table.HotelCode);
		expect(Object.keys(first.eventsRegistered as IDataObject)).toEqual(consecutiveDays('2026-12-01', 90));
		expect((first.eventsRegistered as IDataObject)['2027-01-15']).toBe(table['15/01/2027']);
	});

	it('gives null for the table a hotel is missing from', async () => {
		const result = await getDemand({ demandId: '1005', output: 'hotels' });
		const hotel = result.items.find((item) => item.json.hotelCode === 100043)?.json;
		expect(hotel?.relativeValue).toBeNull();
		expect(Object.keys(hotel?.absoluteValue as IDataObject)).toHaveLength(90);
	});
});

describe('Event Records gives one item per record with an ISO date', () => {
	it('gives every record of Event_records.json', async () => {
		const records = raw(1001)['Event_records.json'];
		const result = await getDemand({ demandId: '1001', output: 'eventRecords' });
		expect(records.length).toBeGreaterThan(0);
		expect(result.items.map((item) => item.json.id)).toEqual(records.map((record) => record.id));
		const [day, month, year] = records[0].date.split('/');
		expect(result.items[0].json).toEqual({ ...records[0], date: `${year}-${month}-${day}` });
	});

	it('keeps only the records inside the date range', async () => {
		const result = await getDemand({ demandId: '1001', output: 'eventRecords', options: { toDate: '2026-12-31' } });
		expect(result.items.length).toBeGreaterThan(0);
		expect(result.items.every((item) => (item.json.date as string) <= '2026-12-31')).toBe(true);
	});
});

describe('Raw gives the response as it came', () => {
	it('gives one item holding the four members unchanged', async () => {
		const result = await getDemand({ demandId: '1003', output: 'raw' });
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toEqual(raw(1003));
	});
});

describe('a bad Demand ID stops the item before any request', () => {
	it.each([['abc'], ['0'], ['12.5'], ['']])('refuses %p', async (demandId) => {
		const result = await getDemand({ demandId: '={{ $json.id }}' }, [{ id: demandId }]);
		expect(result.error?.message).toContain('Invalid Demand ID');
		expect(result.error?.message).toContain('in item 0');
		expect(demandRequests()).toEqual([]);
	});

	it('with On Error: Continue, the bad item becomes an error item and the others go on', async () => {
		const result = await getDemand({ demandId: '={{ $json.id }}', output: 'raw' }, [{ id: 'x' }, { id: 1004 }], true);
		expect(result.items).toHaveLength(2);
		expect(result.items[0]).toEqual({ json: { error: expect.stringContaining('Invalid Demand ID "x" in item 0') }, pairedItem: { item: 0 } });
		expect(result.items[1].pairedItem).toEqual({ item: 1 });
	});

	it('reports the service\'s reason for an unknown demand shop', async () => {
		const result = await getDemand({ demandId: '999' });
		expect(result.error?.message).toContain('unknown demandId 999');
	});
});
