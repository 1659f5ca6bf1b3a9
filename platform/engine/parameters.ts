import type { INodeParameters } from 'n8n-workflow';

/**
 * Node parameters the sandbox accepts whenever it runs: `npm run schemas` runs the nodes with
 * them, and tests spread their own changes over them, so what a test is about stays visible in the
 * test. The request bodies they become are in test/harness/fixtures.ts.
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
