import type { INodeParameters } from 'n8n-workflow';

/**
 * Node parameters and request bodies more than one test file fills in the same way. Each test
 * spreads its own changes over them, so what a test is about stays visible in the test.
 */

/** Schedule Create, daily at 06:30:00 from 1 January 2030: a schedule the sandbox accepts whenever the test runs. */
export const DAILY_FROM_2030_SCHEDULE: INodeParameters = {
	operation: 'create',
	name: 'Paris daily',
	rateShopId: '42',
	years: '',
	monthsMode: 'all',
	daysOfWeekMode: 'all',
	daysOfMonth: '',
	hours: '6',
	minute: 30,
	second: 0,
	status: 1,
	startDate: '2030-01-01T00:00:00',
	endDate: '',
	options: {},
};

/** The POST /schedule body (spec 4.2) DAILY_FROM_2030_SCHEDULE becomes; the sandbox accepts it as it is. */
export const DAILY_FROM_2030_SCHEDULE_BODY = {
	schedulename: 'Paris daily',
	rateshopid: 42,
	year: '*',
	month: '*',
	dow: '*',
	day: '*',
	hour: '6',
	minute: '30',
	seconds: '0',
	status: 1 as const,
	startdate: '2030-01-01',
};

/** An airport location picked "By Code" in Shop Update's resource locator. */
export const airportByCode = (value: string) => ({ __rl: true, mode: 'id', value });

/** Shop Update of the sandbox's shop 7, every required field typed in. */
export const VALID_SHOP_UPDATE: INodeParameters = {
	shopId: '7',
	shopName: 'Airport cars',
	markets: { market: [{ pickupLocation: airportByCode('JFK'), dropLocation: airportByCode('LGA') }] },
	websiteCodes: '1,2',
	countryOfService: 'US',
	lengthOfRent: 3,
	currency: 'USD',
	horizon: 30,
	pickupTime: '10:00',
	dropTime: '10:00',
	options: {},
};

/** The PUT /shops/{shopId} body (spec 4.8) VALID_SHOP_UPDATE becomes; the sandbox accepts it as it is. */
export const VALID_SHOP_UPDATE_BODY = {
	shopName: 'Airport cars',
	markets: [{ pickupLocation: 'JFK', dropLocation: 'LGA' }],
	websiteCode: [1, 2],
	cob: 'US',
	lor: 3,
	currency: 'USD',
	horizon: 30,
	pickupTime: '10:00',
	dropTime: '10:00',
};
