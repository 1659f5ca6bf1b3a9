import { startSandbox, type Sandbox } from '../sandbox';
import { packPackage } from './communityPackage';
import { n8nApiCredential, rateChangesKeyScopes, serviceCredentials } from './credentials';
import type { CredentialSeed, WorkflowSeed } from './cli';
import { N8nInstance } from './instance';
import type { Owner } from './rest';
import { ensureN8n, formatDuration, isN8n1x, NEWEST_N8N, PROVEN_N8N_VERSIONS, printProgress, recommendedEnv } from './runtime';

/** The owner account every e2e instance is set up with. */
export const E2E_OWNER: Owner = {
	email: 'e2e@travel-pricing.test',
	password: 'E2e-Owner-Pass-1',
	firstName: 'End',
	lastName: 'ToEnd',
};

/** The label of the API key startE2e gives Rate Changes (Settings > n8n API lists it so). */
export const RATE_CHANGES_KEY_LABEL = 'Travel Pricing e2e';

/**
 * The n8n versions a run covers: N8N_VERSIONS as a comma list, or "all" for every proven version.
 * Default: the newest only (npm test); npm run test:compat sets "all".
 */
export function e2eVersions(): string[] {
	const wanted = process.env.N8N_VERSIONS?.trim();
	if (!wanted) return [NEWEST_N8N];
	if (wanted === 'all') return PROVEN_N8N_VERSIONS;
	return wanted.split(',').map((version) => version.trim()).filter(Boolean);
}

/**
 * The versions the long suites run on (a season of daily shops, n8n at its Data Tables size limit,
 * a shop one record a delivery): none unless E2E_LONG=1, since each keeps n8n busy for many
 * minutes (docs/e2e.md).
 */
export function longE2eVersions(): string[] {
	return process.env.E2E_LONG === '1' ? e2eVersions() : [];
}

/**
 * Whether this n8n's public API has Data Tables, where Rate Changes keeps its tables: from 2.8 on,
 * not in 1.x. On 1.x the suites prove the refusal (NO_DATA_TABLES_REFUSAL) instead.
 */
export function publicApiHasDataTables(version: string): boolean {
	return !isN8n1x(version);
}

/** What Rate Changes fails with on an n8n whose public API has no Data Tables. */
export const NO_DATA_TABLES_REFUSAL = "n8n's public API has no Data Tables at this address: Rate Changes needs n8n 2.8 or later";

export interface E2eEnvironment {
	version: string;
	sandbox: Sandbox;
	n8n: N8nInstance;
	/** Stops n8n and the sandbox and removes the n8n folder. Safe to call twice. */
	close(): Promise<void>;
}

export interface E2eOptions {
	version: string;
	workflows?: WorkflowSeed[];
	/** Ids of imported workflows to publish (activate) before n8n starts. */
	publish?: string[];
	/** Start n8n and sign in as E2E_OWNER (default true). */
	start?: boolean;
	env?: Record<string, string>;
	/**
	 * Start n8n at its own defaults: without what docs/compatibility.md recommends and the harness
	 * otherwise sets (recommendedEnv: N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true on n8n 2.40 and 2.41),
	 * for the cases that prove the trigger at n8n's defaults.
	 */
	n8nDefaults?: boolean;
	/** Credentials to import besides the package's two (an OpenAI credential for the agent tests). */
	credentials?: CredentialSeed[];
	/**
	 * Where the sandbox's clock starts (default: now). Its events are laid out from that day, so a
	 * suite that asks about fixed dates fixes it to see the same events whatever day it runs.
	 */
	sandboxClock?: string;
}

/**
 * A sandbox and a fresh n8n with this package installed from its tarball, credentials pointing at
 * the sandbox, the given workflows imported and published, and (by default) n8n started with an
 * owner signed in. Whatever fails half-way, everything started so far is stopped again.
 */
export async function startE2e(options: E2eOptions): Promise<E2eEnvironment> {
	const started = Date.now();
	const runtime = await ensureN8n(options.version);
	const tarball = await packPackage();
	const sandbox = await startSandbox({ port: 0, clock: options.sandboxClock });
	let n8n: N8nInstance | undefined;
	let closed = false;
	const close = async (): Promise<void> => {
		if (closed) return;
		closed = true;
		await n8n?.dispose();
		await sandbox.close();
	};
	try {
		n8n = await N8nInstance.create({ runtime, env: { ...(options.n8nDefaults ? {} : recommendedEnv(options.version)), ...options.env } });
		await n8n.installPackage(tarball);
		// One import: each n8n command boots n8n, some seconds on a loaded machine.
		await n8n.importCredentials([
			...serviceCredentials({
				baseUrl: sandbox.baseUrl,
				accessToken: sandbox.credentials.accessToken,
				apiKey: sandbox.credentials.apiKey,
			}),
			...(options.credentials ?? []),
		]);
		if (options.workflows?.length) await n8n.importWorkflows(options.workflows);
		for (const id of options.publish ?? []) await n8n.publishWorkflow(id);
		if (options.start !== false) {
			await n8n.start();
			await n8n.setupOwner(E2E_OWNER);
			// Rate Changes reaches n8n's Data Tables through this n8n's own public API.
			await n8n.importCredentials([n8nApiCredential(n8n.baseUrl, await n8n.createApiKey(RATE_CHANGES_KEY_LABEL, rateChangesKeyScopes(options.version)))]);
			await n8n.waitForPublished();
		}
		printProgress(
			`n8n ${runtime.version} on Node.js ${runtime.nodeVersion} ready at ${n8n.baseUrl} in ${formatDuration(Date.now() - started)} (folder ${n8n.userFolder})`,
		);
		return { version: options.version, sandbox, n8n, close };
	} catch (error) {
		await close();
		throw error;
	}
}
