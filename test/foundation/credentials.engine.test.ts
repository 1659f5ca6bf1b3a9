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
		expect(result).toEqual({
			status: 'Error',
			message: "The service refused this access token, or the account's validity has expired: check the Access Token field",
		});
	});

	it("fails with the token of an account whose validity has expired", async () => {
		const result = await testCredential('travelPricingApi', { baseUrl: sandbox.baseUrl, accessToken: sandbox.credentials.expiredToken });
		expect(result.status).toBe('Error');
	});

	it('names the Base URL when nothing answers there', async () => {
		const result = await testCredential('travelPricingApi', { baseUrl: `${sandbox.baseUrl}/v9`, accessToken: sandbox.credentials.accessToken });
		expect(result).toEqual({
			status: 'Error',
			message: 'The service was not found at this Base URL (/eventimpact/ answered 404): check the Base URL field',
		});
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
		expect(result).toEqual({
			status: 'Error',
			message: "The service refused this API key, or the account's validity has expired: check the API Key field",
		});
	});

	it('fails with the access token in place of the key', async () => {
		const result = await testCredential('travelPricingAirportsApi', { baseUrl: sandbox.baseUrl, apiKey: `Bearer ${sandbox.credentials.accessToken}` });
		expect(result.status).toBe('Error');
	});
});
