import { expectError, useFrozenSandbox } from '../frozenSandbox';

const { sandbox, airportsApi } = useFrozenSandbox();

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
