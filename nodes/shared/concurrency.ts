/**
 * Runs `task` over `inputs` with at most `concurrency` at once and keeps the results in input order.
 * (p-limit does this too, but n8n ships no copy a community package could import at run time.)
 */
export async function mapWithConcurrency<TInput, TResult>(
	inputs: readonly TInput[],
	concurrency: number,
	task: (input: TInput, index: number) => Promise<TResult>,
): Promise<TResult[]> {
	const results = new Array<TResult>(inputs.length);
	let next = 0;
	const worker = async () => {
		while (next < inputs.length) {
			const index = next++;
			results[index] = await task(inputs[index], index);
		}
	};
	const workers = Array.from({ length: Math.max(1, Math.min(concurrency, inputs.length)) }, worker);
	await Promise.all(workers);
	return results;
}

/** What one task came to: its result, or the error it threw. */
export type Settled<TResult> = { value: TResult } | { error: unknown };

/**
 * Like mapWithConcurrency, but a task that throws does not stop the others: each input gets its
 * result or its error, in input order, so a node can pair every outcome with its item.
 */
export async function settleWithConcurrency<TInput, TResult>(
	inputs: readonly TInput[],
	concurrency: number,
	task: (input: TInput, index: number) => Promise<TResult>,
): Promise<Array<Settled<TResult>>> {
	return await mapWithConcurrency(inputs, concurrency, async (input, index): Promise<Settled<TResult>> => {
		try {
			return { value: await task(input, index) };
		} catch (error) {
			return { error };
		}
	});
}
