import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { ColumnSpec } from '../../nodes/RateChanges/dataTables';
import { CHANGES_COLUMNS, CHANGES_TABLE_DEFAULT, RATES_COLUMNS, RATES_TABLE_DEFAULT } from '../../nodes/RateChanges/tables';
import { runNode } from '../harness';
import { startFakeN8nApi, type FakeN8nApi } from '../harness/fakeN8nApi';
import { rateRecord } from '../rate-trigger/fixtures';

/**
 * Detect Changes in n8n's engine, against a fake of n8n's Data Tables API (test/harness/fakeN8nApi.ts):
 * what reaches the API, and what the user reads when something is wrong. The e2e suite runs the
 * node against n8n's real API.
 */

const DETECT: INodeParameters = {
	operation: 'detectChanges',
	rateField: 'onsiteRate',
	includeFirstSeen: true,
	ratesTable: RATES_TABLE_DEFAULT,
	changesTable: CHANGES_TABLE_DEFAULT,
	options: {},
};

const BOTH_TABLES = { [RATES_TABLE_DEFAULT]: RATES_COLUMNS, [CHANGES_TABLE_DEFAULT]: CHANGES_COLUMNS };

let api: FakeN8nApi | undefined;

afterEach(async () => {
	// Closed under a request still in flight, the node would retry it after the test.
	await api?.settled();
	await api?.close();
	api = undefined;
});

async function startApi(tables: Record<string, readonly ColumnSpec[]> = BOTH_TABLES): Promise<FakeN8nApi> {
	api = await startFakeN8nApi(tables);
	return api;
}

async function detect(items: IDataObject[], { apiKey = api?.apiKey, continueOnFail = false } = {}) {
	return await runNode({
		nodeType: 'travelPricingRateChanges',
		parameters: DETECT,
		items,
		credentials: { travelPricingN8nApi: { baseUrl: api?.baseUrl ?? '', apiKey: apiKey ?? '' } },
		continueOnFail,
	});
}

function without(field: string, overrides: IDataObject = {}): IDataObject {
	const record = rateRecord(overrides);
	delete record[field];
	return record as IDataObject;
}

/** Two stays of one hotel, one record each. */
const valid = (guests: number) => rateRecord({ guests }) as IDataObject;

describe('a record Detect Changes cannot read stops the node before any request', () => {
	it.each([
		['hotelCode "abc"', [valid(2), rateRecord({ hotelCode: 'abc' }) as IDataObject], /^Invalid hotelCode "abc" in item 1: must be a whole number of 1 or more$/],
		['no dtCollected', [without('dtCollected'), valid(2)], /^Invalid dtCollected \(empty\) in item 0: must be an ISO 8601 timestamp/],
		['no onsiteRate', [valid(2), valid(3), without('onsiteRate')], /^Invalid onsiteRate \(empty\) in item 2: is required: the rate to compare$/],
	])('names the field and the item of a record with %s', async (_, items, message) => {
		const fake = await startApi();
		const result = await detect(items);
		expect(result.items).toEqual([]);
		expect(result.error?.message).toMatch(message);
		await fake.settled();
		expect(fake.requests).toEqual([]);
	});

	it('names the first bad item when there are several', async () => {
		const fake = await startApi();
		const result = await detect([valid(2), rateRecord({ los: 0 }) as IDataObject, rateRecord({ hotelCode: 'abc' }) as IDataObject]);
		expect(result.error?.message).toMatch(/^Invalid los "0" in item 1:/);
		await fake.settled();
		expect(fake.requests).toEqual([]);
	});
});

describe('with On Error: Continue, a record it cannot read becomes an error item and the others go on', () => {
	it('puts out error items naming the field and item, in item order among the changes of the good records', async () => {
		const fake = await startApi();
		const result = await detect([valid(2), rateRecord({ hotelCode: 'abc' }) as IDataObject, valid(3), without('dtCollected', { guests: 4 })], { continueOnFail: true });
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		expect(result.items[0].json).toMatchObject({ ...valid(2), changeType: 'firstSeen', rate: 142.5, previousRate: null });
		expect(result.items[1].json).toEqual({ error: expect.stringMatching(/^Invalid hotelCode "abc" in item 1:/) });
		expect(result.items[2].json).toMatchObject({ ...valid(3), changeType: 'firstSeen' });
		expect(result.items[3].json).toEqual({ error: expect.stringMatching(/^Invalid dtCollected \(empty\) in item 3:/) });

		// Only the good records' stays reach the tables, each request with the credential's key.
		const inserts = fake.requests.filter((request) => request.method === 'POST');
		const stayKeys = inserts.map((request) => ((request.body as { data: IDataObject[] }).data ?? []).map((row) => row.stayKey));
		expect(stayKeys).toEqual([
			['100001|2|2025-04-10|1|2|Double', '100001|2|2025-04-10|1|3|Double'],
			['100001|2|2025-04-10|1|2|Double', '100001|2|2025-04-10|1|3|Double'],
		]);
		expect(fake.requests.every((request) => request.apiKey === fake.apiKey && request.path.startsWith('/api/v1/data-tables'))).toBe(true);
	});
});

describe('an API key n8n refuses names the credential field to fix, and never shows the key', () => {
	it('tells the user to check the API Key of the "Travel Pricing n8n API" credential', async () => {
		const fake = await startApi();
		const refusedKey = 'n8n_api_revoked-7c21d9e0';
		const result = await detect([valid(2)], { apiKey: refusedKey });
		expect(result.error?.message).toBe('n8n refused the API key');
		expect(result.error?.description).toContain('Check the API Key field of the "Travel Pricing n8n API" credential');
		// The key did go out, so its absence below is the node's doing, not an empty request.
		await fake.settled();
		// One lookup per table, each refused once: a refused key is not tried again.
		expect(fake.requests.map((request) => `${request.method} ${request.path} ${request.apiKey}`)).toEqual([
			`GET /api/v1/data-tables ${refusedKey}`,
			`GET /api/v1/data-tables ${refusedKey}`,
		]);
		const shown = [result.error?.message, result.error?.description, JSON.stringify(result.run.data.resultData)].join('\n');
		expect(shown).not.toContain(refusedKey);
	});
});

describe('an n8n whose public API has no Data Tables (n8n 1.x) is refused with the n8n version the node needs', () => {
	it('names n8n 2.8 as the minimum when listing tables answers 404, as n8n 1.123 does', async () => {
		// n8n 1.123's public API answers every /data-tables request so.
		const n8n1x = http.createServer((_request, response) => {
			response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"not found"}');
		});
		await new Promise<void>((resolve) => n8n1x.listen(0, '127.0.0.1', resolve));
		try {
			const result = await runNode({
				nodeType: 'travelPricingRateChanges',
				parameters: DETECT,
				items: [valid(2)],
				credentials: { travelPricingN8nApi: { baseUrl: `http://127.0.0.1:${(n8n1x.address() as AddressInfo).port}`, apiKey: 'n8n_api_key' } },
			});
			expect(result.error?.message).toBe("n8n's public API has no Data Tables at this address: Rate Changes needs n8n 2.8 or later");
			expect(result.error?.description).toContain('(n8n 1.x has none)');
		} finally {
			await new Promise((resolve) => n8n1x.close(resolve));
		}
	});
});

describe('a table without the node\'s columns is named with the field and the column to fix', () => {
	it('names the table, its field and each missing or mistyped column, and writes nothing', async () => {
		const rates = RATES_COLUMNS.filter((column) => column.name !== 'dtCollected').map((column) =>
			column.name === 'hotelCode' ? { ...column, type: 'string' as const } : column,
		);
		const fake = await startApi({ [RATES_TABLE_DEFAULT]: rates, [CHANGES_TABLE_DEFAULT]: CHANGES_COLUMNS });
		const result = await detect([valid(2)]);
		expect(result.error?.message).toBe(
			`The data table "${RATES_TABLE_DEFAULT}" (Rates Table) does not have the columns this node keeps: column "hotelCode" is string, not number; no column "dtCollected" (string)`,
		);
		expect(result.error?.description).toContain('"Rates Table"');
		await fake.settled();
		expect(fake.requests.filter((request) => request.path.endsWith('/rows'))).toEqual([]);
	});
});
