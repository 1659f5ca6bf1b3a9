import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CREDENTIALS } from './api/auth';
import type { ApiContext } from './api/types';
import { VirtualClock } from './clock';
import type { ControlTarget } from './control/routes';
import { buildData, DEFAULT_SEED, type SandboxData } from './data';
import type { Delivery } from './delivery';
import { FaultInjector, type FaultInput } from './faults';
import { LoadMeter, type LoadStats } from './load';
import { RateShopRunner, type RunSummary } from './rateShop';
import { RequestLog, type LoggedRequest, type RequestFilter } from './requestLog';
import type { RunShopOptions } from './runShopOptions';
import { Scheduler, type ScheduleView } from './scheduler';
import { createListener } from './server';
import type { FaultSettings, Variants } from './types';
import { WebhookStore, type WebhookView } from './webhooks';

export type { LoggedRequest, RequestFilter } from './requestLog';
export type { RunSummary } from './rateShop';
export type { RunShopOptions } from './runShopOptions';
export type { ChangeType, ExpectedChange, RateChanges } from './rateChanges';
export type { MarketEvent, MarketInput, PriceFactor } from './marketShop';
export { deliveryFailures, type Delivery } from './delivery';
export type { ScheduleView } from './scheduler';
export type { WebhookView } from './webhooks';
export type { FaultInput } from './faults';
export type { LoadStats } from './load';
export type { SandboxData } from './data';
export type { DemandShopInfo, DateOrder, DemandResult } from './data/demand';
export * from './types';
export { CREDENTIALS } from './api/auth';

export interface SandboxOptions {
	/** 0 (default) picks a free port. */
	port?: number;
	/** Default 127.0.0.1: the control routes have no auth, so the sandbox stays on loopback. */
	host?: string;
	/** Added before answering every API request (same as setFaults({ latencyMs })). */
	latencyMs?: number;
	/** Virtual clock speed factor (default 1; 0 freezes the clock). */
	speed?: number;
	/** Virtual clock start, ISO 8601 or epoch ms (default: real now). */
	clock?: string | number;
	/** Data seed (default 20260101); the same seed serves the same data. */
	seed?: number;
	/** Rate records produced by each scheduled run (default 10). */
	recordsPerRun?: number;
	/** Seeded hotels, codes 100001 upwards (default 250; the benchmarks use 1,000). */
	hotelCount?: number;
	/** Seeded events, ids 1 upwards (default 5,000; the benchmarks use 10,000). */
	eventCount?: number;
	faults?: FaultInput;
	variants?: Partial<Variants>;
}

const NO_VARIANTS: Variants = { sourcesAsObject: false, singleHotelAsArray: false };

function toEpoch(at: string | number): number {
	const ms = typeof at === 'number' ? at : Date.parse(at);
	if (Number.isNaN(ms)) throw new Error(`not a time: ${String(at)}`);
	return ms;
}

/** A running sandbox: the service simulator plus the handles tests use to steer and inspect it. */
export class Sandbox implements ControlTarget {
	readonly credentials = CREDENTIALS;
	readonly data: SandboxData;
	private readonly server: http.Server;
	private readonly clockState: VirtualClock;
	private readonly scheduler: Scheduler;
	private readonly runner: RateShopRunner;
	private readonly webhookStore = new WebhookStore();
	private readonly log = new RequestLog();
	private readonly faultInjector = new FaultInjector();
	private readonly load = new LoadMeter();
	private readonly context: ApiContext;
	private readonly baseFaults: FaultInput;
	private listening: AddressInfo | null = null;
	private settler: (() => Promise<Record<string, unknown>>) | undefined;

	constructor(private readonly options: SandboxOptions = {}) {
		this.clockState = new VirtualClock(options.speed ?? 1, options.clock === undefined ? Date.now() : toEpoch(options.clock));
		// Its events are upcoming: laid out from the day its clock starts on.
		this.data = buildData(options.seed ?? DEFAULT_SEED, { hotelCount: options.hotelCount, eventCount: options.eventCount, firstDay: this.clockState.now() });
		this.runner = new RateShopRunner(this.data, this.webhookStore, this.clockState);
		const recordsPerRun = options.recordsPerRun ?? 10;
		this.scheduler = new Scheduler(this.clockState, (shopId, trigger) => this.runner.run({ shopId, records: recordsPerRun }, trigger));
		this.context = { data: this.data, clock: this.clockState, scheduler: this.scheduler, webhooks: this.webhookStore, variants: { ...NO_VARIANTS, ...options.variants } };
		this.baseFaults = { ...options.faults, ...(options.latencyMs !== undefined ? { latencyMs: options.latencyMs } : {}) };
		this.faultInjector.set(this.baseFaults);
		this.server = http.createServer({ keepAliveTimeout: 10_000 }, createListener({ context: this.context, faults: this.faultInjector, log: this.log, load: this.load, control: this }));
	}

	/** Binds the server; resolves once it accepts connections. */
	async listen(): Promise<this> {
		await new Promise<void>((resolve, reject) => {
			this.server.once('error', reject);
			// A deep backlog lets a thousand concurrent clients connect at once.
			this.server.listen({ port: this.options.port ?? 0, host: this.options.host ?? '127.0.0.1', backlog: 4096 }, () => resolve());
		});
		this.listening = this.server.address() as AddressInfo;
		this.scheduler.start();
		return this;
	}

	get port(): number {
		if (!this.listening) throw new Error('sandbox is not listening');
		return this.listening.port;
	}

	get baseUrl(): string {
		return `http://${this.options.host ?? '127.0.0.1'}:${this.port}`;
	}

	requests(filter?: RequestFilter): LoggedRequest[] {
		return this.log.list(filter);
	}

	clearRequests(): void {
		this.log.clear();
	}

	/** API requests being served now, and the most served at once since resetStats(). */
	stats(): LoadStats {
		return this.load.stats();
	}

	resetStats(): void {
		this.load.reset();
	}

	/** Replaces the fault settings (see FaultSettings); the fault PRNG restarts from its seed. */
	setFaults(faults: FaultInput): void {
		this.faultInjector.set(faults);
	}

	resetFaults(): void {
		this.faultInjector.reset();
	}

	faults(): FaultSettings {
		return this.faultInjector.current();
	}

	/** Replaces the response variants; variants left out are off. */
	setVariants(variants: Partial<Variants>): void {
		Object.assign(this.context.variants, NO_VARIANTS, variants);
	}

	resetVariants(): void {
		this.setVariants({});
	}

	variants(): Variants {
		return { ...this.context.variants };
	}

	/** Runs a rate shop now and delivers its records to every webhook of the shop's account. */
	runShop(options: RunShopOptions): Promise<RunSummary> {
		return this.runner.run(options);
	}

	/**
	 * Tells `run-shop?wait=1` how to wait for what the deliveries started: a delivery is answered
	 * once the receiver has taken it (n8n answers when the execution exists), and its work ends
	 * later. The service itself knows nothing of it: whoever runs the receiver beside the sandbox
	 * (npm start) sets this; unset, there is nothing to wait for.
	 */
	setSettle(settle: (() => Promise<Record<string, unknown>>) | undefined): void {
		this.settler = settle;
	}

	async settle(): Promise<Record<string, unknown>> {
		return this.settler ? await this.settler() : { waited: false, why: 'no receiver told the sandbox how to wait for it' };
	}

	deliveries(): Delivery[] {
		return this.runner.deliveries();
	}

	clearDeliveries(): void {
		this.runner.clear();
	}

	runs(): RunSummary[] {
		return this.runner.runs();
	}

	webhooks(): WebhookView[] {
		return this.webhookStore.all();
	}

	schedules(): ScheduleView[] {
		return this.scheduler.list();
	}

	now(): Date {
		return new Date(this.clockState.now());
	}

	clock(): { now: string; speed: number } {
		return { now: this.now().toISOString(), speed: this.clockState.speed };
	}

	/** Jumps the virtual clock; runs between the old and new time are skipped, not performed. */
	setClock(at: string | number): void {
		this.scheduler.jump(toEpoch(at));
	}

	setClockSpeed(speed: number): void {
		this.scheduler.setSpeed(speed);
	}

	/** Moves the virtual clock forward, performing (and awaiting) every scheduled run that falls due. */
	advanceClock(ms: number): Promise<RunSummary[]> {
		return this.scheduler.advance(ms);
	}

	health(): Record<string, unknown> {
		return {
			ok: true,
			baseUrl: this.listening ? this.baseUrl : null,
			clock: this.clock(),
			data: { seed: this.data.seed, hotels: this.data.hotels.length, events: this.data.events.length, airports: this.data.airports.length, demandIds: this.data.demand.catalog.map((info) => info.demandId), shops: this.data.shops.shops.length },
			state: { schedules: this.scheduler.list().length, webhooks: this.webhookStore.all().length, requests: this.log.list().length, deliveries: this.runner.deliveries().length },
		};
	}

	/** Clears schedules, webhooks, the request log, load stats, deliveries, faults and variants; seed data stays (shops return to their seeded configuration). */
	reset(): void {
		this.scheduler.clear();
		this.webhookStore.clear();
		this.log.clear();
		this.load.reset();
		this.runner.reset();
		this.faultInjector.set(this.baseFaults);
		this.setVariants(this.options.variants ?? {});
		this.data.shops.reset();
	}

	async close(): Promise<void> {
		await this.scheduler.stop();
		this.runner.close();
		if (!this.listening) return;
		await new Promise<void>((resolve) => {
			this.server.close(() => resolve());
			this.server.closeAllConnections();
		});
		this.listening = null;
	}
}

/** Starts a sandbox on 127.0.0.1 (a free port unless `port` is given). */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	return new Sandbox(options).listen();
}
