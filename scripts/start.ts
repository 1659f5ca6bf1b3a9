import fs from 'node:fs';
import path from 'node:path';
import { DEMO_PORTS, ensureN8n, NEWEST_N8N, PROVEN_N8N_VERSIONS, readyText, REPO_ROOT, runCommand, startDemo, type Demo, type DemoPorts } from '../platform/n8n';

/**
 * `npm start`: a ready n8n with this package, its credentials and the example workflows, talking
 * to the service sandbox (or to a real service with --base-url), the demo inbox beside it. The
 * demo itself is platform/n8n/demo.ts, which the first-ten-minutes e2e test starts too. See
 * docs/e2e.md.
 */

const USAGE = `Usage: npm start [-- options]

Builds the package, starts the service sandbox, the demo inbox and an n8n with the package
installed, the demo credentials and the example workflows, and prints the editor URL. Ctrl-C stops
everything.

Options (each also as an environment variable):
  --n8n-version <v>   TRAVEL_PRICING_N8N_VERSION   n8n to run: ${PROVEN_N8N_VERSIONS.join(' or ')} (default ${NEWEST_N8N})
  --port <n>          TRAVEL_PRICING_N8N_PORT      editor port (default ${DEMO_PORTS.n8n}, or a free one)
  --sandbox-port <n>  SANDBOX_PORT                 sandbox port (default ${DEMO_PORTS.sandbox}, or a free one)
  --inbox-port <n>    TRAVEL_PRICING_INBOX_PORT    demo inbox page and Slack webhooks (default ${DEMO_PORTS.inbox}, or a free one)
  --smtp-port <n>     TRAVEL_PRICING_SMTP_PORT     demo inbox mail server (default ${DEMO_PORTS.smtp}, or a free one)
  --base-url <url>    TRAVEL_PRICING_BASE_URL      use a real service instead of the sandbox; then
                      TRAVEL_PRICING_ACCESS_TOKEN  its access token (required) and
                      TRAVEL_PRICING_API_KEY       its airports API key
  --webhook-url <url> TRAVEL_PRICING_WEBHOOK_URL   public address of this n8n, for rate deliveries
                                                   from a real service (default: the editor URL)
  --fresh                                          start from an empty demo folder
  --help

The demo's n8n folder is kept in .demo/n8n-<version>/ (workflows, executions, the owner account);
--fresh removes it first.`;

const DEMO_ROOT = path.join(REPO_ROOT, '.demo');

interface StartOptions {
	version: string;
	ports: Partial<DemoPorts>;
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
	const known = ['n8n-version', 'port', 'sandbox-port', 'inbox-port', 'smtp-port', 'base-url', 'webhook-url', 'fresh', 'help'];
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
		ports: {
			n8n: port('port', 'TRAVEL_PRICING_N8N_PORT'),
			sandbox: port('sandbox-port', 'SANDBOX_PORT'),
			inbox: port('inbox-port', 'TRAVEL_PRICING_INBOX_PORT'),
			smtp: port('smtp-port', 'TRAVEL_PRICING_SMTP_PORT'),
		},
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

async function main(): Promise<void> {
	const options = parseArgs(process.argv.slice(2));
	const started = Date.now();
	let demo: Demo | undefined;
	let stopping = false;
	const stop = async (code: number): Promise<never> => {
		if (!stopping) {
			stopping = true;
			console.log('\nStopping n8n, the sandbox, the inbox and the demo model\u2026');
			await demo?.stop();
		}
		process.exit(code);
	};
	process.on('SIGINT', () => void stop(0));
	process.on('SIGTERM', () => void stop(0));

	try {
		await build();
		const runtime = await ensureN8n(options.version, (line) => step(line));
		let service;
		if (options.baseUrl) {
			const accessToken = process.env.TRAVEL_PRICING_ACCESS_TOKEN;
			if (!accessToken) throw new Error('--base-url needs the service access token in TRAVEL_PRICING_ACCESS_TOKEN');
			service = { baseUrl: options.baseUrl, accessToken, apiKey: process.env.TRAVEL_PRICING_API_KEY ?? '' };
		}
		const userFolder = path.join(DEMO_ROOT, `n8n-${runtime.version}`);
		if (options.fresh) fs.rmSync(userFolder, { recursive: true, force: true });
		fs.mkdirSync(userFolder, { recursive: true });
		demo = await startDemo({ runtime, userFolder, ports: options.ports, service, webhookUrl: options.webhookUrl, onStep: step });
		const { n8n } = demo;
		void n8n.exited().then(async () => {
			if (stopping) return;
			console.error(`\nn8n stopped unexpectedly; the end of its log (${n8n.logFile}):\n${n8n.log().split('\n').slice(-30).join('\n')}`);
			await stop(1);
		});
		console.log(readyText(demo, Date.now() - started));
	} catch (error) {
		console.error(`\nnpm start failed: ${(error as Error).message}`);
		await stop(1);
	}
}

void main();
