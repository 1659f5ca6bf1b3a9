import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { credentialsFor, runNode, useSandbox } from '../harness';
import { startStubService } from '../harness/stubService';

const FIRST_CODE = 100001;
const UNKNOWN_CODE = 999999;

const sandbox = useSandbox();

beforeEach(() => {
	sandbox.reset();
});

interface RunOptions {
	items: IDataObject[];
	options?: INodeParameters;
	continueOnFail?: boolean;
	accessToken?: string;
	baseUrl?: string;
	typeVersion?: number;
	/** Off unless given: most tests check the whole record; `null` leaves the parameter out. */
	simplify?: boolean | null;
}

async function hotelInfo({ items, options = {}, continueOnFail = false, accessToken, baseUrl, typeVersion, simplify = false }: RunOptions) {
	const credentials = credentialsFor({
		baseUrl: baseUrl ?? sandbox.baseUrl,
		credentials: { ...sandbox.credentials, accessToken: accessToken ?? sandbox.credentials.accessToken },
	});
	return await runNode({
		nodeType: 'travelPricingHotelInfo',
		parameters: { hotelCode: '={{ $json.code }}', options, ...(simplify === null ? {} : { simplify }) },
		items,
		credentials,
		continueOnFail,
		typeVersion,
	});
}

function hotelInfoRequests() {
	return sandbox.requests({ path: '/hotelinfo' });
}

function codesOf(items: INodeExecutionData[]): unknown[] {
	return items.map((item) => item.json.hotelcode ?? item.json.error);
}

function pairedItems(items: INodeExecutionData[]): unknown[] {
	return items.map((item) => item.pairedItem);
}

function seededHotel(code: number) {
	const found = sandbox.data.hotels.find((hotel) => hotel.hotelcode === code);
	if (!found) throw new Error(`no seeded hotel ${code}`);
	return found;
}

describe('each item gets the hotel of its code, with its sources as a list', () => {
	it('returns the hotel and its sources for every item, paired to the item', async () => {
		const result = await hotelInfo({ items: [{ code: FIRST_CODE }, { code: FIRST_CODE + 1 }] });

		expect(result.error).toBeUndefined();
		expect(codesOf(result.items)).toEqual([FIRST_CODE, FIRST_CODE + 1]);
		expect(pairedItems(result.items)).toEqual([{ item: 0 }, { item: 1 }]);
		const expected = seededHotel(FIRST_CODE);
		expect(result.items[0].json).toMatchObject({ hotelname: expected.hotelname, city: expected.city, lat: expected.lat });
		expect(result.items[0].json.sources).toEqual(expected.sources);
	});

	it('accepts a code given as text, as a spreadsheet would hand it over', async () => {
		const result = await hotelInfo({ items: [{ code: String(FIRST_CODE) }] });
		expect(codesOf(result.items)).toEqual([FIRST_CODE]);
	});
});

describe('hotel codes are checked before any request is sent', () => {
	it.each([['abc'], [0], [-1], [1.5], ['']])('refuses %p naming the field and the item', async (code) => {
		const result = await hotelInfo({ items: [{ code: FIRST_CODE }, { code }] });

		expect(result.error?.message).toMatch(/^Invalid Hotel Code .* in item 1: /);
		expect(hotelInfoRequests()).toHaveLength(0);
	});
});

describe('codes of many items go out together in batches of the batch size', () => {
	it('sends 1,000 distinct codes in 20 requests of 50 with the default batch size', async () => {
		const items = Array.from({ length: 1000 }, (_, index) => ({ code: FIRST_CODE + index }));
		const result = await hotelInfo({ items, continueOnFail: true });

		const requests = hotelInfoRequests();
		expect(requests).toHaveLength(20);
		expect(requests.every((request) => (request.body as { hotelcodes: number[] }).hotelcodes.length === 50)).toBe(true);
		expect(result.items).toHaveLength(1000);
		expect(pairedItems(result.items)).toEqual(items.map((_, index) => ({ item: index })));
		// The sandbox knows 250 hotels; the other codes come back as errors of their own items.
		expect(result.items.filter((item) => item.json.error === undefined)).toHaveLength(sandbox.data.hotels.length);
	});

	it('sends one request per code, as hotelcode, with batch size 1', async () => {
		const result = await hotelInfo({ items: [{ code: FIRST_CODE }, { code: FIRST_CODE + 1 }], options: { batchSize: 1 } });

		expect(hotelInfoRequests().map((request) => request.body)).toEqual(
			expect.arrayContaining([{ hotelcode: FIRST_CODE }, { hotelcode: FIRST_CODE + 1 }]),
		);
		expect(hotelInfoRequests()).toHaveLength(2);
		expect(codesOf(result.items)).toEqual([FIRST_CODE, FIRST_CODE + 1]);
	});

	it('keeps the batches within the batch size chosen', async () => {
		const items = Array.from({ length: 25 }, (_, index) => ({ code: FIRST_CODE + index }));
		await hotelInfo({ items, options: { batchSize: 10, concurrency: 2 } });

		const sizes = hotelInfoRequests().map((request) => (request.body as { hotelcodes: number[] }).hotelcodes.length);
		expect(sizes.sort((a, b) => b - a)).toEqual([10, 10, 5]);
	});
});

describe('a repeated code is asked once and every asking item gets its own output', () => {
	it('asks for a code once and answers each item that asked', async () => {
		const result = await hotelInfo({ items: [{ code: FIRST_CODE }, { code: FIRST_CODE + 1 }, { code: FIRST_CODE }] });

		expect(hotelInfoRequests().map((request) => request.body)).toEqual([{ hotelcodes: [FIRST_CODE, FIRST_CODE + 1] }]);
		expect(codesOf(result.items)).toEqual([FIRST_CODE, FIRST_CODE + 1, FIRST_CODE]);
		expect(pairedItems(result.items)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});

	it('sends 1,000 items over the 250 seeded hotels in 5 requests, each item with its own hotel', async () => {
		const hotelCount = sandbox.data.hotels.length;
		const items = Array.from({ length: 1000 }, (_, index) => ({ code: FIRST_CODE + (index % hotelCount) }));
		const result = await hotelInfo({ items });

		expect(result.error).toBeUndefined();
		expect(hotelInfoRequests()).toHaveLength(hotelCount / 50);
		expect(codesOf(result.items)).toEqual(items.map((item) => item.code));
	});
});

describe('a code the service does not return is an error for that item alone', () => {
	it('fails only the item with the unknown code when continuing on failure', async () => {
		const result = await hotelInfo({
			items: [{ code: FIRST_CODE }, { code: UNKNOWN_CODE }, { code: FIRST_CODE + 1 }],
			continueOnFail: true,
		});

		expect(codesOf(result.items)).toEqual([FIRST_CODE, `Hotel code ${UNKNOWN_CODE} was not found`, FIRST_CODE + 1]);
		expect(pairedItems(result.items)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});

	it('stops the run naming the code and the item otherwise', async () => {
		const result = await hotelInfo({ items: [{ code: FIRST_CODE }, { code: UNKNOWN_CODE }] });
		expect(result.error?.message).toBe(`Hotel code ${UNKNOWN_CODE} was not found`);
		expect(result.items).toEqual([]);
	});

	it('fails only that item when the service answers 400 to a single unknown code (batch size 1)', async () => {
		const result = await hotelInfo({
			items: [{ code: FIRST_CODE }, { code: UNKNOWN_CODE }],
			options: { batchSize: 1 },
			continueOnFail: true,
		});

		expect(codesOf(result.items)).toEqual([FIRST_CODE, `The service rejected the request: unknown hotelcode ${UNKNOWN_CODE}`]);
	});
});

describe('continue on failure keeps good items going next to bad ones', () => {
	it('answers good items and turns a bad code, an unknown code and an empty code into error items', async () => {
		const result = await hotelInfo({
			items: [{ code: FIRST_CODE }, { code: 'abc' }, { code: UNKNOWN_CODE }, { code: '' }, { code: FIRST_CODE + 2 }],
			continueOnFail: true,
		});

		expect(result.error).toBeUndefined();
		expect(codesOf(result.items)).toEqual([
			FIRST_CODE,
			'Invalid Hotel Code "abc" in item 1: must be a whole number of 1 or more',
			`Hotel code ${UNKNOWN_CODE} was not found`,
			'Invalid Hotel Code (empty) in item 3: is required',
			FIRST_CODE + 2,
		]);
		expect(pairedItems(result.items)).toEqual([0, 1, 2, 3, 4].map((item) => ({ item })));
		expect(hotelInfoRequests().map((request) => request.body)).toEqual([{ hotelcodes: [FIRST_CODE, UNKNOWN_CODE, FIRST_CODE + 2] }]);
	});
});

describe('a failed batch fails only the items of that batch', () => {
	it('keeps the other batches when one answers 500 and is not retried', async () => {
		sandbox.setFaults({ endpoints: { hotelinfo: { p500: 1, times: 1 } } });
		const items = Array.from({ length: 4 }, (_, index) => ({ code: FIRST_CODE + index }));
		const result = await hotelInfo({ items, options: { batchSize: 2, concurrency: 1, maxAttempts: 1 }, continueOnFail: true });

		expect(codesOf(result.items)).toEqual([
			'The service failed with HTTP 500: internal server error (injected fault)',
			'The service failed with HTTP 500: internal server error (injected fault)',
			FIRST_CODE + 2,
			FIRST_CODE + 3,
		]);
	});

	it('retries a 500, since looking up hotels changes nothing', async () => {
		sandbox.setFaults({ endpoints: { hotelinfo: { p500: 1, times: 1 } } });
		const result = await hotelInfo({ items: [{ code: FIRST_CODE }] });

		expect(result.error).toBeUndefined();
		expect(hotelInfoRequests().map((request) => request.status)).toEqual([500, 200]);
	});
});

describe('the service refusing the request is reported with its reason', () => {
	it('reports a 400 with the reason the service gave', async () => {
		// The sandbox takes at most 100 codes per request; the spec names no limit.
		const items = Array.from({ length: 101 }, (_, index) => ({ code: FIRST_CODE + index }));
		const result = await hotelInfo({ items, options: { batchSize: 101 } });

		expect(result.error?.message).toBe('The service rejected the request: hotelcodes accepts at most 100 codes, got 101');
	});

	it('reports a 401 as failed authentication pointing at the credential', async () => {
		const result = await hotelInfo({ items: [{ code: FIRST_CODE }], accessToken: sandbox.credentials.expiredToken });

		expect(result.error?.message).toBe('Authentication failed');
		expect(result.error?.description).toContain('Travel Pricing API');
	});

	it('turns a 401 into an error item for every item when continuing on failure', async () => {
		const result = await hotelInfo({
			items: [{ code: FIRST_CODE }, { code: FIRST_CODE + 1 }],
			accessToken: sandbox.credentials.expiredToken,
			continueOnFail: true,
		});
		expect(codesOf(result.items)).toEqual(['Authentication failed', 'Authentication failed']);
	});

	it.each([
		[403, 'Access denied to the requested resource'],
		[404, 'The requested resource was not found'],
	])('reports a %i, which the spec does not list for hotel info, as such', async (status, message) => {
		const stub = await startStubService(status, { error: true, status, message: 'not for you' });
		try {
			const result = await hotelInfo({ items: [{ code: FIRST_CODE }], baseUrl: stub.baseUrl });
			expect(result.error?.message).toBe(message);
			expect(stub.paths).toEqual(['/hotelinfo']);
		} finally {
			await stub.close();
		}
	});
});

describe('429 answers are waited out within the retry options', () => {
	it('retries after Retry-After and answers the item', async () => {
		sandbox.setFaults({ endpoints: { hotelinfo: { p429: 1, retryAfterSeconds: 0, times: 2 } } });
		const result = await hotelInfo({ items: [{ code: FIRST_CODE }] });

		expect(result.error).toBeUndefined();
		expect(codesOf(result.items)).toEqual([FIRST_CODE]);
		expect(hotelInfoRequests().map((request) => request.status)).toEqual([429, 429, 200]);
	});

	it('gives up once Max Retry Wait is spent and says the service kept throttling', async () => {
		// Retry-After 0 still costs half a second of Max Retry Wait per retry, and no attempt.
		sandbox.setFaults({ endpoints: { hotelinfo: { p429: 1, retryAfterSeconds: 0 } } });
		const result = await hotelInfo({ items: [{ code: FIRST_CODE }], options: { maxAttempts: 2, maxRetryWaitSeconds: 1 } });

		expect(result.error?.message).toBe('The service kept answering 429 Too Many Requests (3 attempts over 1.0 s)');
		expect(hotelInfoRequests()).toHaveLength(3);
	});
});

describe('sources come back as a list whatever shape the service used', () => {
	it('turns sources keyed by website code into a list', async () => {
		sandbox.setVariants({ sourcesAsObject: true });
		const result = await hotelInfo({ items: [{ code: FIRST_CODE }] });

		expect(result.items[0].json.sources).toEqual(seededHotel(FIRST_CODE).sources);
	});

	it('reads a single hotel answered as a one-element list', async () => {
		sandbox.setVariants({ singleHotelAsArray: true, sourcesAsObject: true });
		const result = await hotelInfo({ items: [{ code: FIRST_CODE }], options: { batchSize: 1 } });

		expect(hotelInfoRequests().map((request) => request.body)).toEqual([{ hotelcode: FIRST_CODE }]);
		expect(codesOf(result.items)).toEqual([FIRST_CODE]);
		expect(result.items[0].json.sources).toEqual(seededHotel(FIRST_CODE).sources);
	});

	it('reads a single Hotel object answered to one hotelcode', async () => {
		const result = await hotelInfo({ items: [{ code: FIRST_CODE + 5 }], options: { batchSize: 1 } });
		expect(result.items[0].json.sources).toEqual(seededHotel(FIRST_CODE + 5).sources);
	});
});

describe('split sources gives one item per website configured for the hotel', () => {
	it('outputs one item per source with the hotel fields kept, each paired to its item', async () => {
		const result = await hotelInfo({ items: [{ code: FIRST_CODE }, { code: FIRST_CODE + 1 }], options: { splitSources: true } });

		const first = seededHotel(FIRST_CODE);
		const second = seededHotel(FIRST_CODE + 1);
		expect(result.items).toHaveLength(first.sources.length + second.sources.length);
		expect(result.items[0].json).toMatchObject({
			hotelcode: FIRST_CODE,
			hotelname: first.hotelname,
			websitecode: first.sources[0].websitecode,
			websitename: first.sources[0].websitename,
			url: first.sources[0].url,
		});
		expect(result.items[0].json).not.toHaveProperty('sources');
		expect(result.items.map((item) => item.json.websitecode)).toEqual([...first.sources, ...second.sources].map((source) => source.websitecode));
		expect(pairedItems(result.items)).toEqual([
			...first.sources.map(() => ({ item: 0 })),
			...second.sources.map(() => ({ item: 1 })),
		]);
	});
});

describe('Simplify: version 1 keeps the whole hotel; from version 1.1 the simplified hotel is the default', () => {
	const items = [{ code: FIRST_CODE }, { code: FIRST_CODE + 1 }];

	function simplified(code: number) {
		const hotel = seededHotel(code);
		return {
			hotelcode: hotel.hotelcode,
			hotelname: hotel.hotelname,
			city: hotel.city,
			country: hotel.country,
			starrating: hotel.starrating,
			lat: hotel.lat,
			long: hotel.long,
			sources: hotel.sources.map(({ websitecode, websitename, channeltype }) => ({ websitecode, websitename, channeltype })),
		};
	}

	it('version 1, as saved workflows have it, puts out every hotel exactly as the service sends it', async () => {
		const result = await hotelInfo({ items, typeVersion: 1, simplify: null });
		expect(result.items.map((item) => item.json)).toEqual([seededHotel(FIRST_CODE), seededHotel(FIRST_CODE + 1)]);
	});

	it('version 1.1 keeps code, name, city, country, stars, coordinates and each source\'s code, name and channel type by default', async () => {
		const result = await hotelInfo({ items, typeVersion: 1.1, simplify: null });
		expect(result.items.map((item) => item.json)).toEqual([simplified(FIRST_CODE), simplified(FIRST_CODE + 1)]);
	});

	it('version 1.1 with Simplify off puts out what version 1 does', async () => {
		const raw = await hotelInfo({ items, typeVersion: 1.1, simplify: false });
		const version1 = await hotelInfo({ items, typeVersion: 1, simplify: null });
		expect(raw.items.map((item) => item.json)).toEqual(version1.items.map((item) => item.json));
	});

	it('with Split Sources, each row is the simplified hotel beside one simplified source', async () => {
		const result = await hotelInfo({ items: [{ code: FIRST_CODE }], typeVersion: 1.1, simplify: null, options: { splitSources: true } });
		const { sources, ...hotel } = simplified(FIRST_CODE);
		expect(result.items.map((item) => item.json)).toEqual(sources.map((source) => ({ ...hotel, ...source })));
	});
});
