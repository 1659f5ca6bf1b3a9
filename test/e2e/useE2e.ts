import { startInbox, type Inbox } from '../../platform/inbox';
import { startE2e, type E2eEnvironment, type E2eOptions } from '../../platform/n8n';

/** What `value()` will be once the describe's beforeAll has run, usable as if it were. */
function startedLater<T extends object>(value: () => T | undefined, what: string): T {
	return new Proxy({} as T, {
		get(_target, property) {
			const started = value();
			if (!started) throw new Error(`${what} starts in beforeAll: use it inside a test or a hook`);
			const field: unknown = Reflect.get(started, property, started);
			return typeof field === 'function' ? field.bind(started) : field;
		},
	});
}

/**
 * The demo inbox and an n8n with the workflows `options` gives for it, started before the
 * describe's first test (installing n8n the first time takes minutes) and closed after its last.
 */
export function useE2eWithInbox(options: (inbox: Inbox) => E2eOptions): { env: E2eEnvironment; inbox: Inbox } {
	let env: E2eEnvironment | undefined;
	let inbox: Inbox | undefined;
	beforeAll(async () => {
		inbox = await startInbox();
		env = await startE2e(options(inbox));
	}, 30 * 60_000);
	afterAll(async () => {
		await env?.close();
		await inbox?.close();
	});
	return { env: startedLater(() => env, 'n8n'), inbox: startedLater(() => inbox, 'The inbox') };
}
