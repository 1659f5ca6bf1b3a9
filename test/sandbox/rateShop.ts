import { badRequest } from './api/errors';
import { integer } from './api/fields';
import type { VirtualClock } from './clock';
import type { SandboxData } from './data';
import { DeliveryClient, runPool, type Delivery } from './delivery';
import { createPrng, deriveSeed } from './prng';
import { buildRateRecords } from './rateRecords';
import type { AccountId, RateRecord } from './types';
import type { StoredWebhook, WebhookStore } from './webhooks';

export interface RunShopOptions {
	shopId: number;
	/** How many rate records the run produces (default 10). */
	records?: number;
	/** Records per POST: 1 → the body is one record object; more → an array. */
	perDelivery?: number;
	/** Concurrent senders (default 20). */
	concurrency?: number;
	/** How long a sender waits for the receiver's answer before giving up on a delivery (default 10). */
	timeoutSeconds?: number;
	hotelCodes?: number[];
	websiteCodes?: number[];
}

export interface RunSummary {
	runId: number;
	shopId: number;
	account: AccountId;
	/** Set when a schedule started the run. */
	scheduleId: number | null;
	/** Virtual time of the run; every record's dtCollected. */
	collectedAt: string;
	webhooks: number;
	deliveries: number;
	records: number;
	/** Count of deliveries by receiver status; `error` when no answer came. */
	byStatus: Record<string, number>;
}

export interface RunTrigger {
	account: AccountId;
	scheduleId: number;
	at: number;
}

const POS_BY_COB: Record<string, number> = { US: 1, GB: 2, DE: 3, FR: 4, ES: 5 };

function optionalCodes(value: unknown, field: string): number[] | undefined {
	if (value === undefined) return undefined;
	if (!Array.isArray(value) || value.length === 0) throw badRequest(`${field} must be a non-empty array of integers`);
	return value.map((code, i) => integer(code, `${field}[${i}]`, { min: 1 }));
}

/** Checks runShop arguments (they also arrive as JSON on POST /__sandbox/run-shop). */
export function parseRunShopOptions(input: unknown): Required<Omit<RunShopOptions, 'hotelCodes' | 'websiteCodes'>> & Pick<RunShopOptions, 'hotelCodes' | 'websiteCodes'> {
	if (input === null || typeof input !== 'object') throw badRequest('run-shop options must be an object');
	const options = input as Record<string, unknown>;
	return {
		shopId: integer(options.shopId, 'shopId', { min: 1 }),
		records: options.records === undefined ? 10 : integer(options.records, 'records', { min: 1, max: 1_000_000 }),
		perDelivery: options.perDelivery === undefined ? 1 : integer(options.perDelivery, 'perDelivery', { min: 1 }),
		concurrency: options.concurrency === undefined ? 20 : integer(options.concurrency, 'concurrency', { min: 1, max: 2000 }),
		timeoutSeconds: options.timeoutSeconds === undefined ? 10 : integer(options.timeoutSeconds, 'timeoutSeconds', { min: 1, max: 600 }),
		hotelCodes: optionalCodes(options.hotelCodes, 'hotelCodes'),
		websiteCodes: optionalCodes(options.websiteCodes, 'websiteCodes'),
	};
}

/** Runs rate shops: builds their records and delivers them to the account's webhooks. */
export class RateShopRunner {
	private runNo = 0;
	private deliverySeq = 0;
	private readonly log: Delivery[] = [];
	private readonly summaries: RunSummary[] = [];
	private readonly client = new DeliveryClient();

	constructor(
		private readonly data: SandboxData,
		private readonly webhooks: WebhookStore,
		private readonly clock: VirtualClock,
	) {}

	async run(input: RunShopOptions, trigger?: RunTrigger): Promise<RunSummary> {
		const options = parseRunShopOptions(input);
		const shop = this.data.shops.get(options.shopId);
		// An unknown rateshopid still runs: the spec does not tie rateshopid to shop ids.
		const account = trigger?.account ?? shop?.account ?? 'demo';
		const runId = ++this.runNo;
		const collectedAt = trigger?.at ?? this.clock.now();
		const records = buildRateRecords(this.data, {
			shopId: options.shopId,
			runNo: runId,
			collectedAt,
			count: options.records,
			hotelCodes: options.hotelCodes ?? shop?.hotelCodes ?? this.fallbackHotels(options.shopId),
			websiteCodes: options.websiteCodes ?? shop?.config.websiteCode ?? [1, 2, 3],
			los: shop?.config.lor ?? 1,
			currency: shop?.config.currency ?? 'USD',
			horizon: shop?.config.horizon ?? 30,
			pos: POS_BY_COB[shop?.config.cob ?? 'US'] ?? 1,
		});
		const targets = this.webhooks.forAccount(account);
		const tasks = targets.flatMap((webhook) => this.chunks(records, options.perDelivery).map((chunk) => () => this.deliver(runId, options.shopId, webhook, chunk, options.perDelivery, options.timeoutSeconds * 1000)));
		const deliveries = await runPool(tasks, options.concurrency);
		const byStatus: Record<string, number> = {};
		for (const delivery of deliveries) {
			const key = delivery.status === null ? 'error' : String(delivery.status);
			byStatus[key] = (byStatus[key] ?? 0) + 1;
		}
		const summary: RunSummary = {
			runId,
			shopId: options.shopId,
			account,
			scheduleId: trigger?.scheduleId ?? null,
			collectedAt: new Date(collectedAt).toISOString(),
			webhooks: targets.length,
			deliveries: deliveries.length,
			records: records.length,
			byStatus,
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

	clear(): void {
		this.log.length = 0;
		this.summaries.length = 0;
	}

	close(): void {
		this.client.close();
	}

	private chunks(records: RateRecord[], size: number): RateRecord[][] {
		const chunks: RateRecord[][] = [];
		for (let i = 0; i < records.length; i += size) chunks.push(records.slice(i, i + size));
		return chunks;
	}

	private async deliver(runId: number, shopId: number, webhook: StoredWebhook, chunk: RateRecord[], perDelivery: number, timeoutMs: number): Promise<Delivery> {
		const body = perDelivery === 1 ? chunk[0] : chunk;
		const startedAt = Date.now();
		const outcome = await this.client.post(webhook, JSON.stringify(body), timeoutMs);
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
