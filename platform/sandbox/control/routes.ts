import { badRequest } from '../api/errors';
import type { RequestFilter, LoggedRequest } from '../requestLog';
import type { RunSummary } from '../rateShop';
import type { RunShopOptions } from '../runShopOptions';
import type { ScheduleView } from '../scheduler';
import type { Delivery } from '../delivery';
import type { FaultInput } from '../faults';
import type { LoadStats } from '../load';
import type { FaultSettings, Variants } from '../types';
import type { WebhookView } from '../webhooks';

/** What the control routes drive; implemented by the Sandbox. */
export interface ControlTarget {
	health(): Record<string, unknown>;
	requests(filter?: RequestFilter): LoggedRequest[];
	clearRequests(): void;
	stats(): LoadStats;
	resetStats(): void;
	faults(): FaultSettings;
	setFaults(faults: FaultInput): void;
	variants(): Variants;
	setVariants(variants: Partial<Variants>): void;
	runShop(options: RunShopOptions): Promise<RunSummary>;
	/** What `run-shop?wait=1` waits for once every delivery is answered (see Sandbox.setSettle). */
	settle(): Promise<Record<string, unknown>>;
	deliveries(): Delivery[];
	clearDeliveries(): void;
	runs(): RunSummary[];
	webhooks(): WebhookView[];
	schedules(): ScheduleView[];
	clock(): { now: string; speed: number };
	setClock(at: string | number): void;
	setClockSpeed(speed: number): void;
	advanceClock(ms: number): Promise<RunSummary[]>;
	reset(): void;
}

export interface ControlAnswer {
	status: number;
	body: unknown;
}

export const CONTROL_PREFIX = '/__sandbox';

/** The control routes, listed by GET /__sandbox/ and printed by the CLI. */
export const CONTROL_ROUTES = [
	'GET    /__sandbox/health',
	'GET    /__sandbox/requests?path=&method=   DELETE /__sandbox/requests',
	'GET    /__sandbox/stats                   DELETE /__sandbox/stats',
	'GET    /__sandbox/faults                  PUT    /__sandbox/faults',
	'GET    /__sandbox/variants                PUT    /__sandbox/variants',
	'POST   /__sandbox/run-shop                 { shopId, records, perDelivery, concurrency, timeoutSeconds, retries, hotelCodes, websiteCodes }',
	'POST   /__sandbox/run-shop                 { shopId, …, market: { seed, myHotelCode, prices: [{ hotelCode, websiteCode?, checkIn?, factor }], currencies: { hotelCode: currency } } }',
	"POST   /__sandbox/run-shop                 { repeatRun: runId | 'latest' (with shopId), changes?: { seed, changed, drift, soldOut, backOnSale } | replay: true, copies, perDelivery, … }",
	'POST   /__sandbox/run-shop                 { …, daysAgo }: collected that many days before the clock (a fresh run: the stays of one collected now)',
	'POST   /__sandbox/run-shop                 { …, collectedOverMinutes, shuffle }: each record its own dtCollected over that many minutes, in record order; deliveries posted in an order the seed shuffles',
	'GET    /__sandbox/deliveries              DELETE /__sandbox/deliveries',
	'POST   /__sandbox/run-shop?brief=1         the same, answered in one short line: counts, and the run\'s details URL',
	'POST   /__sandbox/run-shop?wait=1          answered once what the deliveries started has ended too (npm start: n8n\'s executions), as `settled`',
	'GET    /__sandbox/runs                    GET    /__sandbox/runs?runId=',
	'GET    /__sandbox/webhooks',
	'GET    /__sandbox/schedules',
	'GET    /__sandbox/clock                   PUT    /__sandbox/clock { now?, speed?, advanceMs? }',
	'POST   /__sandbox/reset',
];

function asObject(body: unknown): Record<string, unknown> {
	if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('body must be a JSON object');
	return body as Record<string, unknown>;
}

function parseVariants(body: unknown): Variants {
	const input = asObject(body);
	const variants: Variants = { sourcesAsObject: false, singleHotelAsArray: false };
	for (const [key, value] of Object.entries(input)) {
		if (!(key in variants)) throw badRequest(`unknown variant '${key}'; known: ${Object.keys(variants).join(', ')}`);
		if (typeof value !== 'boolean') throw badRequest(`variant '${key}' must be true or false`);
		variants[key as keyof Variants] = value;
	}
	return variants;
}

/** PUT /__sandbox/clock: set the time and/or speed, or advance (which performs due runs). */
async function changeClock(target: ControlTarget, body: unknown): Promise<ControlAnswer> {
	const input = asObject(body);
	let runs: RunSummary[] = [];
	if (input.now !== undefined) {
		if (typeof input.now !== 'string' || Number.isNaN(Date.parse(input.now))) throw badRequest('now must be an ISO 8601 time');
		target.setClock(input.now);
	}
	if (input.speed !== undefined) {
		if (typeof input.speed !== 'number' || !(input.speed >= 0)) throw badRequest('speed must be a number >= 0');
		target.setClockSpeed(input.speed);
	}
	if (input.advanceMs !== undefined) {
		if (typeof input.advanceMs !== 'number' || !(input.advanceMs >= 0)) throw badRequest('advanceMs must be a number >= 0');
		runs = await target.advanceClock(input.advanceMs);
	}
	return { status: 200, body: { ...target.clock(), runs } };
}

/**
 * A run's answer in one short line, for a command a person types (npm start's printed steps): its
 * counts, and where its whole summary is (its expected changes can run to thousands of entries).
 */
function briefRun(run: RunSummary, path: string): Record<string, unknown> {
	const { expectedChanges, ...counts } = run;
	return { ...counts, ...(expectedChanges ? { expectedChanges: expectedChanges.length } : {}), details: `${path.replace(/\/run-shop\/*$/, '')}/runs?runId=${run.runId}` };
}

export async function handleControl(target: ControlTarget, method: string, path: string, query: URLSearchParams, body: unknown): Promise<ControlAnswer | null> {
	const route = `${method} ${path.replace(/\/+$/, '') || '/'}`;
	switch (route) {
		case `GET ${CONTROL_PREFIX}`:
			return { status: 200, body: { routes: CONTROL_ROUTES } };
		case `GET ${CONTROL_PREFIX}/health`:
			return { status: 200, body: target.health() };
		case `GET ${CONTROL_PREFIX}/requests`: {
			const filter: RequestFilter = {};
			if (query.get('path')) filter.path = query.get('path') as string;
			if (query.get('method')) filter.method = query.get('method') as string;
			return { status: 200, body: target.requests(filter) };
		}
		case `DELETE ${CONTROL_PREFIX}/requests`:
			target.clearRequests();
			return { status: 200, body: { cleared: true } };
		case `GET ${CONTROL_PREFIX}/stats`:
			return { status: 200, body: target.stats() };
		case `DELETE ${CONTROL_PREFIX}/stats`:
			target.resetStats();
			return { status: 200, body: target.stats() };
		case `GET ${CONTROL_PREFIX}/faults`:
			return { status: 200, body: target.faults() };
		case `PUT ${CONTROL_PREFIX}/faults`:
			target.setFaults((body ?? {}) as FaultInput);
			return { status: 200, body: target.faults() };
		case `GET ${CONTROL_PREFIX}/variants`:
			return { status: 200, body: target.variants() };
		case `PUT ${CONTROL_PREFIX}/variants`:
			// PUT replaces: variants left out go back to false.
			target.setVariants(parseVariants(body ?? {}));
			return { status: 200, body: target.variants() };
		case `POST ${CONTROL_PREFIX}/run-shop`: {
			const run = await target.runShop(asObject(body) as unknown as RunShopOptions);
			const answer = query.get('brief') === '1' ? briefRun(run, path) : run;
			return { status: 200, body: query.get('wait') === '1' ? { ...answer, settled: await target.settle() } : answer };
		}
		case `GET ${CONTROL_PREFIX}/deliveries`:
			return { status: 200, body: target.deliveries() };
		case `DELETE ${CONTROL_PREFIX}/deliveries`:
			target.clearDeliveries();
			return { status: 200, body: { cleared: true } };
		case `GET ${CONTROL_PREFIX}/runs`: {
			const runId = query.get('runId');
			if (runId === null) return { status: 200, body: target.runs() };
			const run = target.runs().find((candidate) => String(candidate.runId) === runId);
			return run ? { status: 200, body: run } : { status: 404, body: { error: true, status: 404, message: `no run ${runId} (runs are forgotten on reset)` } };
		}
		case `GET ${CONTROL_PREFIX}/webhooks`:
			return { status: 200, body: target.webhooks() };
		case `GET ${CONTROL_PREFIX}/schedules`:
			return { status: 200, body: target.schedules() };
		case `GET ${CONTROL_PREFIX}/clock`:
			return { status: 200, body: target.clock() };
		case `PUT ${CONTROL_PREFIX}/clock`:
			return changeClock(target, body);
		case `POST ${CONTROL_PREFIX}/reset`:
			target.reset();
			return { status: 200, body: { reset: true } };
		default:
			return null;
	}
}
