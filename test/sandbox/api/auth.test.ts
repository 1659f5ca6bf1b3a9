import { client, expectError, useFrozenSandbox } from '../frozenSandbox';

const { sandbox, api, airportsApi } = useFrozenSandbox();

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
