import { badRequest } from './errors';
import type { ApiHandler } from './types';

/**
 * GET /hoteldemanddata/{demandId}. The spec lists no 404 here, so an unknown id is a 400
 * with reason 'unknown demandId'.
 */
export const hotelDemand: ApiHandler = (call, { data }) => {
	const [rawId] = call.params;
	if (!/^\d+$/.test(rawId)) throw badRequest(`demandId must be a number, got '${decodeURIComponent(rawId)}'`);
	const json = data.demand.json(Number(rawId));
	if (json === undefined) throw badRequest(`unknown demandId ${rawId}`);
	return { status: 200, json };
};
