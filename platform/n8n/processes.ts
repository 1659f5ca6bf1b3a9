import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import net from 'node:net';

/**
 * Every process the harness starts leads its own process group, so stopping it also stops what it
 * started (n8n starts a task runner). The groups still alive are killed when this process exits,
 * also when it is ended by Ctrl-C, a hang-up or a CI timeout's SIGTERM: a failed or timed-out
 * test must not leave an n8n behind.
 */
const liveGroups = new Set<number>();

function killLiveGroups(): void {
	for (const pid of liveGroups) killGroup(pid, 'SIGKILL');
}

process.once('exit', killLiveGroups);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
	process.once(signal, () => {
		// A program with its own handler (npm start) stops its processes gently itself.
		if (process.listenerCount(signal) > 0) return;
		killLiveGroups();
		// Ended by the signal, as it would have been without this handler.
		process.kill(process.pid, signal);
	});
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
	try {
		process.kill(-pid, signal);
	} catch {
		// The group is already gone.
	}
}

export interface GroupProcess {
	child: ChildProcess;
	/** Resolves with the exit code (null when ended by a signal) once the leader has exited. */
	exited: Promise<number | null>;
	/** SIGTERM to the whole group, SIGKILL after `graceMs`; resolves when the leader has exited. */
	stop(graceMs?: number): Promise<void>;
}

/**
 * A watchdog outside this process that kills a group once this process is gone, however it ended:
 * SIGKILL runs no handler, and a test runner's sandbox (Jest's) may never pass on the real
 * process's 'exit' or signals. It ends by itself once the group is gone.
 */
function watchGroup(pid: number): void {
	// dash (Debian's sh) takes "-<pgid>" for a group, not "-- -<pgid>".
	const script = `while kill -0 ${process.pid} 2>/dev/null && kill -0 -${pid} 2>/dev/null; do sleep 1; done; kill -9 -${pid} 2>/dev/null`;
	spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' }).unref();
}

export function spawnGroup(command: string, args: string[], options: SpawnOptions): GroupProcess {
	const child = spawn(command, args, { ...options, detached: true });
	const pid = child.pid;
	if (pid === undefined) throw new Error(`Could not start ${command}`);
	liveGroups.add(pid);
	watchGroup(pid);
	const exited = new Promise<number | null>((resolve) => {
		child.once('exit', (code) => {
			// The leader is gone; end whatever it left in its group before forgetting the group.
			killGroup(pid, 'SIGKILL');
			liveGroups.delete(pid);
			resolve(code);
		});
	});
	const stop = async (graceMs = 20_000): Promise<void> => {
		if (!liveGroups.has(pid)) return;
		killGroup(pid, 'SIGTERM');
		const timer = setTimeout(() => killGroup(pid, 'SIGKILL'), graceMs);
		await exited;
		clearTimeout(timer);
	};
	return { child, exited, stop };
}

export interface CommandResult {
	code: number | null;
	stdout: string;
	stderr: string;
}

/** Runs a command to its end (or kills its group after `timeoutMs`) and returns what it printed. */
export async function runCommand(
	command: string,
	args: string[],
	options: SpawnOptions & { timeoutMs?: number; onOutput?: (chunk: string) => void } = {},
): Promise<CommandResult> {
	const { timeoutMs = 300_000, onOutput, ...spawnOptions } = options;
	const started = spawnGroup(command, args, { ...spawnOptions, stdio: ['ignore', 'pipe', 'pipe'] });
	// 'exit' can come before the last output has been read; 'close' comes after both.
	const closed = new Promise<void>((resolve) => started.child.once('close', () => resolve()));
	let stdout = '';
	let stderr = '';
	started.child.stdout?.on('data', (chunk: Buffer) => {
		stdout += chunk.toString();
		onOutput?.(chunk.toString());
	});
	started.child.stderr?.on('data', (chunk: Buffer) => {
		stderr += chunk.toString();
		onOutput?.(chunk.toString());
	});
	let timedOut = false;
	const timer = setTimeout(() => {
		timedOut = true;
		void started.stop(2_000);
	}, timeoutMs);
	const code = await started.exited;
	await closed;
	clearTimeout(timer);
	if (timedOut) {
		throw new Error(`${command} ${args.join(' ')} did not finish within ${timeoutMs / 1000} s\n${tail(stdout + stderr)}`);
	}
	return { code, stdout, stderr };
}

/** The same as runCommand, but a non-zero exit is an error carrying the command's output. */
export async function runChecked(
	command: string,
	args: string[],
	options: SpawnOptions & { timeoutMs?: number; onOutput?: (chunk: string) => void } = {},
): Promise<CommandResult> {
	const result = await runCommand(command, args, options);
	if (result.code !== 0) {
		throw new Error(`${command} ${args.join(' ')} exited with ${result.code}\n${tail(result.stdout + result.stderr)}`);
	}
	return result;
}

export function tail(text: string, lines = 40): string {
	return text.trimEnd().split('\n').slice(-lines).join('\n');
}

/** A TCP port that nothing listens on right now, on the loopback interface. */
export function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.unref();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			server.close(() => resolve(port));
		});
	});
}
