import { startSandbox, type Sandbox, type SandboxOptions } from '../../platform/sandbox';

/**
 * One sandbox for a test file, started before its first test and closed after its last. What it
 * returns stands for that running sandbox, so tests write `sandbox.requests()` as usual.
 */
export function useSandbox(options: SandboxOptions = {}): Sandbox {
	let running: Sandbox | undefined;
	beforeAll(async () => {
		running = await startSandbox({ port: 0, ...options });
	});
	afterAll(async () => {
		await running?.close();
	});
	return new Proxy({} as Sandbox, {
		get(_target, property) {
			if (!running) throw new Error('The sandbox starts in beforeAll: use it inside a test or a hook');
			const value: unknown = Reflect.get(running, property, running);
			return typeof value === 'function' ? value.bind(running) : value;
		},
	});
}
