import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { runChecked, tail } from './processes';

/**
 * Pinned n8n versions, each installed once into a cache outside the checkout and reused by every
 * run: the newest release of n8n's 1.x LTS line (1.123) that installs from the registry, the
 * oldest 2.x this package supports, which runs on Node 20, and the newest 2.x that installs. 1.123
 * and the newest need Node 24 (taken from the npm package node-<platform>-<arch>@24): 1.123's
 * default `vm` expression engine needs isolated-vm, which does not build on Node 20.
 */
export const LTS_1X_N8N = '1.123.81';
export const OLDEST_N8N = '2.8.4';
export const NEWEST_N8N = '2.41.1';
export const PROVEN_N8N_VERSIONS = [LTS_1X_N8N, OLDEST_N8N, NEWEST_N8N];

/** Whether a version is of n8n's 1.x line, which differs from 2.x in the ways the harness adapts to. */
export function isN8n1x(version: string): boolean {
	return version.startsWith('1.');
}

/**
 * What docs/compatibility.md recommends setting on this n8n, which the e2e harness (unless a case
 * proves n8n's defaults) and npm start's demo set: on n8n 2.40 and 2.41, whose `vm` expression
 * engine takes an isolate for every request of a community trigger,
 * N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true (an isolate only for a request that evaluates an
 * expression). At n8n's defaults a gathering of the Rate Record Trigger holds its isolate while it
 * waits, and each delivery that joins it creates one of its own: 600 single-record POSTs took about
 * 1 min 46 s where this setting took 10 s.
 */
export function recommendedEnv(version: string): Record<string, string> {
	// A value set when running wins: it reaches n8n with the rest of the environment.
	if (!takesIsolatePerWebhookRequest(version) || process.env.N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE !== undefined) return {};
	return { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' };
}

/** Whether this n8n's default expression engine takes an isolate for every webhook request of a community trigger: 2.40 and later. */
export function takesIsolatePerWebhookRequest(version: string): boolean {
	const [major, minor] = version.split('.').map(Number);
	return major > 2 || (major === 2 && minor >= 40);
}

export const CACHE_ROOT =
	process.env.TRAVEL_PRICING_N8N_CACHE ?? path.join(os.homedir(), '.cache', 'n8n-nodes-travel-pricing');

/**
 * Written last, once the install has answered its verification, so a folder that has it holds a
 * whole install; it says what answered (`verified: …`).
 */
export const INSTALLED_MARKER = '.installed';

export interface N8nRuntime {
	version: string;
	/** <cache>/n8n-<version> */
	dir: string;
	/** The n8n command's script, run as `<nodeBin> <n8nScript> <command>`. */
	n8nScript: string;
	/** The Node.js executable that runs this n8n. */
	nodeBin: string;
	nodeVersion: string;
	/** The variable that sets the public base URL of webhooks (renamed in later 2.x versions). */
	webhookUrlVariable: 'N8N_WEBHOOK_URL' | 'WEBHOOK_URL';
	/**
	 * Backend modules that only call n8n's own online services, turned off (N8N_DISABLED_MODULES) so
	 * that an offline machine's log holds no errors that are not about the package under test.
	 */
	onlineOnlyModules: string[];
	/**
	 * Whether /rest/executions pages by the cursor it hands out (n8n 2.41 on), which orders every
	 * page by start time and refuses the id range (`firstId`, `lastId`) older versions page by.
	 */
	executionCursor: boolean;
}

const ONLINE_ONLY_MODULES = ['mcp-registry'];

type Progress = (line: string) => void;

/** Progress goes to stderr directly: Jest buffers console output, and a 5-minute install must show it is alive. */
export const printProgress: Progress = (line) => {
	process.stderr.write(`[n8n e2e] ${line}\n`);
};

const ensured = new Map<string, Promise<N8nRuntime>>();

/** The runtime of one pinned n8n version, installing it (with progress) the first time. */
export function ensureN8n(version: string, progress: Progress = printProgress): Promise<N8nRuntime> {
	let runtime = ensured.get(version);
	if (!runtime) {
		runtime = installN8n(version, progress);
		ensured.set(version, runtime);
	}
	return runtime;
}

async function installN8n(version: string, progress: Progress): Promise<N8nRuntime> {
	const dir = path.join(CACHE_ROOT, `n8n-${version}`);
	await installOnce(dir, `n8n ${version}`, progress, {
		install: () => fillN8nFolder(dir, version, progress),
		verify: async () => verifyN8n(dir, version, await nodeFor(dir, progress)),
	});
	const node = await nodeFor(dir, progress);
	const n8nDist = path.join(dir, 'node_modules', 'n8n', 'dist');
	const configIndex = fs.readFileSync(path.join(dir, 'node_modules', '@n8n', 'config', 'dist', 'index.js'), 'utf8');
	return {
		version,
		dir,
		n8nScript: n8nScriptIn(dir),
		nodeBin: node.bin,
		nodeVersion: node.version,
		webhookUrlVariable: configIndex.includes('N8N_WEBHOOK_URL') ? 'N8N_WEBHOOK_URL' : 'WEBHOOK_URL',
		onlineOnlyModules: ONLINE_ONLY_MODULES.filter((name) => fs.existsSync(path.join(n8nDist, 'modules', name))),
		executionCursor: fs.existsSync(path.join(n8nDist, 'executions', 'execution-cursor.js')),
	};
}

/** npm install of n8n into the empty folder, then its native modules built for the Node.js that runs it. */
async function fillN8nFolder(dir: string, version: string, progress: Progress): Promise<void> {
	const started = Date.now();
	progress(`installing n8n ${version} into ${dir} (first run only: about 5 minutes and 2.5 GB)`);
	// n8n's xlsx dependency points at a tarball outside the npm registry; the registry's last
	// xlsx release is a drop-in replacement, and only an override in the installing folder's
	// own package.json makes npm take it.
	fs.writeFileSync(
		path.join(dir, 'package.json'),
		JSON.stringify({ name: `n8n-harness-${version}`, private: true, dependencies: { n8n: version }, overrides: { xlsx: '0.18.5' } }),
	);
	// Install scripts stay off: one of them builds a Kafka client that cannot build here, and
	// the native modules n8n needs are built below for the Node.js that runs it.
	await withHeartbeat(progress, `n8n ${version}`, started, () => countPackages(path.join(dir, 'node_modules')), () =>
		runChecked('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
			cwd: dir,
			timeoutMs: 40 * 60_000,
			onOutput: appendTo(path.join(dir, 'install.log')),
		}),
	);
	const node = await nodeFor(dir, progress);
	const natives = nativeModules(dir);
	progress(`building ${natives.join(' and ')} for Node.js ${node.version}`);
	await withHeartbeat(progress, natives.join(' and '), Date.now(), () => 0, () =>
		runChecked('npm', ['rebuild', ...natives, '--ignore-scripts=false'], {
			cwd: dir,
			env: nodeEnv(node),
			timeoutMs: 20 * 60_000,
			onOutput: appendTo(path.join(dir, 'install.log')),
		}),
	);
	const loadAll = natives.map((name) => `require(${JSON.stringify(name)})`).join(';');
	await runChecked(node.bin, ['-e', loadAll], { cwd: dir, env: nodeEnv(node), timeoutMs: 60_000 });
	progress(`n8n ${version} installed in ${formatDuration(Date.now() - started)}`);
}

/**
 * n8n asked its version, then its commands: `--version` reads only n8n's package.json, while
 * `--help` loads every command and with them n8n's dependencies, which is where an install cut
 * short breaks (lodash left without its package.json: "Cannot find module './isFunction'").
 */
async function verifyN8n(dir: string, version: string, node: NodeJs): Promise<string> {
	const script = n8nScriptIn(dir);
	const asked = await runChecked(node.bin, [script, '--version'], { cwd: dir, env: nodeEnv(node), timeoutMs: 60_000 });
	if (!asked.stdout.includes(version)) throw new Error(`n8n --version answered "${asked.stdout.trim()}", not ${version}`);
	// A folder of its own, so that asking leaves nothing in ~/.n8n.
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-verify-'));
	try {
		await runChecked(node.bin, [script, '--help'], { cwd: dir, env: { ...nodeEnv(node), N8N_USER_FOLDER: userFolder }, timeoutMs: 180_000 });
	} finally {
		fs.rmSync(userFolder, { recursive: true, force: true });
	}
	return `n8n ${version} on Node.js ${node.version} answered --version and --help`;
}

function n8nScriptIn(dir: string): string {
	return path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n');
}

/**
 * The native modules n8n needs: sqlite3 (its default database) and, where n8n has it, isolated-vm
 * (its `vm` expression engine, the default in 1.123, 2.40 and 2.41). isolated-vm's rebuild takes its
 * prebuilt binary, which exists for Node 22 and 24 only: on Node 20 it would compile and fail.
 */
function nativeModules(n8nDir: string): string[] {
	return ['sqlite3', 'isolated-vm'].filter((name) => fs.existsSync(path.join(n8nDir, 'node_modules', name, 'package.json')));
}

interface NodeJs {
	bin: string;
	version: string;
	/** Root of the distribution (bin/, include/node/), for building native modules against it. */
	root: string | null;
}

/**
 * This process's Node.js when it satisfies the `engines.node` of the installed n8n and of its
 * native modules, else Node 24. n8n 1.123 allows Node 20, but its isolated-vm needs 22 or newer.
 */
async function nodeFor(n8nDir: string, progress: Progress): Promise<NodeJs> {
	const n8nPackageJson = path.join(n8nDir, 'node_modules', 'n8n', 'package.json');
	// n8n depends on semver itself, so the ranges are read with the same library that wrote them.
	const semver = createRequire(n8nPackageJson)('semver') as { satisfies(version: string, range: string): boolean };
	const packageJsons = [n8nPackageJson, ...nativeModules(n8nDir).map((name) => path.join(n8nDir, 'node_modules', name, 'package.json'))];
	const fits = packageJsons.every((file) => {
		const range = (JSON.parse(fs.readFileSync(file, 'utf8')) as { engines?: { node?: string } }).engines?.node;
		return !range || semver.satisfies(process.versions.node, range);
	});
	return fits ? { bin: process.execPath, version: process.version, root: null } : ensureNode24(progress);
}

const NODE_24_DIR = path.join(CACHE_ROOT, 'node-24');
const NODE_24_PACKAGE = `node-${process.platform}-${process.arch}`;

async function ensureNode24(progress: Progress): Promise<NodeJs> {
	const root = path.join(NODE_24_DIR, 'node_modules', NODE_24_PACKAGE);
	const bin = path.join(root, 'bin', 'node');
	await installOnce(NODE_24_DIR, 'Node.js 24', progress, {
		install: async () => {
			progress(`installing Node.js 24 (npm package ${NODE_24_PACKAGE}) into ${NODE_24_DIR}`);
			fs.writeFileSync(
				path.join(NODE_24_DIR, 'package.json'),
				JSON.stringify({ name: 'node24', private: true, dependencies: { [NODE_24_PACKAGE]: '^24' } }),
			);
			await runChecked('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
				cwd: NODE_24_DIR,
				timeoutMs: 15 * 60_000,
				onOutput: appendTo(path.join(NODE_24_DIR, 'install.log')),
			});
		},
		verify: async () => `Node.js ${(await runChecked(bin, ['--version'], { timeoutMs: 30_000 })).stdout.trim()} answered --version`,
	});
	const { stdout } = await runChecked(bin, ['--version'], { timeoutMs: 30_000 });
	return { bin, version: stdout.trim(), root };
}

/**
 * The environment for running npm or n8n with a given Node.js: its bin/ first on PATH (npm and the
 * task runners n8n starts resolve `node` from there) and its headers for native builds (the
 * machine's ~/.npmrc may point nodedir at the system Node's headers).
 */
function nodeEnv(node: NodeJs): NodeJS.ProcessEnv {
	const binDir = path.dirname(node.bin);
	const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ''}` };
	if (node.root) env.npm_config_nodedir = node.root;
	return env;
}

/**
 * The environment for n8n processes. Jest sets NODE_ENV=test, and n8n in test mode refuses to load
 * nodes and keeps its database in memory, so what Jest added is left out.
 */
export function runtimeEnv(runtime: N8nRuntime): NodeJS.ProcessEnv {
	const binDir = path.dirname(runtime.nodeBin);
	const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ''}` };
	delete env.NODE_ENV;
	for (const name of Object.keys(env)) if (name.startsWith('JEST_')) delete env[name];
	return env;
}

/** How one thing is installed into its folder: filled, then proven to run before it is marked installed. */
export interface InstallSteps {
	/** Fills the folder, which is empty when this is called. */
	install(): Promise<void>;
	/** Runs what was installed, or throws why it does not run; the answer goes into the marker. */
	verify(): Promise<string>;
}

function markerOf(dir: string): string | undefined {
	try {
		return fs.readFileSync(path.join(dir, INSTALLED_MARKER), 'utf8');
	} catch {
		return undefined;
	}
}

/**
 * Installs into `dir` once, across processes, and heals what an interrupted install left. Under the
 * folder's lock, a folder without the marker (Ctrl-C, a crash or a full disk during an earlier
 * install) is emptied first: npm install over a partial tree keeps packages it half unpacked. The
 * marker is written only once `verify` has answered. A marker written before installs were verified
 * (it has no `verified:` line) is verified once; a failure then names the folder to remove, as
 * that folder may hold what a user set up by hand.
 */
export async function installOnce(dir: string, what: string, progress: Progress, steps: InstallSteps): Promise<void> {
	if (markerOf(dir)?.includes('verified:')) return;
	await withLock(dir, what, progress, async () => {
		const marker = markerOf(dir);
		if (marker?.includes('verified:')) return;
		if (marker !== undefined) {
			let verified: string;
			try {
				verified = await steps.verify();
			} catch (error) {
				throw new Error(
					`${what} in ${dir} is marked installed but does not run: ${(error as Error).message}\n` +
						`Its install is incomplete (an earlier install was interrupted before installs were verified). Remove the folder and start again, which installs it afresh:\n  rm -rf ${dir}`,
				);
			}
			fs.writeFileSync(path.join(dir, INSTALLED_MARKER), `${marker.trimEnd()}\nverified: ${verified}\n`);
			return;
		}
		if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) {
			progress(`${dir} holds an unfinished install of ${what} (no ${INSTALLED_MARKER} marker: an earlier install was interrupted); emptying it first`);
		}
		fs.rmSync(dir, { recursive: true, force: true });
		fs.mkdirSync(dir, { recursive: true });
		let verified: string;
		try {
			await steps.install();
			verified = await steps.verify();
		} catch (error) {
			throw new Error(
				`Installing ${what} into ${dir} failed: ${(error as Error).message}\n` +
					`The folder has no ${INSTALLED_MARKER} marker, so the next start empties it and installs again (its log: ${path.join(dir, 'install.log')}); to free its space now: rm -rf ${dir}`,
			);
		}
		fs.writeFileSync(path.join(dir, INSTALLED_MARKER), `${new Date().toISOString()}\nverified: ${verified}\n`);
	});
}

/**
 * One installer at a time per folder, across processes: a lock directory holding the owner's pid.
 * A lock whose owner has died is taken over.
 */
async function withLock(dir: string, what: string, progress: Progress, work: () => Promise<void>): Promise<void> {
	const lockDir = `${dir}.lock`;
	fs.mkdirSync(path.dirname(lockDir), { recursive: true });
	let announced = false;
	for (;;) {
		try {
			fs.mkdirSync(lockDir);
			break;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
		}
		if (lockIsStale(lockDir)) {
			fs.rmSync(lockDir, { recursive: true, force: true });
			continue;
		}
		if (!announced) {
			progress(`waiting for another run that is installing ${what} (lock ${lockDir})`);
			announced = true;
		}
		await sleep(2_000);
	}
	fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
	try {
		await work();
	} finally {
		fs.rmSync(lockDir, { recursive: true, force: true });
	}
}

function lockIsStale(lockDir: string): boolean {
	let owner: number;
	try {
		owner = Number(fs.readFileSync(path.join(lockDir, 'pid'), 'utf8'));
	} catch {
		// Taken a moment ago and not yet signed, or left unsigned by a crash: give it 30 seconds.
		try {
			return Date.now() - fs.statSync(lockDir).mtimeMs > 30_000;
		} catch {
			return true;
		}
	}
	try {
		process.kill(owner, 0);
		return false;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'ESRCH';
	}
}

async function withHeartbeat<T>(
	progress: Progress,
	what: string,
	started: number,
	measure: () => number,
	work: () => Promise<T>,
): Promise<T> {
	const timer = setInterval(() => {
		const count = measure();
		progress(`  ${what}: ${formatDuration(Date.now() - started)} elapsed${count ? `, ${count} packages unpacked` : ''}`);
	}, 15_000);
	try {
		return await work();
	} catch (error) {
		throw new Error(`${what}: ${tail(String((error as Error).message), 30)}`);
	} finally {
		clearInterval(timer);
	}
}

function countPackages(nodeModules: string): number {
	let count = 0;
	let entries: fs.Dirent[];
	try {
		entries = fs.readdirSync(nodeModules, { withFileTypes: true });
	} catch {
		return 0;
	}
	for (const entry of entries) {
		if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
		if (entry.name.startsWith('@')) {
			try {
				count += fs.readdirSync(path.join(nodeModules, entry.name)).length;
			} catch {
				// The scope folder is being written right now.
			}
		} else count++;
	}
	return count;
}

function appendTo(file: string): (chunk: string) => void {
	return (chunk) => fs.appendFileSync(file, chunk);
}

export function formatDuration(ms: number): string {
	const seconds = Math.round(ms / 1000);
	return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}
