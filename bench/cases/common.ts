import { setTimeout as sleep } from 'node:timers/promises';
import type { EndpointKey } from '../../platform/sandbox';
import type { BenchEnvironment } from '../environment';
import { callWorkflow, executionRunData, latestExecution, median, progress } from '../measure';
import type { Row } from '../report';
import { BEFORE_ADAPTIVE, type BenchWorkflow } from '../workflows';

/** The rows of benchmarks 1 and 2 that compare the node with its defaults against the same node before Adaptive. */
export const BEFORE = `Before Adaptive (second column: the same node, Concurrency Mode Fixed, Concurrency ${BEFORE_ADAPTIVE.concurrency})`;

/**
 * What bounds a node with its defaults that was slower than before Adaptive, from the run's own
 * rounds: the wall time of each round and their spread, the requests each side had in flight (and
 * the HTTP Request node's, when it sends every request at once), and the most Adaptive could save
 * against Fixed: one service latency for each wave of Fixed that Adaptive did not need.
 */
export function slowerThanBeforeNote(
	requests: number,
	adaptive: WorkflowRound[],
	before: WorkflowRound[],
	latency: { ms: number; allAtOnce?: WorkflowRound[] },
): string {
	const walls = (rounds: WorkflowRound[]): string => rounds.map((round) => Math.round(round.wallMs).toLocaleString('en-US')).join(', ');
	const inFlight = (rounds: WorkflowRound[]): string => rounds.map((round) => round.maxInFlight).join(', ');
	const mean = (rounds: WorkflowRound[]): number => Math.round(rounds.reduce((sum, round) => sum + round.wallMs, 0) / rounds.length);
	const spread = (rounds: WorkflowRound[]): number => Math.round(Math.max(...rounds.map((round) => round.wallMs)) - Math.min(...rounds.map((round) => round.wallMs)));
	const medianGap = Math.round(median(adaptive.map((round) => round.wallMs)) - median(before.map((round) => round.wallMs)));
	const fixedWaves = Math.ceil(requests / BEFORE_ADAPTIVE.concurrency);
	const saving = (fixedWaves - 1) * latency.ms;
	return [
		`No slower than before missed: the medians differ by ${medianGap} ms, the means by ${mean(adaptive) - mean(before)} ms (${mean(adaptive).toLocaleString('en-US')} and ${mean(before).toLocaleString('en-US')} ms); each round: ${walls(adaptive)} ms (spread ${spread(adaptive)} ms) against ${walls(before)} ms (spread ${spread(before)} ms).`,
		`Of its ${requests} requests, Adaptive had at most ${inFlight(adaptive)} in flight in its rounds, Fixed ${BEFORE_ADAPTIVE.concurrency} ${inFlight(before)}${latency.allAtOnce ? `, and the HTTP Request node, which sends every item's request at once, ${inFlight(latency.allAtOnce)}` : ''}.`,
		`The most Adaptive can save against Fixed ${BEFORE_ADAPTIVE.concurrency} is the service's latency for each of Fixed's waves after the first: ${fixedWaves} waves of ${latency.ms} ms, so ${saving} ms${saving < spread(adaptive) ? `, less than the spread of Adaptive's own rounds` : ''}; the rest of the time is n8n's and the node's work on the items, the same on both sides.`,
	].join(' ');
}

/** One run of a call-started workflow: what the user saw and what the service saw. */
export interface WorkflowRound {
	ok: boolean;
	wallMs: number;
	/** The measured nodes' own time, from the execution data n8n stored. */
	nodeMs: number;
	/** Items on the output of the last measured node. */
	items: number;
	requests: number;
	answered429: number;
	/** The most requests the sandbox was serving at once during the run. */
	maxInFlight: number;
	error?: string;
}

/**
 * Runs a workflow once through its Webhook node and reads back its execution: the time of the
 * nodes in `timedNodes` (default the measured node), the items of the last of them, and the
 * requests the sandbox received for `endpoint` during the run.
 */
export async function runOnce(
	env: BenchEnvironment,
	workflow: BenchWorkflow,
	body: unknown,
	endpoint: EndpointKey,
	timedNodes: string[] = [workflow.measuredNode],
): Promise<WorkflowRound> {
	env.sandbox.clearRequests();
	env.sandbox.resetStats();
	const call = await callWorkflow(env.n8n, workflow.path, body);
	// Requests a failed node left in flight still reach the sandbox's log a moment later.
	await sleep(call.status === 200 ? 50 : 500);
	const requests = env.sandbox.requests({ endpoint });
	const execution = await latestExecution(env.n8n, workflow.seed.id);
	const runData = await executionRunData(env.n8n, execution.id);
	const failedNode = Object.values(runData).find((run) => run.error);
	const timed = timedNodes.map((name) => runData[name]).filter((run) => run !== undefined);
	progress(`  ${workflow.seed.name}: ${call.status}, ${Math.round(call.wallMs)} ms, ${requests.length} requests`);
	return {
		ok: call.status === 200 && execution.status === 'success',
		wallMs: call.wallMs,
		nodeMs: timed.reduce((sum, run) => sum + run.executionTime, 0),
		items: timed.length === timedNodes.length ? timed[timed.length - 1].items : 0,
		requests: requests.length,
		answered429: requests.filter((request) => request.status === 429).length,
		maxInFlight: env.sandbox.stats().maxInFlight,
		...(failedNode?.error ? { error: failedNode.error } : call.status !== 200 ? { error: `answered ${call.status}: ${JSON.stringify(call.body).slice(0, 200)}` } : {}),
	};
}

export function medianOf<T>(rounds: T[], pick: (round: T) => number): number {
	return median(rounds.map(pick));
}

/** Greater is better for the package: built-in ÷ package for times and counts, package ÷ built-in for rates. */
export function ratio(packageValue: number, builtInValue: number, higherIsBetter = false): number | null {
	if (!Number.isFinite(packageValue) || !Number.isFinite(builtInValue) || packageValue === 0 || builtInValue === 0) return null;
	return higherIsBetter ? packageValue / builtInValue : builtInValue / packageValue;
}

export function row(measure: string, unit: string, packageValue: number | string | null, builtInValue: number | string | null, target = '', met: boolean | null = null, higherIsBetter = false): Row {
	const both = typeof packageValue === 'number' && typeof builtInValue === 'number';
	return {
		measure,
		unit,
		package: typeof packageValue === 'number' ? round(packageValue) : packageValue,
		builtIn: typeof builtInValue === 'number' ? round(builtInValue) : builtInValue,
		ratio: both ? roundRatio(ratio(packageValue, builtInValue, higherIsBetter)) : null,
		target,
		met,
	};
}

function round(value: number): number {
	return Math.abs(value) >= 100 ? Math.round(value) : Math.round(value * 100) / 100;
}

function roundRatio(value: number | null): number | null {
	return value === null ? null : Math.round(value * 100) / 100;
}

export function seconds(ms: number): string {
	return `${(ms / 1000).toFixed(2)} s`;
}
