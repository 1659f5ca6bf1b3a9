import type { EndpointKey } from '../types';
import { listAirports } from './airports';
import type { AuthScheme } from './auth';
import { hotelDemand } from './demand';
import { eventImpact } from './eventimpact';
import { hotelInfo } from './hotelinfo';
import { createSchedule, updateSchedule } from './schedule';
import { updateShop } from './shops';
import type { ApiHandler } from './types';
import { createWebhook } from './webhook';

export interface ApiRoute {
	method: string;
	/** Matches the path; capture groups become path parameters. A trailing slash is optional everywhere. */
	pattern: RegExp;
	endpoint: EndpointKey;
	auth: AuthScheme;
	handler: ApiHandler;
}

/** Every endpoint of spec part 4. */
export const API_ROUTES: readonly ApiRoute[] = [
	{ method: 'POST', pattern: /^\/hotelinfo\/?$/, endpoint: 'hotelinfo', auth: 'bearer', handler: hotelInfo },
	{ method: 'POST', pattern: /^\/schedule\/?$/, endpoint: 'schedule', auth: 'bearer', handler: createSchedule },
	{ method: 'PUT', pattern: /^\/schedule\/([^/]+)\/?$/, endpoint: 'schedule', auth: 'bearer', handler: updateSchedule },
	{ method: 'GET', pattern: /^\/api\/v1\/references\/airports\/?$/, endpoint: 'airports', auth: 'apiKey', handler: listAirports },
	{ method: 'POST', pattern: /^\/eventimpact\/?$/, endpoint: 'eventimpact', auth: 'bearer', handler: eventImpact },
	{ method: 'POST', pattern: /^\/webhook\/?$/, endpoint: 'webhook', auth: 'bearer', handler: createWebhook },
	{ method: 'GET', pattern: /^\/hoteldemanddata\/([^/]+)\/?$/, endpoint: 'hoteldemanddata', auth: 'bearer', handler: hotelDemand },
	{ method: 'PUT', pattern: /^\/shops\/([^/]+)\/?$/, endpoint: 'shops', auth: 'bearer', handler: updateShop },
];

export type RouteMatch = { route: ApiRoute; params: string[] } | { allowed: string[] } | null;

/** The route for a request; `allowed` when the path exists under other methods (405). */
export function matchRoute(method: string, path: string): RouteMatch {
	const allowed: string[] = [];
	for (const route of API_ROUTES) {
		const match = route.pattern.exec(path);
		if (!match) continue;
		if (route.method === method) return { route, params: match.slice(1) };
		allowed.push(route.method);
	}
	return allowed.length > 0 ? { allowed } : null;
}
