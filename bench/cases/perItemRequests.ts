import { setTimeout as sleep } from 'node:timers/promises';
import type { EndpointKey } from '../../platform/sandbox';
import type { BenchEnvironment } from '../environment';
import { alternate, progress } from '../measure';
import type { BenchmarkResult, Row } from '../report';
import type { BenchWorkflow, PackageWorkflows } from '../workflows';
import { ADAPTIVE_START } from '../../nodes/shared/concurrency';
import { BEFORE, medianOf, row, runOnce, seconds, slowerThanBeforeNote, type WorkflowRound } from './common';

export const PER_ITEM_LATENCY_MS = 20;
export const RATE_LIMIT_PER_SECOND = 20;

export interface PerItemCase {
	id: string;
	title: string;
	/** What each input item is, for the setup line. */
	itemNoun: string;
	items: Array<Record<string, unknown>>;
	workflows: PackageWorkflows;
	endpoint: EndpointKey;
	/** What bounds the package's side when it is slower than the built-in one without a limit. */
	slowerBecause?: string;
	/** Items the package's node must put out (nothing lost). */
	expectedItems: number;
	/** Most requests the package's node may send; undefined: no such target. */
	maxRequests?: number;
	/** Whether the node with its defaults must be no slower than before Adaptive (without a limit). */
	noSlowerThanBefore: boolean;
	packageSide: string;
	builtInSide: string;
	notes: string[];
}

/** How a side ended under the rate limit: its items, or the failure and the 429s that caused it. */
function limitedOutcome(rounds: WorkflowRound[], noun: string, expectedItems: number): string {
	const failed = rounds.filter((round) => !round.ok);
	if (failed.length === 0) {
		const items = medianOf(rounds, (round) => round.items);
		return `${items.toLocaleString('en-US')} of ${expectedItems.toLocaleString('en-US')} ${noun} in ${seconds(medianOf(rounds, (round) => round.wallMs))}`;
	}
	const error = failed[0].error ?? 'error';
	return `failed in ${failed.length} of ${rounds.length} rounds, after ${seconds(medianOf(failed, (round) => round.wallMs))}: ${error.slice(0, 80)} (${Math.round(medianOf(failed, (round) => round.answered429))} requests answered 429)`;
}

/**
 * Benchmark 1: one request per item with n8n's HTTP Request node (all items at once, its
 * default) against this package's node, with the sandbox's latency and then also its rate limit.
 */
export async function perItemRequests(env: BenchEnvironment, spec: PerItemCase, rounds: number): Promise<BenchmarkResult> {
	const body = { items: spec.items };
	const run = (workflow: BenchWorkflow) => () => runOnce(env, workflow, body, spec.endpoint);
	const failures: string[] = [];
	const checkPackage = (phase: string, results: WorkflowRound[]): void => {
		for (const round of results) {
			if (!round.ok || round.items !== spec.expectedItems) {
				failures.push(`${phase}: the package's node put out ${round.items} of ${spec.expectedItems} items${round.error ? ` (${round.error})` : ''}`);
			}
		}
	};

	progress(`${spec.id} ${spec.title}: no rate limit`);
	env.sandbox.setFaults({ latencyMs: PER_ITEM_LATENCY_MS });
	// The node's first execution with its credential starts Adaptive at its lowest; the rounds
	// after it start from what the execution before them learnt, as a user's later runs do.
	const first = await run(spec.workflows.node)();
	const [free, freeHttp, freeBefore] = await alternate(rounds, [run(spec.workflows.node), run(spec.workflows.http), run(spec.workflows.before)]);
	checkPackage('no limit', [first, ...free]);
	if (freeHttp.some((round) => !round.ok)) failures.push(`no limit: the HTTP Request node failed: ${freeHttp.find((round) => !round.ok)?.error}`);

	progress(`${spec.id} ${spec.title}: ${RATE_LIMIT_PER_SECOND} requests per second per token`);
	env.sandbox.setFaults({ latencyMs: PER_ITEM_LATENCY_MS, rateLimitPerSecond: RATE_LIMIT_PER_SECOND });
	// The limit counts in fixed one-second windows: each run starts with a window of its own.
	await sleep(1_100);
	// The first execution under the limit starts from what the node learnt without one.
	const firstLimited = await run(spec.workflows.node)();
	await sleep(1_100);
	const [limited, limitedHttp, limitedBefore] = await alternate(rounds, [run(spec.workflows.node), run(spec.workflows.http), run(spec.workflows.before)], {
		between: () => sleep(1_100),
	});
	checkPackage('rate limit', [firstLimited, ...limited]);
	env.sandbox.resetFaults();

	const wall = (results: WorkflowRound[]): number => medianOf(results, (round) => round.wallMs);
	const own = (results: WorkflowRound[]): number => medianOf(results, (round) => round.nodeMs);
	const requests = (results: WorkflowRound[]): number => medianOf(results, (round) => round.requests);
	const answered429 = (results: WorkflowRound[]): number => medianOf(results, (round) => round.answered429);
	const packageRequests = requests(free);
	const rows: Row[] = [
		row(
			'Requests sent, no limit',
			'',
			packageRequests,
			requests(freeHttp),
			spec.maxRequests === undefined ? '' : `≤ ${spec.maxRequests}`,
			spec.maxRequests === undefined ? null : packageRequests <= spec.maxRequests,
		),
		row('Wall time, no limit', 'ms', wall(free), wall(freeHttp), 'at least as fast (ratio ≥ 1)', wall(free) <= wall(freeHttp)),
		row("The node's own time, no limit", 'ms', own(free), own(freeHttp)),
		row('Most requests in flight at once, no limit', '', String(medianOf(free, (round) => round.maxInFlight)), String(medianOf(freeHttp, (round) => round.maxInFlight))),
		row(
			`The node's first execution with its credential (Adaptive from ${ADAPTIVE_START}), no limit: wall time (most in flight)`,
			'',
			`${Math.round(first.wallMs).toLocaleString('en-US')} ms (${first.maxInFlight})`,
			null,
		),
		row(
			`Under ${RATE_LIMIT_PER_SECOND} requests/s: outcome`,
			'',
			limitedOutcome(limited, spec.itemNoun, spec.expectedItems),
			limitedOutcome(limitedHttp, spec.itemNoun, spec.expectedItems),
			`all ${spec.expectedItems.toLocaleString('en-US')} returned`,
			limited.every((round) => round.ok && round.items === spec.expectedItems),
		),
		row(`Under ${RATE_LIMIT_PER_SECOND} requests/s: wall time`, 'ms', wall(limited), limitedHttp.every((round) => round.ok) ? wall(limitedHttp) : `${seconds(wall(limitedHttp))} to failure`),
		row(
			`Under ${RATE_LIMIT_PER_SECOND} requests/s: requests sent (answered 429)`,
			'',
			`${requests(limited)} (${answered429(limited)})`,
			`${requests(limitedHttp)} (${answered429(limitedHttp)})`,
		),
		row(
			`Under ${RATE_LIMIT_PER_SECOND} requests/s, the node's first execution after the limit began (Adaptive from what it learnt without one): requests sent (answered 429)`,
			'',
			`${firstLimited.requests} (${firstLimited.answered429})`,
			null,
		),
		row(
			`${BEFORE}: wall time, no limit`,
			'ms',
			wall(free),
			wall(freeBefore),
			spec.noSlowerThanBefore ? 'no slower than before' : '',
			spec.noSlowerThanBefore ? wall(free) <= wall(freeBefore) : null,
		),
		row(
			`${BEFORE}: under ${RATE_LIMIT_PER_SECOND} requests/s, outcome`,
			'',
			limitedOutcome(limited, spec.itemNoun, spec.expectedItems),
			limitedOutcome(limitedBefore, spec.itemNoun, spec.expectedItems),
		),
		row(
			`${BEFORE}: under ${RATE_LIMIT_PER_SECOND} requests/s, requests sent (answered 429)`,
			'',
			`${requests(limited)} (${answered429(limited)})`,
			`${requests(limitedBefore)} (${answered429(limitedBefore)})`,
			'fewer 429s than before (or none on either)',
			answered429(limited) < answered429(limitedBefore) || answered429(limitedBefore) === 0 && answered429(limited) === 0,
		),
	];
	return {
		id: spec.id,
		title: spec.title,
		setup: `${spec.items.length.toLocaleString('en-US')} input items (${spec.itemNoun} from a Webhook call, split into items), sandbox latency ${PER_ITEM_LATENCY_MS} ms per request; then the same with the sandbox limiting the token to ${RATE_LIMIT_PER_SECOND} requests per second (429 with Retry-After beyond). Wall time: the Webhook call ("When Last Node Finishes") as the caller sees it; own time: the node's execution time in n8n's execution data.`,
		packageSide: spec.packageSide,
		builtInSide: spec.builtInSide,
		rows,
		notes: [
			...spec.notes,
			...(wall(free) > wall(freeHttp)
				? [
						`Wall time missed: the node had at most ${free.map((round) => round.maxInFlight).join(', ')} requests in flight in its rounds, the HTTP Request node ${freeHttp.map((round) => round.maxInFlight).join(', ')}.${spec.slowerBecause ? ` ${spec.slowerBecause}` : ''}`,
					]
				: []),
			...(spec.noSlowerThanBefore && wall(free) > wall(freeBefore) ? [slowerThanBeforeNote(packageRequests, free, freeBefore, { ms: PER_ITEM_LATENCY_MS, allAtOnce: freeHttp })] : []),
			...(limited.some((round) => round.error?.includes('sleepWithAbort'))
				? [
						'Rate limit missed: on its first 429 the node waits with `sleepWithAbort` from n8n-workflow before retrying; n8n-workflow 2.40 (in n8n 2.40.7) no longer exports it, so the wait throws "sleepWithAbort is not a function" and the node fails (nodes/shared/transport.ts).',
					]
				: []),
		],
		...(failures.length > 0 ? { failure: failures.join('; ') } : {}),
		rounds: {
			noLimit: { packageFirst: first, package: free, builtIn: freeHttp, before: freeBefore },
			rateLimited: { packageFirst: firstLimited, package: limited, builtIn: limitedHttp, before: limitedBefore },
		},
	};
}
