import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSandbox, type Sandbox } from '../platform/sandbox';
import {
	DATA_TABLE_SCOPES,
	E2E_OWNER,
	ensureN8n,
	formatDuration,
	N8nInstance,
	n8nApiCredential,
	packPackage,
	serviceCredentials,
	type CredentialSeed,
	type N8nRuntime,
	type WorkflowSeed,
} from '../platform/n8n';
import { startCountingProxy, type CountingProxy } from './countingProxy';
import { progress } from './measure';

/** The sandbox's data set, widened to what the benchmarks ask for (defaults: 250 hotels, 5,000 events). */
export const BENCH_HOTELS = 1000;
export const BENCH_EVENTS = 10_000;

export interface BenchEnvironment {
	runtime: N8nRuntime;
	tarball: string;
	sandbox: Sandbox;
	n8n: N8nInstance;
	/** n8n's public API as Rate Changes reaches it, and as the benchmark itself does. */
	n8nApi: {
		/** The Base URL of the Travel Pricing n8n API credential: a proxy counting the node's requests. */
		proxy: CountingProxy;
		/** A key of the benchmark's own (creating and emptying tables), sent to n8n directly. */
		benchKey: string;
	};
	close(): Promise<void>;
}

/**
 * The e2e harness's setup (a fresh n8n with this package installed from its tarball, the service
 * credentials pointing at a sandbox, an n8n API key and the Travel Pricing n8n API credential),
 * with a sandbox seeded for the benchmarks and n8n's count-based execution pruning off, so that no
 * execution of a round is pruned before it is counted. The credential's Base URL is a counting
 * proxy in front of n8n, so that a benchmark can tell how many requests Rate Changes sent.
 */
export async function startBenchEnvironment(
	version: string,
	workflows: (sandbox: Sandbox) => { workflows: WorkflowSeed[]; credentials: CredentialSeed[] },
	env: Record<string, string> = { EXECUTIONS_DATA_PRUNE_MAX_COUNT: '0' },
): Promise<BenchEnvironment> {
	const started = Date.now();
	const runtime = await ensureN8n(version, progress);
	const tarball = await packPackage();
	const sandbox = await startSandbox({ port: 0, hotelCount: BENCH_HOTELS, eventCount: BENCH_EVENTS });
	// A folder of its own, not n8n-<version>-*: whatever cleans up after e2e runs leaves it alone.
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'travel-pricing-bench-'));
	// Also when the run is interrupted (the harness ends the n8n processes then).
	process.once('exit', () => fs.rmSync(userFolder, { recursive: true, force: true }));
	let n8n: N8nInstance | undefined;
	let proxy: CountingProxy | undefined;
	const close = async (): Promise<void> => {
		await proxy?.close();
		await n8n?.dispose();
		await sandbox.close();
		fs.rmSync(userFolder, { recursive: true, force: true });
	};
	try {
		n8n = await N8nInstance.create({ runtime, userFolder, env });
		await n8n.installPackage(tarball);
		const { workflows: seeds, credentials } = workflows(sandbox);
		await n8n.importCredentials([
			...serviceCredentials({ baseUrl: sandbox.baseUrl, accessToken: sandbox.credentials.accessToken, apiKey: sandbox.credentials.apiKey }),
			...credentials,
		]);
		await n8n.importWorkflows(seeds);
		await n8n.start();
		await n8n.setupOwner(E2E_OWNER);
		proxy = await startCountingProxy(n8n.baseUrl);
		// The node's key has only the scopes Rate Changes needs; the benchmark's own also empties
		// tables between rounds.
		await n8n.importCredentials([n8nApiCredential(proxy.url, await n8n.createApiKey('Travel Pricing bench', DATA_TABLE_SCOPES))]);
		const benchKey = await n8n.createApiKey('Bench tables', [...DATA_TABLE_SCOPES, 'dataTableRow:delete']);
		for (const seed of seeds) await n8n.activateWorkflow(seed.id);
		progress(`n8n ${runtime.version} on Node.js ${runtime.nodeVersion} ready at ${n8n.baseUrl} in ${formatDuration(Date.now() - started)}`);
		return { runtime, tarball, sandbox, n8n, n8nApi: { proxy, benchKey }, close };
	} catch (error) {
		await close();
		throw error;
	}
}
