import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { tail, type GroupProcess } from './processes';

/** How long an n8n process may take to start (the first start of a new folder runs every database migration). */
export const START_TIMEOUT_MS = 180_000;

/**
 * One long-running n8n process (`n8n start`, `n8n worker`, `n8n webhook`) whose output goes to its
 * own log file. It is ready once the log shows its ready line; n8n prints nothing else that a
 * caller could wait on.
 */
export class N8nProcess {
	private current: GroupProcess | undefined;

	/** `launch` starts the process with both its outputs on the file descriptor it is given. */
	constructor(
		readonly name: string,
		readonly logFile: string,
		private readonly readyLine: string,
		private readonly launch: (log: number) => Promise<GroupProcess>,
	) {}

	get running(): boolean {
		return this.current !== undefined;
	}

	/**
	 * Spawns the process, watches for its exit, and resolves once its log shows the ready line.
	 * An exit while starting, or no ready line within `timeoutMs`, is an error carrying the log's
	 * tail (after a timeout the process is stopped first).
	 */
	async start(timeoutMs = START_TIMEOUT_MS): Promise<void> {
		if (this.current) return;
		const logStart = fs.existsSync(this.logFile) ? fs.statSync(this.logFile).size : 0;
		const log = fs.openSync(this.logFile, 'a');
		let started: GroupProcess;
		try {
			started = await this.launch(log);
		} finally {
			fs.closeSync(log);
		}
		this.current = started;
		let exitCode: number | null | undefined;
		void started.exited.then((code) => {
			exitCode = code;
			if (this.current === started) this.current = undefined;
		});
		const deadline = Date.now() + timeoutMs;
		while (!this.logSince(logStart).includes(this.readyLine)) {
			if (exitCode !== undefined) throw new Error(`${this.name} exited with ${exitCode} while starting:\n${tail(this.logSince(logStart))}`);
			if (Date.now() > deadline) {
				await this.stop();
				throw new Error(`${this.name} did not start within ${timeoutMs / 1000} s:\n${tail(this.logSince(logStart))}`);
			}
			await sleep(250);
		}
	}

	/** Resolves when the process exits (at once when it does not run). */
	async exited(): Promise<number | null> {
		return this.current ? this.current.exited : null;
	}

	/** SIGTERM (n8n's graceful shutdown), SIGKILL after the grace time. */
	async stop(graceMs?: number): Promise<void> {
		const running = this.current;
		this.current = undefined;
		await running?.stop(graceMs);
	}

	/** Everything the process printed, over all its starts. */
	log(): string {
		return this.logSince(0);
	}

	private logSince(offset: number): string {
		try {
			return fs.readFileSync(this.logFile).subarray(offset).toString('utf8');
		} catch {
			return '';
		}
	}
}

/** The entries at a level ('error', 'warn', ...) of n8n's own log file, one JSON entry a line. */
export function jsonLogEntries(jsonLogFile: string, level: string): Array<{ level: string; message: string }> {
	let text: string;
	try {
		text = fs.readFileSync(jsonLogFile, 'utf8');
	} catch {
		return [];
	}
	return text
		.split('\n')
		.filter((line) => line.startsWith('{'))
		.map((line) => JSON.parse(line) as { level: string; message: string })
		.filter((entry) => entry.level === level);
}
