import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { installCommunityPackage } from './communityPackage';
import { freePort, runChecked, spawnGroup, tail, type CommandResult, type GroupProcess } from './processes';
import { runtimeEnv, type N8nRuntime } from './runtime';

/** A credential as `n8n import:credentials` takes it: `data` in plain JSON, which n8n encrypts. */
export interface CredentialSeed {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
}

/** A workflow as `n8n import:workflow` takes it (the editor's export format with a fixed id). */
export interface WorkflowSeed {
	id: string;
	name: string;
	nodes: Array<Record<string, unknown>>;
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
	[key: string]: unknown;
}

export interface Owner {
	email: string;
	password: string;
	firstName: string;
	lastName: string;
}

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

export interface RestResponse<T = unknown> {
	status: number;
	body: T;
	text: string;
}

/** How long n8n may take to start (first start of a new folder runs every database migration). */
const START_TIMEOUT_MS = 180_000;
const READY_LINE = 'Editor is now accessible via';

/**
 * One n8n installation in its own folder, driven the way an operator drives it: CLI commands for
 * import, publish and execute, `n8n start` for the server, and its REST API for what a browser does.
 */
export class N8nInstance {
	readonly runtime: N8nRuntime;

	readonly userFolder: string;

	readonly port: number;

	readonly baseUrl: string;

	readonly logFile: string;

	private readonly ownsFolder: boolean;

	private readonly encryptionKey: string;

	private readonly extraEnv: Record<string, string>;

	private server: GroupProcess | undefined;

	private authCookie: string | undefined;

	private readonly published = new Set<string>();

	private constructor(options: N8nInstanceOptions & { userFolder: string; port: number; ownsFolder: boolean }) {
		this.runtime = options.runtime;
		this.userFolder = options.userFolder;
		this.port = options.port;
		this.baseUrl = `http://127.0.0.1:${options.port}`;
		this.ownsFolder = options.ownsFolder;
		this.extraEnv = options.env ?? {};
		this.logFile = path.join(this.userFolder, 'n8n.log');
		this.encryptionKey = options.encryptionKey ?? keptEncryptionKey(this.n8nFolder) ?? randomBytes(24).toString('hex');
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

	get running(): boolean {
		return this.server !== undefined;
	}

	webhookUrl(webhookPath: string): string {
		return `${this.baseUrl}/webhook/${webhookPath}`;
	}

	/** Installs a packed community package as n8n's own installer would. */
	async installPackage(tarball: string): Promise<void> {
		await installCommunityPackage(this.n8nFolder, tarball);
	}

	async importCredentials(credentials: CredentialSeed[]): Promise<void> {
		await this.importFile('credentials', credentials);
	}

	async importWorkflows(workflows: WorkflowSeed[]): Promise<void> {
		await this.importFile('workflow', workflows);
	}

	/** Marks a workflow's current version as published (active); takes effect at the next start. */
	async publishWorkflow(id: string): Promise<void> {
		await this.cli(['publish:workflow', `--id=${id}`]);
		this.published.add(id);
	}

	/**
	 * Activates (publishes) a workflow in the running n8n through the REST API, as the editor's
	 * Publish button does (signed in): one request instead of a `n8n publish:workflow` process.
	 * Resolves once n8n reports it published.
	 */
	async activateWorkflow(workflowId: string): Promise<void> {
		const workflow = await this.request<{ data: { versionId: string } }>('GET', `/rest/workflows/${workflowId}`);
		if (workflow.status !== 200) throw new Error(`Workflow ${workflowId}: ${workflow.status} ${workflow.text.slice(0, 300)}`);
		const response = await this.request('POST', `/rest/workflows/${workflowId}/activate`, { versionId: workflow.body.data.versionId });
		if (response.status !== 200) throw new Error(`Activating ${workflowId} answered ${response.status}: ${response.text.slice(0, 500)}`);
		// n8n 2.40 answers before its publication queue has registered the workflow's webhooks.
		this.published.add(workflowId);
		await this.waitForPublished();
	}

	/** Deactivates (unpublishes) a workflow as the editor does, and resolves once n8n reports it inactive. */
	async deactivateWorkflow(workflowId: string, timeoutMs = 60_000): Promise<void> {
		const response = await this.request('POST', `/rest/workflows/${workflowId}/deactivate`, {});
		if (response.status !== 200) throw new Error(`Deactivating ${workflowId} answered ${response.status}: ${response.text.slice(0, 500)}`);
		this.published.delete(workflowId);
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const workflow = await this.request<{ data: { active: boolean } }>('GET', `/rest/workflows/${workflowId}`);
			if (workflow.body.data?.active === false) return;
			if (Date.now() > deadline) throw new Error(`Workflow ${workflowId} was still active ${timeoutMs / 1000} s after deactivating it`);
			await sleep(250);
		}
	}

	/**
	 * Waits until n8n has activated every workflow published with publishWorkflow (signed in). n8n
	 * 2.8 activates them before it reports ready; later versions activate them in the background
	 * after that, through a publication queue whose state /rest/workflows/:id/publication-status shows.
	 */
	async waitForPublished(timeoutMs = 120_000): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		for (const id of this.published) {
			for (;;) {
				const response = await this.request<{ data: { status: string; triggers: Array<{ errorMessage?: string | null }> } }>(
					'GET',
					`/rest/workflows/${id}/publication-status`,
				);
				if (response.status === 404) break;
				const { status, triggers } = response.body.data;
				if (status === 'published') break;
				if (status === 'failed' || status === 'partial') {
					throw new Error(`n8n could not activate workflow ${id}: ${triggers.map((trigger) => trigger.errorMessage).join('; ')}`);
				}
				if (Date.now() > deadline) throw new Error(`Workflow ${id} was still "${status}" after ${timeoutMs / 1000} s`);
				await sleep(250);
			}
		}
	}

	/**
	 * Runs a workflow from its manual trigger with `n8n execute` and returns the run as n8n reports
	 * it. A failed run is an error carrying n8n's output.
	 */
	async execute(workflowId: string): Promise<WorkflowRun> {
		// n8n prints the report through its logger, so it lands on stdout only with console output.
		const { stdout } = await this.cli(['execute', `--id=${workflowId}`, '--rawOutput'], { N8N_LOG_OUTPUT: 'console' });
		return parseRun(stdout);
	}

	/** Runs an n8n CLI command against this instance's folder; a non-zero exit is an error. */
	async cli(args: string[], env: Record<string, string> = {}, timeoutMs = 300_000): Promise<CommandResult> {
		const brokerPort = await freePort();
		return runChecked(this.runtime.nodeBin, [this.runtime.n8nScript, ...args], {
			cwd: this.userFolder,
			env: { ...this.env(brokerPort), ...env },
			timeoutMs,
		});
	}

	/**
	 * Starts `n8n start` and resolves once the editor is up and, when signed in, every workflow
	 * published with publishWorkflow is active.
	 */
	async start(): Promise<void> {
		if (this.server) return;
		const logStart = fs.existsSync(this.logFile) ? fs.statSync(this.logFile).size : 0;
		const log = fs.openSync(this.logFile, 'a');
		const server = spawnGroup(this.runtime.nodeBin, [this.runtime.n8nScript, 'start'], {
			cwd: this.userFolder,
			env: this.env(await freePort()),
			stdio: ['ignore', log, log],
		});
		fs.closeSync(log);
		this.server = server;
		let exitCode: number | null | undefined;
		void server.exited.then((code) => {
			exitCode = code;
			if (this.server === server) this.server = undefined;
		});
		const deadline = Date.now() + START_TIMEOUT_MS;
		while (!this.logSince(logStart).includes(READY_LINE)) {
			if (exitCode !== undefined) {
				throw new Error(`n8n ${this.runtime.version} exited with ${exitCode} while starting:\n${tail(this.logSince(logStart))}`);
			}
			if (Date.now() > deadline) {
				await this.stop();
				throw new Error(`n8n ${this.runtime.version} did not start within ${START_TIMEOUT_MS / 1000} s:\n${tail(this.logSince(logStart))}`);
			}
			await sleep(250);
		}
		const settings = await this.request('GET', '/rest/settings');
		if (settings.status !== 200) throw new Error(`n8n started but /rest/settings answers ${settings.status}`);
		// The first start has no owner to ask with yet: the caller sets one up, then waits itself.
		if (this.authCookie) await this.waitForPublished();
	}

	/**
	 * Starts another process of this instance (`n8n worker`, `n8n webhook` in queue mode) with the
	 * same settings, its own task-broker port and whatever `env` adds; its output goes to `logFile`.
	 */
	async spawn(command: string, logFile: string, env: Record<string, string> = {}): Promise<GroupProcess> {
		const log = fs.openSync(logFile, 'a');
		try {
			return spawnGroup(this.runtime.nodeBin, [this.runtime.n8nScript, command], {
				cwd: this.userFolder,
				env: { ...this.env(await freePort()), ...env },
				stdio: ['ignore', log, log],
			});
		} finally {
			fs.closeSync(log);
		}
	}

	/** Resolves when the running `n8n start` exits (at once when none runs). */
	async exited(): Promise<number | null> {
		return this.server ? this.server.exited : null;
	}

	async stop(): Promise<void> {
		const server = this.server;
		this.server = undefined;
		await server?.stop();
	}

	async restart(): Promise<void> {
		await this.stop();
		await this.start();
	}

	/** Stops n8n and removes the folder, unless it was given by the caller or E2E_KEEP_N8N_FOLDER is set. */
	async dispose(): Promise<void> {
		await this.stop();
		if (this.ownsFolder && !process.env.E2E_KEEP_N8N_FOLDER) {
			fs.rmSync(this.userFolder, { recursive: true, force: true });
		}
	}

	/** n8n's own log file: one JSON entry a line, with its level (written by every n8n process of this folder). */
	get jsonLogFile(): string {
		return path.join(this.n8nFolder, 'logs', 'n8n.log');
	}

	/** The entries of n8n's log file at a level ('error', 'warn', ...). */
	logEntries(level: string): Array<{ level: string; message: string }> {
		let text: string;
		try {
			text = fs.readFileSync(this.jsonLogFile, 'utf8');
		} catch {
			return [];
		}
		return text
			.split('\n')
			.filter((line) => line.startsWith('{'))
			.map((line) => JSON.parse(line) as { level: string; message: string })
			.filter((entry) => entry.level === level);
	}

	/** Everything n8n printed since this instance's folder was created. */
	log(): string {
		return this.logSince(0);
	}

	/** Creates the owner account (the first user, as the setup screen does) and signs in as it. */
	async setupOwner(owner: Owner): Promise<void> {
		const response = await this.request('POST', '/rest/owner/setup', owner);
		if (response.status !== 200) throw new Error(`Owner setup answered ${response.status}: ${response.text}`);
	}

	async login(owner: Pick<Owner, 'email' | 'password'>): Promise<void> {
		const response = await this.request('POST', '/rest/login', {
			emailOrLdapLoginId: owner.email,
			password: owner.password,
		});
		if (response.status !== 200) throw new Error(`Login answered ${response.status}: ${response.text}`);
	}

	/**
	 * Creates an n8n API key for the signed-in user, as Settings > n8n API does, and returns the
	 * key itself (n8n shows it once).
	 */
	async createApiKey(label: string, scopes: readonly string[]): Promise<string> {
		const response = await this.request<{ data: { rawApiKey: string } }>('POST', '/rest/api-keys', { label, scopes, expiresAt: null });
		if (response.status !== 200) throw new Error(`Creating an API key answered ${response.status}: ${response.text}`);
		return response.body.data.rawApiKey;
	}

	/** Whether the instance already has its owner (then setupOwner would be refused). */
	async hasOwner(): Promise<boolean> {
		const settings = await this.request<{ data: { userManagement?: { showSetupOnFirstLoad?: boolean } } }>('GET', '/rest/settings');
		return settings.body.data.userManagement?.showSetupOnFirstLoad === false;
	}

	/** A request to n8n's own API, signed in when setupOwner or login ran before. */
	async request<T = unknown>(method: string, urlPath: string, body?: unknown): Promise<RestResponse<T>> {
		const headers: Record<string, string> = { accept: 'application/json' };
		if (body !== undefined) headers['content-type'] = 'application/json';
		if (this.authCookie) headers.cookie = this.authCookie;
		const response = await fetch(`${this.baseUrl}${urlPath}`, {
			method,
			headers,
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const cookie = response.headers.getSetCookie().find((value) => value.startsWith('n8n-auth='));
		if (cookie) this.authCookie = cookie.split(';')[0];
		const text = await response.text();
		let parsed: unknown = text;
		try {
			parsed = JSON.parse(text);
		} catch {
			// Not JSON (an HTML error page, say): the caller gets the text.
		}
		return { status: response.status, body: parsed as T, text };
	}

	/** The node types n8n offers in the editor (its /types/nodes.json), signed in. */
	async nodeTypes(): Promise<Array<{ name: string; displayName: string; version: number | number[] }>> {
		const response = await this.request<Array<{ name: string; displayName: string; version: number | number[] }>>('GET', '/types/nodes.json');
		if (response.status !== 200) throw new Error(`/types/nodes.json answered ${response.status}`);
		return response.body;
	}

	async credentialTypes(): Promise<Array<{ name: string; displayName: string }>> {
		const response = await this.request<Array<{ name: string; displayName: string }>>('GET', '/types/credentials.json');
		if (response.status !== 200) throw new Error(`/types/credentials.json answered ${response.status}`);
		return response.body;
	}

	/** How many executions of a workflow n8n has stored, whatever their status. */
	async countExecutions(workflowId: string): Promise<number> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const response = await this.request<{ data: { count: number } }>('GET', `/rest/executions?filter=${filter}&limit=1`);
		if (response.status !== 200) throw new Error(`/rest/executions answered ${response.status}: ${response.text}`);
		return response.body.data.count;
	}

	/** The ids of every stored execution of a workflow, newest first (the API gives 100 a page). */
	async executionIds(workflowId: string): Promise<string[]> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const ids: string[] = [];
		for (;;) {
			const range = ids.length > 0 ? `&lastId=${ids[ids.length - 1]}&firstId=0` : '';
			const response = await this.request<{ data: { results: Array<{ id: string }> } }>(
				'GET',
				`/rest/executions?filter=${filter}&limit=100${range}`,
			);
			if (response.status !== 200) throw new Error(`/rest/executions answered ${response.status}: ${response.text}`);
			const page = response.body.data.results.map((execution) => execution.id);
			if (page.length === 0) return ids;
			ids.push(...page);
		}
	}

	/**
	 * The items a node emitted in each stored execution of a workflow (but those `except` names), one list per execution, read
	 * through the REST API as the editor's execution view reads them (n8n stores run data in the
	 * "flatted" format, parsed here with n8n's own copy of that library).
	 */
	async executionOutputs(
		workflowId: string,
		nodeName: string,
		{ except = new Set<string>(), concurrency = 8 }: { except?: ReadonlySet<string>; concurrency?: number } = {},
	): Promise<Array<Array<Record<string, unknown>>>> {
		const flatted = createRequire(path.join(this.runtime.dir, 'node_modules', 'n8n', 'package.json'))('flatted') as { parse(text: string): unknown };
		const ids = (await this.executionIds(workflowId)).filter((id) => !except.has(id));
		const outputs: Array<Array<Record<string, unknown>>> = new Array(ids.length);
		let next = 0;
		const worker = async (): Promise<void> => {
			while (next < ids.length) {
				const index = next++;
				const response = await this.request<{ data: { data: string } }>('GET', `/rest/executions/${ids[index]}`);
				if (response.status !== 200) throw new Error(`/rest/executions/${ids[index]} answered ${response.status}`);
				const run = { data: flatted.parse(response.body.data.data) } as WorkflowRun;
				outputs[index] = outputOf(run, nodeName);
			}
		};
		await Promise.all(Array.from({ length: concurrency }, worker));
		return outputs;
	}

	/**
	 * Waits until n8n has stored at least `count` executions of a workflow (an execution is stored
	 * after its last node finished, so a little after its effects are visible), then for the count
	 * to hold still for `settleMs`, and returns it. Gives up when the count did not move for
	 * `quietMs`, returning what it reached.
	 */
	async waitForExecutions(workflowId: string, count: number, { quietMs = 60_000, settleMs = 1_000 } = {}): Promise<number> {
		let seen = await this.countExecutions(workflowId);
		let lastChange = Date.now();
		while (Date.now() - lastChange < (seen >= count ? settleMs : quietMs)) {
			await sleep(200);
			const now = await this.countExecutions(workflowId);
			if (now !== seen) {
				seen = now;
				lastChange = Date.now();
			}
		}
		return seen;
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

	private logSince(offset: number): string {
		try {
			const buffer = fs.readFileSync(this.logFile);
			return buffer.subarray(offset).toString('utf8');
		} catch {
			return '';
		}
	}

	private async importFile(kind: 'credentials' | 'workflow', items: unknown[]): Promise<void> {
		const file = path.join(this.userFolder, `import-${kind}-${Date.now()}.json`);
		fs.writeFileSync(file, JSON.stringify(items, null, 2));
		try {
			await this.cli([`import:${kind}`, `--input=${file}`]);
		} finally {
			fs.rmSync(file, { force: true });
		}
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

/** The part of `n8n execute --rawOutput`'s report the tests read. */
export interface WorkflowRun {
	finished?: boolean;
	status?: string;
	data: {
		resultData: {
			runData: Record<string, Array<{ data?: { main: Array<Array<{ json: Record<string, unknown> }> | null> }; error?: unknown }>>;
			error?: unknown;
		};
	};
}

/**
 * `--rawOutput` prints the run as indented JSON among n8n's other log lines. The run is the block
 * from a line "{" to the next line "}".
 */
export function parseRun(stdout: string): WorkflowRun {
	const lines = stdout.split('\n');
	const first = lines.indexOf('{');
	const last = lines.indexOf('}', first);
	if (first === -1 || last === -1) throw new Error(`n8n execute printed no run:\n${tail(stdout)}`);
	return JSON.parse(lines.slice(first, last + 1).join('\n')) as WorkflowRun;
}

/** The items a node put on its first output in the last run of that node. */
export function outputOf(run: WorkflowRun, nodeName: string): Array<Record<string, unknown>> {
	const runs = run.data.resultData.runData[nodeName];
	if (!runs || runs.length === 0) throw new Error(`Node "${nodeName}" did not run`);
	const last = runs[runs.length - 1];
	if (last.error) throw new Error(`Node "${nodeName}" failed: ${JSON.stringify(last.error).slice(0, 500)}`);
	return (last.data?.main[0] ?? []).map((item) => item.json);
}
