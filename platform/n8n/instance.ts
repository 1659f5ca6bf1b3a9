import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { N8nCli, type CredentialSeed, type WorkflowSeed } from './cli';
import { installCommunityPackage } from './communityPackage';
import { jsonLogEntries, N8nProcess } from './n8nProcess';
import { freePort, spawnGroup, type CommandResult } from './processes';
import { N8nRestClient } from './rest';
import { runtimeEnv, type N8nRuntime } from './runtime';
import type { WorkflowRun } from './workflowRun';

export interface N8nInstanceOptions {
	runtime: N8nRuntime;
	/**
	 * The folder n8n keeps everything in (it uses <userFolder>/.n8n). Default: a new empty folder
	 * under the system temp dir, removed by dispose().
	 */
	userFolder?: string;
	/** Default: a free port. */
	port?: number;
	/** Default: random per instance, or the key already in a kept userFolder. */
	encryptionKey?: string;
	/** Extra environment for every n8n process of this instance. */
	env?: Record<string, string>;
}

const READY_LINE = 'Editor is now accessible via';

/**
 * One n8n installation in its own folder, driven the way an operator drives it: its CLI (cli.ts)
 * for import, publish and execute, `n8n start` as a process (n8nProcess.ts) for the server, and its
 * REST API (rest.ts, which this class is a client of) for what a browser does.
 */
export class N8nInstance extends N8nRestClient {
	readonly runtime: N8nRuntime;

	readonly userFolder: string;

	readonly port: number;

	readonly logFile: string;

	private readonly ownsFolder: boolean;

	private readonly encryptionKey: string;

	private readonly extraEnv: Record<string, string>;

	private readonly commands: N8nCli;

	private readonly server: N8nProcess;

	private constructor(options: N8nInstanceOptions & { userFolder: string; port: number; ownsFolder: boolean }) {
		super(`http://127.0.0.1:${options.port}`, options.runtime);
		this.runtime = options.runtime;
		this.userFolder = options.userFolder;
		this.port = options.port;
		this.ownsFolder = options.ownsFolder;
		this.extraEnv = { ...options.env };
		this.logFile = path.join(this.userFolder, 'n8n.log');
		this.encryptionKey = options.encryptionKey ?? keptEncryptionKey(this.n8nFolder) ?? randomBytes(24).toString('hex');
		this.commands = new N8nCli(this.runtime, this.userFolder, (brokerPort) => this.env(brokerPort));
		this.server = this.n8nProcess(`n8n ${this.runtime.version}`, 'start', this.logFile, READY_LINE);
	}

	static async create(options: N8nInstanceOptions): Promise<N8nInstance> {
		const ownsFolder = options.userFolder === undefined;
		const userFolder = options.userFolder ?? fs.mkdtempSync(path.join(os.tmpdir(), `n8n-${options.runtime.version}-`));
		fs.mkdirSync(path.join(userFolder, '.n8n'), { recursive: true });
		const port = options.port ?? (await freePort());
		return new N8nInstance({ ...options, userFolder, port, ownsFolder });
	}

	/** <userFolder>/.n8n: database, config, and nodes/ for community packages. */
	get n8nFolder(): string {
		return path.join(this.userFolder, '.n8n');
	}

	/** n8n's own log file: one JSON entry a line, with its level (written by every n8n process of this folder). */
	get jsonLogFile(): string {
		return path.join(this.n8nFolder, 'logs', 'n8n.log');
	}

	get running(): boolean {
		return this.server.running;
	}

	webhookUrl(webhookPath: string): string {
		return `${this.baseUrl}/webhook/${webhookPath}`;
	}

	/** Installs a packed community package as n8n's own installer would. */
	async installPackage(tarball: string): Promise<void> {
		await installCommunityPackage(this.n8nFolder, tarball);
	}

	async importCredentials(credentials: CredentialSeed[]): Promise<void> {
		await this.commands.importCredentials(credentials);
	}

	async importWorkflows(workflows: WorkflowSeed[]): Promise<void> {
		await this.commands.importWorkflows(workflows);
	}

	/** Marks a workflow's current version as published (active); takes effect at the next start. */
	async publishWorkflow(id: string): Promise<void> {
		await this.commands.publishWorkflow(id);
		this.published.add(id);
	}

	/** Runs a workflow from its manual trigger with `n8n execute` (see N8nCli.execute). */
	async execute(workflowId: string): Promise<WorkflowRun> {
		return this.commands.execute(workflowId);
	}

	/** Runs an n8n CLI command against this instance's folder; a non-zero exit is an error. */
	async cli(args: string[], env: Record<string, string> = {}, timeoutMs = 300_000): Promise<CommandResult> {
		return this.commands.run(args, env, timeoutMs);
	}

	/**
	 * Starts `n8n start` and resolves once the editor is up and, when signed in, every workflow
	 * published with publishWorkflow is active.
	 */
	async start(): Promise<void> {
		if (this.server.running) return;
		try {
			await this.server.start();
		} catch (error) {
			throw new Error(withInstallAdvice((error as Error).message, this.runtime));
		}
		const settings = await this.request('GET', '/rest/settings');
		if (settings.status !== 200) throw new Error(`n8n started but /rest/settings answers ${settings.status}`);
		// The first start has no owner to ask with yet: the caller sets one up, then waits itself.
		if (this.signedIn) await this.waitForPublished();
	}

	/**
	 * Another process of this instance (`n8n worker`, `n8n webhook` in queue mode), not yet
	 * started: the same settings, its own task-broker port and whatever `env` adds; its output goes
	 * to `logFile`, and it is ready once that shows `readyLine`.
	 */
	n8nProcess(name: string, command: string, logFile: string, readyLine: string, env: Record<string, string> = {}): N8nProcess {
		return new N8nProcess(name, logFile, readyLine, async (log) =>
			spawnGroup(this.runtime.nodeBin, [this.runtime.n8nScript, command], {
				cwd: this.userFolder,
				env: { ...this.env(await freePort()), ...env },
				stdio: ['ignore', log, log],
			}),
		);
	}

	/** Resolves when the running `n8n start` exits (at once when none runs). */
	async exited(): Promise<number | null> {
		return this.server.exited();
	}

	/** SIGTERM (n8n's graceful shutdown), SIGKILL after `graceMs` (0: at once, as a crash would). */
	async stop(graceMs?: number): Promise<void> {
		await this.server.stop(graceMs);
	}

	/** Stops n8n and starts it again, with `env` added to its environment from now on (a new limit, say). */
	async restart(env: Record<string, string> = {}): Promise<void> {
		await this.stop();
		Object.assign(this.extraEnv, env);
		await this.start();
	}

	/** Stops n8n and removes the folder, unless it was given by the caller or E2E_KEEP_N8N_FOLDER is set. */
	async dispose(): Promise<void> {
		await this.stop();
		if (this.ownsFolder && !process.env.E2E_KEEP_N8N_FOLDER) {
			fs.rmSync(this.userFolder, { recursive: true, force: true });
		}
	}

	/** The entries of n8n's log file at a level ('error', 'warn', ...). */
	logEntries(level: string): Array<{ level: string; message: string }> {
		return jsonLogEntries(this.jsonLogFile, level);
	}

	/** Everything `n8n start` printed since this instance's folder was created. */
	log(): string {
		return this.server.log();
	}

	private env(brokerPort: number): NodeJS.ProcessEnv {
		return {
			...runtimeEnv(this.runtime),
			N8N_USER_FOLDER: this.userFolder,
			N8N_ENCRYPTION_KEY: this.encryptionKey,
			N8N_PORT: String(this.port),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_PROTOCOL: 'http',
			N8N_HOST: '127.0.0.1',
			N8N_EDITOR_BASE_URL: `${this.baseUrl}/`,
			[this.runtime.webhookUrlVariable]: `${this.baseUrl}/`,
			...(this.runtime.onlineOnlyModules.length > 0 ? { N8N_DISABLED_MODULES: this.runtime.onlineOnlyModules.join(',') } : {}),
			N8N_SECURE_COOKIE: 'false',
			N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
			N8N_RUNNERS_BROKER_PORT: String(brokerPort),
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_HIRING_BANNER_ENABLED: 'false',
			N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
			N8N_LOG_LEVEL: 'info',
			N8N_LOG_OUTPUT: 'console,file',
			N8N_LOG_FILE_LOCATION: this.jsonLogFile,
			GENERIC_TIMEZONE: 'UTC',
			...this.extraEnv,
		};
	}
}

/** The key a kept folder was set up with (n8n writes it to .n8n/config on first use). */
function keptEncryptionKey(n8nFolder: string): string | undefined {
	try {
		const config = JSON.parse(fs.readFileSync(path.join(n8nFolder, 'config'), 'utf8')) as { encryptionKey?: string };
		return config.encryptionKey;
	} catch {
		return undefined;
	}
}

/**
 * A module of n8n missing at start means its install folder is incomplete (files removed, or an
 * install cut short and marked by a harness that did not verify installs): no start will work
 * until that folder is installed again, so the error says which folder to remove and why.
 */
export function withInstallAdvice(message: string, runtime: Pick<N8nRuntime, 'version' | 'dir'>): string {
	const missing = /Cannot find module '([^']+)'/.exec(message);
	if (!missing) return message;
	return (
		`n8n ${runtime.version} could not load its module ${missing[1]}: its install in ${runtime.dir} is incomplete.\n` +
		`Remove that folder and start again, which installs n8n ${runtime.version} afresh (about 5 minutes):\n  rm -rf ${runtime.dir}\n\n${message}`
	);
}
