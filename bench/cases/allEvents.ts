import { DEFAULT_CONCURRENCY } from '../../nodes/shared/concurrency';
import type { BenchEnvironment } from '../environment';
import { alternate, progress } from '../measure';
import type { BenchmarkResult } from '../report';
import type { allEventsWorkflows } from '../workflows';
import { BEFORE_ADAPTIVE, EVENT_PAGE_SIZE } from '../workflows';
import { BEFORE, medianOf, row, runOnce, slowerThanBeforeNote, type WorkflowRound } from './common';

export const ALL_EVENTS_LATENCY_MS = 50;
/** The requests in flight of the bound: the node before Adaptive, always 10 (Adaptive may go beyond). */
const BOUND_CONCURRENCY = BEFORE_ADAPTIVE.concurrency;

/**
 * Benchmark 2: every event (Return All) with the Event Impact node against the HTTP Request
 * node's pagination plus the Split Out a user needs to get one item per event.
 */
export async function allEvents(env: BenchEnvironment, pair: ReturnType<typeof allEventsWorkflows>, rounds: number): Promise<BenchmarkResult> {
	const total = env.sandbox.data.events.length;
	const pages = Math.ceil(total / EVENT_PAGE_SIZE);
	progress(`2 Event Impact, Return All over ${total} events`);
	env.sandbox.setFaults({ latencyMs: ALL_EVENTS_LATENCY_MS });
	const [node, http, before] = await alternate(rounds, [
		() => runOnce(env, pair.node, {}, 'eventimpact'),
		() => runOnce(env, pair.http, {}, 'eventimpact', [pair.http.measuredNode, pair.splitOut]),
		() => runOnce(env, pair.before, {}, 'eventimpact'),
	]);
	env.sandbox.resetFaults();

	const failures = [
		...node.filter((round) => !round.ok || round.items !== total).map((round) => `Event Impact node: ${round.items} of ${total} events${round.error ? ` (${round.error})` : ''}`),
		...http.filter((round) => !round.ok || round.items !== total).map((round) => `HTTP Request + Split Out: ${round.items} of ${total} events${round.error ? ` (${round.error})` : ''}`),
		...before.filter((round) => !round.ok || round.items !== total).map((round) => `Event Impact node, Fixed: ${round.items} of ${total} events${round.error ? ` (${round.error})` : ''}`),
	];
	const wall = (results: WorkflowRound[]): number => medianOf(results, (round) => round.wallMs);
	const own = (results: WorkflowRound[]): number => medianOf(results, (round) => round.nodeMs);
	// Every page waits for the latency; with 10 pages in flight at once, no run can be faster.
	const lowerBound = (pages / BOUND_CONCURRENCY) * ALL_EVENTS_LATENCY_MS;
	const speedup = wall(http) / wall(node);
	return {
		id: '2',
		title: `Event Impact, Return All over ${total.toLocaleString('en-US')} events`,
		setup: `${total.toLocaleString('en-US')} events, ${EVENT_PAGE_SIZE} per page (${pages} pages), sandbox latency ${ALL_EVENTS_LATENCY_MS} ms per request, started by a Webhook call. Lower bound at ${BOUND_CONCURRENCY} requests in flight (the node before Adaptive): pages ÷ ${BOUND_CONCURRENCY} × latency = ${pages} ÷ ${BOUND_CONCURRENCY} × ${ALL_EVENTS_LATENCY_MS} ms = ${lowerBound} ms; Adaptive may go beyond ${BOUND_CONCURRENCY}, up to Concurrency (${DEFAULT_CONCURRENCY}); its first execution with the benchmark's credential (the warm-up round) starts at 4, each later one where the one before left off.`,
		packageSide: `Event Impact node as the editor adds it (version 1.1, Simplify on), Return All, Page Size ${EVENT_PAGE_SIZE}, other options default (Concurrency Mode Adaptive, Concurrency ${DEFAULT_CONCURRENCY})`,
		builtInSide: `HTTP Request node, POST /eventimpact/?eventsImpactPerPage=${EVENT_PAGE_SIZE}, Pagination "Update a Parameter in Each Request" (pageNumber = {{ $pageCount + 1 }}), complete when pageInfo.currentPage ≥ totalPages; then Split Out on \`events\` (the HTTP Request node puts out one item per page)`,
		rows: [
			row('Events put out', '', medianOf(node, (round) => round.items), medianOf(http, (round) => round.items)),
			row('Requests sent', '', medianOf(node, (round) => round.requests), medianOf(http, (round) => round.requests)),
			row('Wall time', 'ms', wall(node), wall(http), '≥ 3× faster', speedup >= 3),
			row("The nodes' own time (HTTP Request + Split Out on the built-in side)", 'ms', own(node), own(http)),
			row(
				'Own time against the lower bound',
				'',
				`${(own(node) / lowerBound).toFixed(2)}× the bound (${Math.round(lowerBound)} ms)`,
				`${(own(http) / lowerBound).toFixed(2)}× the bound`,
				'≤ 1.5× the bound',
				own(node) <= 1.5 * lowerBound,
			),
			row(`${BEFORE}: wall time`, 'ms', wall(node), wall(before), 'no slower than before', wall(node) <= wall(before)),
			row(`${BEFORE}: the node's own time`, 'ms', own(node), own(before)),
		],
		notes: wall(node) > wall(before) ? [slowerThanBeforeNote(pages, node, before, { ms: ALL_EVENTS_LATENCY_MS })] : [],
		...(failures.length > 0 ? { failure: failures.join('; ') } : {}),
		rounds: { package: node, builtIn: http, before },
	};
}
