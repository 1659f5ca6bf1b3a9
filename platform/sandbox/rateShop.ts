import { badRequest } from './api/errors';
import type { VirtualClock } from './clock';
import type { SandboxData } from './data';
import { DeliveryClient, postWithRetries, runPool, type Delivery } from './delivery';
import { checkMarketScope, marketEvents, type MarketShop } from './marketShop';
import { createPrng, deriveSeed } from './prng';
import { repeatRecords, type ExpectedChange, type RateChanges } from './rateChanges';
import { buildRateRecords, planScope, type RatePlan } from './rateRecords';
import { DAY_MS, parseRunShopOptions, type DeliveryOptions, type FreshRun, type RepeatRun, type RunShopOptions } from './runShopOptions';
import type { AccountId, RateRecord } from './types';
import type { StoredWebhook, WebhookStore } from './webhooks';

export interface RunSummary {
	runId: number;
	shopId: number;
	account: AccountId;
	/** Set when a schedule started the run. */
	scheduleId: number | null;
	/** Virtual time of the run: every record's dtCollected, or the first's when collectedOverMinutes spreads them. */
	collectedAt: string;
	webhooks: number;
	deliveries: number;
	records: number;
	/** Count of deliveries by the receiver's last answer; `error` when no answer came. */
	byStatus: Record<string, number>;
	/** Deliveries the sender posted more than once (see RETRY_DELAYS_MS). */
	retried: number;
	/** A repeat's: the run it repeats. */
	repeatOf?: number;
	/** A repeat's: every record whose rate differs from the repeated run, in record order. */
	expectedChanges?: ExpectedChange[];
}

export interface RunTrigger {
	account: AccountId;
	scheduleId: number;
	at: number;
}

/**
 * A repeat collects the stays again at the clock's time, or the next day when the run it repeats is
 * less than a day before that, as a daily shop collects: so it is always newer than that run, even
 * on a frozen clock, and a run of its own for whoever tells a shop's runs apart by their collection
 * times (Rate Changes: 6 hours apart). The clock itself is not moved.
 */
export const NEXT_RUN_MS = 24 * 3_600_000;

const MINUTE_MS = 60_000;
const POS_BY_COB: Record<string, number> = { US: 1, GB: 2, DE: 3, FR: 4, ES: 5 };

/**
 * Enough to build a run's records again: a fresh run's plan, or the run a repeat repeated and its
 * changes. Kept instead of the records, so any run stays repeatable at no memory cost.
 */
interface RunRecipe {
	shopId: number;
	account: AccountId;
	collectedAt: number;
	/** 0: every record at collectedAt. */
	collectedOverMinutes: number;
	source: { plan: RatePlan } | RepeatSource;
}

interface RepeatSource {
	repeatOf: number;
	changes: RateChanges;
}

/** A run's records, ready to deliver, with what the summary says about them. */
interface Collection {
	runId: number;
	recipe: RunRecipe;
	records: RateRecord[];
	repeat?: Pick<RunSummary, 'repeatOf' | 'expectedChanges'>;
}

/**
 * A shop collects one record after another (a run of hundreds takes minutes): over
 * collectedOverMinutes, record i of n (its recordId's rec number, less one) is collected i/n of
 * that time after the run's time. 0: every record at the run's time, one dtCollected a run.
 */
function collectedOver(records: RateRecord[], { collectedAt, collectedOverMinutes }: RunRecipe): RateRecord[] {
	if (collectedOverMinutes === 0) return records;
	const span = collectedOverMinutes * MINUTE_MS;
	return records.map((record, i) => ({ ...record, dtCollected: new Date(collectedAt + Math.floor((i * span) / records.length)).toISOString() }));
}

/** Runs rate shops: builds their records and delivers them to the account's webhooks. */
export class RateShopRunner {
	private runNo = 0;
	private deliverySeq = 0;
	private readonly log: Delivery[] = [];
	private readonly summaries: RunSummary[] = [];
	private readonly recipes = new Map<number, RunRecipe>();
	private readonly client = new DeliveryClient();
	/** The seeded events: the market events runs add come after them, until reset. */
	private readonly seededEvents: number;

	constructor(
		private readonly data: SandboxData,
		private readonly webhooks: WebhookStore,
		private readonly clock: VirtualClock,
	) {
		this.seededEvents = data.seedEvents.length;
	}

	async run(input: RunShopOptions, trigger?: RunTrigger): Promise<RunSummary> {
		const options = parseRunShopOptions(input);
		const { runId, recipe, records, repeat } =
			'repeatRun' in options ? this.repeat({ ...options, repeatRun: this.repeatedRun(options) }) : this.collect(options, trigger);
		this.recipes.set(runId, recipe);
		const { shopId, account } = recipe;
		const targets = this.webhooks.forAccount(account);
		const copies = Array.from({ length: options.copies });
		const tasks = targets.flatMap((webhook) =>
			this.deliveryOrder(this.chunks(records, options.perDelivery), options).flatMap((chunk) =>
				copies.map(() => () => this.deliver(runId, shopId, webhook, chunk, options)),
			),
		);
		const deliveries = await runPool(tasks, options.concurrency);
		const byStatus: Record<string, number> = {};
		for (const delivery of deliveries) {
			const key = delivery.status === null ? 'error' : String(delivery.status);
			byStatus[key] = (byStatus[key] ?? 0) + 1;
		}
		const summary: RunSummary = {
			runId,
			shopId,
			account,
			scheduleId: trigger?.scheduleId ?? null,
			collectedAt: new Date(recipe.collectedAt).toISOString(),
			webhooks: targets.length,
			deliveries: deliveries.length,
			records: records.length,
			byStatus,
			retried: deliveries.filter((delivery) => delivery.attempts.length > 1).length,
			...repeat,
		};
		this.summaries.push(summary);
		return summary;
	}

	deliveries(): Delivery[] {
		return [...this.log];
	}

	runs(): RunSummary[] {
		return [...this.summaries];
	}

	/** Forgets deliveries and run summaries; every run can still be repeated. */
	clear(): void {
		this.log.length = 0;
		this.summaries.length = 0;
	}

	/** Forgets every run as well, so none can be repeated, and the events market runs added. */
	reset(): void {
		this.clear();
		this.recipes.clear();
		this.data.seedEvents.length = this.seededEvents;
		this.data.events.length = this.seededEvents;
	}

	close(): void {
		this.client.close();
	}

	/** A fresh collection of the shop's rates. */
	private collect(options: FreshRun, trigger?: RunTrigger): Collection {
		const shop = this.data.shops.get(options.shopId);
		const now = trigger?.at ?? this.clock.now();
		const plan: RatePlan = {
			shopId: options.shopId,
			runNo: this.runNo + 1,
			collectedAt: now - (options.daysAgo ?? 0) * DAY_MS,
			...(options.daysAgo ? { staysAsOf: now } : {}),
			count: options.records,
			hotelCodes: options.hotelCodes ?? shop?.hotelCodes ?? this.fallbackHotels(options.shopId),
			websiteCodes: options.websiteCodes ?? shop?.config.websiteCode ?? [1, 2, 3],
			los: shop?.config.lor ?? 1,
			currency: shop?.config.currency ?? 'USD',
			horizon: shop?.config.horizon ?? 30,
			pos: POS_BY_COB[shop?.config.cob ?? 'US'] ?? 1,
			...(options.market ? { market: options.market } : {}),
		};
		// Checked before the run takes its number, so a refused market leaves no gap in the runIds.
		if (plan.market) checkMarketScope(plan.market, planScope(plan));
		this.runNo = plan.runNo;
		if (plan.market) this.addMarketEvents(plan.market, plan);
		// An unknown rateshopid still runs: the spec does not tie rateshopid to shop ids.
		const account = trigger?.account ?? shop?.account ?? 'demo';
		const recipe: RunRecipe = { shopId: plan.shopId, account, collectedAt: plan.collectedAt, collectedOverMinutes: options.collectedOverMinutes, source: { plan } };
		return {
			runId: plan.runNo,
			recipe,
			records: collectedOver(buildRateRecords(this.data, plan), recipe),
		};
	}

	/** A fresh market run's events join the event search, beside my hotel (or the run's first hotel); a repeat adds none. */
	private addMarketEvents(market: MarketShop, plan: RatePlan): void {
		if (market.events.length === 0) return;
		const code = market.myHotelCode ?? plan.hotelCodes[0];
		const hotel = this.data.hotelsByCode.get(code);
		if (!hotel) return;
		const added = marketEvents(market, planScope(plan), hotel, this.data.seedEvents.length + 1);
		this.data.seedEvents.push(...added);
		this.data.events.push(...added.map(({ event }) => event));
	}

	/** The runId a repeat names: the one given, or the latest run of its shop. */
	private repeatedRun(options: RepeatRun): number {
		if (options.repeatRun !== 'latest') return options.repeatRun;
		const runIds = [...this.recipes].filter(([, recipe]) => recipe.shopId === options.shopId).map(([runId]) => runId);
		if (runIds.length === 0) throw badRequest(`repeatRun 'latest': shop ${options.shopId} has no run to repeat yet (runs are forgotten on reset)`);
		return Math.max(...runIds);
	}

	private repeat(options: RepeatRun & { repeatRun: number }): Collection {
		return options.replay ? this.replay(options) : this.recollect(options);
	}

	/** The stays of an earlier run collected again, for the same account, with the changes asked for. */
	private recollect(options: RepeatRun & { repeatRun: number }): Collection {
		const base = this.recipes.get(options.repeatRun);
		if (!base) throw badRequest(`unknown repeatRun ${options.repeatRun}: no run of this sandbox has that runId (runs are forgotten on reset)`);
		if (options.shopId !== undefined && options.shopId !== base.shopId) {
			throw badRequest(`shopId ${options.shopId} is not the shop of run ${options.repeatRun} (shop ${base.shopId}); leave shopId out to repeat it`);
		}
		const source: RepeatSource = { repeatOf: options.repeatRun, changes: options.changes };
		const recipe: RunRecipe = {
			shopId: base.shopId,
			account: base.account,
			collectedAt: this.repeatCollectedAt(base, options),
			collectedOverMinutes: options.collectedOverMinutes,
			source,
		};
		const runId = ++this.runNo;
		const { records, expectedChanges } = this.repeated(runId, recipe, source);
		return { runId, recipe, records, repeat: { repeatOf: source.repeatOf, expectedChanges } };
	}

	/** When a repeat collects: daysAgo's day, after the run it repeats; else as NEXT_RUN_MS says. */
	private repeatCollectedAt(base: RunRecipe, options: RepeatRun & { repeatRun: number }): number {
		if (options.daysAgo === undefined) return Math.max(this.clock.now(), base.collectedAt + NEXT_RUN_MS);
		const collectedAt = this.clock.now() - options.daysAgo * DAY_MS;
		if (collectedAt <= base.collectedAt) {
			throw badRequest(`daysAgo ${options.daysAgo} is not after run ${options.repeatRun} (collected ${new Date(base.collectedAt).toISOString()}): a repeat is collected after the run it repeats`);
		}
		return collectedAt;
	}

	/** An earlier run's records delivered again as they were: nothing in them is new to a receiver. */
	private replay(options: RepeatRun & { repeatRun: number }): Collection {
		const base = this.recipes.get(options.repeatRun);
		if (!base) throw badRequest(`unknown repeatRun ${options.repeatRun}: no run of this sandbox has that runId (runs are forgotten on reset)`);
		return { runId: ++this.runNo, recipe: base, records: this.recordsOf(options.repeatRun), repeat: { repeatOf: options.repeatRun, expectedChanges: [] } };
	}

	/** The records of a run, built again from its recipe (a repeat from the run it repeated, and so on down the chain). */
	private recordsOf(runId: number): RateRecord[] {
		const recipe = this.recipes.get(runId) as RunRecipe;
		return 'plan' in recipe.source ? collectedOver(buildRateRecords(this.data, recipe.source.plan), recipe) : this.repeated(runId, recipe, recipe.source).records;
	}

	private repeated(runId: number, recipe: RunRecipe, { repeatOf, changes }: RepeatSource): ReturnType<typeof repeatRecords> {
		const stamp = { shopId: recipe.shopId, runNo: runId, collectedAt: recipe.collectedAt };
		const { records, expectedChanges } = repeatRecords(this.recordsOf(repeatOf), stamp, changes, changes.backOnSale > 0 ? this.onSaleTwins(repeatOf) : undefined);
		return { records: collectedOver(records, recipe), expectedChanges };
	}

	/**
	 * A comp-set shop's records with every room on sale, for the stays a repeat brings back on
	 * sale: they come back at the layout's rate, not at one drawn from the hotel's star band.
	 */
	private onSaleTwins(runId: number): RateRecord[] | undefined {
		let recipe = this.recipes.get(runId) as RunRecipe;
		while (!('plan' in recipe.source)) recipe = this.recipes.get(recipe.source.repeatOf) as RunRecipe;
		const { plan } = recipe.source;
		return plan.market ? buildRateRecords(this.data, plan, { everyRoomOnSale: true }) : undefined;
	}

	private chunks(records: RateRecord[], size: number): RateRecord[][] {
		const chunks: RateRecord[][] = [];
		for (let i = 0; i < records.length; i += size) chunks.push(records.slice(i, i + size));
		return chunks;
	}

	/** Record order, or the order `shuffle` seeds: every webhook gets the deliveries in the same order. */
	private deliveryOrder(chunks: RateRecord[][], { shuffle }: DeliveryOptions): RateRecord[][] {
		return shuffle === undefined ? chunks : createPrng(deriveSeed(shuffle, 'delivery-order')).sample(chunks, chunks.length);
	}

	private async deliver(runId: number, shopId: number, webhook: StoredWebhook, chunk: RateRecord[], options: DeliveryOptions): Promise<Delivery> {
		const body = options.perDelivery === 1 ? chunk[0] : chunk;
		const startedAt = Date.now();
		const { outcome, attempts } = await postWithRetries(this.client, webhook, JSON.stringify(body), { timeoutMs: options.timeoutSeconds * 1000, retries: options.retries });
		const delivery: Delivery = {
			seq: ++this.deliverySeq,
			runId,
			shopId,
			webhookId: webhook.webhookId,
			endpoint: webhook.registration.endpoint,
			authType: webhook.registration.authType,
			recordIds: chunk.map((record) => record.recordId),
			body,
			status: outcome.status,
			...(outcome.error ? { error: outcome.error } : {}),
			...(outcome.responseBody !== undefined ? { responseBody: outcome.responseBody } : {}),
			at: new Date(startedAt).toISOString(),
			durationMs: Date.now() - startedAt,
			attempts,
		};
		this.log.push(delivery);
		return delivery;
	}

	/** A shop id the data set does not know still collects rates, for a fixed handful of hotels. */
	private fallbackHotels(shopId: number): number[] {
		const random = createPrng(deriveSeed(this.data.seed, 'fallback-shop', shopId));
		return random.sample(this.data.hotels, 5).map((hotel) => hotel.hotelcode).sort((a, b) => a - b);
	}
}
