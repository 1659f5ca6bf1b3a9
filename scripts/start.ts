import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { startSandbox, type Sandbox } from '../platform/sandbox';
import {
	bindCredentials,
	DATA_TABLE_SCOPES,
	DEMO_MODEL_CREDENTIAL,
	demoModelCredential,
	ensureN8n,
	ensureScheduleSheet,
	formatDuration,
	freePort,
	isN8n1x,
	MCP_BEARER_CREDENTIAL,
	mcpBearerCredential,
	MCP_EXAMPLE_FILE,
	mcpExampleAccess,
	N8N_API_CREDENTIAL,
	n8nApiCredential,
	N8nInstance,
	N8nPublicApi,
	NEWEST_N8N,
	ownPackageJson,
	packPackage,
	PROVEN_N8N_VERSIONS,
	REPO_ROOT,
	runCommand,
	SCHEDULE_SHEET_NAME,
	serviceCredentials,
	startScriptedModel,
	type McpAccess,
	type Owner,
	type ScriptedModel,
	type ServiceAccess,
	type WorkflowSeed,
} from '../platform/n8n';

/**
 * `npm start`: a ready n8n with this package, its credentials and the example workflows, talking
 * to the service sandbox (or to a real service with --base-url). See docs/e2e.md.
 */

const USAGE = `Usage: npm start [-- options]

Builds the package, starts the service sandbox and an n8n with the package installed, the demo
credentials and the example workflows, and prints the editor URL. Ctrl-C stops everything.

Options (each also as an environment variable):
  --n8n-version <v>   TRAVEL_PRICING_N8N_VERSION   n8n to run: ${PROVEN_N8N_VERSIONS.join(' or ')} (default ${NEWEST_N8N})
  --port <n>          TRAVEL_PRICING_N8N_PORT      editor port (default 5678, or a free one)
  --sandbox-port <n>  SANDBOX_PORT                 sandbox port (default 5679, or a free one)
  --base-url <url>    TRAVEL_PRICING_BASE_URL      use a real service instead of the sandbox; then
                      TRAVEL_PRICING_ACCESS_TOKEN  its access token (required) and
                      TRAVEL_PRICING_API_KEY       its airports API key
  --webhook-url <url> TRAVEL_PRICING_WEBHOOK_URL   public address of this n8n, for rate deliveries
                                                   from a real service (default: the editor URL)
  --fresh                                          start from an empty demo folder
  --help

The demo's n8n folder is kept in .demo/n8n-<version>/ (workflows, executions, the owner account);
--fresh removes it first.`;

const DEMO_OWNER: Owner = {
	email: 'demo@example.com',
	password: 'TravelPricing-Demo-1',
	firstName: 'Demo',
	lastName: 'Analyst',
};

const DEFAULT_N8N_PORT = 5678;
const DEFAULT_SANDBOX_PORT = 5679;
const EXAMPLES_DIR = path.join(REPO_ROOT, 'examples');
const DEMO_ROOT = path.join(REPO_ROOT, '.demo');

interface StartOptions {
	version: string;
	port?: number;
	sandboxPort?: number;
	baseUrl?: string;
	webhookUrl?: string;
	fresh: boolean;
}

function parseArgs(argv: string[]): StartOptions {
	const flags = new Map<string, string | true>();
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (!arg.startsWith('--')) fail(`Unexpected argument "${arg}"\n\n${USAGE}`);
		const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
		if (name === 'fresh' || name === 'help') flags.set(name, true);
		else if (inline !== undefined) flags.set(name, inline);
		else if (i + 1 < argv.length) flags.set(name, argv[++i]);
		else fail(`--${name} needs a value\n\n${USAGE}`);
	}
	const known = ['n8n-version', 'port', 'sandbox-port', 'base-url', 'webhook-url', 'fresh', 'help'];
	for (const name of flags.keys()) if (!known.includes(name)) fail(`Unknown option --${name}\n\n${USAGE}`);
	if (flags.has('help')) {
		console.log(USAGE);
		process.exit(0);
	}
	const text = (flag: string, env: string): string | undefined => {
		const value = flags.get(flag);
		return typeof value === 'string' ? value : process.env[env] || undefined;
	};
	const port = (flag: string, env: string): number | undefined => {
		const raw = text(flag, env);
		if (raw === undefined) return undefined;
		const value = Number(raw);
		if (!Number.isInteger(value) || value < 1 || value > 65535) fail(`--${flag} must be a port number, got "${raw}"`);
		return value;
	};
	const version = text('n8n-version', 'TRAVEL_PRICING_N8N_VERSION') ?? NEWEST_N8N;
	if (!PROVEN_N8N_VERSIONS.includes(version)) {
		console.warn(`n8n ${version} is not one of the versions this package is tested on (${PROVEN_N8N_VERSIONS.join(', ')}); trying it anyway.`);
	}
	return {
		version,
		port: port('port', 'TRAVEL_PRICING_N8N_PORT'),
		sandboxPort: port('sandbox-port', 'SANDBOX_PORT'),
		baseUrl: text('base-url', 'TRAVEL_PRICING_BASE_URL')?.replace(/\/+$/, ''),
		webhookUrl: text('webhook-url', 'TRAVEL_PRICING_WEBHOOK_URL'),
		fresh: flags.has('fresh'),
	};
}

function fail(message: string): never {
	console.error(message);
	process.exit(2);
}

function step(message: string): void {
	console.log(`\u203a ${message}`);
}

async function build(): Promise<void> {
	step('Building the package (npm run build)');
	const result = await runCommand('npm', ['run', 'build'], { cwd: REPO_ROOT, timeoutMs: 600_000 });
	if (result.code !== 0) {
		console.error(result.stdout + result.stderr);
		throw new Error('npm run build failed');
	}
}

/** A port that is free now: the wanted one when nothing listens on it, else any free one. */
async function portFor(wanted: number | undefined, fallback: number): Promise<number> {
	const candidate = wanted ?? fallback;
	const free = await new Promise<boolean>((resolve) => {
		const probe = net.createServer();
		probe.once('error', () => resolve(false));
		probe.listen(candidate, '127.0.0.1', () => probe.close(() => resolve(true)));
	});
	if (free) return candidate;
	if (wanted !== undefined) throw new Error(`Port ${wanted} is in use`);
	return freePort();
}

/** The examples the printed steps name, by file. */
const DIGEST_EXAMPLE = 'event-impact-digest.json';
const AGENT_EXAMPLE = 'event-demand-agent.json';
const RATE_ALERT_EXAMPLE = 'rate-alert.json';
const RATE_CHANGE_EXAMPLE = 'rate-change-digest.json';
const UNDERCUT_EXAMPLE = 'undercut-parity-alerts.json';
const SCHEDULES_EXAMPLE = 'schedules-from-sheet.json';

type Examples = Map<string, WorkflowSeed>;

/**
 * Every examples/*.json by file, with its credentials bound to the demo credentials. A file
 * without an id gets one derived from its name, so a later start recognises it as already imported.
 */
function readExamples(): Examples {
	if (!fs.existsSync(EXAMPLES_DIR)) return new Map();
	const files = fs
		.readdirSync(EXAMPLES_DIR)
		.filter((file) => file.endsWith('.json'))
		.sort();
	return new Map(
		files.map((file) => {
			const workflow = JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')) as WorkflowSeed;
			const id = workflow.id || `ex${createHash('sha256').update(file).digest('hex').slice(0, 14)}`;
			return [file, bindCredentials({ ...workflow, id, active: false })];
		}),
	);
}

/** Imports the examples the demo folder does not have yet, so a user's edits to them are kept. */
async function importNewExamples(n8n: N8nInstance, examples: WorkflowSeed[]): Promise<WorkflowSeed[]> {
	if (examples.length === 0) return [];
	const { stdout } = await n8n.cli(['list:workflow', '--onlyId']);
	const present = new Set(stdout.split('\n').map((line) => line.trim()));
	const missing = examples.filter((workflow) => !present.has(workflow.id));
	if (missing.length > 0) await n8n.importWorkflows(missing);
	return missing;
}

/**
 * The sandbox starts empty on every run, but a rate trigger that was active in the kept demo folder
 * remembers its registration and would not register again. Deactivating and activating it makes
 * the trigger forget and register with this run's sandbox, as a user would by toggling it.
 */
async function reRegisterRateTriggers(n8n: N8nInstance): Promise<string[]> {
	const triggerType = `${ownPackageJson().name}.travelPricingRateTrigger`;
	const list = await n8n.request<{ data: Array<{ id: string }> }>('GET', '/rest/workflows');
	const reRegistered: string[] = [];
	for (const { id } of list.body.data ?? []) {
		const { body } = await n8n.request<{ data: { name: string; active: boolean; versionId: string; nodes: Array<{ type: string; disabled?: boolean }> } }>(
			'GET',
			`/rest/workflows/${id}`,
		);
		const workflow = body.data;
		if (!workflow.active || !workflow.nodes.some((node) => node.type === triggerType && !node.disabled)) continue;
		await n8n.request('POST', `/rest/workflows/${id}/deactivate`, {});
		const activated = await n8n.request('POST', `/rest/workflows/${id}/activate`, { versionId: workflow.versionId });
		if (activated.status !== 200) console.warn(`  could not re-activate "${workflow.name}": ${activated.text.slice(0, 200)}`);
		else reRegistered.push(workflow.name);
	}
	return reRegistered;
}

/**
 * Rate Changes keeps its tables in n8n's Data Tables through n8n's public API: the demo makes an
 * API key of the demo owner, with the data table scopes only, and the "Travel Pricing n8n API"
 * credential pointing at this n8n, once per demo folder. Later starts read the key back from that
 * credential, to create the example's schedule sheet if it has gone.
 */
async function ensureN8nApiKey(n8n: N8nInstance): Promise<{ apiKey: string; created: boolean }> {
	const credentials = await n8n.request<{ data: Array<{ id: string }> }>('GET', '/rest/credentials');
	if (credentials.body.data?.some((credential) => credential.id === N8N_API_CREDENTIAL.id)) {
		const stored = await storedCredentialData<{ apiKey: string }>(n8n, N8N_API_CREDENTIAL.id);
		if (stored) return { apiKey: stored.apiKey, created: false };
	}
	const apiKey = await n8n.createApiKey('Travel Pricing demo (Rate Changes)', DATA_TABLE_SCOPES);
	await n8n.importCredentials([n8nApiCredential(n8n.baseUrl, apiKey)]);
	return { apiKey, created: true };
}

/**
 * The MCP example's bearer token: a random one per demo folder, made on the first start. Its
 * credential keeps it, so that a client set up once keeps working.
 */
async function ensureMcpToken(n8n: N8nInstance): Promise<string> {
	const stored = await storedCredentialData<{ token: string }>(n8n, MCP_BEARER_CREDENTIAL.id);
	if (stored?.token) return stored.token;
	const token = randomBytes(24).toString('base64url');
	await n8n.importCredentials([mcpBearerCredential(token)]);
	return token;
}

/**
 * A credential's secrets as n8n keeps them (n8n shows an API key once; its credential keeps it),
 * read with n8n's CLI, which exports them decrypted; undefined when the folder has no such credential.
 */
async function storedCredentialData<T>(n8n: N8nInstance, id: string): Promise<T | undefined> {
	const file = path.join(n8n.userFolder, `export-credential-${Date.now()}.json`);
	try {
		await n8n.cli(['export:credentials', `--id=${id}`, '--decrypted', `--output=${file}`]);
		if (!fs.existsSync(file)) return undefined;
		const [credential] = JSON.parse(fs.readFileSync(file, 'utf8')) as Array<{ data: T }>;
		return credential?.data;
	} catch {
		return undefined;
	} finally {
		fs.rmSync(file, { force: true });
	}
}

async function signIn(n8n: N8nInstance): Promise<boolean> {
	if (!(await n8n.hasOwner())) {
		await n8n.setupOwner(DEMO_OWNER);
		return true;
	}
	try {
		await n8n.login(DEMO_OWNER);
		return true;
	} catch {
		return false;
	}
}

async function main(): Promise<void> {
	const options = parseArgs(process.argv.slice(2));
	const started = Date.now();
	let sandbox: Sandbox | undefined;
	let model: ScriptedModel | undefined;
	let n8n: N8nInstance | undefined;
	let stopping = false;
	const stop = async (code: number): Promise<never> => {
		if (!stopping) {
			stopping = true;
			console.log('\nStopping n8n, the sandbox and the demo model\u2026');
			await n8n?.stop();
			await sandbox?.close();
			await model?.close();
		}
		process.exit(code);
	};
	process.on('SIGINT', () => void stop(0));
	process.on('SIGTERM', () => void stop(0));

	try {
		await build();
		const runtime = await ensureN8n(options.version, (line) => step(line));

		let access: ServiceAccess;
		if (options.baseUrl) {
			const accessToken = process.env.TRAVEL_PRICING_ACCESS_TOKEN;
			if (!accessToken) throw new Error('--base-url needs the service access token in TRAVEL_PRICING_ACCESS_TOKEN');
			access = { baseUrl: options.baseUrl, accessToken, apiKey: process.env.TRAVEL_PRICING_API_KEY ?? '' };
			step(`Using the service at ${access.baseUrl}`);
		} else {
			sandbox = await startSandbox({ port: await portFor(options.sandboxPort, DEFAULT_SANDBOX_PORT) });
			access = { baseUrl: sandbox.baseUrl, accessToken: sandbox.credentials.accessToken, apiKey: sandbox.credentials.apiKey };
			step(`Sandbox listening on ${sandbox.baseUrl}`);
		}

		model = await startScriptedModel({ demo: true });
		step(`Demo model (scripted, offline) listening on ${model.url}`);

		const userFolder = path.join(DEMO_ROOT, `n8n-${runtime.version}`);
		if (options.fresh) fs.rmSync(userFolder, { recursive: true, force: true });
		const firstRun = !fs.existsSync(path.join(userFolder, '.n8n', 'database.sqlite'));
		n8n = await N8nInstance.create({
			runtime,
			userFolder,
			port: await portFor(options.port, DEFAULT_N8N_PORT),
			env: options.webhookUrl ? { [runtime.webhookUrlVariable]: options.webhookUrl } : {},
		});

		step(`Installing ${ownPackageJson().name} into ${path.relative(REPO_ROOT, n8n.n8nFolder)}/nodes as n8n's community package installer does`);
		await n8n.installPackage(await packPackage());
		step(`Importing the credentials "Travel Pricing API" and "Travel Pricing Airports API" (${access.baseUrl}) and "${DEMO_MODEL_CREDENTIAL.name}"`);
		await n8n.importCredentials([...serviceCredentials(access), demoModelCredential(model.url)]);
		const mcpToken = await ensureMcpToken(n8n);
		const examples = readExamples();
		const imported = await importNewExamples(n8n, [...examples.values()]);
		if (imported.length > 0) step(`Imported ${imported.length} example workflow(s)`);
		// The MCP example is published on import, so that the URL printed below answers at once.
		const mcpExample = examples.get(MCP_EXAMPLE_FILE);
		if (mcpExample && imported.includes(mcpExample)) await n8n.publishWorkflow(mcpExample.id);

		step(`Starting n8n ${runtime.version} on Node.js ${runtime.nodeVersion}${firstRun ? ' (first start of this folder: database setup takes a little longer)' : ''}`);
		await n8n.start();
		void n8n.exited().then(async () => {
			if (stopping) return;
			console.error(`\nn8n stopped unexpectedly; the end of its log (${n8n?.logFile}):\n${n8n?.log().split('\n').slice(-30).join('\n')}`);
			await stop(1);
		});
		const signedIn = await signIn(n8n);
		// n8n 1.x's public API has no Data Tables: Rate Changes refuses there, and no key is made for it.
		const dataTables = !isN8n1x(runtime.version);
		if (signedIn) await n8n.waitForPublished();
		if (signedIn && dataTables) {
			const { apiKey, created } = await ensureN8nApiKey(n8n);
			if (created) step(`Created an n8n API key (data table scopes) and the credential "${N8N_API_CREDENTIAL.name}" for Rate Changes`);
			if ((await ensureScheduleSheet(new N8nPublicApi(n8n.baseUrl, apiKey))).created) {
				step(`Created the data table "${SCHEDULE_SHEET_NAME}" with three sample hotels, for "Schedules from a sheet"`);
			}
		}
		const reRegistered = sandbox && signedIn ? await reRegisterRateTriggers(n8n) : [];

		const mcp = mcpExample ? mcpExampleAccess(n8n.baseUrl, mcpToken) : undefined;
		printReady({ n8n, access, sandbox, examples, mcp, signedIn, dataTables, reRegistered, seconds: Date.now() - started });
	} catch (error) {
		console.error(`\nnpm start failed: ${(error as Error).message}`);
		if (n8n) console.error(`n8n's log: ${n8n.logFile}`);
		await stop(1);
	}
}

/** The question the agent example's note suggests ("ask, for example: *…*"), which the demo model answers. */
function suggestedQuestion(workflow: WorkflowSeed): string | undefined {
	const notes = workflow.nodes.map((node) => String((node.parameters as { content?: unknown }).content ?? '')).join('\n');
	return /ask, for example: \*(.+?)\*/.exec(notes)?.[1];
}

function printReady(ready: {
	n8n: N8nInstance;
	access: ServiceAccess;
	sandbox: Sandbox | undefined;
	examples: Examples;
	mcp: McpAccess | undefined;
	signedIn: boolean;
	/** Whether this n8n's public API has Data Tables (2.8 and later), which Rate Changes and the schedules example use. */
	dataTables: boolean;
	reRegistered: string[];
	seconds: number;
}): void {
	const { n8n, access, sandbox, examples, mcp } = ready;
	const name = (file: string) => `"${examples.get(file)?.name ?? file}"`;
	const runShop = (body: object) => `curl -X POST ${sandbox?.baseUrl}/__sandbox/run-shop -H 'content-type: application/json' -d '${JSON.stringify(body)}'`;
	const lines = [
		'',
		`n8n ${n8n.runtime.version} is ready with ${ownPackageJson().name} ${ownPackageJson().version} (${formatDuration(ready.seconds)})`,
		'',
		`  Editor       ${n8n.baseUrl}`,
		ready.signedIn
			? `  Sign in      ${DEMO_OWNER.email} / ${DEMO_OWNER.password}`
			: `  Sign in      with the owner account you set up in this demo folder (it is not ${DEMO_OWNER.email} any more)`,
		sandbox
			? `  Service      sandbox at ${access.baseUrl} (access token ${sandbox.credentials.accessToken}, airports key ${sandbox.credentials.apiKey})`
			: `  Service      ${access.baseUrl}`,
		`  Credentials  "Travel Pricing API" and "Travel Pricing Airports API", pointing at ${sandbox ? 'the sandbox' : access.baseUrl};${ready.dataTables ? ` "${N8N_API_CREDENTIAL.name}" (this n8n's API, for Rate Changes);` : ''}`,
		`               "${DEMO_MODEL_CREDENTIAL.name}" (the agent's model, no account); "${MCP_BEARER_CREDENTIAL.name}" (the MCP example's token)`,
		`  Workflows    ${examples.size > 0 ? [...examples.values()].map((workflow) => `"${workflow.name}"`).join(', ') : 'none in examples/ yet'}`,
		`  Folder       ${n8n.userFolder} (kept between runs; npm start -- --fresh starts over)`,
		'',
		`What to try first (open ${n8n.baseUrl} and sign in; no account of any kind is needed):`,
		`  1. Open ${name(DIGEST_EXAMPLE)} and click "Execute workflow": the events around a hotel, highest impact first, in one digest.`,
	];
	const agent = examples.get(AGENT_EXAMPLE);
	if (agent) {
		lines.push(
			`  2. Open ${name(AGENT_EXAMPLE)}, click "Open chat" and ask:`,
			`       ${suggestedQuestion(agent) ?? 'What is on around hotel 100013 from 30 December 2026 to 2 January 2027?'}`,
			`     Its model is "${DEMO_MODEL_CREDENTIAL.name}": a script that understands questions like this one only (its note says`,
			'     what it reads); pick your own OpenAI credential in "OpenAI Chat Model" for any other question.',
		);
	}
	if (mcp) {
		lines.push(
			`  3. ${name(MCP_EXAMPLE_FILE)} is published: paste into an MCP client (docs/mcp.md: Claude Desktop, Cursor, VS Code)`,
			`       URL      ${mcp.url}  (${mcp.transports.join(' or ')})`,
			`       Header   Authorization: ${mcp.authorization}`,
			'     or, without an assistant, list its tools and call one with the official MCP client:',
			`       npm run mcp:tools -- ${mcp.url} ${mcp.authorization.replace(/^Bearer /, '')}`,
			`       npm run mcp:tools -- ${mcp.url} ${mcp.authorization.replace(/^Bearer /, '')} Hotel_Info '{"hotelCode":100013}'`,
		);
	}
	if (sandbox) {
		lines.push(
			`  4. Rate alerts: publish ${name(RATE_ALERT_EXAMPLE)} (its trigger registers with the sandbox), then run a shop:`,
			`       ${runShop({ shopId: 1, records: 60 })}`,
			'     Each delivery with a matching rate is an execution with its alerts.',
		);
	}
	if (sandbox && !ready.dataTables) {
		lines.push(
			`  n8n ${n8n.runtime.version}'s public API has no Data Tables: ${name(RATE_CHANGE_EXAMPLE)} and ${name(UNDERCUT_EXAMPLE)} (Rate Changes)`,
			`  need n8n 2.8 or later, and the data table of ${name(SCHEDULES_EXAMPLE)} is not made for you here`,
			`  (npm start -- --n8n-version ${NEWEST_N8N} has all three).`,
		);
	}
	if (sandbox && ready.dataTables) {
		lines.push(
			`  5. Rate change digest: publish ${name(RATE_CHANGE_EXAMPLE)}, run shop 1 (above), then again with rates changed:`,
			`       ${runShop({ shopId: 1, repeatRun: 1, changes: { seed: 7, changed: 0.1, soldOut: 0.05 } })}`,
			'     and click "Execute workflow" on "Send the digest now".',
			`  6. Undercut and parity: publish ${name(UNDERCUT_EXAMPLE)}, run a comp-set shop where website 5 undercuts:`,
			`       ${runShop({ shopId: 1, records: 60, market: { prices: [{ hotelCode: 100085, websiteCode: 5, checkIn: 3, factor: 0.92 }] } })}`,
			'     and click "Execute workflow" on "Send the digest now".',
			'     4 to 6 post to a placeholder Slack URL, which fails: the alerts and digests are in the executions until you put',
			'     your own URL in "Alert settings" or "Digest settings".',
			`  7. Open ${name(SCHEDULES_EXAMPLE)} and click "Execute workflow": each row of the data table "${SCHEDULE_SHEET_NAME}"`,
			'     becomes a rate-shop schedule in the sandbox; run it again and nothing is sent.',
		);
	}
	if (ready.reRegistered.length > 0) {
		lines.push('', `Re-registered the active rate trigger(s) of ${ready.reRegistered.map((workflow) => `"${workflow}"`).join(', ')} with this run's sandbox.`);
	}
	lines.push('', 'Press Ctrl-C to stop n8n, the sandbox and the demo model.', '');
	console.log(lines.join('\n'));
}

void main();
