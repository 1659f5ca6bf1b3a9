import { badRequest } from './api/errors';
import { integer, rejectUnknownFields } from './api/fields';
import { DEFAULT_RETRIES, RETRY_DELAYS_MS } from './delivery';
import { parseMarket, type MarketInput, type MarketShop } from './marketShop';
import { parseRateChanges, type RateChanges } from './rateChanges';

/** What run-shop takes (runShop, POST /__sandbox/run-shop), and its check. */
export interface RunShopOptions {
	/** Required, but for a repeat, whose shop is the repeated run's. */
	shopId?: number;
	/** How many rate records the run produces (default 10). */
	records?: number;
	/** Records per POST: 1 → the body is one record object; more → an array. */
	perDelivery?: number;
	/** Concurrent senders (default 20). */
	concurrency?: number;
	/** How long a sender waits for the receiver's answer before giving up on an attempt (default 10). */
	timeoutSeconds?: number;
	/** How many times a delivery that got no answer, a 5xx or a 429 is posted again, with backoff (default 3; 0 turns retrying off). */
	retries?: number;
	hotelCodes?: number[];
	websiteCodes?: number[];
	/** A comp-set shop (sandbox extra): one room per hotel and night on every website, at rates laid out by construction (see MarketShop). */
	market?: MarketInput;
	/**
	 * Collect the stays of this earlier run again (sandbox extra): same stays and rates, new
	 * recordIds, later dtCollected. 'latest' (with shopId): the latest run of that shop.
	 */
	repeatRun?: number | 'latest';
	/** Only with repeatRun: which shares of its rates change (see RateChanges). */
	changes?: Partial<RateChanges>;
	/** Only with repeatRun, without changes: deliver that run's records again exactly as they were (same recordIds and dtCollected), as a service that redelivers would. */
	replay?: boolean;
	/** Each delivery posted this many times at once (default 1), as a service that retries a delivery whose answer it did not see. */
	copies?: number;
	/**
	 * Collected this many days before the clock's time (sandbox extra): the shops of earlier days,
	 * whose history a consumer keeps. A fresh run holds the stays of a run collected now; a repeat,
	 * those of the run it repeats, and must be collected after it. Not with replay.
	 */
	daysAgo?: number;
	/**
	 * Collected one record after another over this many minutes (sandbox extra), as a shop collects
	 * its comp set: each record its own dtCollected, from the run's time on, in record order. Left
	 * out or 0, every record of the run carries the run's time. Not with replay.
	 */
	collectedOverMinutes?: number;
	/** A seed (sandbox extra): the deliveries are posted in an order shuffled by it, not in record order. */
	shuffle?: number;
}

/** How a run's records go out, whether collected afresh or repeated. */
export interface DeliveryOptions {
	perDelivery: number;
	concurrency: number;
	timeoutSeconds: number;
	retries: number;
	copies: number;
	/** Left out: record order. */
	shuffle?: number;
}

export interface FreshRun {
	shopId: number;
	daysAgo?: number;
	collectedOverMinutes: number;
	records: number;
	hotelCodes?: number[];
	websiteCodes?: number[];
	market?: MarketShop;
}

export interface RepeatRun {
	repeatRun: number | 'latest';
	shopId?: number;
	daysAgo?: number;
	collectedOverMinutes: number;
	changes: RateChanges;
	replay: boolean;
}

export type ParsedRunShopOptions = DeliveryOptions & (FreshRun | RepeatRun);

const RUN_SHOP_FIELDS = ['shopId', 'records', 'perDelivery', 'concurrency', 'timeoutSeconds', 'retries', 'hotelCodes', 'websiteCodes', 'market', 'repeatRun', 'changes', 'replay', 'copies', 'daysAgo', 'collectedOverMinutes', 'shuffle'];
/** A repeat collects exactly the stays of the run it repeats (a market run's layout with them), so what chooses stays is not its to set. */
const STAY_CHOOSING_FIELDS = ['records', 'hotelCodes', 'websiteCodes', 'market'];
/** How far back a run may be collected: a year, more than any history a consumer keeps. */
const MAX_DAYS_AGO = 365;
/** How long a run may take to collect: a day, before a daily shop's next run. */
const MAX_COLLECTED_OVER_MINUTES = 1440;
export const DAY_MS = 86_400_000;

function optionalCodes(value: unknown, field: string): number[] | undefined {
	if (value === undefined) return undefined;
	if (!Array.isArray(value) || value.length === 0) throw badRequest(`${field} must be a non-empty array of integers`);
	return value.map((code, i) => integer(code, `${field}[${i}]`, { min: 1 }));
}

function repeatedRunId(value: unknown): number {
	if (typeof value !== 'number') throw badRequest("repeatRun must be a runId (an integer) or 'latest'");
	return integer(value, 'repeatRun', { min: 1 });
}

/** Checks runShop arguments (they also arrive as JSON on POST /__sandbox/run-shop). */
export function parseRunShopOptions(input: unknown): ParsedRunShopOptions {
	if (input === null || typeof input !== 'object') throw badRequest('run-shop options must be an object');
	const options = input as Record<string, unknown>;
	// A misspelt repeatRun or changes would otherwise quietly run a fresh shop.
	rejectUnknownFields(options, RUN_SHOP_FIELDS);
	const delivery: DeliveryOptions = {
		perDelivery: options.perDelivery === undefined ? 1 : integer(options.perDelivery, 'perDelivery', { min: 1 }),
		concurrency: options.concurrency === undefined ? 20 : integer(options.concurrency, 'concurrency', { min: 1, max: 2000 }),
		timeoutSeconds: options.timeoutSeconds === undefined ? 10 : integer(options.timeoutSeconds, 'timeoutSeconds', { min: 1, max: 600 }),
		retries: options.retries === undefined ? DEFAULT_RETRIES : integer(options.retries, 'retries', { min: 0, max: RETRY_DELAYS_MS.length }),
		copies: options.copies === undefined ? 1 : integer(options.copies, 'copies', { min: 1, max: 5 }),
		...(options.shuffle === undefined ? {} : { shuffle: integer(options.shuffle, 'shuffle', { min: 0, max: 0xffff_ffff }) }),
	};
	if (options.replay !== undefined && typeof options.replay !== 'boolean') throw badRequest('replay must be true or false');
	const daysAgo = options.daysAgo === undefined ? undefined : integer(options.daysAgo, 'daysAgo', { min: 0, max: MAX_DAYS_AGO });
	if (daysAgo !== undefined && options.replay) throw badRequest('replay delivers a run as it was collected: leave daysAgo out');
	const collectedOverMinutes =
		options.collectedOverMinutes === undefined ? 0 : integer(options.collectedOverMinutes, 'collectedOverMinutes', { min: 0, max: MAX_COLLECTED_OVER_MINUTES });
	if (options.collectedOverMinutes !== undefined && options.replay) throw badRequest('replay delivers a run as it was collected: leave collectedOverMinutes out');
	if (options.repeatRun === undefined) {
		if (options.changes !== undefined) throw badRequest('changes needs repeatRun: only a repeat of an earlier run has rates to change');
		if (options.replay) throw badRequest('replay needs repeatRun: the run whose records to deliver again');
		return {
			...delivery,
			shopId: integer(options.shopId, 'shopId', { min: 1 }),
			...(daysAgo === undefined ? {} : { daysAgo }),
			collectedOverMinutes,
			records: options.records === undefined ? 10 : integer(options.records, 'records', { min: 1, max: 1_000_000 }),
			hotelCodes: optionalCodes(options.hotelCodes, 'hotelCodes'),
			websiteCodes: optionalCodes(options.websiteCodes, 'websiteCodes'),
			market: parseMarket(options.market),
		};
	}
	if (options.replay && options.changes !== undefined) throw badRequest('replay delivers a run unchanged: leave changes out');
	const chosen = STAY_CHOOSING_FIELDS.find((field) => options[field] !== undefined);
	if (chosen) throw badRequest(`${chosen} cannot be set with repeatRun: a repeat collects the stays of the run it repeats`);
	const shopId = options.shopId === undefined ? undefined : integer(options.shopId, 'shopId', { min: 1 });
	// The latest run of a shop, so that a printed command repeats whatever ran before it, whatever its runId.
	if (options.repeatRun === 'latest' && shopId === undefined) throw badRequest("repeatRun 'latest' needs shopId: the shop whose latest run to repeat");
	return {
		...delivery,
		repeatRun: options.repeatRun === 'latest' ? 'latest' : repeatedRunId(options.repeatRun),
		shopId,
		...(daysAgo === undefined ? {} : { daysAgo }),
		collectedOverMinutes,
		changes: parseRateChanges(options.changes),
		replay: options.replay === true,
	};
}
