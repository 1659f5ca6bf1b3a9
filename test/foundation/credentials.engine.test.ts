import { testCredential, useSandbox } from '../harness';

const sandbox = useSandbox();

describe('the Travel Pricing API credential test', () => {
	it('passes with a valid access token', async () => {
		const result = await testCredential('travelPricingApi', { baseUrl: sandbox.baseUrl, accessToken: sandbox.credentials.accessToken });
		expect(result.status).toBe('OK');
	});

	it('passes with a trailing slash in the Base URL', async () => {
		const result = await testCredential('travelPricingApi', { baseUrl: `${sandbox.baseUrl}/`, accessToken: sandbox.credentials.accessToken });
		expect(result.status).toBe('OK');
	});

	it('fails with a wrong token', async () => {
		const result = await testCredential('travelPricingApi', { baseUrl: sandbox.baseUrl, accessToken: 'not-a-token' });
		expect(result.status).toBe('Error');
	});

	it("fails with the token of an account whose validity has expired", async () => {
		const result = await testCredential('travelPricingApi', { baseUrl: sandbox.baseUrl, accessToken: sandbox.credentials.expiredToken });
		expect(result.status).toBe('Error');
	});

	it('makes a real request to the service', async () => {
		sandbox.clearRequests();
		await testCredential('travelPricingApi', { baseUrl: sandbox.baseUrl, accessToken: sandbox.credentials.accessToken });
		expect(sandbox.requests()).toEqual([expect.objectContaining({ status: 200, credential: 'bearer' })]);
	});
});

describe('the Travel Pricing Airports API credential test', () => {
	it('passes with a valid API key, sent with no scheme word', async () => {
		sandbox.clearRequests();
		const result = await testCredential('travelPricingAirportsApi', { baseUrl: `${sandbox.baseUrl}/`, apiKey: sandbox.credentials.apiKey });
		expect(result.status).toBe('OK');
		expect(sandbox.requests()).toEqual([expect.objectContaining({ path: '/api/v1/references/airports', credential: 'apiKey', status: 200 })]);
	});

	it('fails with a wrong key', async () => {
		const result = await testCredential('travelPricingAirportsApi', { baseUrl: sandbox.baseUrl, apiKey: 'wrong-key' });
		expect(result.status).toBe('Error');
	});

	it('fails with the access token in place of the key', async () => {
		const result = await testCredential('travelPricingAirportsApi', { baseUrl: sandbox.baseUrl, apiKey: `Bearer ${sandbox.credentials.accessToken}` });
		expect(result.status).toBe('Error');
	});
});
