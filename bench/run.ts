import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { formatDuration, NEWEST_N8N, OLDEST_N8N, type CredentialSeed, type WorkflowSeed } from '../platform/n8n';
import type { Sandbox } from '../platform/sandbox';
import { DEFAULT_CONCURRENCY } from '../nodes/shared/concurrency';
import { allEvents } from './cases/allEvents';
import { hotelDemand, LARGE_DEMAND_ID } from './cases/hotelDemand';
import { oneRecordDelivery } from './cases/oneRecordDelivery';
import { packageWeight } from './cases/packageWeight';
import { perItemRequests, type PerItemCase } from './cases/perItemRequests';
import { queueTrigger } from './cases/queueTrigger';
import { rateChanges } from './cases/rateChanges';
import { rateChangesGroup } from './cases/rateChangesGroup';
import { rateChangesYear } from './cases/rateChangesYear';
import { ABSENT_HOTEL, filteredRateTrigger, KEPT_HOTEL, rateTrigger, type FilteredTriggerCase, type Receiver, type TriggerCase } from './cases/rateTrigger';
import { startBenchEnvironment, type BenchEnvironment } from './environment';
import { progress } from './measure';
import { machine, updatedResults, writeResults, type BenchmarkResult, type Results } from './report';
import * as workflows from './workflows';

/**
 * `npm run bench`: this package's nodes against the workflows a user builds from n8n's own nodes,
 * in one real n8n against the sandbox, each pair measured in alternation; writes
 * bench/results.md and bench/results.json (after every benchmark, so an interrupted run keeps
 * what it measured). See docs/benchmarks.md.
 *
 * BENCH_N8N picks the n8n version (default the newest proven one), BENCH_ROUNDS the measured
 * rounds per side (default 3; BENCH_TRIGGER_ROUNDS for benchmark 3, default 1; BENCH_3A_RECORDS
 * 3a's deliveries, default 2,000), BENCH_ONLY a comma list of benchmark numbers, for working on one
 * (its results go to <tmp>/travel-pricing-bench-partial/, not over the full run's files). With
 * BENCH_UPDATE=1 as well, the benchmarks it measures replace theirs in bench/results.*, each
 * noting the run it came from, and the others stay as they were.
 *
 * A new benchmark is a module in bench/cases/ and one entry in CASES.
 */

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/**
 * Benchmark 3 runs 2,000 executions per side and round, and n8n (SQLite, defaults) finishes some
 * 20 to 40 of them a second on 2 cores: one measured round per side (after a short warm-up) keeps
 * the whole run within 20 minutes there.
 */
const TRIGGER_ROUNDS = Number(process.env.BENCH_TRIGGER_ROUNDS ?? 1);
/** Benchmark 3a's single-record deliveries per side and round (fewer for trying it out). */
const RECORDS_3A = Number(process.env.BENCH_3A_RECORDS ?? 2000);
const VERSION = process.env.BENCH_N8N ?? NEWEST_N8N;
const ONLY = process.env.BENCH_ONLY?.split(',').map((id) => id.trim());
const UPDATE = ONLY !== undefined && process.env.BENCH_UPDATE === '1';
const OUTPUT = ONLY && !UPDATE ? path.join(os.tmpdir(), 'travel-pricing-bench-partial') : __dirname;
/**
 * Benchmark 6 measures nine deliveries of this many single records (three pool sizes × one
 * process, queue mode with 2 and with 1 worker), each at a few records a second on 2 busy cores.
 */
const QUEUE_RECORDS = Number(process.env.BENCH_QUEUE_RECORDS ?? 300);
/** Benchmark 8's days of daily shops (a year by default: about 35 minutes a run in-process, seven runs). */
const YEAR_DAYS = Number(process.env.BENCH_YEAR_DAYS ?? 365);
/** Benchmark 8's one-record runs, in days (0: none); its measures (sqlite, postgres-2.41.1, postgres-2.8.4; default all). */
const YEAR_SINGLE_DAYS = Number(process.env.BENCH_YEAR_SINGLE_DAYS ?? Math.min(YEAR_DAYS, 20));
const YEAR_MEASURES = process.env.BENCH_YEAR_MEASURES?.split(',').map((key) => key.trim());
/** Benchmark 8's shapes (set: the one-hotel set of issue #28; hotel: one hotel of benchmark 9's group with its history; default both), and the hotel's Keep History values (default the node's, 90). */
const YEAR_SHAPES = process.env.BENCH_YEAR_SHAPES?.split(',').map((key) => key.trim());
const YEAR_KEEP_HISTORY = process.env.BENCH_YEAR_KEEP_HISTORY?.split(',').map((days) => Number(days.trim()));
/** Benchmark 9's days: the group's first shop and its daily shops after it. */
const GROUP_DAYS = Number(process.env.BENCH_GROUP_DAYS ?? 2);
/** Benchmark 9's hotels of the 100-hotel group (all by default; fewer project the group's size from theirs). */
const GROUP_HOTELS = Number(process.env.BENCH_GROUP_HOTELS ?? 100);
/** Benchmark 10's stays (2 hotels × 5 websites × 2 room types × stays / 20 check-in days), and the n8n versions it runs on, each in n8n instances of its own. */
const ONE_RECORD_STAYS = Number(process.env.BENCH_ONE_RECORD_STAYS ?? 2000);
const ONE_RECORD_N8N = (process.env.BENCH_ONE_RECORD_N8N ?? `${NEWEST_N8N},${OLDEST_N8N}`).split(',').map((version) => version.trim());
/** The bearer token the sandbox's deliveries carry, checked by the trigger and by the Webhook node. */
const DELIVERY_TOKEN = 'bench-delivery-token-5b1f0c';

/** The group of a benchmark: "3" of "3b", "10" of "10". */
const groupOf = (id: string): string => id.replace(/[a-z]+$/, '');
/** A group ("3") is wanted for any of its benchmarks ("3b"), and each benchmark of a wanted group ("1" is not "10"'s). */
const wanted = (id: string): boolean => !ONLY || ONLY.some((only) => only === id || only === groupOf(id) || groupOf(only) === id);

/** Benchmark 4's workflow and benchmark 3's receivers, imported into the shared n8n. */
const DEMAND = workflows.demandWorkflow(LARGE_DEMAND_ID);
const RECEIVERS = {
	trigger: workflows.triggerWorkflow('benchRateTrigger', DELIVERY_TOKEN),
	filteredTrigger: workflows.triggerWorkflow('benchRateTrigFlt', DELIVERY_TOKEN, { hotelCode: KEPT_HOTEL }),
	allFilteredTrigger: workflows.triggerWorkflow('benchRateTrigOut', DELIVERY_TOKEN, { hotelCode: ABSENT_HOTEL }),
	webhook: workflows.webhookWorkflow('benchWebhookOnly', 'none'),
	webhookSplitOut: workflows.webhookWorkflow('benchWebhookSplt', 'splitOut'),
	webhookIf: workflows.webhookWorkflow('benchWebhookIfNd', { hotelCode: KEPT_HOTEL }),
	webhookFloor: workflows.webhookWorkflow('benchWebhookV1Fl', 'none', { typeVersion: 1, headerAuth: false }),
	webhookFloorSplitOut: workflows.webhookWorkflow('benchWebhookV1Sp', 'splitOut', { typeVersion: 1, headerAuth: false }),
};

/** Every workflow and credential of the shared n8n, whichever of its benchmarks run. */
function sharedSeeds(sandbox: Sandbox): { workflows: WorkflowSeed[]; credentials: CredentialSeed[] } {
	const pairs = [workflows.hotelInfoWorkflows(sandbox.baseUrl), workflows.eventQueryWorkflows(sandbox.baseUrl), workflows.allEventsWorkflows(sandbox.baseUrl)];
	return {
		workflows: [...pairs.flatMap((pair) => [pair.node.seed, pair.before.seed, pair.http.seed]), DEMAND.seed, ...Object.values(RECEIVERS).map((receiver) => receiver.seed)],
		credentials: [
			...workflows.headerAuthCredentials(sandbox.credentials.accessToken, DELIVERY_TOKEN),
			...workflows.caseCredentials(['1a', '1b', '2', '4'], sandbox.baseUrl, sandbox.credentials.accessToken),
		],
	};
}

/**
 * One benchmark: its id (results.*, BENCH_ONLY), its title (the progress lines, and results.* if
 * it stops with an error; a finished one reports its own), where it runs, and the function that
 * measures it. Its rows, targets and notes are those of the BenchmarkResult that function returns
 * from the spec given here (the sides compared, the targets, what bounds a miss).
 *
 * Where it runs: in the n8n the benchmarks share (its sandbox, workflows and credentials), in
 * table order; after that n8n has stopped, with its n8n install and the package's tarball; in
 * n8n instances of its own, after the shared one is gone; or in this process, against stand-ins.
 */
type BenchCase = { id: string; title: string } & (
	| { on: 'shared n8n' | 'after the shared n8n'; run(env: BenchEnvironment): Promise<BenchmarkResult> }
	| { on: 'own n8n' | 'in process'; run(keep: (partial: BenchmarkResult) => void): Promise<BenchmarkResult> }
);

/** Benchmark 1: one request per input item, the package's node against the HTTP Request node. */
function perItemCase(id: string, title: string, spec: (sandbox: Sandbox) => Omit<PerItemCase, 'id' | 'title'>): BenchCase {
	return { id, title, on: 'shared n8n', run: (env) => perItemRequests(env, { id, title, ...spec(env.sandbox) }, ROUNDS) };
}

/** Benchmark 3: rate deliveries into the Rate Record Trigger against the Webhook node. */
function triggerCase(spec: TriggerCase): BenchCase {
	return { id: spec.id, title: spec.title, on: 'shared n8n', run: (env) => rateTrigger(env, spec, DELIVERY_TOKEN, TRIGGER_ROUNDS) };
}

const TRIGGER_SIDE = 'Rate Record Trigger, Manual registration, Bearer Token';
const WEBHOOK_SIDE = 'Webhook node, POST, Header Auth (Authorization: Bearer …), Respond Immediately';
const UNFILTERED_TRIGGER: Receiver = { workflow: RECEIVERS.trigger, side: 'trigger' };
/**
 * What is left when the trigger misses even n8n's floor for it (the Webhook node given the same
 * isolate): not the isolate.
 */
const NOT_THE_ISOLATE =
	"the trigger was slower than n8n's own Webhook node given the same webhook-phase isolate (the floor row), so the isolate does not account for it: what is left is the trigger's own work per delivery (its token check, the record check, its items) or the machine's load, which moves slices on a busy machine by tens of percent (the load averages in the header).";

const FILTERED_TRIGGER: FilteredTriggerCase = {
	id: '3c',
	title: "Rate Record Trigger against Webhook + IF and against n8n's floor: 90 % of the records filtered out",
	trigger: { workflow: RECEIVERS.filteredTrigger, side: 'trigger', keptHotel: KEPT_HOTEL },
	webhook: { workflow: RECEIVERS.webhookIf, side: 'webhook' },
	allFilteredOut: { workflow: RECEIVERS.allFilteredTrigger, side: 'trigger', keptHotel: ABSENT_HOTEL },
	noneFilteredOut: UNFILTERED_TRIGGER,
	records: 2000,
	missedBecause:
		"the mixed run spent more per delivery than its two extremes measured beside it predict: the filtered-out deliveries among kept ones cost more than F's, or the kept ones more than E's (the executions of the kept deliveries run while n8n takes the others, on the same 2 cores). Rounds of one side move by tens of percent on a busy machine (the load averages in the header), so a single round's miss of a few percent is within that noise.",
	packageSide: `${TRIGGER_SIDE}, filter Hotel Codes = ${KEPT_HOTEL}`,
	builtInSide: `${WEBHOOK_SIDE}, then an IF node: body.hotelCode equals ${KEPT_HOTEL}`,
};

/** Every benchmark, in the order they run. */
const CASES: BenchCase[] = [
	// First, while n8n's memory is still that of a fresh start: benchmark 4 measures it.
	{ id: '4', title: 'Hotel Demand, Per Hotel and Date', on: 'shared n8n', run: (env) => hotelDemand(env, DEMAND, ROUNDS) },
	perItemCase('1a', 'Hotel Info for 1,000 hotel codes', (sandbox) => {
		const hotelCodes = sandbox.data.hotels.map((hotel) => hotel.hotelcode).slice(0, 1000);
		return {
			itemNoun: 'hotels',
			items: hotelCodes.map((code) => ({ code })),
			workflows: workflows.hotelInfoWorkflows(sandbox.baseUrl),
			endpoint: 'hotelinfo',
			expectedItems: hotelCodes.length,
			maxRequests: 20,
			noSlowerThanBefore: true,
			packageSide: `Hotel Info node as the editor adds it (version 1.1, Simplify on), defaults (batches of 50 codes, Concurrency Mode Adaptive, Concurrency ${DEFAULT_CONCURRENCY})`,
			builtInSide: "HTTP Request node, POST /hotelinfo with `{\"hotelcode\": …}` per item, defaults (every item's request at once)",
			notes: [],
		};
	}),
	perItemCase('1b', 'Event Impact, one query for each of 50 input items', (sandbox) => {
		const cities = [...new Set(sandbox.data.events.map((event) => event.city))].sort();
		const queryCities = Array.from({ length: 50 }, (_, index) => cities[index % cities.length]);
		const eventsIn = (city: string): number => Math.min(50, sandbox.data.events.filter((event) => event.city === city).length);
		return {
			itemNoun: 'events',
			items: queryCities.map((city) => ({ city })),
			workflows: workflows.eventQueryWorkflows(sandbox.baseUrl),
			endpoint: 'eventimpact',
			expectedItems: queryCities.reduce((sum, city) => sum + eventsIn(city), 0),
			noSlowerThanBefore: false,
			packageSide: `Event Impact node as the editor adds it (version 1.1, Simplify on), filter City from the item, defaults (Limit 50, Concurrency Mode Adaptive, Concurrency ${DEFAULT_CONCURRENCY})`,
			slowerBecause: "Beyond the requests, the node reads each item's filters and puts out one item per event (2,500), where the HTTP Request node puts out one item per query (50, the page).",
			builtInSide:
				'HTTP Request node, POST /eventimpact/?eventsImpactPerPage=50 with `{"city": …}` per item, defaults; it puts out one item per query (the page) and is not followed by the Split Out a user would add',
			notes: [],
		};
	}),
	{ id: '2', title: 'Event Impact, Return All', on: 'shared n8n', run: (env) => allEvents(env, workflows.allEventsWorkflows(env.sandbox.baseUrl), ROUNDS) },
	triggerCase({
		id: '3a',
		title: `Rate Record Trigger against the Webhook node: ${RECORDS_3A.toLocaleString('en-US')} single-record deliveries`,
		trigger: UNFILTERED_TRIGGER,
		webhook: { workflow: RECEIVERS.webhook, side: 'webhook' },
		floor: { workflow: RECEIVERS.webhookFloor, side: 'webhook' },
		records: RECORDS_3A,
		perDelivery: 1,
		slice: Math.min(500, RECORDS_3A),
		per: 'executions',
		targetRatio: 0.95,
		missedBecause: NOT_THE_ISOLATE,
		packageSide: `${TRIGGER_SIDE}, no filters`,
		builtInSide: WEBHOOK_SIDE,
	}),
	triggerCase({
		id: '3b',
		title: 'Rate Record Trigger against the Webhook node: 100 records per delivery',
		trigger: UNFILTERED_TRIGGER,
		webhook: { workflow: RECEIVERS.webhookSplitOut, side: 'webhook' },
		floor: { workflow: RECEIVERS.webhookFloorSplitOut, side: 'webhook' },
		records: 20_000,
		perDelivery: 100,
		slice: 5000,
		per: 'records',
		targetRatio: 0.95,
		missedBecause: `${NOT_THE_ISOLATE} The record check is not the difference: it takes about 1 ms of a 100-record delivery, a quarter or less of what the former zod schema took.`,
		packageSide: `${TRIGGER_SIDE}, no filters (one item per record)`,
		builtInSide: `${WEBHOOK_SIDE}, then Split Out on \`body\` for one item per record`,
	}),
	{
		id: FILTERED_TRIGGER.id,
		title: FILTERED_TRIGGER.title,
		on: 'shared n8n',
		run: (env) => filteredRateTrigger(env, FILTERED_TRIGGER, DELIVERY_TOKEN, TRIGGER_ROUNDS),
	},
	// Last in the shared n8n: its tables and its large executions stay in n8n's database.
	{ id: '7', title: 'Rate Changes, Detect Changes', on: 'shared n8n', run: (env) => rateChanges(env, ROUNDS) },
	{ id: '5', title: 'Package weight', on: 'after the shared n8n', run: (env) => packageWeight(env.runtime, env.tarball, ROUNDS) },
	// Its own n8n instances: one process and queue mode, at each pool size.
	{ id: '6', title: 'Rate Record Trigger in queue mode', on: 'own n8n', run: () => queueTrigger(VERSION, QUEUE_RECORDS, DELIVERY_TOKEN) },
	// In n8n's engine against the Data Tables stand-in, whose size models are n8n's measures.
	{
		id: '8',
		title: "Rate Changes over a year: the one-hotel set's tables and one hotel's history, day by day",
		on: 'in process',
		run: () => rateChangesYear({ days: YEAR_DAYS, singleRecordDays: YEAR_SINGLE_DAYS, measures: YEAR_MEASURES, shapes: YEAR_SHAPES, keepHistory: YEAR_KEEP_HISTORY }),
	},
	{ id: '9', title: 'Rate Changes at group scale: 1.1M stays, queue mode on Postgres', on: 'own n8n', run: () => rateChangesGroup({ version: VERSION, hotels: GROUP_HOTELS, days: GROUP_DAYS, token: DELIVERY_TOKEN }) },
	{ id: '10', title: 'Rate Changes, one record a delivery', on: 'own n8n', run: (keep) => oneRecordDelivery({ versions: ONE_RECORD_N8N, stays: ONE_RECORD_STAYS, token: DELIVERY_TOKEN, keep }) },
];

async function main(): Promise<void> {
	const started = Date.now();
	const loadBefore = os.loadavg()[0];
	const benchmarks: BenchmarkResult[] = [];
	const previous = UPDATE ? (JSON.parse(fs.readFileSync(path.join(OUTPUT, 'results.json'), 'utf8')) as Results) : undefined;
	let env: BenchEnvironment | undefined;

	/** Writes the results measured so far, with `partial`: a benchmark still running that gave what it has measured. */
	const save = (partial: BenchmarkResult[] = []): void => {
		const measured = [...benchmarks, ...partial];
		if (UPDATE) {
			writeResults(OUTPUT, updatedResults(previous, measured, { started, loadBefore, only: ONLY ?? [] }));
			return;
		}
		const results: Results = {
			startedAt: new Date(started).toISOString(),
			durationSeconds: Math.round((Date.now() - started) / 1000),
			rounds: ROUNDS,
			machine: {
				...machine(env?.runtime.version ?? VERSION, env?.runtime.nodeVersion ?? ''),
				loadAverageAtStart: Math.round(loadBefore * 100) / 100,
				loadAverageAtEnd: Math.round(os.loadavg()[0] * 100) / 100,
			},
			benchmarks: measured.sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true })),
		};
		fs.mkdirSync(OUTPUT, { recursive: true });
		writeResults(OUTPUT, results);
	};
	/** Runs one benchmark; one that stops with an error is recorded as failed and the others still run. */
	const measure = async ({ id, title }: BenchCase, run: () => Promise<BenchmarkResult>): Promise<void> => {
		const caseStarted = Date.now();
		try {
			benchmarks.push(await run());
		} catch (error) {
			const message = error instanceof Error ? error.message : String(error);
			progress(`${id} stopped: ${error instanceof Error ? (error.stack ?? message) : message}`);
			benchmarks.push({ id, title, setup: '', packageSide: '', builtInSide: '', rows: [], notes: [], failure: `stopped: ${message}`, rounds: [] });
		}
		progress(`${id} took ${formatDuration(Date.now() - caseStarted)} (${formatDuration(Date.now() - started)} so far)`);
		save();
	};

	const chosen = CASES.filter((benchCase) => wanted(benchCase.id));
	if (chosen.some((benchCase) => benchCase.on === 'shared n8n' || benchCase.on === 'after the shared n8n')) {
		try {
			env = await startBenchEnvironment(VERSION, sharedSeeds);
			const shared = env;
			for (const benchCase of chosen) if (benchCase.on === 'shared n8n') await measure(benchCase, () => benchCase.run(shared));
		} finally {
			await env?.close();
		}
		const stopped = env;
		for (const benchCase of chosen) if (benchCase.on === 'after the shared n8n') await measure(benchCase, () => benchCase.run(stopped));
	}
	const keep = (partial: BenchmarkResult): void => save([partial]);
	for (const benchCase of chosen) if (benchCase.on === 'own n8n' || benchCase.on === 'in process') await measure(benchCase, () => benchCase.run(keep));

	save();
	progress(`done in ${formatDuration(Date.now() - started)}: ${path.join(OUTPUT, 'results.md')}`);
	const failed = benchmarks.filter((benchmark) => benchmark.failure);
	for (const benchmark of failed) progress(`benchmark ${benchmark.id} FAILED: ${benchmark.failure}`);
	if (failed.length > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
	progress(`stopped: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
	process.exitCode = 1;
});
