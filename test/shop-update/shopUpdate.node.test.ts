import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { startStubService } from '../harness/stubService';
import { airportByCode, credentialsFor, runNode, useSandbox } from '../harness';

const OTHER_ACCOUNTS_SHOP = 900;
const UNKNOWN_SHOP = 5000;

const sandbox = useSandbox();

beforeEach(() => {
	sandbox.reset();
});


/** The node filled in the way a user maps input fields: most fields are expressions. */
function shopParameters(overrides: INodeParameters = {}): INodeParameters {
	return {
		shopId: '={{ $json.shopId }}',
		shopName: '={{ $json.name }}',
		markets: {
			market: [
				{ pickupLocation: airportByCode('={{ $json.pickup }}'), dropLocation: airportByCode('={{ $json.drop }}') },
				{ pickupLocation: { __rl: true, mode: 'list', value: 'LHR', cachedResultName: 'LHR – Heathrow' }, dropLocation: airportByCode('LGW') },
			],
		},
		websiteCodes: '={{ $json.websites }}',
		countryOfService: '={{ $json.country }}',
		lengthOfRent: '={{ $json.lor }}',
		currency: '={{ $json.currency }}',
		horizon: '={{ $json.horizon }}',
		horizonDaysOfWeek: '={{ $json.days }}',
		pickupTime: '={{ $json.pickupTime }}',
		dropTime: '={{ $json.dropTime }}',
		options: {},
		...overrides,
	};
}

function shopItem(shopId: number | string, overrides: IDataObject = {}): IDataObject {
	return {
		shopId,
		name: `Shop ${String(shopId)} weekend`,
		pickup: 'JFK',
		drop: 'EWR',
		websites: [1, 2, 3],
		country: 'US',
		lor: 3,
		currency: 'usd',
		horizon: 30,
		days: [5, 6, 0],
		pickupTime: '10:00',
		dropTime: '9:30',
		...overrides,
	};
}

interface RunOptions {
	items: IDataObject[];
	parameters?: INodeParameters;
	continueOnFail?: boolean;
	accessToken?: string;
	baseUrl?: string;
	withoutAirportsKey?: boolean;
}

async function shopUpdate({ items, parameters, continueOnFail = false, accessToken, baseUrl, withoutAirportsKey }: RunOptions) {
	const credentials = credentialsFor({
		baseUrl: baseUrl ?? sandbox.baseUrl,
		credentials: { ...sandbox.credentials, accessToken: accessToken ?? sandbox.credentials.accessToken },
	});
	if (withoutAirportsKey) delete credentials.travelPricingAirportsApi;
	return await runNode({
		nodeType: 'travelPricingShopUpdate',
		parameters: parameters ?? shopParameters(),
		items,
		credentials,
		continueOnFail,
	});
}

function shopRequests() {
	return sandbox.requests({ path: '/shops' });
}

function outputs(items: INodeExecutionData[]): IDataObject[] {
	return items.map((item) => item.json);
}

describe('a valid item changes the shop and outputs the service message with the shop id', () => {
	it('sends the whole configuration to PUT /shops/{shopId}', async () => {
		const result = await shopUpdate({ items: [shopItem(7)] });

		expect(result.error).toBeUndefined();
		expect(outputs(result.items)).toEqual([{ shopId: 7, message: 'Shop 7 updated successfully' }]);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
		const [request] = shopRequests();
		expect(request).toMatchObject({ method: 'PUT', path: '/shops/7', status: 200 });
		expect(request.body).toEqual({
			shopName: 'Shop 7 weekend',
			markets: [
				{ pickupLocation: 'JFK', dropLocation: 'EWR' },
				{ pickupLocation: 'LHR', dropLocation: 'LGW' },
			],
			websiteCode: [1, 2, 3],
			cob: 'US',
			lor: 3,
			currency: 'USD',
			horizon: 30,
			horizonDow: [5, 6, 0],
			pickupTime: '10:00',
			dropTime: '09:30',
		});
		expect(sandbox.data.shops.get(7)?.config.shopName).toBe('Shop 7 weekend');
	});

	it('takes values typed into the fields as well as expressions', async () => {
		const typed = shopParameters({
			shopId: '11',
			shopName: 'Typed shop',
			websiteCodes: '2,3',
			countryOfService: 'GB',
			lengthOfRent: 2,
			currency: 'GBP',
			horizon: 14,
			horizonDaysOfWeek: [1, 2],
			pickupTime: '08:15',
			dropTime: '18:45',
		});
		const result = await shopUpdate({ items: [{}], parameters: { ...typed, markets: { market: [{ pickupLocation: airportByCode('LHR'), dropLocation: airportByCode('LHR') }] } } });

		expect(outputs(result.items)).toEqual([{ shopId: 11, message: 'Shop 11 updated successfully' }]);
		expect(shopRequests()[0].body).toEqual({
			shopName: 'Typed shop',
			markets: [{ pickupLocation: 'LHR', dropLocation: 'LHR' }],
			websiteCode: [2, 3],
			cob: 'GB',
			lor: 2,
			currency: 'GBP',
			horizon: 14,
			horizonDow: [1, 2],
			pickupTime: '08:15',
			dropTime: '18:45',
		});
	});

	it('leaves horizonDow out when no day is chosen', async () => {
		await shopUpdate({ items: [shopItem(7, { days: [] })] });
		expect(shopRequests()[0].body).not.toHaveProperty('horizonDow');
	});

	it('works without the airports credential when locations are typed', async () => {
		const result = await shopUpdate({ items: [shopItem(8)], withoutAirportsKey: true });
		expect(outputs(result.items)).toEqual([{ shopId: 8, message: 'Shop 8 updated successfully' }]);
	});

	it('accepts website codes typed as "1, 2" and a shop id given as text', async () => {
		const result = await shopUpdate({ items: [shopItem('9', { websites: '4, 5' })] });
		expect(outputs(result.items)).toEqual([{ shopId: 9, message: 'Shop 9 updated successfully' }]);
		expect(shopRequests()[0].body).toMatchObject({ websiteCode: [4, 5] });
	});
});

describe('every field is checked before any request, naming the field, the value and the item', () => {
	it.each<[string, IDataObject, RegExp]>([
		['a shop id that is not a number', { shopId: 'abc' }, /^Invalid Shop ID "abc" in item 1: must be a whole number of 1 or more$/],
		['a shop id of 0', { shopId: 0 }, /^Invalid Shop ID "0" in item 1: must be a whole number of 1 or more$/],
		['an empty shop name', { name: '' }, /^Invalid Shop Name \(empty\) in item 1: is required$/],
		['a market without a pickup location', { pickup: ' ' }, /^Invalid Pickup Location \(market 1\) " " in item 1: is required$/],
		['a market without a drop location', { drop: '' }, /^Invalid Drop Location \(market 1\) \(empty\) in item 1: is required$/],
		['a website code that is not a number', { websites: '1,x' }, /^Invalid Website Codes "1,x" in item 1: "x" is not a website code/],
		['a fractional website code', { websites: [1, 2.5] }, /^Invalid Website Codes "\[1,2.5\]" in item 1: 2.5 is not a website code/],
		['an empty country of service', { country: '' }, /^Invalid Country of Service \(empty\) in item 1: is required$/],
		['a length of rent of 0', { lor: 0 }, /^Invalid Length of Rent "0" in item 1: must be a whole number of 1 or more$/],
		['a fractional length of rent', { lor: 2.5 }, /^Invalid Length of Rent "2.5" in item 1: must be a whole number/],
		['a currency of four letters', { currency: 'EURO' }, /^Invalid Currency "EURO" in item 1: must be a three-letter currency code/],
		['a horizon of 0', { horizon: 0 }, /^Invalid Horizon "0" in item 1/],
		['a day of week out of range', { days: [7] }, /^Invalid Horizon Days of Week "\[7\]" in item 1/],
		['a pickup time of 24:00', { pickupTime: '24:00' }, /^Invalid Pickup Time "24:00" in item 1: must be a time of day as HH:MM, from 00:00 to 23:59$/],
		['a drop time of 10:60', { dropTime: '10:60' }, /^Invalid Drop Time "10:60" in item 1/],
		['a drop time without minutes', { dropTime: '10' }, /^Invalid Drop Time "10" in item 1/],
	])('refuses %s', async (_case, fault, message) => {
		const result = await shopUpdate({ items: [shopItem(1), shopItem(2, fault)] });

		expect(result.error?.message).toMatch(message);
		expect(shopRequests()).toHaveLength(0);
	});

	it('refuses a shop without any market', async () => {
		const result = await shopUpdate({ items: [shopItem(1)], parameters: shopParameters({ markets: {} }) });

		expect(result.error?.message).toMatch(/^Invalid Markets .* in item 0: needs at least one market with a pickup and a drop location$/);
		expect(shopRequests()).toHaveLength(0);
	});
});

describe('the service refusing the change is reported in the user\'s terms', () => {
	it('says the account may not change a shop of another account (403)', async () => {
		const result = await shopUpdate({ items: [shopItem(OTHER_ACCOUNTS_SHOP)] });

		expect(result.error?.message).toBe(`Access denied to shop ${OTHER_ACCOUNTS_SHOP}`);
		expect(result.error?.description).toBe(`This account may not change shop ${OTHER_ACCOUNTS_SHOP}.`);
	});

	it('says the shop does not exist (404)', async () => {
		const result = await shopUpdate({ items: [shopItem(UNKNOWN_SHOP)] });

		expect(result.error?.message).toBe(`Shop ${UNKNOWN_SHOP} was not found`);
	});

	it('points at the credential on 401', async () => {
		const result = await shopUpdate({ items: [shopItem(7)], accessToken: sandbox.credentials.expiredToken });

		expect(result.error?.message).toBe('Authentication failed');
		expect(result.error?.description).toContain('access token');
	});

	it('passes on the reason of a 400', async () => {
		const stub = await startStubService(400, { error: true, status: 400, message: "cob 'XX' is not a known country" });
		try {
			const result = await shopUpdate({ items: [shopItem(7)], baseUrl: stub.baseUrl });
			expect(result.error?.message).toBe("The service rejected the request: cob 'XX' is not a known country");
			expect(stub.paths).toEqual(['/shops/7']);
		} finally {
			await stub.close();
		}
	});
});

describe('429 answers are waited out within the retry options', () => {
	it('retries after Retry-After and changes the shop', async () => {
		sandbox.setFaults({ endpoints: { shops: { p429: 1, retryAfterSeconds: 0, times: 1 } } });
		const result = await shopUpdate({ items: [shopItem(7)] });

		expect(outputs(result.items)).toEqual([{ shopId: 7, message: 'Shop 7 updated successfully' }]);
		expect(shopRequests().map((request) => request.status)).toEqual([429, 200]);
	});

	it('gives up once Max Retry Wait is spent and says the service kept throttling', async () => {
		// Retry-After 0 still costs half a second of Max Retry Wait per retry, and no attempt.
		sandbox.setFaults({ endpoints: { shops: { p429: 1, retryAfterSeconds: 0 } } });
		const result = await shopUpdate({ items: [shopItem(7)], parameters: shopParameters({ options: { maxRetryWaitSeconds: 1 } }) });

		expect(result.error?.message).toBe('The service kept answering 429 Too Many Requests (3 attempts over 1.0 s)');
		expect(shopRequests()).toHaveLength(3);
	});
});

describe('a passing server failure is retried, since the update replaces the whole configuration', () => {
	it('sends the update again after a 500 and changes the shop', async () => {
		sandbox.setFaults({ endpoints: { shops: { p500: 1, times: 1 } } });
		const result = await shopUpdate({ items: [shopItem(7)], parameters: shopParameters({ options: { maxRetryWaitSeconds: 5 } }) });

		expect(outputs(result.items)).toEqual([{ shopId: 7, message: 'Shop 7 updated successfully' }]);
		expect(shopRequests().map((request) => request.status)).toEqual([500, 200]);
	});
});

describe('continue on failure keeps good items going next to bad ones', () => {
	it('changes the good shops and turns every other item into an error item of its own', async () => {
		const result = await shopUpdate({
			items: [shopItem(1), shopItem(2, { currency: 'EURO' }), shopItem(UNKNOWN_SHOP), shopItem(OTHER_ACCOUNTS_SHOP), shopItem(3)],
			continueOnFail: true,
		});

		expect(result.error).toBeUndefined();
		expect(outputs(result.items)).toEqual([
			{ shopId: 1, message: 'Shop 1 updated successfully' },
			{ error: 'Invalid Currency "EURO" in item 1: must be a three-letter currency code such as EUR' },
			{ error: `Shop ${UNKNOWN_SHOP} was not found` },
			{ error: `Access denied to shop ${OTHER_ACCOUNTS_SHOP}` },
			{ shopId: 3, message: 'Shop 3 updated successfully' },
		]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3, 4].map((item) => ({ item })));
		expect(shopRequests().map((request) => request.path)).toEqual(['/shops/1', `/shops/${UNKNOWN_SHOP}`, `/shops/${OTHER_ACCOUNTS_SHOP}`, '/shops/3']);
	});
});

describe('many items, each filled by expressions', () => {
	it('changes each shop with its own item\'s values, in item order', async () => {
		const items = Array.from({ length: 60 }, (_, index) =>
			shopItem(index + 1, { name: `Fleet ${index}`, pickup: index % 2 === 0 ? 'JFK' : 'LAX', websites: `${(index % 5) + 1}`, currency: index % 2 === 0 ? 'usd' : 'EUR' }),
		);
		const result = await shopUpdate({ items });

		expect(result.error).toBeUndefined();
		expect(outputs(result.items)).toEqual(items.map((item) => ({ shopId: item.shopId, message: `Shop ${String(item.shopId)} updated successfully` })));
		expect(shopRequests().map((request) => request.path)).toEqual(items.map((item) => `/shops/${String(item.shopId)}`));
		const shop12 = sandbox.data.shops.get(12)?.config;
		expect(shop12).toMatchObject({ shopName: 'Fleet 11', currency: 'EUR', websiteCode: [2] });
		expect(shop12?.markets[0]).toEqual({ pickupLocation: 'LAX', dropLocation: 'EWR' });
	});
});
