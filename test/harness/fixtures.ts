/**
 * Request bodies more than one test file expects. The node parameters they come from are in
 * platform/engine/parameters.ts.
 */

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
