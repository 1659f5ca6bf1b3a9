import { testCredential, useSandbox } from '../harness';
import { startDataTablesApi, type DataTablesApi, type DataTablesApiOptions } from '../../platform/dataTables';
import { DATA_TABLE_SCOPES } from '../../nodes/RateChanges/storage/dataTables';

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
		// The six scope probes of its preAuthentication, then the Test's own request.
		expect(n8nApi.requests).toHaveLength(7);
		expect(n8nApi.requests.filter((request) => !request.path.startsWith('/api/v1/data-tables') || request.status === 401)).toEqual([]);
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

// n8n 2.41 checks a key's scopes on every request of its public API (2.8.4 only with an enterprise
// licence); the stand-in does as each version does.
describe("the Travel Pricing n8n API credential test tries each scope Rate Changes needs, and names the ones the key lacks", () => {
	const lacking = (...scopes: string[]) => DATA_TABLE_SCOPES.filter((scope) => !scopes.includes(scope));

	async function testWith(scopes: readonly string[], options: DataTablesApiOptions = {}) {
		const api = await startDataTablesApi({ scopes, ...options });
		try {
			const result = await testCredential('travelPricingN8nApi', { baseUrl: api.baseUrl, apiKey: api.apiKey });
			return { result, requests: [...api.requests], tables: api.tables() };
		} finally {
			await api.close();
		}
	}

	it('passes a key with all six data table scopes, with one harmless request for each that changes nothing', async () => {
		const { result, requests, tables } = await testWith(DATA_TABLE_SCOPES);
		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(requests.map(({ operation, status }) => `${operation} ${status}`).sort()).toEqual(
			[
				'listTables 200', // dataTable:list
				'createTable 400', // dataTable:create: a blank name, refused after the scope check
				'readRows 404', // dataTableRow:read, and the row scopes below: a table that does not exist
				'insertRows 404',
				'updateRows 404',
				'deleteRows 404',
				'listTables 200', // the Test's own request
			].sort(),
		);
		expect(requests.some((request) => request.committed)).toBe(false);
		expect(tables).toEqual([]);
	});

	it('names the one scope missing, dataTableRow:delete, and where to add it', async () => {
		const { result } = await testWith(lacking('dataTableRow:delete'));
		expect(result).toEqual({
			status: 'Error',
			message: 'This API key lacks the scope dataTableRow:delete that Rate Changes needs: in n8n, open Settings > n8n API, edit the key and add it',
		});
	});

	it.each(DATA_TABLE_SCOPES.map((scope) => [scope]))('names %s when the key lacks only that scope', async (scope) => {
		const { result } = await testWith(lacking(scope));
		expect(result.status).toBe('Error');
		expect(result.message).toContain(`lacks the scope ${scope} that`);
	});

	it('names every scope missing, in the order the node page lists them, and never the key', async () => {
		const api = await startDataTablesApi({ scopes: ['dataTableRow:read', 'dataTable:create'] });
		try {
			const result = await testCredential('travelPricingN8nApi', { baseUrl: api.baseUrl, apiKey: api.apiKey });
			expect(result.message).toBe(
				'This API key lacks the scopes dataTable:list, dataTableRow:create, dataTableRow:update, dataTableRow:delete that Rate Changes needs: in n8n, open Settings > n8n API, edit the key and add them',
			);
			expect(result.message).not.toContain(api.apiKey);
		} finally {
			await api.close();
		}
	});

	it('says nothing extra where keys carry every scope (n8n 2.8.4 without an enterprise licence)', async () => {
		const { result } = await testWith(lacking('dataTableRow:delete'), { version: '2.8.4' });
		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
	});

	it("checks nothing when nothing listens there, and the Test's request gives n8n's word for it", async () => {
		const api = await startDataTablesApi();
		const { baseUrl } = api;
		await api.close();
		const result = await testCredential('travelPricingN8nApi', { baseUrl, apiKey: 'n8n_api_key' });
		expect(result).toEqual({ status: 'Error', message: 'ECONNREFUSED' });
	});
});
