import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { startInbox, type Inbox } from '../inbox';
import { startSandbox, type RunShopOptions, type Sandbox } from '../sandbox';
import type { WorkflowSeed } from './cli';
import { ownPackageJson, packPackage, REPO_ROOT } from './communityPackage';
import {
	DATA_TABLE_SCOPES,
	DEMO_MODEL_CREDENTIAL,
	demoModelCredential,
	DEMO_SMTP_CREDENTIAL,
	demoSmtpCredential,
	MCP_BEARER_CREDENTIAL,
	mcpBearerCredential,
	N8N_API_CREDENTIAL,
	n8nApiCredential,
	serviceCredentials,
	type ServiceAccess,
} from './credentials';
import { demoExamples, EXAMPLE_FILES, slackChannelOf } from './examples';
import { N8nInstance } from './instance';
import { mcpExampleAccess, type McpAccess } from './mcp';
import { freePort } from './processes';
import type { Owner } from './rest';
import { formatDuration, isN8n1x, NEWEST_N8N, recommendedEnv, type N8nRuntime } from './runtime';
import { ensureScheduleSheet, N8nPublicApi, SCHEDULE_SHEET_NAME } from './scheduleSheet';
import { startScriptedModel, type ScriptedModel } from './scriptedModel';

/**
 * The demo `npm start` opens (scripts/start.ts parses its options and prints what this returns):
 * the service sandbox, the demo inbox and the scripted model beside an n8n with this package
 * installed, the demo credentials and the examples imported, and the steps to try first. The
 * first-ten-minutes e2e test starts the same demo with the same function, and follows the steps
 * as readyText prints them.
 */

export const DEMO_OWNER: Owner = {
	email: 'demo@example.com',
	password: 'TravelPricing-Demo-1',
	firstName: 'Demo',
	lastName: 'Analyst',
};

/** Where each part listens unless told otherwise (a part whose port is taken gets a free one). */
export const DEMO_PORTS = { n8n: 5678, sandbox: 5679, inbox: 5680, smtp: 2525 };

export type DemoPorts = Record<keyof typeof DEMO_PORTS, number>;

export interface DemoOptions {
	runtime: N8nRuntime;
	/** The n8n folder, kept between runs by npm start (a test gives a new one). */
	userFolder: string;
	/** A port given must be free (0: any free one); one left out is the default, or a free one. */
	ports?: Partial<DemoPorts>;
	/** A real service instead of the sandbox. */
	service?: ServiceAccess;
	/** n8n's public address for rate deliveries from a real service. */
	webhookUrl?: string;
	/** Told each step of the start, as npm start prints it. */
	onStep?: (message: string) => void;
}

export interface Demo {
	n8n: N8nInstance;
	/** Undefined with a real service. */
	sandbox: Sandbox | undefined;
	inbox: Inbox;
	model: ScriptedModel;
	access: ServiceAccess;
	/** Every examples/*.json as imported (ids, credentials, Slack pointed at the inbox), by file. */
	examples: Map<string, WorkflowSeed>;
	mcp: McpAccess | undefined;
	/** Whether the demo owner could sign in (a folder whose owner was changed cannot). */
	signedIn: boolean;
	/** Whether this n8n's public API has Data Tables (2.8 and later), which Rate Changes and the schedules example use. */
	dataTables: boolean;
	/** The active rate trigger workflows registered again with this run's sandbox. */
	reRegistered: string[];
	/** Stops n8n, the sandbox, the inbox and the model. Safe to call twice. */
	stop(): Promise<void>;
}

/** Where the inbox listened last time, kept in the demo folder: the imported examples post there. */
const INBOX_RECORD = 'demo-inbox.json';

/** A port for one part: the one given (0: any free one), else the default when it is free, else any free one. */
export async function portFor(given: number | undefined, fallback: number): Promise<number> {
	if (given === 0) return freePort();
	const candidate = given ?? fallback;
	const free = await new Promise<boolean>((resolve) => {
		const probe = net.createServer();
		probe.once('error', () => resolve(false));
		probe.listen(candidate, '127.0.0.1', () => probe.close(() => resolve(true)));
	});
	if (free) return candidate;
	if (given !== undefined) throw new Error(`Port ${given} is in use`);
	return freePort();
}

export async function startDemo(options: DemoOptions): Promise<Demo> {
	const step = options.onStep ?? (() => undefined);
	const ports = options.ports ?? {};
	let sandbox: Sandbox | undefined;
	let inbox: Inbox | undefined;
	let model: ScriptedModel | undefined;
	let n8n: N8nInstance | undefined;
	let stopped = false;
	const stop = async (): Promise<void> => {
		if (stopped) return;
		stopped = true;
		await n8n?.stop();
		await sandbox?.close();
		await inbox?.close();
		await model?.close();
	};
	try {
		let access: ServiceAccess;
		if (options.service) {
			access = options.service;
			step(`Using the service at ${access.baseUrl}`);
		} else {
			sandbox = await startSandbox({ port: await portFor(ports.sandbox, DEMO_PORTS.sandbox) });
			access = { baseUrl: sandbox.baseUrl, accessToken: sandbox.credentials.accessToken, apiKey: sandbox.credentials.apiKey };
			step(`Sandbox listening on ${sandbox.baseUrl}`);
		}

		const recordFile = path.join(options.userFolder, INBOX_RECORD);
		const recorded = fs.existsSync(recordFile) ? (JSON.parse(fs.readFileSync(recordFile, 'utf8')) as { url: string; port: number }) : undefined;
		inbox = await startInbox({
			port: await portFor(ports.inbox, recorded?.port ?? DEMO_PORTS.inbox),
			smtpPort: await portFor(ports.smtp, DEMO_PORTS.smtp),
		});
		step(`Demo inbox on ${inbox.url} (Slack messages to ${inbox.url}/slack/<channel>, email to SMTP ${inbox.smtp.host}:${inbox.smtp.port})`);

		model = await startScriptedModel({ demo: true });
		step(`Demo model (scripted, offline) listening on ${model.url}`);

		const firstRun = !fs.existsSync(path.join(options.userFolder, '.n8n', 'database.sqlite'));
		n8n = await N8nInstance.create({
			runtime: options.runtime,
			userFolder: options.userFolder,
			port: await portFor(ports.n8n, DEMO_PORTS.n8n),
			// What the README recommends for n8n processes that take rate deliveries (docs/scaling.md, docs/compatibility.md).
			env: { N8N_EXPRESSION_ENGINE_POOL_SIZE: '2', ...recommendedEnv(options.runtime.version), ...(options.webhookUrl ? { [options.runtime.webhookUrlVariable]: options.webhookUrl } : {}) },
		});

		step(`Installing ${ownPackageJson().name} into ${path.relative(REPO_ROOT, n8n.n8nFolder)}/nodes as n8n's community package installer does`);
		await n8n.installPackage(await packPackage());
		step(
			`Importing the credentials "Travel Pricing API" and "Travel Pricing Airports API" (${access.baseUrl}), "${DEMO_MODEL_CREDENTIAL.name}" and "${DEMO_SMTP_CREDENTIAL.name}"`,
		);
		await n8n.importCredentials([...serviceCredentials(access), demoModelCredential(model.url), demoSmtpCredential(inbox.smtp)]);
		const mcpToken = await ensureMcpToken(n8n);
		const examples = demoExamples(inbox);
		const imported = await importNewExamples(n8n, [...examples.values()]);
		if (imported.length > 0) step(`Imported ${imported.length} example workflow(s), posting to the demo inbox`);
		// The MCP example is published on import, so that the URL printed answers at once.
		const mcpExample = examples.get(EXAMPLE_FILES.mcp);
		if (mcpExample && imported.includes(mcpExample)) await n8n.publishWorkflow(mcpExample.id);

		step(`Starting n8n ${options.runtime.version} on Node.js ${options.runtime.nodeVersion}${firstRun ? ' (first start of this folder: database setup takes a little longer)' : ''}`);
		await n8n.start();
		const signedIn = await signIn(n8n);
		// n8n 1.x's public API has no Data Tables: Rate Changes refuses there, and no key is made for it.
		const dataTables = !isN8n1x(options.runtime.version);
		if (signedIn) await n8n.waitForPublished();
		if (signedIn && dataTables) {
			const { apiKey, created } = await ensureN8nApiKey(n8n);
			if (created) step(`Created an n8n API key (data table scopes) and the credential "${N8N_API_CREDENTIAL.name}" for Rate Changes`);
			if ((await ensureScheduleSheet(new N8nPublicApi(n8n.baseUrl, apiKey))).created) {
				step(`Created the data table "${SCHEDULE_SHEET_NAME}" with three sample hotels, for "Schedules from a sheet"`);
			}
		}
		if (signedIn && recorded && recorded.url !== inbox.url) {
			const moved = await pointWorkflowsAtInbox(n8n, recorded.url, inbox.url);
			if (moved.length > 0) step(`The inbox moved from ${recorded.url}: ${moved.map((name) => `"${name}"`).join(', ')} post to ${inbox.url} now`);
		}
		fs.writeFileSync(recordFile, JSON.stringify({ url: inbox.url, port: inbox.port }));
		const reRegistered = sandbox && signedIn ? await reRegisterRateTriggers(n8n) : [];
		// The printed shop commands answer once n8n's executions of the shop have ended, so that the
		// next step (a digest, the calendar) finds every alert: n8n answers a delivery when its
		// execution exists, which ends seconds later.
		if (sandbox && signedIn) {
			const started = n8n;
			sandbox.setSettle(async () => ({ executions: await started.waitUntilIdle({ timeoutMs: SHOP_SETTLE_TIMEOUT_MS, settleMs: SHOP_SETTLE_QUIET_MS }) }));
		}

		return {
			n8n,
			sandbox,
			inbox,
			model,
			access,
			examples,
			mcp: mcpExample ? mcpExampleAccess(n8n.baseUrl, mcpToken) : undefined,
			signedIn,
			dataTables,
			reRegistered,
			stop,
		};
	} catch (error) {
		await stop();
		throw error;
	}
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

type StoredWorkflow = { name: string; active: boolean; versionId: string; nodes: Array<Record<string, unknown>> };

async function storedWorkflows(n8n: N8nInstance): Promise<Array<StoredWorkflow & { id: string }>> {
	const list = await n8n.request<{ data: Array<{ id: string }> }>('GET', '/rest/workflows');
	const workflows: Array<StoredWorkflow & { id: string }> = [];
	for (const { id } of list.body.data ?? []) {
		const { body } = await n8n.request<{ data: StoredWorkflow }>('GET', `/rest/workflows/${id}`);
		workflows.push({ ...body.data, id });
	}
	return workflows;
}

/**
 * The examples were imported once, posting to the inbox's address of that day; when the inbox
 * could not have its port back (another program took it), every workflow that posts to the old
 * address is saved posting to the new one, and published again if it was.
 */
async function pointWorkflowsAtInbox(n8n: N8nInstance, from: string, to: string): Promise<string[]> {
	const moved: string[] = [];
	for (const workflow of await storedWorkflows(n8n)) {
		const nodes = JSON.stringify(workflow.nodes);
		if (!nodes.includes(`${from}/slack/`)) continue;
		const saved = await n8n.request<{ data?: { versionId: string }; versionId?: string }>('PATCH', `/rest/workflows/${workflow.id}`, {
			nodes: JSON.parse(nodes.split(`${from}/slack/`).join(`${to}/slack/`)) as unknown,
			versionId: workflow.versionId,
		});
		if (saved.status !== 200) {
			console.warn(`  could not point "${workflow.name}" at the inbox's new address: ${saved.text.slice(0, 200)}`);
			continue;
		}
		const versionId = saved.body.data?.versionId ?? saved.body.versionId;
		if (workflow.active) await n8n.request('POST', `/rest/workflows/${workflow.id}/activate`, { versionId });
		moved.push(workflow.name);
	}
	return moved;
}

/**
 * The sandbox starts empty on every run, but a rate trigger that was active in the kept demo folder
 * remembers its registration and would not register again. Deactivating and activating it makes
 * the trigger forget and register with this run's sandbox, as a user would by toggling it.
 */
async function reRegisterRateTriggers(n8n: N8nInstance): Promise<string[]> {
	const triggerType = `${ownPackageJson().name}.travelPricingRateTrigger`;
	const reRegistered: string[] = [];
	for (const workflow of await storedWorkflows(n8n)) {
		if (!workflow.active || !workflow.nodes.some((node) => node.type === triggerType && !node.disabled)) continue;
		await n8n.request('POST', `/rest/workflows/${workflow.id}/deactivate`, {});
		const activated = await n8n.request('POST', `/rest/workflows/${workflow.id}/activate`, { versionId: workflow.versionId });
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

/** The shops the printed steps run (the sandbox's comp-set market, docs/sandbox.md). */
export const DEMO_SHOPS = {
	/** Today's shop of shop 1: a comp set spread around hotel 100085. */
	today: { shopId: 1, records: 60, market: { seed: 5, myHotelCode: 100085 } },
	/** Tomorrow's: the latest run of shop 1 again, with a day's moves. */
	tomorrow: { shopId: 1, repeatRun: 'latest', changes: { seed: 7, drift: 0.5, changed: 0.1, soldOut: 0.03, backOnSale: 0.5 } },
	/** The latest run of shop 1 again (one record a POST, as the service delivers: the alerts are the whole comp set's). */
	wholeLatest: { shopId: 1, repeatRun: 'latest' },
	/**
	 * A month of shop 1's comp set around hotel 100085, for the rate calendar: most nights it is
	 * cheaper than the comp median, its 1st and 7th nights on par and its 22nd sold out (the seed's
	 * layout); its 10th night 20 % dearer; a festival of impact 85 near it on the 5th night, under
	 * the market on a busy day (an outlier).
	 */
	calendarMonth: {
		shopId: 1,
		records: 360,
		perDelivery: 60,
		market: { seed: 5, myHotelCode: 100085, prices: [{ hotelCode: 100085, checkIn: 10, factor: 1.2 }], events: [{ checkIn: 5, impactScore: 85, eventName: 'Cape Town Harbour Festival' }] },
	},
	/** That month a day's moves later: what the calendar's arrows show. */
	calendarNextDay: { shopId: 1, repeatRun: 'latest', perDelivery: 60, changes: { seed: 7, drift: 0.5, changed: 0.1 } },
} satisfies Record<string, RunShopOptions>;

/** How long a printed shop command waits for n8n's executions before it answers that some still run. */
export const SHOP_SETTLE_TIMEOUT_MS = 300_000;

/**
 * How long n8n must have no execution new or running: a delivery the sender gave up on after its
 * 10 s and sent again may still be in n8n's queue of requests when the retry is answered.
 */
const SHOP_SETTLE_QUIET_MS = 2_000;

/** Rate Changes' default rules, which the steps promise. */
const CHANGE_AT_LEAST_PERCENT = 10;
const UNDERCUT_AT_LEAST_PERCENT = 5;

type NodeOf = { name: string; type: string; parameters: Record<string, unknown> };

function parameterOf(workflow: WorkflowSeed | undefined, nodeName: string, path: string[]): string {
	let value: unknown = (workflow?.nodes as NodeOf[] | undefined)?.find((node) => node.name === nodeName)?.parameters;
	for (const key of path) value = (value as Record<string, unknown> | undefined)?.[key];
	return String(value ?? '?');
}

/** The question the agent example's note suggests ("ask, for example: *…*"), which the demo model answers. */
function suggestedQuestion(workflow: WorkflowSeed): string | undefined {
	const notes = workflow.nodes.map((node) => String((node.parameters as { content?: unknown }).content ?? '')).join('\n');
	return /ask, for example: \*(.+?)\*/.exec(notes)?.[1];
}

/**
 * What `npm start` prints once the demo is ready: where everything is, and the steps to try
 * first. Each step's commands make the runs in the order it needs (no run number that depends on
 * the steps before); the e2e test follows these lines as printed.
 */
export function readyText(demo: Demo, seconds: number): string {
	const { n8n, access, sandbox, examples, mcp, inbox } = demo;
	const name = (file: string) => `"${examples.get(file)?.name ?? file}"`;
	const runShop = (body: object) => `curl -X POST '${sandbox?.baseUrl}/__sandbox/run-shop?brief=1&wait=1' -H 'content-type: application/json' -d '${JSON.stringify(body)}'`;
	const hotel = (code: string) => `${sandbox?.data.hotelsByCode.get(Number(code))?.hotel.hotelname ?? 'hotel'} (${code})`;
	const rateAlert = examples.get(EXAMPLE_FILES.rateAlert);
	const undercuts = examples.get(EXAMPLE_FILES.undercutAlerts);
	const myHotel = parameterOf(undercuts, 'Compare with my hotel', ['myHotelCode']);
	const currency = sandbox?.data.shops.get(DEMO_SHOPS.today.shopId)?.config.currency ?? '';
	const lines = [
		'',
		`n8n ${n8n.runtime.version} is ready with ${ownPackageJson().name} ${ownPackageJson().version} (${formatDuration(seconds)})`,
		'',
		`  Editor       ${n8n.baseUrl}/home/workflows`,
		demo.signedIn
			? `  Sign in      ${DEMO_OWNER.email} / ${DEMO_OWNER.password}`
			: `  Sign in      with the owner account you set up in this demo folder (it is not ${DEMO_OWNER.email} any more)`,
		`  Inbox        ${inbox.url}  (every alert and digest of the examples arrives here: Slack messages and emails)`,
		sandbox
			? `  Service      sandbox at ${access.baseUrl} (access token ${sandbox.credentials.accessToken}, airports key ${sandbox.credentials.apiKey})`
			: `  Service      ${access.baseUrl}`,
		`  Credentials  "Travel Pricing API" and "Travel Pricing Airports API", pointing at ${sandbox ? 'the sandbox' : access.baseUrl};${demo.dataTables ? ` "${N8N_API_CREDENTIAL.name}" (this n8n's API, for Rate Changes);` : ''}`,
		`               "${DEMO_MODEL_CREDENTIAL.name}" (the agent's model, no account); "${MCP_BEARER_CREDENTIAL.name}" (the MCP example's token);`,
		`               "${DEMO_SMTP_CREDENTIAL.name}" (the email examples' mail server: the inbox)`,
		`  Workflows    ${examples.size > 0 ? [...examples.values()].map((workflow) => `"${workflow.name}"`).join(', ') : 'none in examples/ yet'}`,
		`  Folder       ${n8n.userFolder} (kept between runs; npm start -- --fresh starts over)`,
		'',
		`What to try first (open ${n8n.baseUrl}/home/workflows and sign in; no account of any kind is needed):`,
		`  1. Open ${name(EXAMPLE_FILES.eventDigest)} and click "Execute workflow": the events around a hotel, highest impact first, in one digest.`,
	];
	const agent = examples.get(EXAMPLE_FILES.agent);
	if (agent) {
		lines.push(
			`  2. Open ${name(EXAMPLE_FILES.agent)}, click "Open chat" and ask:`,
			`       ${suggestedQuestion(agent) ?? 'What is on around hotel 100013 from 30 December 2026 to 2 January 2027?'}`,
			`     Its model is "${DEMO_MODEL_CREDENTIAL.name}": a script that understands questions like this one only (its note says`,
			'     what it reads); pick your own OpenAI credential in "OpenAI Chat Model" for any other question.',
		);
	}
	if (mcp) {
		lines.push(
			`  3. ${name(EXAMPLE_FILES.mcp)} is published: paste into an MCP client (docs/mcp.md: Claude Desktop, Cursor, VS Code)`,
			`       URL      ${mcp.url}  (${mcp.transports.join(' or ')})`,
			`       Header   Authorization: ${mcp.authorization}`,
			'     or, without an assistant, list its tools and call one with the official MCP client:',
			`       npm run mcp:tools -- ${mcp.url} ${mcp.authorization.replace(/^Bearer /, '')}`,
			`       npm run mcp:tools -- ${mcp.url} ${mcp.authorization.replace(/^Bearer /, '')} Hotel_Info '{"hotelCode":100013}'`,
		);
	}
	if (sandbox) {
		const competitor = parameterOf(rateAlert, 'Competitor rate below threshold', ['filters', 'hotelCodes']);
		const threshold = parameterOf(rateAlert, 'Competitor rate below threshold', ['filters', 'maxOnsiteRate']);
		lines.push(
			`  4. Rate alerts: open ${name(EXAMPLE_FILES.rateAlert)}, click "Publish" (its trigger registers with the sandbox),`,
			`     then run today's shop of shop 1, a comp set around ${hotel(myHotel)}:`,
			`       ${runShop(DEMO_SHOPS.today)}`,
			`     Each shop command answers once n8n's executions of the shop have ended ("settled"; up to ${SHOP_SETTLE_TIMEOUT_MS / 60_000} minutes), so the next step finds every alert.`,
			`     Each rate of ${hotel(competitor)} at or below ${threshold} ${currency} is an alert in the inbox, #${slackChannelOf(EXAMPLE_FILES.rateAlert)}.`,
			`     Then unpublish ${name(EXAMPLE_FILES.rateAlert)} (its "…" menu, "Unpublish"): it keeps no memory, and the next steps run shop 1 again,`,
			'     which would alert the same rates again. The service has no way to forget an address, so the sandbox goes on posting',
			'     to it, and n8n answers 404: the 404s the next commands count.',
		);
	}
	if (sandbox && !demo.dataTables) {
		lines.push(
			`  n8n ${n8n.runtime.version}'s public API has no Data Tables: ${name(EXAMPLE_FILES.rateChangeAlerts)} and ${name(EXAMPLE_FILES.undercutAlerts)} (Rate Changes)`,
			`  need n8n 2.8 or later, and the data table of ${name(EXAMPLE_FILES.schedules)} is not made for you here`,
			`  (npm start -- --n8n-version ${NEWEST_N8N} has all three).`,
		);
	}
	if (sandbox && demo.dataTables) {
		const reference = parameterOf(undercuts, 'Check parity', ['referenceWebsiteCode']);
		const tolerance = parameterOf(undercuts, 'Check parity', ['tolerancePercent']);
		lines.push(
			`  5. Rate change digest: open ${name(EXAMPLE_FILES.rateChangeAlerts)}, click "Publish", then run today's shop again`,
			"     (what the next one is compared with) and tomorrow's, the same stays a day's moves later:",
			`       ${runShop(DEMO_SHOPS.today)}`,
			`       ${runShop(DEMO_SHOPS.tomorrow)}`,
			`     then open ${name(EXAMPLE_FILES.rateChangeDigest)} and click "Execute workflow": every move of ${CHANGE_AT_LEAST_PERCENT} % or more,`,
			`     sold out or back on sale in one digest, in the inbox, #${slackChannelOf(EXAMPLE_FILES.rateChangeDigest)}; the smaller moves stay out of it.`,
			`  6. Undercut and parity: open ${name(EXAMPLE_FILES.undercutAlerts)}, click "Publish", then run shop 1's`,
			'     latest shop again:',
			`       ${runShop(DEMO_SHOPS.wholeLatest)}`,
			`     then open ${name(EXAMPLE_FILES.undercutDigest)} and click "Execute workflow": one email for ${hotel(myHotel)}`,
			`     in the inbox, with each competitor ${UNDERCUT_AT_LEAST_PERCENT} % or more below it on a website and each website more than ${tolerance} % below website ${reference}.`,
			`  7. Open ${name(EXAMPLE_FILES.schedules)} and click "Execute workflow": each row of the data table "${SCHEDULE_SHEET_NAME}"`,
			'     becomes a rate-shop schedule in the sandbox; run it again and nothing is sent.',
			`  8. Rate calendar: with ${name(EXAMPLE_FILES.rateChangeAlerts)} published (step 5), run a month of shop 1's comp set, with a`,
			'     festival near the hotel on the 5th night:',
			`       ${runShop(DEMO_SHOPS.calendarMonth)}`,
			`     then open ${name(EXAMPLE_FILES.rateCalendar)} and click "Execute workflow": an email and #${slackChannelOf(EXAMPLE_FILES.rateCalendar)} in the inbox,`,
			`     ${hotel(myHotel)} on each of the next 30 dates cheaper, on par or dearer than its comp set's median, sold out,`,
			"     the festival (★) and the dates priced out of line (!). Then the month again, a day's moves later:",
			`       ${runShop(DEMO_SHOPS.calendarNextDay)}`,
			'     and execute it again: ▲ ▼ show what moved since the first calendar.',
			`  9. Suggested rates: open ${name(EXAMPLE_FILES.suggestedRates)} and click "Execute workflow", open its email in the inbox and`,
			'     click "Approve these rates": each suggestion and its reason land in the data table "travel_pricing_approved_rates", the',
			"     hand-off to a PMS or channel manager (Decline writes nothing). The service shops rates; it does not set them: no price changes.",
		);
	}
	if (demo.reRegistered.length > 0) {
		lines.push('', `Re-registered the active rate trigger(s) of ${demo.reRegistered.map((workflow) => `"${workflow}"`).join(', ')} with this run's sandbox.`);
	}
	lines.push('', 'Press Ctrl-C to stop n8n, the sandbox, the inbox and the demo model.', '');
	return lines.join('\n');
}
