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
