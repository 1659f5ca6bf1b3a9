import { DEFAULT_CONCURRENCY } from './options';

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

/**
 * The node's Concurrency: at most `size` requests of one node execution in flight at once, whatever
 * sends them (items, pages, batches). The transport takes a slot for each send and gives it back
 * when the answer is in, so a request waiting to be retried holds none. Slots go first come,
 * first served.
 */
export class RequestLimiter {
	private active = 0;
	private readonly waiting: Array<() => void> = [];

	constructor(readonly size: number) {}

	async run<T>(send: () => Promise<T>): Promise<T> {
		if (this.active < this.size) this.active++;
		else await new Promise<void>((resolve) => this.waiting.push(resolve));
		try {
			return await send();
		} finally {
			// The slot passes straight to the next in line, so `active` only drops when none waits.
			const next = this.waiting.shift();
			if (next) next();
			else this.active--;
		}
	}
}

/**
 * The limiter of one node execution. Concurrency belongs to the node, not to an item: when an
 * expression gives items different values, the smallest holds, so no item's limit is passed.
 */
export function requestLimiter(concurrencies: readonly number[]): RequestLimiter {
	const size = concurrencies.reduce((smallest, value) => Math.min(smallest, value), Infinity);
	return new RequestLimiter(Number.isFinite(size) ? size : DEFAULT_CONCURRENCY);
}
