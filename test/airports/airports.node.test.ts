import type { IDataObject } from 'n8n-workflow';

import { credentialsFor, runNode, useSandbox } from '../harness';

const sandbox = useSandbox();

beforeEach(() => {
	sandbox.resetFaults();
	sandbox.clearRequests();
});

async function findAirports(parameters: IDataObject, items: IDataObject[] = [{}], continueOnFail = false) {
	return await runNode({
		nodeType: 'travelPricingAirports',
		parameters: { returnAll: true, ...parameters },
		items,
		credentials: credentialsFor(sandbox),
		continueOnFail,
	});
}

const airportRequests = () => sandbox.requests({ endpoint: 'airports' });

describe('codes are sent upper-case and comma-separated in one codes parameter', () => {
	it('finds the airports of lowercase codes separated by commas and spaces', async () => {
		const result = await findAirports({ codes: 'jfk, lhr cdg' });
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.airportCode).sort()).toEqual(['CDG', 'JFK', 'LHR']);
		expect(airportRequests()).toHaveLength(1);
		expect(airportRequests()[0].query).toEqual({ page: '1', size: '100', codes: 'JFK,LHR,CDG' });
		expect(airportRequests()[0].credential).toBe('apiKey');
	});

	it('pages through the airports of several codes', async () => {
		const result = await findAirports({ codes: 'JFK,LHR,CDG', options: { pageSize: 2 } });
		expect(result.items.map((item) => item.json.airportCode).sort()).toEqual(['CDG', 'JFK', 'LHR']);
		expect(airportRequests().map((request) => request.query.page).sort()).toEqual(['1', '2']);
	});

	it('gives one item per airport with the fields of the reference', async () => {
		const result = await findAirports({ codes: 'JFK' });
		expect(result.items).toEqual([
			{
				json: {
					_id: expect.any(String),
					id: expect.any(String),
					airportName: 'John F. Kennedy International Airport',
					city: 'New York',
					airportCode: 'JFK',
					isActiveStatus: expect.any(Boolean),
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	it('looks up the codes of each input item on their own', async () => {
		const result = await findAirports({ codes: '={{ $json.codes }}' }, [{ codes: 'JFK' }, { codes: 'lhr' }]);
		expect(result.items.map((item) => [item.json.airportCode, item.pairedItem])).toEqual([
			['JFK', { item: 0 }],
			['LHR', { item: 1 }],
		]);
	});
});

describe('invalid codes stop the node before any request, naming field, value and item', () => {
	it.each([['JFKX'], ['J1K'], ['JFK-LHR']])('refuses %p', async (codes) => {
		const result = await findAirports({ codes: '={{ $json.codes }}' }, [{ codes: 'JFK' }, { codes }]);
		expect(result.error?.message).toContain(`Invalid Codes "${codes}" in item 1`);
		// Every item is checked before the first request: not even the good item 0 was sent.
		expect(airportRequests()).toEqual([]);
	});

	it('with On Error: Continue, a bad item becomes an error item and the others go on', async () => {
		const result = await findAirports({ codes: '={{ $json.codes }}' }, [{ codes: 'JF' }, { codes: 'LHR' }], true);
		expect(result.items).toEqual([
			{ json: { error: expect.stringContaining('Invalid Codes "JF" in item 0') }, pairedItem: { item: 0 } },
			expect.objectContaining({ json: expect.objectContaining({ airportCode: 'LHR' }), pairedItem: { item: 1 } }),
		]);
	});
});

describe('Return All returns exactly the service\'s total, with no duplicates and no gaps', () => {
	const allIds = () => sandbox.data.airports.map((airport) => airport.id);

	it('reads every page of the whole reference in the service\'s order', async () => {
		const result = await findAirports({ options: { pageSize: 100 } });
		expect(result.items.map((item) => item.json.id)).toEqual(allIds());
		expect(airportRequests()).toHaveLength(Math.ceil(allIds().length / 100));
	});

	it('still does when 30% of the requests are answered 429 or 500', async () => {
		sandbox.setFaults({ endpoints: { airports: { p429: 0.15, p500: 0.15, retryAfterSeconds: 0 } } });
		const result = await findAirports({ options: { pageSize: 100, maxAttempts: 10, maxRetryWaitSeconds: 30 } });
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.id)).toEqual(allIds());
		const statuses = airportRequests().map((request) => request.status);
		expect(statuses).toContain(429);
		expect(statuses).toContain(500);
	});
});

describe('Limit makes no more requests than it needs', () => {
	it('stops after the pages that hold the limit', async () => {
		const result = await findAirports({ returnAll: false, limit: 150, options: { pageSize: 100 } });
		expect(result.items.map((item) => item.json.id)).toEqual(sandbox.data.airports.slice(0, 150).map((airport) => airport.id));
		expect(airportRequests()).toHaveLength(2);
	});

	it('asks for only as many airports as the limit when it is below a page', async () => {
		const result = await findAirports({ returnAll: false, limit: 3 });
		expect(result.items).toHaveLength(3);
		expect(airportRequests().map((request) => request.query)).toEqual([{ page: '1', size: '3' }]);
	});
});
