import type { Market, ShopConfig } from '../types';
import { ApiError, badRequest } from './errors';
import { integer, integerLike, isPresent, rejectUnknownFields, requireBody, requiredString, type Body } from './fields';
import type { ApiHandler } from './types';

const REQUIRED = ['shopName', 'markets', 'websiteCode', 'cob', 'lor', 'currency', 'horizon', 'pickupTime', 'dropTime'] as const;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

function markets(body: Body): Market[] {
	const value = body.markets;
	if (!Array.isArray(value) || value.length === 0) throw badRequest('markets must be a non-empty array of { pickupLocation, dropLocation }');
	return value.map((market, i) => {
		if (market === null || typeof market !== 'object' || Array.isArray(market)) throw badRequest(`markets[${i}] must be an object`);
		const entry = market as Body;
		rejectUnknownFields(entry, ['pickupLocation', 'dropLocation'], `markets[${i}].`);
		return {
			pickupLocation: requiredString(entry, 'pickupLocation', `markets[${i}].`),
			dropLocation: requiredString(entry, 'dropLocation', `markets[${i}].`),
		};
	});
}

function integerArray(value: unknown, field: string, range: { min: number; max?: number }, allowEmpty: boolean): number[] {
	if (!Array.isArray(value) || (!allowEmpty && value.length === 0)) throw badRequest(`${field} must be a${allowEmpty ? 'n' : ' non-empty'} array of integers`);
	return value.map((item, i) => integer(item, `${field}[${i}]`, range));
}

function time(body: Body, field: string): string {
	const value = requiredString(body, field);
	if (!TIME.test(value)) throw badRequest(`${field} must be a time HH:MM between 00:00 and 23:59, got '${value}'`);
	return value;
}

export function parseShopConfig(input: unknown): ShopConfig {
	const body = requireBody(input);
	rejectUnknownFields(body, [...REQUIRED, 'horizonDow']);
	const missing = REQUIRED.filter((field) => !isPresent(body[field]));
	if (missing.length > 0) throw badRequest(`missing required field${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`);
	const currency = requiredString(body, 'currency');
	if (!/^[A-Za-z]{3}$/.test(currency)) throw badRequest(`currency must be a 3-letter currency code, got '${currency}'`);
	const config: ShopConfig = {
		shopName: requiredString(body, 'shopName'),
		markets: markets(body),
		websiteCode: integerArray(body.websiteCode, 'websiteCode', { min: 1 }, false),
		cob: requiredString(body, 'cob'),
		lor: integer(body.lor, 'lor', { min: 1 }),
		currency,
		// The spec types horizon as a string in the table and an integer in the example: both are accepted.
		horizon: integerLike(body.horizon, 'horizon', { min: 1 }),
		pickupTime: time(body, 'pickupTime'),
		dropTime: time(body, 'dropTime'),
	};
	if (isPresent(body.horizonDow)) config.horizonDow = integerArray(body.horizonDow, 'horizonDow', { min: 0, max: 6 }, true);
	return config;
}

/** PUT /shops/{shopId}: 404 for unknown shops, 403 for another account's shop, then the body. */
export const updateShop: ApiHandler = (call, { data, clock }) => {
	const [rawId] = call.params;
	if (!/^\d+$/.test(rawId)) throw badRequest(`shopId must be an integer, got '${decodeURIComponent(rawId)}'`);
	const shopId = Number(rawId);
	const shop = data.shops.get(shopId);
	if (!shop) throw new ApiError(404, `shop ${shopId} not found`);
	if (shop.account !== call.account) throw new ApiError(403, `access denied: shop ${shopId} belongs to another account`);
	data.shops.update(shopId, parseShopConfig(call.body), new Date(clock.now()).toISOString());
	return { status: 200, body: { message: `Shop ${shopId} updated successfully` } };
};
