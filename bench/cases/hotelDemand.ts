import { setTimeout as sleep } from 'node:timers/promises';
import type { BenchEnvironment } from '../environment';
import { callWorkflow, n8nServerPid, progress, sampleRss, steadyRssMb } from '../measure';
import type { BenchmarkResult } from '../report';
import type { BenchWorkflow } from '../workflows';
import { medianOf, row } from './common';

export const LARGE_DEMAND_ID = 1006;
const TIME_TARGET_MS = 2_000;
const MEMORY_TARGET_MB = 500;

interface DemandRound {
	ok: boolean;
	items: number;
	/** Between the timestamp nodes around the Hotel Demand node. */
	nodeMs: number;
	wallMs: number;
	baselineMb: number;
	/** Highest n8n RSS while the node ran, and over the whole execution (saving it included). */
	peakDuringNodeMb: number;
	peakDuringExecutionMb: number;
	error?: string;
}

/** Benchmark 4: the largest demand shop, one item per hotel and date, in n8n's main process. */
export async function hotelDemand(env: BenchEnvironment, workflow: BenchWorkflow, rounds: number): Promise<BenchmarkResult> {
	const shop = env.sandbox.data.demand.catalog.find((info) => info.demandId === LARGE_DEMAND_ID);
	progress(`4 Hotel Demand ${LARGE_DEMAND_ID}, Per Hotel and Date`);
	const pid = n8nServerPid(env.n8n);
	const runOnce = async (): Promise<DemandRound> => {
		// What the previous run left behind is n8n's to collect; the baseline is taken when it has settled.
		await sleep(2_000);
		const baselineMb = await steadyRssMb(pid);
		const sampler = sampleRss(pid);
		const call = await callWorkflow(env.n8n, workflow.path, {});
		const samples = sampler.stop();
		const answer = (call.body ?? {}) as { startedAt?: number; finishedAt?: number; items?: number };
		const startedAt = answer.startedAt ?? Number.NaN;
		const finishedAt = answer.finishedAt ?? Number.NaN;
		const during = samples.filter((sample) => sample.at >= startedAt && sample.at <= finishedAt).map((sample) => sample.mb);
		progress(`  ${call.status}, node ${finishedAt - startedAt} ms, call ${Math.round(call.wallMs)} ms`);
		return {
			ok: call.status === 200 && typeof answer.items === 'number',
			items: answer.items ?? 0,
			nodeMs: finishedAt - startedAt,
			wallMs: call.wallMs,
			baselineMb,
			peakDuringNodeMb: during.length > 0 ? Math.max(...during) : Number.NaN,
			peakDuringExecutionMb: Math.max(...samples.map((sample) => sample.mb)),
			...(call.status !== 200 ? { error: `answered ${call.status}: ${JSON.stringify(call.body).slice(0, 200)}` } : {}),
		};
	};
	// The first run meets a cold n8n, whose heap has to grow for it: its memory is the one that
	// counts (the highest), its time is not (the sandbox builds the data set on that first request).
	const first = await runOnce();
	const results: DemandRound[] = [];
	for (let round = 0; round < rounds; round++) results.push(await runOnce());

	const expected = (shop?.hotelCount ?? 1000) * (shop?.dateCount ?? 365);
	const failures = [first, ...results].filter((round) => !round.ok || round.items !== expected).map((round) => round.error ?? `${round.items} of ${expected} items`);
	const nodeMs = medianOf(results, (round) => round.nodeMs);
	const firstAboveDuringNode = first.peakDuringNodeMb - first.baselineMb;
	const aboveDuringNode = medianOf(results, (round) => round.peakDuringNodeMb - round.baselineMb);
	const firstAboveDuringExecution = first.peakDuringExecutionMb - first.baselineMb;
	return {
		id: '4',
		title: `Hotel Demand, Per Hotel and Date for ${(shop?.hotelCount ?? 1000).toLocaleString('en-US')} hotels × ${shop?.dateCount ?? 365} dates`,
		setup: `Demand shop ${LARGE_DEMAND_ID} (about 18 MB of JSON, ${expected.toLocaleString('en-US')} hotel-days), no latency, started by a Webhook call. Time: between two Edit Fields nodes that take Date.now() right before and right after the Hotel Demand node (the second one runs once). Memory: n8n's main process resident set (VmRSS from /proc, every 50 ms) minus its settled value before the call; the first run, before any other benchmark, is the one that counts (n8n's heap grows for it and stays grown). Time: the median of the runs after it.`,
		packageSide: 'Hotel Demand node, Output "Per Hotel and Date", defaults',
		builtInSide: 'no built-in counterpart measured (absolute targets)',
		rows: [
			row('Items put out', '', medianOf(results, (round) => round.items), null),
			row("The node's time", 'ms', nodeMs, null, `< ${TIME_TARGET_MS.toLocaleString('en-US')} ms`, nodeMs < TIME_TARGET_MS),
			row(
				'Peak memory above baseline while the node runs, first run',
				'MB',
				firstAboveDuringNode,
				null,
				`< ${MEMORY_TARGET_MB} MB`,
				firstAboveDuringNode < MEMORY_TARGET_MB,
			),
			row('Peak memory above baseline while the node runs, later runs (heap already grown)', 'MB', aboveDuringNode, null),
			row('Peak memory above baseline over the whole first execution (n8n saving it included)', 'MB', firstAboveDuringExecution, null),
			row("n8n's baseline before the first run", 'MB', first.baselineMb, null),
			row('Wall time of the call (the execution saved included)', 'ms', medianOf(results, (round) => round.wallMs), null),
		],
		notes: [],
		...(failures.length > 0 ? { failure: failures.join('; ') } : {}),
		rounds: { first, package: results },
	};
}
