import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject } from 'n8n-workflow';

import type { RequestInfo } from '../../platform/dataTables';
import { RATES_COLUMNS, RATES_TABLE_DEFAULT } from '../../nodes/RateChanges/storage/tables';
import { runNode } from '../harness';
import { rateRecord } from '../harness/rateRecords';

import { DETECT, DIGEST, runRateChanges, useStandIn, withStandIn } from '../harness/standIn';

/**
 * What a user reads when something is wrong, Detect Changes run in n8n's engine against the
 * stand-in for n8n's Data Tables API: bad records are found before any request, n8n's refusals
 * name what to fix, and the API key shows nowhere.
 */

const api = useStandIn();

function without(field: string, overrides: IDataObject = {}): IDataObject {
	const record = rateRecord(overrides);
	delete record[field];
	return record as IDataObject;
}

const valid = (guests: number) => rateRecord({ guests }) as IDataObject;

describe('a record Detect Changes cannot read stops the node before any request', () => {
	it.each([
		['hotelCode "abc"', [valid(2), rateRecord({ hotelCode: 'abc' }) as IDataObject], /^Invalid hotelCode "abc" in item 1: must be a whole number of 1 or more$/],
		['no dtCollected', [without('dtCollected'), valid(2)], /^Invalid dtCollected \(empty\) in item 0: must be an ISO 8601 timestamp/],
		['no onsiteRate', [valid(2), valid(3), without('onsiteRate')], /^Invalid onsiteRate \(empty\) in item 2: is required: the rate to compare$/],
	])('names the field and the item of a record with %s', async (_, items, message) => {
		const result = await runRateChanges(api, DETECT, items);
		expect(result.items).toEqual([]);
		expect(result.error?.message).toMatch(message);
		await api.settled();
		expect(api.requests).toEqual([]);
	});
});

describe('with On Error: Continue, a record it cannot read becomes an error item and the others go on', () => {
	it('puts out error items naming the field and item, in item order among the changes of the good records', async () => {
		const parameters = { ...DETECT, includeFirstSeen: true };
		const result = await runRateChanges(api, parameters, [valid(2), rateRecord({ hotelCode: 'abc' }) as IDataObject, valid(3), without('dtCollected', { guests: 4 })], { continueOnFail: true });
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		expect(result.items[0].json).toMatchObject({ ...valid(2), changeType: 'firstSeen', rate: 142.5, previousRate: null });
		expect(result.items[1].json).toEqual({ error: expect.stringMatching(/^Invalid hotelCode "abc" in item 1:/) });
		expect(result.items[2].json).toMatchObject({ ...valid(3), changeType: 'firstSeen' });
		expect(result.items[3].json).toEqual({ error: expect.stringMatching(/^Invalid dtCollected \(empty\) in item 3:/) });
		// Only the good records' stays reach the tables.
		const cells = api.rows(RATES_TABLE_DEFAULT).map((row) => [row.guests, row.rates]);
		expect(cells).toEqual([[2, '10=142.5/130/=!@0'], [3, '10=142.5/130/=!@0']]);
	});
});

describe('an API key n8n refuses names the credential field to fix, and never shows the key', () => {
	it('tells the user to check the API Key of the "Travel Pricing n8n API" credential', async () => {
		const refusedKey = 'n8n_api_revoked-7c21d9e0';
		const result = await runNode({
			nodeType: 'travelPricingRateChanges',
			parameters: DETECT,
			items: [valid(2)],
			credentials: { travelPricingN8nApi: { baseUrl: api.baseUrl, apiKey: refusedKey } },
		});
		expect(result.error?.message).toBe('n8n refused the API key');
		expect(result.error?.description).toContain('Check the API Key field of the "Travel Pricing n8n API" credential');
		await api.settled();
		// Refused once by the credential's scope check, which then stops, and once by the node's own
		// request: a refused key is not tried again.
		expect(api.requests.map((request) => `${request.method} ${request.path} ${request.status}`)).toEqual(['GET /api/v1/data-tables 401', 'GET /api/v1/data-tables 401']);
		const shown = [result.error?.message, result.error?.description, JSON.stringify(result.run.data.resultData)].join('\n');
		expect(shown).not.toContain(refusedKey);
	});

	it("names the scopes the key lacks before anything is written, never the key itself (the credential's check)", async () => {
		await withStandIn(async (scoped) => {
			const result = await runRateChanges(scoped, DETECT, [valid(2)]);
			expect(result.error?.message).toBe(
				'This API key lacks the scopes dataTable:create, dataTableRow:create, dataTableRow:update, dataTableRow:delete that Rate Changes needs: in n8n, open Settings > n8n API, edit the key and add them',
			);
			expect(result.error?.description).toContain('nothing was sent');
			await scoped.settled();
			expect(scoped.requests).toHaveLength(6);
			expect(scoped.tables()).toEqual([]);
			expect(JSON.stringify(result.run.data.resultData)).not.toContain(scoped.apiKey);
		}, { scopes: ['dataTable:list', 'dataTableRow:read'], enforceScopes: true });
	});
});

describe('an n8n whose public API has no Data Tables (n8n 1.x) is refused with the n8n version the node needs', () => {
	it('names n8n 2.8 as the minimum when listing tables answers 404, as n8n 1.123 does', async () => {
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

describe("a table without the node's columns is named with the field and the column to fix", () => {
	it('names the table, its field and each missing or mistyped column, and writes nothing', async () => {
		const columns = RATES_COLUMNS.filter((column) => column.name !== 'writers').map((column) => (column.name === 'hotelCode' ? { ...column, type: 'string' as const } : column));
		api.seed(RATES_TABLE_DEFAULT, columns);
		const result = await runRateChanges(api, DETECT, [valid(2)]);
		expect(result.error?.message).toBe(
			`The data table "${RATES_TABLE_DEFAULT}" (Rates Table) does not have the columns this node keeps: column "hotelCode" is string, not number; no column "writers" (string)`,
		);
		expect(result.error?.description).toContain('"Rates Table"');
		await api.settled();
		// The credential's scope check tries an insert into a table that does not exist (404).
		expect(api.requests.filter((request) => request.path.endsWith('/rows') && request.method !== 'GET' && request.status !== 404)).toEqual([]);
	});
});

describe('an answer n8n never sent back is not taken for an unreachable n8n', () => {
	it('says n8n may have stored the write when every attempt loses its answer; at the clean-up that costs no alert, and the digest says it', async () => {
		await runRateChanges(api, { ...DETECT, includeFirstSeen: false }, [valid(2)]);
		// The next day's first execution claims the day's clean-up of each table it writes: every attempt at the first claim loses its answer.
		let lost = 0;
		let first: string | undefined;
		const claimOf = (request: RequestInfo) => (request.operation === 'updateRows' && JSON.stringify(request.body).includes('"collectedTo"') ? JSON.stringify((request.body as IDataObject).filter) : undefined);
		api.plan((request) => {
			const claim = claimOf(request);
			first ??= claim;
			return claim !== undefined && claim === first && lost++ < 5 ? 'lostAfterCommit' : undefined;
		});
		const result = await runRateChanges(api, DETECT, [rateRecord({ guests: 2, onsiteRate: 200, dtCollected: '2025-03-02T06:30:00Z' }) as IDataObject]);
		api.plan(undefined);
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.changeType)).toEqual(['up']);
		const digest = await runRateChanges(api, DIGEST, [{}]);
		const text = digest.items.map((item) => String(item.json.text)).join('\n');
		expect(text).toMatch(/could not run \(n8n's answer to PATCH \/data-tables\/\w+\/rows\/update was lost 5 times: n8n may have stored it\)/);
		expect(text).not.toContain('Base URL');
	}, 60_000);
});
