/**
 * How every node sends its requests through nodes/shared, proven in the real engine against the
 * real sandbox: numeric options are checked like any field, Retry-After is honoured within the
 * time budget, Concurrency bounds the requests in flight, and a 429 names the node's options.
 * (A dropped connection after a write: transport.engine.test.ts.)
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { DEFAULT_CONCURRENCY } from '../../nodes/shared/concurrency';
import { credentialsFor, DAILY_FROM_2030_SCHEDULE, runNode, useSandbox, VALID_SHOP_UPDATE } from '../harness';
import type { EndpointKey } from '../../platform/sandbox';

const sandbox = useSandbox();

beforeEach(() => {
	sandbox.reset();
});

async function run(nodeType: string, parameters: INodeParameters, items: IDataObject[] = [{}], continueOnFail = false) {
	return await runNode({ nodeType, parameters, items, credentials: credentialsFor(sandbox), continueOnFail });
}

describe('numeric options are checked like every field, before the item sends anything', () => {
	const cases: Array<{
		node: string;
		parameters: INodeParameters;
		option: string;
		label: string;
		endpoint: EndpointKey;
		reason: string;
	}> = [
		{
			node: 'travelPricingEventImpact',
			parameters: { returnAll: false, limit: 2, filters: {} },
			option: 'maxAttempts',
			label: 'Max Attempts',
			endpoint: 'eventimpact',
			reason: 'must be a whole number from 1 to 10',
		},
		{
			node: 'travelPricingEventImpact',
			parameters: { returnAll: false, limit: 2, filters: {} },
			option: 'concurrency',
			label: 'Concurrency',
			endpoint: 'eventimpact',
			reason: 'must be a whole number from 1 to 50',
		},
		{
			node: 'travelPricingAirports',
			parameters: { codes: 'JFK', returnAll: true },
			option: 'pageSize',
			label: 'Page Size',
			endpoint: 'airports',
			reason: 'must be a whole number of 1 or more',
		},
		{
			node: 'travelPricingHotelInfo',
			parameters: { hotelCode: '={{ $json.code }}' },
			option: 'batchSize',
			label: 'Batch Size',
			endpoint: 'hotelinfo',
			reason: 'must be a whole number of 1 or more',
		},
		{
			node: 'travelPricingHotelInfo',
			parameters: { hotelCode: '={{ $json.code }}' },
			option: 'concurrency',
			label: 'Concurrency',
			endpoint: 'hotelinfo',
			reason: 'must be a whole number from 1 to 50',
		},
		{
			node: 'travelPricingHotelDemand',
			parameters: { demandId: '1002', output: 'raw' },
			option: 'maxRetryWaitSeconds',
			label: 'Max Retry Wait (Seconds)',
			endpoint: 'hoteldemanddata',
			reason: 'must be a number of 0 or more',
		},
		{
			node: 'travelPricingSchedule',
			parameters: DAILY_FROM_2030_SCHEDULE,
			option: 'maxAttempts',
			label: 'Max Attempts',
			endpoint: 'schedule',
			reason: 'must be a whole number from 1 to 10',
		},
		{
			node: 'travelPricingShopUpdate',
			parameters: VALID_SHOP_UPDATE,
			option: 'maxRetryWaitSeconds',
			label: 'Max Retry Wait (Seconds)',
			endpoint: 'shops',
			reason: 'must be a number of 0 or more',
		},
	];
	const items = [
		{ code: 100001, value: 2 },
		{ code: 100002, value: 'three' },
		{ code: 100003, value: 3 },
	];

	it.each(cases)('$node: $label from an expression giving text stops the node before any request', async (test) => {
		const result = await run(test.node, { ...test.parameters, options: { [test.option]: '={{ $json.value }}' } }, items);

		expect(result.error?.message).toBe(`Invalid ${test.label} "three" in item 1: ${test.reason}`);
		expect(result.error?.description).toMatch(`Fix the "${test.label}" field`);
		expect(sandbox.requests({ endpoint: test.endpoint })).toEqual([]);
	});

	it.each(cases)('$node: with Continue, that item becomes an error item and the others go on', async (test) => {
		const result = await run(test.node, { ...test.parameters, options: { [test.option]: '={{ $json.value }}' } }, items, true);

		expect(result.error).toBeUndefined();
		const errors = result.items.filter((item) => item.json.error !== undefined);
		expect(errors).toEqual([{ json: { error: `Invalid ${test.label} "three" in item 1: ${test.reason}` }, pairedItem: { item: 1 } }]);
		const served = new Set(result.items.filter((item) => item.json.error === undefined).map((item) => (item.pairedItem as { item: number }).item));
		expect(served).toEqual(new Set([0, 2]));
		expect(sandbox.requests({ endpoint: test.endpoint }).length).toBeGreaterThan(0);
	});

	it('a Max Attempts given as text stops a persistent 429 instead of retrying it for ever', async () => {
		sandbox.setFaults({ eventimpact: { p429: 1, retryAfterSeconds: 0 } });
		const result = await run('travelPricingEventImpact', { returnAll: false, limit: 2, filters: {}, options: { maxAttempts: '={{ "many" }}' } });

		expect(result.error?.message).toBe('Invalid Max Attempts "many" in item 0: must be a whole number from 1 to 10');
		expect(sandbox.requests()).toEqual([]);
	});

	it('a number given as text is read as the number', async () => {
		const result = await run('travelPricingHotelInfo', { hotelCode: '={{ $json.code }}', options: { batchSize: '={{ "1" }}', concurrency: '={{ "2" }}' } }, items);

		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.hotelcode)).toEqual([100001, 100002, 100003]);
		expect(sandbox.requests({ endpoint: 'hotelinfo' }).map((request) => request.body)).toEqual(
			expect.arrayContaining([{ hotelcode: 100001 }, { hotelcode: 100002 }, { hotelcode: 100003 }]),
		);
	});
});

describe('a service that throttles part of a long read does not fail it', () => {
	it('reads 50 pages at 30 % 429 with Retry-After, ten runs in a row, with the default options', async () => {
		const pages = 50;
		const pageSize = Math.ceil(sandbox.data.events.length / pages);
		let throttled = 0;
		for (let round = 1; round <= 10; round++) {
			sandbox.reset();
			sandbox.setFaults({ seed: round, eventimpact: { p429: 0.3, retryAfterSeconds: 0 } });
			const result = await run('travelPricingEventImpact', { returnAll: true, filters: {}, options: { pageSize } });

			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(sandbox.data.events.length);
			const requests = sandbox.requests({ endpoint: 'eventimpact' });
			expect(requests.filter((request) => request.status === 200)).toHaveLength(pages);
			throttled += requests.filter((request) => request.status === 429).length;
		}
		// About 3 in 7 pages answered 429 at least once in all: the fault really fired.
		expect(throttled).toBeGreaterThan(100);
	}, 240_000);

	it('a Retry-After uses up no attempt: six 429s in a row still end in success with Max Attempts 5', async () => {
		sandbox.setFaults({ hotelinfo: { p429: 1, retryAfterSeconds: 0, times: 6 } });
		const result = await run('travelPricingHotelInfo', { hotelCode: '100001', options: {} });

		expect(result.error).toBeUndefined();
		expect(sandbox.requests({ endpoint: 'hotelinfo' }).map((request) => request.status)).toEqual([429, 429, 429, 429, 429, 429, 200]);
	});

	it('Max Retry Wait bounds a service that never relents', async () => {
		sandbox.setFaults({ hotelinfo: { p429: 1, retryAfterSeconds: 1 } });
		const result = await run('travelPricingHotelInfo', { hotelCode: '100001', options: { maxRetryWaitSeconds: 2 } });

		expect(result.error?.message).toBe('The service kept answering 429 Too Many Requests (3 attempts over 2.0 s)');
		expect(sandbox.requests({ endpoint: 'hotelinfo' })).toHaveLength(3);
	});
});

describe('Concurrency is the most requests the node has in flight, across items and pages', () => {
	function pairedOrder(items: Array<{ pairedItem?: unknown }>): number[] {
		return items.map((item) => (item.pairedItem as { item: number }).item);
	}

	it('Event Impact: four searches of many pages each never pass Concurrency 3', async () => {
		sandbox.setFaults({ latencyMs: 20 });
		sandbox.resetStats();
		const result = await run(
			'travelPricingEventImpact',
			{ returnAll: true, filters: {}, options: { pageSize: 500, concurrency: 3 } },
			[{}, {}, {}, {}],
		);

		expect(result.error).toBeUndefined();
		expect(sandbox.requests({ endpoint: 'eventimpact' })).toHaveLength(4 * sandbox.data.events.length / 500);
		expect(sandbox.stats().maxInFlight).toBeLessThanOrEqual(3);
		expect(sandbox.stats().maxInFlight).toBeGreaterThan(1);
		const order = pairedOrder(result.items);
		expect(order).toEqual([...order].sort((a, b) => a - b));
		expect(result.items).toHaveLength(4 * sandbox.data.events.length);
	});

	it(`Airports with the default: never more than ${DEFAULT_CONCURRENCY} in flight`, async () => {
		sandbox.setFaults({ latencyMs: 20 });
		sandbox.resetStats();
		const items = Array.from({ length: 6 }, () => ({}));
		const result = await run('travelPricingAirports', { codes: '', returnAll: false, limit: 1000, options: { pageSize: 100 } }, items);

		expect(result.error).toBeUndefined();
		expect(sandbox.requests({ endpoint: 'airports' })).toHaveLength(6 * 10);
		expect(sandbox.stats().maxInFlight).toBeLessThanOrEqual(DEFAULT_CONCURRENCY);
		expect(sandbox.stats().maxInFlight).toBeGreaterThan(1);
	});

	it('Hotel Info: batches never pass Concurrency 2', async () => {
		sandbox.setFaults({ latencyMs: 20 });
		sandbox.resetStats();
		const items = Array.from({ length: 12 }, (_, index) => ({ code: 100001 + index }));
		const result = await run('travelPricingHotelInfo', { hotelCode: '={{ $json.code }}', options: { batchSize: 1, concurrency: 2 } }, items);

		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.hotelcode)).toEqual(items.map((item) => item.code));
		expect(sandbox.stats().maxInFlight).toBe(2);
	});

	it('Hotel Demand: items are fetched at once up to Concurrency and come out in item order', async () => {
		sandbox.setFaults({ latencyMs: 50 });
		sandbox.resetStats();
		const items = [1002, 1001, 1002, 1004, 1001, 1002].map((demandId) => ({ demandId }));
		const result = await run('travelPricingHotelDemand', { demandId: '={{ $json.demandId }}', output: 'raw', options: { concurrency: 2 } }, items);

		expect(result.error).toBeUndefined();
		expect(pairedOrder(result.items)).toEqual([0, 1, 2, 3, 4, 5]);
		expect(sandbox.requests({ endpoint: 'hoteldemanddata' })).toHaveLength(6);
		expect(sandbox.stats().maxInFlight).toBe(2);
	});
});

describe('a 429 that outlasts the retries names only options the node has', () => {
	const cases: Array<{ node: string; parameters: INodeParameters; endpoint: EndpointKey; names: string[]; absent: string[] }> = [
		{
			node: 'travelPricingHotelInfo',
			parameters: { hotelCode: '100001' },
			endpoint: 'hotelinfo',
			names: ['"Concurrency"', '"Batch Size"', '"Max Retry Wait (Seconds)"'],
			absent: ['Page Size'],
		},
		{
			node: 'travelPricingEventImpact',
			parameters: { returnAll: false, limit: 2, filters: {} },
			endpoint: 'eventimpact',
			names: ['"Concurrency"', '"Page Size"', '"Max Retry Wait (Seconds)"'],
			absent: ['Batch Size'],
		},
		{
			node: 'travelPricingHotelDemand',
			parameters: { demandId: '1002', output: 'raw' },
			endpoint: 'hoteldemanddata',
			names: ['"Concurrency"', '"Max Retry Wait (Seconds)"'],
			absent: ['Batch Size', 'Page Size'],
		},
		{
			node: 'travelPricingSchedule',
			parameters: DAILY_FROM_2030_SCHEDULE,
			endpoint: 'schedule',
			names: ['"Max Retry Wait (Seconds)"'],
			absent: ['Batch Size', 'Page Size', 'Concurrency'],
		},
		{
			node: 'travelPricingShopUpdate',
			parameters: VALID_SHOP_UPDATE,
			endpoint: 'shops',
			names: ['"Max Retry Wait (Seconds)"'],
			absent: ['Batch Size', 'Page Size', 'Concurrency'],
		},
	];

	it.each(cases)('$node', async (test) => {
		sandbox.setFaults({ [test.endpoint]: { p429: 1, retryAfterSeconds: 0 } });
		const result = await run(test.node, { ...test.parameters, options: { maxRetryWaitSeconds: 0 } });

		expect(result.error?.message).toMatch(/429 Too Many Requests/);
		const description = String(result.error?.description);
		expect(description).toMatch(/^The service is rate-limiting this account\. In the node's options, /);
		for (const name of test.names) expect(description).toContain(name);
		for (const name of test.absent) expect(description).not.toContain(name);
	});
});
