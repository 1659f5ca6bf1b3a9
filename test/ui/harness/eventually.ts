import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Runs `check` (which asserts with expect) until it passes or `timeoutMs` is over, then throws
 * its last failure: the editor updates the page asynchronously, so what a person would wait to
 * see is waited for, not sampled once.
 */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 30_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		try {
			return await check();
		} catch (error) {
			if (Date.now() >= deadline) throw error;
			await sleep(250);
		}
	}
}
