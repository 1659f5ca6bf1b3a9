import { client, MORNING_SCHEDULE, useFrozenSandbox } from './frozenSandbox';

const { sandbox, api, airportsApi, control } = useFrozenSandbox();

describe('request log', () => {
	it('records method, path, query, body, status and which account and credential kind called', async () => {
		await api.post('/hotelinfo', { hotelcode: 100001 });
		await airportsApi.get('/api/v1/references/airports?page=2');
		await client(sandbox.baseUrl, 'Bearer expired-access-token').post('/schedule', MORNING_SCHEDULE);
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
		const created = (await api.post('/schedule', MORNING_SCHEDULE)).data;
		await api.put(`/schedule/${created.scheduleid}`, MORNING_SCHEDULE);
		await api.post('/hotelinfo', { hotelcode: 100001 });
		expect((await control.get('/__sandbox/requests?path=/schedule')).data).toHaveLength(2);
		expect((await control.get('/__sandbox/requests?path=/schedule&method=put')).data).toHaveLength(1);
		expect(sandbox.requests({ path: '/hotelinfo/' })).toHaveLength(1);
		await control.delete('/__sandbox/requests');
		expect(sandbox.requests()).toEqual([]);
	});
});
