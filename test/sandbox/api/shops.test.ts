import { client, expectError, useFrozenSandbox } from '../frozenSandbox';
import { VALID_SHOP_UPDATE_BODY } from '../../harness/fixtures';

const { sandbox, api } = useFrozenSandbox();

describe('PUT /shops/{shopId}', () => {
	it('updates a shop of the caller and answers 200 with a message', async () => {
		const { status, data } = await api.put('/shops/7', VALID_SHOP_UPDATE_BODY);
		expect(status).toBe(200);
		expect(data).toEqual({ message: expect.any(String) });
		expect(sandbox.data.shops.get(7)?.config).toEqual(VALID_SHOP_UPDATE_BODY);
	});

	it('answers 403 for another account’s shop and 404 for an unknown shop', async () => {
		expectError(await api.put('/shops/900', VALID_SHOP_UPDATE_BODY), 403, /access denied/);
		expect((await client(sandbox.baseUrl, `Bearer ${sandbox.credentials.otherAccountToken}`).put('/shops/900', VALID_SHOP_UPDATE_BODY)).status).toBe(200);
		expectError(await api.put('/shops/500', VALID_SHOP_UPDATE_BODY), 404, /shop 500 not found/);
	});

	it('accepts horizon as a number or a numeric string', async () => {
		expect((await api.put('/shops/8', { ...VALID_SHOP_UPDATE_BODY, horizon: '45' })).status).toBe(200);
		expect(sandbox.data.shops.get(8)?.config.horizon).toBe(45);
	});

	it.each([
		['shopName is missing', { shopName: undefined }, /missing required field: shopName/],
		['markets is empty', { markets: [] }, /markets must be a non-empty array/],
		['a market has no dropLocation', { markets: [{ pickupLocation: 'JFK' }] }, /markets\[0\]\.dropLocation is required/],
		['websiteCode holds strings', { websiteCode: ['1'] }, /websiteCode\[0\] must be an integer/],
		['lor is 0', { lor: 0 }, /lor must be at least 1/],
		['currency has 4 letters', { currency: 'EURO' }, /currency must be a 3-letter/],
		['horizon is not numeric', { horizon: 'soon' }, /horizon must be an integer/],
		['horizonDow holds 7', { horizonDow: [7] }, /horizonDow\[0\] must be at most 6/],
		['pickupTime is 24:00', { pickupTime: '24:00' }, /pickupTime must be a time HH:MM/],
		['dropTime is not HH:MM', { dropTime: '9:00' }, /dropTime must be a time HH:MM/],
	])('answers 400 naming the field when %s', async (_case, change, reason) => {
		expectError(await api.put('/shops/9', { ...VALID_SHOP_UPDATE_BODY, ...change }), 400, reason);
	});
});
