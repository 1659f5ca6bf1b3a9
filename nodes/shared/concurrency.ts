import type { INode } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { parseRetryAfter } from './retry';

/**
 * Runs `task` over `inputs` with at most `concurrency` at once and keeps the results in input order.
 * Once a task fails no new one starts, so a search whose page failed sends no further pages.
 * (p-limit does this too, but n8n ships no copy a community package could import at run time.)
 */
export async function mapWithConcurrency<TInput, TResult>(
	inputs: readonly TInput[],
	concurrency: number,
	task: (input: TInput, index: number) => Promise<TResult>,
): Promise<TResult[]> {
	const results = new Array<TResult>(inputs.length);
	let next = 0;
	let failed = false;
	const worker = async () => {
		while (!failed && next < inputs.length) {
			const index = next++;
			const result = task(inputs[index], index);
			// Registered before the await below, so the flag is up before this worker rejects.
			result.catch(() => {
				failed = true;
			});
			results[index] = await result;
		}
	};
	const workers = Array.from({ length: Math.max(1, Math.min(concurrency, inputs.length)) }, worker);
	await Promise.all(workers);
	return results;
}

/** What one task came to: its result, or the error it threw. */
export type Settled<TResult> = { value: TResult } | { error: unknown };

export async function settle<TResult>(task: () => TResult | Promise<TResult>): Promise<Settled<TResult>> {
	try {
		return { value: await task() };
	} catch (error) {
		return { error };
	}
}

/** The default of every node's Concurrency (its field: options.ts): the ceiling of Adaptive, where
 * the requests in flight start low and grow while the service answers well
 * (docs/requests.md#concurrency), so the default may be the field's highest value;
 * docs/benchmarks.md, benchmark 1b, for what it costs and gains. */
export const DEFAULT_CONCURRENCY = 50;

/** Adaptive: the requests in flight follow the service's answers, up to Concurrency. Fixed: always Concurrency. */
export type ConcurrencyMode = 'adaptive' | 'fixed';

/** The node's Concurrency and Concurrency Mode, as one item gives them. */
export interface ConcurrencySettings {
	concurrency: number;
	concurrencyMode: ConcurrencyMode;
}

/** What the limiter learns from one answer: its status, and the wait the service asked for. */
export interface Answer {
	status: number;
	retryAfterMs?: number;
}

/** The answer of a full HTTP response, as the transport gets it. */
export function httpAnswer(response: { statusCode: number; headers: Record<string, unknown> }): Answer {
	return { status: response.statusCode, retryAfterMs: parseRetryAfter(response.headers['retry-after']) };
}

/** Requests in flight at the start of the first adaptive execution for a service: few enough that
 * a service which limits the rate sees no burst before it has answered once. */
export const ADAPTIVE_START = 4;

/** How long what an execution learnt of a service is kept for the next one: past it, the service
 * may have changed, and the next execution starts at ADAPTIVE_START again. */
export const LEARNT_FOR_MS = 10 * 60 * 1000;

/** The state of an AdaptiveLimit that carries over: its limit, and whether it is still doubling. */
export interface Learnt {
	window: number;
	doubling: boolean;
}

/** The latency counts as rising when the mean of the last LATENCY_WINDOW answers passes
 * LATENCY_FACTOR times the best answer seen, plus LATENCY_SLACK_MS so that a few milliseconds
 * of noise on a fast service do not count. */
export const LATENCY_WINDOW = 5;
export const LATENCY_FACTOR = 2;
export const LATENCY_SLACK_MS = 10;

/**
 * Additive increase, multiplicative decrease, as TCP does it (RFC 5681): how many requests may
 * be in flight, learnt from the answers. Pure: it is told each send and each answer, and keeps
 * no time of its own.
 *
 * - It starts at ADAPTIVE_START (or Concurrency, if lower), or where the last execution for the
 *   same service left off (LearntLimits), and never leaves 1 to Concurrency.
 * - Until the service first pushes back, each good answer adds one (the limit doubles with each
 *   round of answers, TCP's slow start); after that, each good answer adds 1/limit (one more per
 *   round of answers, TCP's congestion avoidance).
 * - A good answer is one below 500 that is not a 429, whose latency is not rising. A rising
 *   latency holds the limit where it is and ends the doubling: the service is queueing.
 * - A 429 halves the limit, once per round: a 429 to a request sent before the last halving was
 *   sent under the old limit and does not halve it again.
 * - 5xx answers and connection failures leave it as it is: they say nothing about the load.
 */
export class AdaptiveLimit {
	private window: number;
	private doubling: boolean;
	private best = Infinity;
	private readonly recent: number[] = [];
	private sends = 0;
	/** Sends up to this one left before the last halving. */
	private halvedAfter = 0;

	/** `from` is what an earlier execution learnt of the same service (see LearntLimits). */
	constructor(readonly ceiling: number, from: Learnt = { window: ADAPTIVE_START, doubling: true }) {
		this.window = Math.max(1, Math.min(from.window, ceiling));
		this.doubling = from.doubling;
	}

	get limit(): number {
		return Math.floor(this.window);
	}

	/** What the next execution may start from. */
	get learnt(): Learnt {
		return { window: this.window, doubling: this.doubling };
	}

	/** Whether the limit stands at the ceiling only because the ceiling is there. */
	get atCeiling(): boolean {
		return this.doubling && this.window >= this.ceiling;
	}

	/** A request leaves; returns its ticket, to be handed back with its answer. */
	sent(): number {
		return ++this.sends;
	}

	answered(ticket: number, answer: Answer, latencyMs: number): void {
		if (answer.status === 429) {
			if (ticket <= this.halvedAfter) return;
			this.window = Math.max(1, Math.floor(this.window / 2));
			this.halvedAfter = this.sends;
			this.doubling = false;
			return;
		}
		if (answer.status >= 500) return;
		this.best = Math.min(this.best, latencyMs);
		this.recent.push(latencyMs);
		if (this.recent.length > LATENCY_WINDOW) this.recent.shift();
		if (this.latencyRising()) {
			this.doubling = false;
			return;
		}
		const step = this.doubling ? 1 : 1 / this.limit;
		this.window = Math.min(this.ceiling, this.window + step);
	}

	latencyRising(): boolean {
		const mean = this.recent.reduce((sum, latency) => sum + latency, 0) / this.recent.length;
		return mean > LATENCY_FACTOR * this.best + LATENCY_SLACK_MS;
	}
}

/** Time as the limiter sees it; tests give their own. */
export interface LimiterClock {
	now(): number;
	sleep(ms: number): Promise<void>;
}

const realClock: LimiterClock = { now: () => Date.now(), sleep };

/**
 * What adaptive executions learnt of each service, kept in this n8n process for the next
 * execution, as TCP keeps what a connection learnt of a path for the next connection to the same
 * host (RFC 2140, RFC 9040). The first execution for a service starts at ADAPTIVE_START; a later
 * one starts where the last one left off: at its limit, still doubling if no 429 and no rising
 * latency stopped it. A service is a credential (its type and id: never its secret), so two
 * tokens with two rate limits learn apart. Each n8n process (each queue-mode worker) learns on its
 * own; what is older than LEARNT_FOR_MS is forgotten.
 */
export class LearntLimits {
	private readonly byService = new Map<string, Learnt & { at: number }>();

	recall(service: string, now: number): Learnt | undefined {
		const learnt = this.byService.get(service);
		if (!learnt || now - learnt.at > LEARNT_FOR_MS) return undefined;
		return { window: learnt.window, doubling: learnt.doubling };
	}

	/** After each answer. A limit held down only by this execution's ceiling lowers nothing: a node
	 * with a lower Concurrency says nothing of what the service takes. */
	remember(service: string, limit: AdaptiveLimit, now: number): void {
		const earlier = this.recall(service, now);
		const learnt = limit.learnt;
		const window = limit.atCeiling && earlier?.doubling ? Math.max(earlier.window, learnt.window) : learnt.window;
		this.byService.set(service, { window, doubling: learnt.doubling, at: now });
	}
}

/** This process's memory, shared by every node of the package. */
export const learntLimits = new LearntLimits();

/**
 * The node's Concurrency: the requests of one node execution in flight at once, whatever sends
 * them (items, pages, batches). The transport takes a slot for each send and gives it back when
 * the answer is in, so a request waiting to be retried holds none. Slots go first come, first
 * served.
 *
 * Fixed, there are always `size` slots. Adaptive, `size` is the ceiling and an AdaptiveLimit sets
 * how many there are now; after a 429 with Retry-After, no request of this execution leaves before
 * that wait is over, since the service would refuse it too.
 */
export class RequestLimiter {
	private active = 0;
	private readonly waiting: Array<() => void> = [];
	readonly adaptive?: AdaptiveLimit;
	/** After a 429 with Retry-After, when sends may leave again, and the pause until then. */
	private resumeAt = 0;
	private pause?: Promise<void>;

	constructor(
		readonly size: number,
		readonly mode: ConcurrencyMode = 'fixed',
		private readonly clock: LimiterClock = realClock,
		/** The service whose learnt limit this execution starts from and adds to. */
		private readonly service?: { key: string; memory: LearntLimits },
	) {
		if (mode !== 'adaptive') return;
		const from = service && service.memory.recall(service.key, clock.now());
		this.adaptive = new AdaptiveLimit(size, from);
	}

	/** The requests that may be in flight now. */
	get limit(): number {
		return this.adaptive?.limit ?? this.size;
	}

	/** Sends within a slot; `answerOf` reads the answer for the adaptive limit (fixed ignores it). */
	async run<T>(send: () => Promise<T>, answerOf?: (result: T) => Answer): Promise<T> {
		await this.take();
		try {
			if (!this.adaptive) return await send();
			await this.pauseAsAsked();
			const ticket = this.adaptive.sent();
			const started = this.clock.now();
			const result = await send();
			const answer = answerOf ? answerOf(result) : { status: 200 };
			this.adaptive.answered(ticket, answer, this.clock.now() - started);
			this.service?.memory.remember(this.service.key, this.adaptive, this.clock.now());
			if (answer.status === 429 && answer.retryAfterMs !== undefined) {
				this.resumeAt = Math.max(this.resumeAt, this.clock.now() + answer.retryAfterMs);
			}
			return result;
		} finally {
			this.give();
		}
	}

	/** One pause for every waiting send, so they leave after it in the order they took their slots. */
	private async pauseAsAsked(): Promise<void> {
		while (this.clock.now() < this.resumeAt) {
			this.pause ??= this.clock.sleep(this.resumeAt - this.clock.now()).finally(() => {
				this.pause = undefined;
			});
			await this.pause;
		}
	}

	private async take(): Promise<void> {
		if (this.active < this.limit && this.waiting.length === 0) {
			this.active++;
			return;
		}
		await new Promise<void>((resolve) => this.waiting.push(resolve));
	}

	/** Gives a slot back and hands slots to those waiting, first in line first, while the limit
	 * allows: after a halving none is handed on until enough have come back. */
	private give(): void {
		this.active--;
		while (this.active < this.limit) {
			const next = this.waiting.shift();
			if (!next) return;
			this.active++;
			next();
		}
	}
}

/** The service a node's requests go to, for LearntLimits: its credentials' types and ids. */
export function serviceOf(node: INode): string | undefined {
	const credentials = Object.entries(node.credentials ?? {});
	if (credentials.length === 0) return undefined;
	return credentials
		.map(([type, { id, name }]) => `${type}:${id ?? name}`)
		.sort()
		.join(',');
}

/**
 * The limiter of one node execution. Concurrency belongs to the node, not to an item: when an
 * expression gives items different values, the smallest Concurrency holds, and Fixed if any item
 * asks for it, so no item's limit is passed. Adaptive starts from what the last execution for the
 * same credential learnt.
 */
export function requestLimiter(node: INode, items: readonly ConcurrencySettings[]): RequestLimiter {
	const size = items.reduce((smallest, item) => Math.min(smallest, item.concurrency), Infinity);
	const mode = items.some((item) => item.concurrencyMode === 'fixed') ? 'fixed' : 'adaptive';
	const key = serviceOf(node);
	return new RequestLimiter(
		Number.isFinite(size) ? size : DEFAULT_CONCURRENCY,
		mode,
		realClock,
		key === undefined ? undefined : { key, memory: learntLimits },
	);
}
