import { createRequire } from 'node:module';
import path from 'node:path';
import { startSandbox, type Sandbox } from '../sandbox';
import {
	E2E_OWNER,
	ensureN8n,
	formatDuration,
	freePort,
	N8nInstance,
	type N8nProcess,
	NEWEST_N8N,
	packPackage,
	printProgress,
	serviceCredentials,
	DATA_TABLE_SCOPES,
	n8nApiCredential,
	type WorkflowRun,
	type WorkflowSeed,
} from '../n8n';
import { POSTGRES_DATABASE, startPostgres, startRedis, type ServiceProcess } from './services';

/**
 * n8n's queue mode on one machine: Postgres and Redis, one main (`n8n start`: editor, REST API,
 * activation), workers (`n8n worker`: run the executions they take from Redis) and one webhook
 * process (`n8n webhook`: takes the production webhook calls and queues their executions). All
 * share one n8n folder (its encryption key, and the community package in .n8n/nodes) and the same
 * settings; each has its own task-broker port and log.
 */

/**
 * N8N_EXPRESSION_ENGINE_POOL_SIZE recommended for the `vm` expression engine of n8n 2.40 and 2.41 (default 1),
 * from the measurements in docs/scaling.md.
 */
export const RECOMMENDED_POOL_SIZE = 2;

/** Database connections of each n8n process (n8n's default: 2); see docs/scaling.md. */
export const POSTGRES_POOL_SIZE = 10;

const WORKER_READY_LINE = 'n8n worker is now ready';
const WEBHOOK_READY_LINE = 'Webhook listener waiting for requests.';
const WORKER_STARTED = /Worker started execution (\d+)/g;

export interface QueueClusterOptions {
	version?: string;
	workflows: WorkflowSeed[];
	/** Ids of imported workflows to activate (publish) once the main runs, as the editor's Publish button does. */
	activate?: string[];
	/** How many workers (default 2). */
	workers?: number;
	/** Extra environment for every n8n process (N8N_EXPRESSION_ENGINE_POOL_SIZE, say). */
	env?: Record<string, string>;
}

/** One `n8n worker` or `n8n webhook` process of the cluster. */
export class QueueProcess {
	private readonly process: N8nProcess;

	constructor(
		readonly name: string,
		command: 'worker' | 'webhook',
		main: N8nInstance,
		readonly logFile: string,
		env: Record<string, string>,
	) {
		this.process = main.n8nProcess(name, command, logFile, command === 'worker' ? WORKER_READY_LINE : WEBHOOK_READY_LINE, env);
	}

	get running(): boolean {
		return this.process.running;
	}

	/** Starts the process and resolves once it says it is ready. */
	async start(): Promise<void> {
		await this.process.start();
	}

	/** SIGTERM (n8n's graceful shutdown), SIGKILL after the grace time. */
	async stop(graceMs?: number): Promise<void> {
		await this.process.stop(graceMs);
	}

	/** Kills the process (and its task runner) with SIGKILL, as a crash or the OOM killer would. */
	async kill(): Promise<void> {
		await this.stop(0);
	}

	/** The executions this process's log says it started, in order ("Worker started execution N"). */
	startedExecutions(): string[] {
		return [...this.log().matchAll(WORKER_STARTED)].map((match) => match[1]);
	}

	log(): string {
		return this.process.log();
	}
}

/** A stored execution as the database holds it, with its run data parsed. */
export interface StoredExecution {
	id: string;
	status: string;
	mode: string;
	run: WorkflowRun;
}

export interface QueueCluster {
	version: string;
	sandbox: Sandbox;
	/** The main process: `n8n start`, signed in as the owner, REST API at main.baseUrl. */
	main: N8nInstance;
	workers: QueueProcess[];
	webhook: QueueProcess;
	/** Base URL of the webhook process; WEBHOOK_URL of every process. */
	webhookBaseUrl: string;
	/** The production URL of a webhook path, served by the webhook process. */
	webhookUrl(webhookPath: string): string;
	/** The worker whose log says it started an execution, or undefined. */
	workerOf(executionId: string): QueueProcess | undefined;
	/** Every stored execution of a workflow, read straight from Postgres, oldest first; `after` an execution id and `limit`: a page of them. */
	executions(workflowId: string, page?: { after?: string; limit?: number }): Promise<StoredExecution[]>;
	/** Stops every n8n process, Postgres, Redis and the sandbox, and removes their folders. Safe to call twice. */
	close(): Promise<void>;
}

/**
 * Starts the whole queue-mode deployment with this package installed and the given workflows
 * imported and published; whatever fails half-way, everything started so far is stopped again.
 */
export async function startQueueCluster(options: QueueClusterOptions): Promise<QueueCluster> {
	const started = Date.now();
	const version = options.version ?? NEWEST_N8N;
	const runtime = await ensureN8n(version);
	const tarball = await packPackage();
	const stack: Array<() => Promise<void>> = [];
	let closed = false;
	const close = async (): Promise<void> => {
		if (closed) return;
		closed = true;
		for (const stop of stack.reverse()) await stop().catch((error: unknown) => printProgress(`while stopping: ${String(error)}`));
	};
	try {
		const sandbox = await startSandbox({ port: 0 });
		stack.push(() => sandbox.close());
		const [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
		stack.push(() => redis.close(), () => postgres.close());
		const webhookPort = await freePort();
		const webhookBaseUrl = `http://127.0.0.1:${webhookPort}`;
		const main = await N8nInstance.create({ runtime, env: { ...queueEnv(postgres, redis), [runtime.webhookUrlVariable]: `${webhookBaseUrl}/`, ...options.env } });
		stack.push(() => main.dispose());
		await main.installPackage(tarball);
		await main.importCredentials(
			serviceCredentials({ baseUrl: sandbox.baseUrl, accessToken: sandbox.credentials.accessToken, apiKey: sandbox.credentials.apiKey }),
		);
		await main.importWorkflows(options.workflows);
		// The main runs the database migrations on its first start, so it goes first; activation
		// (and so the trigger's registration with the service) happens in the main.
		await main.start();
		await main.setupOwner(E2E_OWNER);
		// Rate Changes on the workers reaches the Data Tables through the main's public API.
		await main.importCredentials([n8nApiCredential(main.baseUrl, await main.createApiKey('Travel Pricing queue', DATA_TABLE_SCOPES))]);
		for (const id of options.activate ?? []) await main.activateWorkflow(id);

		const logDir = main.userFolder;
		const processLog = (name: string): string => path.join(logDir, `${name}.log`);
		const ownJsonLog = (name: string): Record<string, string> => ({ N8N_LOG_FILE_LOCATION: path.join(main.n8nFolder, 'logs', `${name}.log`) });
		const workers: QueueProcess[] = [];
		for (let index = 1; index <= (options.workers ?? 2); index++) {
			const name = `worker-${index}`;
			// A worker's health server is off unless asked for, but its port is set apart anyway, so
			// that switching it on (QUEUE_HEALTH_CHECK_ACTIVE) cannot make two workers collide.
			workers.push(new QueueProcess(name, 'worker', main, processLog(name), { ...ownJsonLog(name), QUEUE_HEALTH_CHECK_PORT: String(await freePort()) }));
		}
		const webhook = new QueueProcess('webhook', 'webhook', main, processLog('webhook'), { ...ownJsonLog('webhook'), N8N_PORT: String(webhookPort) });
		stack.push(async () => {
			await Promise.all([webhook, ...workers].map((process) => process.stop()));
		});
		await Promise.all([webhook, ...workers].map((process) => process.start()));

		const flatted = createRequire(path.join(runtime.dir, 'node_modules', 'n8n', 'package.json'))('flatted') as { parse(text: string): unknown };
		const database = postgresClient(runtime.dir, postgres);
		stack.push(() => database.end());
		printProgress(
			`n8n ${version} in queue mode ready in ${formatDuration(Date.now() - started)}: main ${main.baseUrl}, webhook ${webhookBaseUrl}, ${workers.length} workers, Postgres :${postgres.port}, Redis :${redis.port} (folder ${main.userFolder})`,
		);
		return {
			version,
			sandbox,
			main,
			workers,
			webhook,
			webhookBaseUrl,
			webhookUrl: (webhookPath) => `${webhookBaseUrl}/webhook/${webhookPath}`,
			workerOf: (executionId) => workers.find((worker) => worker.startedExecutions().includes(executionId)),
			async executions(workflowId, page = {}) {
				const rows = await database.query<{ id: number; status: string; mode: string; data: string }>(
					'SELECT e.id, e.status, e.mode, d.data FROM execution_entity e JOIN execution_data d ON d."executionId" = e.id WHERE e."workflowId" = $1 AND e.id > $2 ORDER BY e.id LIMIT $3',
					[workflowId, Number(page.after ?? 0), page.limit ?? null],
				);
				return rows.map((row) => ({ id: String(row.id), status: row.status, mode: row.mode, run: { data: flatted.parse(row.data) } as WorkflowRun }));
			},
			close,
		};
	} catch (error) {
		await close();
		throw error;
	}
}

/** The settings every process of the deployment must share: the database, Redis and the mode. */
function queueEnv(postgres: ServiceProcess, redis: ServiceProcess): Record<string, string> {
	return {
		EXECUTIONS_MODE: 'queue',
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(postgres.port),
		DB_POSTGRESDB_DATABASE: POSTGRES_DATABASE,
		DB_POSTGRESDB_USER: POSTGRES_DATABASE,
		DB_POSTGRESDB_PASSWORD: '',
		// n8n's default of 2 connections a process is too few for a webhook process taking 20
		// deliveries at once: requests wait for a connection, n8n's database ping times out behind
		// them, and n8n answers every request 503 "Database is not ready" until it recovers.
		DB_POSTGRESDB_POOL_SIZE: String(POSTGRES_POOL_SIZE),
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redis.port),
	};
}

interface PostgresClient {
	query<T>(text: string, values: unknown[]): Promise<T[]>;
	end(): Promise<void>;
}

/** A connection pool to the cluster's database, with the `pg` driver n8n itself ships. */
function postgresClient(n8nDir: string, postgres: ServiceProcess): PostgresClient {
	const pg = createRequire(path.join(n8nDir, 'node_modules', 'n8n', 'package.json'))('pg') as {
		Pool: new (config: Record<string, unknown>) => { query(text: string, values: unknown[]): Promise<{ rows: unknown[] }>; end(): Promise<void> };
	};
	const pool = new pg.Pool({ host: '127.0.0.1', port: postgres.port, user: POSTGRES_DATABASE, database: POSTGRES_DATABASE, max: 2 });
	return {
		async query<T>(text: string, values: unknown[]) {
			return (await pool.query(text, values)).rows as T[];
		},
		end: () => pool.end(),
	};
}
