import { testCredential, useSandbox } from '../harness';
import { startDataTablesApi, type DataTablesApi } from '../../platform/dataTables';

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

// The sandbox is the travel-pricing service, not an n8n: this credential's Test runs against the
// stand-in for n8n's Data Tables API (platform/dataTables), and the e2e suite tests it in a real n8n.
describe('the Travel Pricing n8n API credential test', () => {
	let n8nApi: DataTablesApi;

	beforeAll(async () => {
		n8nApi = await startDataTablesApi();
	});

	afterAll(async () => {
		await n8nApi.close();
	});

	beforeEach(() => {
		n8nApi.requests.length = 0;
	});

	it('passes with a valid API key, sent in the X-N8N-API-KEY header to the data tables of the Base URL', async () => {
		const result = await testCredential('travelPricingN8nApi', { baseUrl: n8nApi.baseUrl, apiKey: n8nApi.apiKey });
		expect(result.status).toBe('OK');
		// The stand-in answers 401 to any other key or none, as n8n does.
		expect(n8nApi.requests).toEqual([expect.objectContaining({ method: 'GET', path: '/api/v1/data-tables', status: 200 })]);
	});

	it('passes with trailing slashes in the Base URL', async () => {
		const result = await testCredential('travelPricingN8nApi', { baseUrl: `${n8nApi.baseUrl}//`, apiKey: n8nApi.apiKey });
		expect(result.status).toBe('OK');
	});

	it('fails with a key n8n refuses, naming the API Key field', async () => {
		const result = await testCredential('travelPricingN8nApi', { baseUrl: n8nApi.baseUrl, apiKey: 'n8n_api_revoked' });
		expect(result).toEqual({ status: 'Error', message: 'n8n refused this API key (or it has expired): check the API Key field' });
	});

	it('names the Base URL field when no n8n API answers there', async () => {
		const result = await testCredential('travelPricingN8nApi', { baseUrl: `${n8nApi.baseUrl}/n8n`, apiKey: n8nApi.apiKey });
		expect(result).toEqual({
			status: 'Error',
			message:
				'No n8n public API with Data Tables answers at this Base URL: check the n8n Base URL field, that the public API is enabled, and that n8n is 2.8 or later',
		});
	});
});
