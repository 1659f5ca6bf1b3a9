import { FieldError } from '../../nodes/shared/errors';
import { fieldErrorOf } from '../harness/fieldErrors';
import {
	parseCurrency,
	parseHorizonDaysOfWeek,
	parseMarkets,
	parseShopUpdate,
	parseTimeOfDay,
	parseWebsiteCodes,
	shopUpdateResult,
	type ShopUpdateInput,
} from '../../nodes/ShopUpdate/shopFields';

const located = (value: string, mode = 'id') => ({ __rl: true, mode, value });

function input(overrides: Partial<ShopUpdateInput> = {}): ShopUpdateInput {
	return {
		shopId: '42',
		shopName: 'JFK weekly',
		markets: { market: [{ pickupLocation: located('JFK', 'list'), dropLocation: located('LGA') }] },
		websiteCodes: '1,2,3',
		countryOfService: 'US',
		lengthOfRent: 7,
		currency: 'usd',
		horizon: 30,
		horizonDaysOfWeek: [],
		pickupTime: '10:00',
		dropTime: '9:30',
		...overrides,
	};
}

describe('a valid item becomes the PUT /shops/{shopId} body of spec 4.8', () => {
	it('builds the body with the spec field names', () => {
		expect(parseShopUpdate(input())).toEqual({
			shopId: 42,
			body: {
				shopName: 'JFK weekly',
				markets: [{ pickupLocation: 'JFK', dropLocation: 'LGA' }],
				websiteCode: [1, 2, 3],
				cob: 'US',
				lor: 7,
				currency: 'USD',
				horizon: 30,
				pickupTime: '10:00',
				dropTime: '09:30',
			},
		});
	});

	it('sends horizonDow only when days were chosen', () => {
		expect(parseShopUpdate(input()).body).not.toHaveProperty('horizonDow');
		expect(parseShopUpdate(input({ horizonDaysOfWeek: [0, 1] })).body.horizonDow).toEqual([1, 0]);
	});
});

describe('each field is checked before anything is sent, and the error names the field', () => {
	it.each<[string, Partial<ShopUpdateInput>, string]>([
		['shop id not a number', { shopId: 'abc' }, 'Shop ID'],
		['shop id zero', { shopId: 0 }, 'Shop ID'],
		['shop id negative', { shopId: -3 }, 'Shop ID'],
		['shop id fractional', { shopId: 4.5 }, 'Shop ID'],
		['shop id empty', { shopId: '' }, 'Shop ID'],
		['name empty', { shopName: '  ' }, 'Shop Name'],
		['no market', { markets: {} }, 'Markets'],
		['empty market list', { markets: { market: [] } }, 'Markets'],
		['pickup missing', { markets: { market: [{ pickupLocation: located(''), dropLocation: located('LGA') }] } }, 'Pickup Location (market 1)'],
		['drop missing in second market', { markets: { market: [{ pickupLocation: 'JFK', dropLocation: 'LGA' }, { pickupLocation: 'LAX' }] } }, 'Drop Location (market 2)'],
		['website code not a number', { websiteCodes: '1,two,3' }, 'Website Codes'],
		['website code fractional', { websiteCodes: [1, 2.5] }, 'Website Codes'],
		['no website code', { websiteCodes: '' }, 'Website Codes'],
		['country empty', { countryOfService: '' }, 'Country of Service'],
		['length of rent zero', { lengthOfRent: 0 }, 'Length of Rent'],
		['length of rent fractional', { lengthOfRent: 1.5 }, 'Length of Rent'],
		['currency of two letters', { currency: 'US' }, 'Currency'],
		['currency with digits', { currency: 'U5D' }, 'Currency'],
		['horizon zero', { horizon: 0 }, 'Horizon'],
		['horizon not a number', { horizon: 'soon' }, 'Horizon'],
		['day of week out of range', { horizonDaysOfWeek: [7] }, 'Horizon Days of Week'],
		['pickup time out of range', { pickupTime: '24:00' }, 'Pickup Time'],
		['drop time without colon', { dropTime: '1000' }, 'Drop Time'],
		['drop time minutes out of range', { dropTime: '10:60' }, 'Drop Time'],
	])('%s', (_case, overrides, field) => {
		expect(fieldErrorOf(() => parseShopUpdate(input(overrides))).field).toBe(field);
	});
});

describe('markets take both locations from the list, from a typed code or from an expression', () => {
	it('reads resource locator values of either mode', () => {
		expect(parseMarkets({ market: [{ pickupLocation: located('JFK', 'list'), dropLocation: located('EWR') }] })).toEqual([
			{ pickupLocation: 'JFK', dropLocation: 'EWR' },
		]);
	});

	it('reads a list of markets produced by an expression', () => {
		expect(parseMarkets([{ pickupLocation: 'LHR', dropLocation: 'LGW' }, { pickupLocation: 'CDG', dropLocation: 'ORY' }])).toHaveLength(2);
	});

	it('reads a single market object produced by an expression', () => {
		expect(parseMarkets({ pickupLocation: 'LHR', dropLocation: 'LHR' })).toEqual([{ pickupLocation: 'LHR', dropLocation: 'LHR' }]);
	});

	it('trims the typed locations', () => {
		expect(parseMarkets({ market: [{ pickupLocation: ' JFK ', dropLocation: located(' LGA') }] })).toEqual([
			{ pickupLocation: 'JFK', dropLocation: 'LGA' },
		]);
	});
});

describe('website codes accept "1,2,3" or a list', () => {
	it.each<[unknown, number[]]>([
		['1,2,3', [1, 2, 3]],
		[' 1 , 2 ', [1, 2]],
		['7', [7]],
		[7, [7]],
		[[1, 2, 3], [1, 2, 3]],
		[['4', '5'], [4, 5]],
		['1,1,2', [1, 2]],
	])('%p gives %p', (value, expected) => {
		expect(parseWebsiteCodes(value)).toEqual(expected);
	});

	it('names the entry that is not a code', () => {
		expect(() => parseWebsiteCodes('1,x')).toThrow('"x" is not a website code');
	});
});

describe('currency is a three-letter code, lowercase accepted and sent in capitals', () => {
	it.each([['USD', 'USD'], ['eur', 'EUR'], [' gbp ', 'GBP']])('%p gives %p', (value, expected) => {
		expect(parseCurrency(value)).toBe(expected);
	});

	it.each([['US'], ['EURO'], ['€'], [''], [undefined], [840]])('rejects %p', (value) => {
		expect(() => parseCurrency(value)).toThrow(FieldError);
	});
});

describe('times are HH:MM from 00:00 to 23:59', () => {
	it.each([['00:00', '00:00'], ['23:59', '23:59'], ['9:05', '09:05'], [' 12:30 ', '12:30']])('%p gives %p', (value, expected) => {
		expect(parseTimeOfDay('Pickup Time', value)).toBe(expected);
	});

	it.each([['24:00'], ['12:60'], ['12'], ['12:5'], ['noon'], [''], [1230], ['-1:00']])('rejects %p', (value) => {
		expect(() => parseTimeOfDay('Pickup Time', value)).toThrow(/^Pickup Time /);
	});
});

describe('horizon days of week are numbered like a schedule dow: 1 Monday ... 6 Saturday, 0 Sunday', () => {
	it('sorts the days Monday first and sends each once', () => {
		expect(parseHorizonDaysOfWeek([0, 6, 1, 1])).toEqual([1, 6, 0]);
	});

	it('reads a comma list and day names from an expression', () => {
		expect(parseHorizonDaysOfWeek('5,6,0')).toEqual([5, 6, 0]);
		expect(parseHorizonDaysOfWeek(['Sunday', 'monday'])).toEqual([1, 0]);
	});

	it('takes the three-letter names a schedule takes', () => {
		expect(parseHorizonDaysOfWeek('Mon, fri;SUN')).toEqual([1, 5, 0]);
	});

	it('reads an empty choice as no days', () => {
		expect(parseHorizonDaysOfWeek([])).toEqual([]);
		expect(parseHorizonDaysOfWeek(undefined)).toEqual([]);
	});

	it('rejects a day outside 0 to 6', () => {
		expect(() => parseHorizonDaysOfWeek([7])).toThrow('7 is not a day of the week');
	});
});

describe('the output is the service message with the shop id', () => {
	it('keeps the service message', () => {
		expect(shopUpdateResult(42, { message: 'Shop 42 updated successfully' })).toEqual({ shopId: 42, message: 'Shop 42 updated successfully' });
	});

	it('says the shop was updated when the service sends no message', () => {
		expect(shopUpdateResult(42, {})).toEqual({ shopId: 42, message: 'Shop updated' });
	});
});
