import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { N8nInstance } from '../platform/n8n';

export function median(values: number[]): number {
	if (values.length === 0) return Number.NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** A round that lost records or errored: it fails the benchmark instead of counting. */
export class BenchmarkFailure extends Error {}

export function progress(line: string): void {
	process.stderr.write(`[bench] ${line}\n`);
}

/**
 * Runs each side once per round, in the same order every round (A, B, A, B, …), so both sides see
 * the same machine state. By default a warm-up round comes first and is not counted: n8n loads
 * and compiles each node on its first run.
 */
export async function alternate<T>(
	rounds: number,
	sides: Array<() => Promise<T>>,
	{ warmUp = true, between }: { warmUp?: boolean; between?: () => Promise<void> } = {},
): Promise<T[][]> {
	const results: T[][] = sides.map(() => []);
	for (let round = warmUp ? 0 : 1; round <= rounds; round++) {
		for (let side = 0; side < sides.length; side++) {
			const result = await sides[side]();
			if (round > 0) results[side].push(result);
			await between?.();
		}
	}
	return results;
}

export interface CallResult {
	status: number;
	wallMs: number;
	body: unknown;
}

/** Runs a workflow through its Webhook node ("When Last Node Finishes") and times the answer. */
export async function callWorkflow(n8n: N8nInstance, webhookPath: string, body: unknown): Promise<CallResult> {
	const started = performance.now();
	const response = await fetch(n8n.webhookUrl(webhookPath), {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	const text = await response.text();
	const wallMs = performance.now() - started;
	let parsed: unknown = text;
	try {
		parsed = JSON.parse(text);
	} catch {
		// n8n's error page or an empty answer: kept as text for the failure message.
	}
	return { status: response.status, wallMs, body: parsed };
}

interface ExecutionSummary {
	id: string;
	status: string;
}

/** The newest stored execution of a workflow. */
export async function latestExecution(n8n: N8nInstance, workflowId: string): Promise<ExecutionSummary> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const response = await n8n.request<{ data: { results: ExecutionSummary[] } }>('GET', `/rest/executions?filter=${filter}&limit=1`);
	const latest = response.body.data?.results?.[0];
	if (response.status !== 200 || !latest) throw new BenchmarkFailure(`No execution of ${workflowId} found: ${response.text.slice(0, 300)}`);
	return latest;
}

/** How many executions of a workflow n8n has stored with one of the given statuses. */
export async function countExecutions(n8n: N8nInstance, workflowId: string, status: string[]): Promise<number> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId, status }));
	const response = await n8n.request<{ data: { count: number } }>('GET', `/rest/executions?filter=${filter}&limit=1`);
	if (response.status !== 200) throw new Error(`/rest/executions answered ${response.status}: ${response.text.slice(0, 300)}`);
	return response.body.data.count;
}

export interface NodeRun {
	executionTime: number;
	items: number;
	error?: string;
}

/** A stored execution's run data: each node's runs, with the items of each output. */
export type RunData = Record<
	string,
	Array<{ executionTime: number; data?: { main: Array<Array<{ json: Record<string, unknown> }> | null> }; error?: { message?: string } }>
>;

/** The run data of a stored execution (n8n stores it in the `flatted` format). */
export async function storedRunData(n8n: N8nInstance, executionId: string): Promise<RunData> {
	const response = await n8n.request<{ data: { data: string } }>('GET', `/rest/executions/${executionId}`);
	if (response.status !== 200) throw new Error(`/rest/executions/${executionId} answered ${response.status}`);
	const flatted = createRequire(path.join(n8n.runtime.dir, 'node_modules', 'n8n', 'package.json'))('flatted') as { parse(text: string): unknown };
	return (flatted.parse(response.body.data.data) as { resultData: { runData: RunData } }).resultData.runData;
}

/** Each node's time (over all its runs), the items of its last run, and its error. */
export function summarizeRuns(runData: RunData): Record<string, NodeRun> {
	const runs: Record<string, NodeRun> = {};
	for (const [name, nodeRuns] of Object.entries(runData)) {
		const last = nodeRuns[nodeRuns.length - 1];
		runs[name] = {
			executionTime: nodeRuns.reduce((sum, run) => sum + run.executionTime, 0),
			items: (last.data?.main ?? []).reduce((sum: number, output) => sum + (output?.length ?? 0), 0),
			...(last.error ? { error: last.error.message ?? 'error' } : {}),
		};
	}
	return runs;
}

/** The items of one output of a node's last run (an IF node's true output is 0). */
export function nodeOutput(runData: RunData, nodeName: string, output = 0): Array<Record<string, unknown>> {
	const runs = runData[nodeName] ?? [];
	return (runs[runs.length - 1]?.data?.main[output] ?? []).map((item) => item.json);
}

/** Run data of a stored execution, by node name. */
export async function executionRunData(n8n: N8nInstance, executionId: string): Promise<Record<string, NodeRun>> {
	return summarizeRuns(await storedRunData(n8n, executionId));
}

/** Polls, twice a second, until n8n has stored `expected` executions of a workflow with one of `status`; fails when the count stood still for `quietMs` short of it. */
export async function waitForExecutions(n8n: N8nInstance, workflowId: string, expected: number, status: string[], quietMs: number): Promise<void> {
	let seen = -1;
	let lastChange = Date.now();
	for (;;) {
		const done = await countExecutions(n8n, workflowId, status);
		if (done >= expected) return;
		if (done !== seen) {
			seen = done;
			lastChange = Date.now();
		} else if (Date.now() - lastChange > quietMs) {
			throw new BenchmarkFailure(`${workflowId}: ${done} of ${expected} executions finished, none more for ${quietMs / 1000} s`);
		}
		await sleep(500);
	}
}

/**
 * Polls until n8n has stored `expected` successful executions of a workflow; fails when the count
 * stopped moving short of the target. Resolves with the time (epoch ms) the last of them
 * finished, as n8n recorded it: the poll (each one costs n8n some work, so it is kept to twice a
 * second) does not decide the measurement.
 */
export async function waitForSuccessfulExecutions(n8n: N8nInstance, workflowId: string, expected: number, quietMs = 30_000): Promise<number> {
	await waitForExecutions(n8n, workflowId, expected, ['success'], quietMs);
	const filter = encodeURIComponent(JSON.stringify({ workflowId, status: ['success'] }));
	const newest = await n8n.request<{ data: { results: Array<{ stoppedAt?: string }> } }>('GET', `/rest/executions?filter=${filter}&limit=100`);
	const stopped = (newest.body.data?.results ?? []).map((execution) => Date.parse(execution.stoppedAt ?? '')).filter(Number.isFinite);
	return stopped.length > 0 ? Math.max(...stopped) : Date.now();
}

/** The pid of the `n8n start` process serving an instance (the one started for its folder). */
export function n8nServerPid(n8n: N8nInstance): number {
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const command = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
			if (!command.includes(n8n.runtime.n8nScript) || !command.includes('start')) continue;
			const environment = fs.readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0');
			if (environment.includes(`N8N_USER_FOLDER=${n8n.userFolder}`)) return Number(entry);
		} catch {
			// The process ended while being read.
		}
	}
	throw new Error(`No running n8n found for ${n8n.userFolder}`);
}

function residentMb(pid: number): number {
	const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
	const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
	return kb / 1024;
}

export interface RssSample {
	at: number;
	mb: number;
}

/** Samples a process's resident memory (VmRSS) every `everyMs` until stopped. */
export function sampleRss(pid: number, everyMs = 50): { stop(): RssSample[] } {
	const samples: RssSample[] = [{ at: Date.now(), mb: residentMb(pid) }];
	const timer = setInterval(() => samples.push({ at: Date.now(), mb: residentMb(pid) }), everyMs);
	return {
		stop() {
			clearInterval(timer);
			samples.push({ at: Date.now(), mb: residentMb(pid) });
			return samples;
		},
	};
}

/** The process's resident memory now, as the median of a few samples a little apart. */
export async function steadyRssMb(pid: number): Promise<number> {
	const samples: number[] = [];
	for (let index = 0; index < 5; index++) {
		samples.push(residentMb(pid));
		await sleep(100);
	}
	return median(samples);
}
