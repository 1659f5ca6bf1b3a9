import type { IHttpRequestOptions, ILoadOptionsFunctions, INode } from 'n8n-workflow';

import { airportListItem, airportMatches, searchAirportLocations } from '../../nodes/ShopUpdate/airportLocations';
import type { Airport } from '../../nodes/shared/airports';

function airport(airportCode: string, airportName: string, city: string, isActiveStatus = true): Airport {
	return { _id: `id-${airportCode}`, id: airportCode, airportCode, airportName, city, isActiveStatus };
}

/** Three pages of two airports, as GET /api/v1/references/airports would page them. */
const AIRPORTS = [
	airport('JFK', 'John F. Kennedy International', 'New York'),
	airport('LGA', 'LaGuardia', 'New York'),
	airport('LHR', 'Heathrow', 'London'),
	airport('LGW', 'Gatwick', 'London'),
	airport('CDG', 'Charles de Gaulle', 'Paris'),
	airport('XXX', 'Closed Field', 'Nowhere', false),
];

/** Just enough of n8n's load-options context for apiRequest: the node, its credentials, HTTP. */
function loadOptionsContext(credentials: INode['credentials']) {
	const requests: IHttpRequestOptions[] = [];
	const node: INode = {
		id: '1',
		name: 'Shop Update',
		type: 'n8n-nodes-travel-pricing.travelPricingShopUpdate',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials,
	};
	const context = {
		getNode: () => node,
		getCredentials: async () => ({ baseUrl: 'https://service.example', apiKey: 'key' }),
		helpers: {
			httpRequestWithAuthentication: async (_type: string, request: IHttpRequestOptions) => {
				requests.push(request);
				const { page, size, codes } = request.qs as { page: number; size: number; codes?: string };
				const matching = codes ? AIRPORTS.filter((a) => codes.split(',').includes(a.airportCode)) : AIRPORTS;
				const pageSize = 2;
				return {
					statusCode: 200,
					headers: {},
					body: {
						error: false,
						airports: matching.slice((page - 1) * pageSize, page * pageSize),
						totalData: matching.length,
						totalPages: Math.max(1, Math.ceil(matching.length / pageSize)),
						page,
						size,
					},
				};
			},
		},
	} as unknown as ILoadOptionsFunctions;
	return { context, requests };
}

const withAirportsKey = { travelPricingApi: { id: '1', name: 'Token' }, travelPricingAirportsApi: { id: '2', name: 'Key' } };

describe('the airport list needs the airports credential and says so when it is missing', () => {
	it('asks for the credential instead of failing with a bare 401', async () => {
		const { context, requests } = loadOptionsContext({ travelPricingApi: { id: '1', name: 'Token' } });
		await expect(searchAirportLocations.call(context)).rejects.toThrow(
			'Searching airports needs a Travel Pricing Airports API credential',
		);
		expect(requests).toHaveLength(0);
	});
});

describe('the airport list pages through the reference', () => {
	it('lists the first page and hands back a token for the next', async () => {
		const { context, requests } = loadOptionsContext(withAirportsKey);
		const first = await searchAirportLocations.call(context);
		expect(first.results.map((r) => r.value)).toEqual(['JFK', 'LGA']);
		expect(first.paginationToken).toBe('2');
		expect(requests[0].url).toBe('https://service.example/api/v1/references/airports');

		const last = await searchAirportLocations.call(context, undefined, '3');
		expect(last.results.map((r) => r.value)).toEqual(['CDG', 'XXX']);
		expect(last.paginationToken).toBeUndefined();
	});
});

describe('typing a code finds that airport through the service', () => {
	it('sends a three-letter filter as codes, in capitals', async () => {
		const { context, requests } = loadOptionsContext(withAirportsKey);
		const found = await searchAirportLocations.call(context, 'lhr');
		expect(found.results).toEqual([{ name: 'LHR – Heathrow, London', value: 'LHR' }]);
		expect(requests[0].qs).toMatchObject({ codes: 'LHR', page: 1 });
	});
});

describe('typing a name or city matches it page by page', () => {
	it('reads on until a page has a match', async () => {
		const { context, requests } = loadOptionsContext(withAirportsKey);
		const found = await searchAirportLocations.call(context, 'paris');
		expect(found.results.map((r) => r.value)).toEqual(['CDG']);
		expect(requests.map((r) => (r.qs as { page: number }).page)).toEqual([1, 2, 3]);
	});

	it('matches code, name and city regardless of case', () => {
		const heathrow = AIRPORTS[2];
		expect(['lhr', 'HEATH', 'london'].every((text) => airportMatches(heathrow, text))).toBe(true);
		expect(airportMatches(heathrow, 'paris')).toBe(false);
	});
});

describe('each airport shows its code, name and city, and its code is the value sent', () => {
	it('labels an inactive airport as such', () => {
		expect(airportListItem(AIRPORTS[5])).toEqual({ name: 'XXX – Closed Field, Nowhere (inactive)', value: 'XXX' });
	});
});
