import { setTimeout as sleep } from 'node:timers/promises';
import type { BenchEnvironment } from '../environment';
import { BenchmarkFailure, countExecutions, progress, waitForSuccessfulExecutions } from '../measure';
import type { BenchmarkResult, Row } from '../report';
import type { ReceiverWorkflow } from '../workflows';
import { ratio, row } from './common';

/** The trigger side is fed by a demo-account shop, the Webhook node side by an other-account shop. */
const TRIGGER_SHOP = 1;
const WEBHOOK_SHOP = 900;
const SENDERS = 20;
/** Records cycle over these 10 hotels on one website, so one hotel is exactly 10 % of the records. */
export const BENCH_RATE_HOTELS = Array.from({ length: 10 }, (_, index) => 100001 + index);
export const KEPT_HOTEL = BENCH_RATE_HOTELS[0];
/** A hotel no record names: the trigger filtering on it keeps nothing, which measures n8n's floor. */
export const ABSENT_HOTEL = 100000;
/** 3c's share of records filtered out, and the least share of the bound it sets that 3c must reach. */
const FILTERED_SHARE = 0.9;
const FLOOR_TARGET = 0.9;
/** 3a and 3b: the least share of n8n's floor for triggers other than its own Webhook node. */
const WEBHOOK_FLOOR_TARGET = 0.95;

/** Where a shop run is delivered, and which of its deliveries start an execution there. */
export interface Receiver {
	workflow: ReceiverWorkflow;
	/** The trigger's Hotel Codes filter: only deliveries with a record of this hotel start an execution. */
	keptHotel?: number;
	/** The trigger's workflow is registered for the demo account, the Webhook node's for the other. */
	side: 'trigger' | 'webhook';
}

export interface TriggerCase {
	id: string;
	title: string;
	trigger: Receiver;
	webhook: Receiver;
	/**
	 * The Webhook node at version 1 without authentication (with the same nodes after it as
	 * `webhook`): n8n takes an isolate for its webhook phase, as for every trigger but its own
	 * Webhook node from 1.1 on, and no credential adds one, so it is the fastest n8n lets any other
	 * trigger take the same deliveries.
	 */
	floor: Receiver;
	records: number;
	perDelivery: number;
	/** Records in each slice of each side (a whole number of deliveries). */
	slice: number;
	/** What is compared: executions or records per second. */
	per: 'executions' | 'records';
	/** Least package ÷ built-in ratio. */
	targetRatio: number;
	/** What bounds the package's side when it misses the floor's target too. */
	missedBecause: string;
	packageSide: string;
	builtInSide: string;
}

/**
 * 3c: the filtered trigger against Webhook + IF, and beside them, in the same rounds, the bound
 * n8n itself sets: the trigger with every record filtered out (only n8n's per-request work) and
 * with none filtered out (a whole execution per delivery), each with half as many deliveries.
 */
export interface FilteredTriggerCase extends Omit<TriggerCase, 'per' | 'targetRatio' | 'perDelivery' | 'slice' | 'floor'> {
	allFilteredOut: Receiver;
	noneFilteredOut: Receiver;
}

interface DeliveryRound {
	seconds: number;
	deliveries: number;
	records: number;
	executions: number;
	executionsPerSecond: number;
	recordsPerSecond: number;
}

/**
 * Registers a receiver's production URL with the sandbox, alone (the sandbox forgets every other
 * webhook), so that a shop run reaches exactly this one, as a user registers a webhook.
 */
async function registerAlone(env: BenchEnvironment, receiver: Receiver, deliveryToken: string): Promise<void> {
	const { sandbox } = env;
	sandbox.reset();
	const accountToken = receiver.side === 'trigger' ? sandbox.credentials.accessToken : sandbox.credentials.otherAccountToken;
	const response = await fetch(`${sandbox.baseUrl}/webhook`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', authorization: `Bearer ${accountToken}` },
		body: JSON.stringify({ endpoint: env.n8n.webhookUrl(receiver.workflow.path), authType: 'bearer', token: deliveryToken }),
	});
	if (response.status !== 201) throw new Error(`Registering ${receiver.workflow.path} answered ${response.status}: ${await response.text()}`);
}

/**
 * One shop run delivered to one receiver: the time from the first send until every delivery is
 * answered and n8n has stored every execution it must start. Fails (the benchmark, not just the
 * round) when a delivery was not answered 200, an execution errored, or the executions do not
 * match the records.
 */
async function deliverRound(env: BenchEnvironment, id: string, receiver: Receiver, perDelivery: number, records: number, deliveryToken: string): Promise<DeliveryRound> {
	const workflowId = receiver.workflow.seed.id;
	const { n8n, sandbox } = env;
	await registerAlone(env, receiver, deliveryToken);
	const before = await countExecutions(n8n, workflowId, ['success']);
	const failedBefore = await countExecutions(n8n, workflowId, ['error', 'crashed']);
	const started = Date.now();
	const summary = await sandbox.runShop({
		shopId: receiver.side === 'trigger' ? TRIGGER_SHOP : WEBHOOK_SHOP,
		records,
		perDelivery,
		concurrency: SENDERS,
		hotelCodes: BENCH_RATE_HOTELS,
		websiteCodes: [1],
	});
	const delivered = Date.now();
	const label = `${id} ${workflowId}`;
	if (summary.byStatus['200'] !== summary.deliveries) {
		throw new BenchmarkFailure(`${label}: deliveries answered ${JSON.stringify(summary.byStatus)}, expected all ${summary.deliveries} with 200`);
	}
	// The trigger starts one execution per delivery with a record passing its filters; the Webhook
	// node one per delivery, whatever the IF node then does.
	const executions =
		receiver.keptHotel === undefined
			? summary.deliveries
			: sandbox
					.deliveries()
					.filter((delivery) => delivery.runId === summary.runId)
					.filter((delivery) => (Array.isArray(delivery.body) ? delivery.body : [delivery.body]).some((record) => record.hotelCode === receiver.keptHotel)).length;
	// With nothing to execute, the last answered delivery ends the round.
	const finished = executions > 0 ? await waitForSuccessfulExecutions(n8n, workflowId, before + executions) : delivered;
	const seconds = (Math.max(finished, delivered) - started) / 1000;
	await sleep(300);
	const after = await countExecutions(n8n, workflowId, ['success']);
	const failed = (await countExecutions(n8n, workflowId, ['error', 'crashed'])) - failedBefore;
	if (after !== before + executions || failed > 0) {
		throw new BenchmarkFailure(`${label}: ${after - before} executions succeeded and ${failed} failed, expected ${executions}`);
	}
	progress(`  ${label}: ${summary.records} records, ${executions} executions in ${seconds.toFixed(1)} s`);
	return {
		seconds,
		deliveries: summary.deliveries,
		records: summary.records,
		executions,
		executionsPerSecond: executions / seconds,
		recordsPerSecond: summary.records / seconds,
	};
}

/**
 * Every receiver's deliveries, in slices interleaved so that a change in a shared machine's load
 * reaches all of them alike: after a warm-up of 50 deliveries each, each slice goes to the
 * receivers `inSlice` names, in turn. A slice that lost records or errored ends the measuring and
 * is returned as the failure.
 */
async function interleavedSlices(
	env: BenchEnvironment,
	id: string,
	receivers: Receiver[],
	{ perDelivery, slices, inSlice }: { perDelivery: number; slices: number[]; inSlice: (slice: number) => number[] },
	deliveryToken: string,
): Promise<{ results: DeliveryRound[][]; failure?: string }> {
	const results: DeliveryRound[][] = receivers.map(() => []);
	try {
		for (const receiver of receivers) await deliverRound(env, id, receiver, perDelivery, perDelivery * 50, deliveryToken);
		for (const [slice, records] of slices.entries()) {
			for (const index of inSlice(slice)) results[index].push(await deliverRound(env, id, receivers[index], perDelivery, records, deliveryToken));
		}
		return { results };
	} catch (error) {
		if (!(error instanceof BenchmarkFailure)) throw error;
		return { results, failure: error.message };
	}
}

/** `total` records in slices of `slice`, the last one holding what is left. */
function sliceSizes(total: number, slice: number): number[] {
	return Array.from({ length: Math.ceil(total / slice) }, (_, index) => Math.min(slice, total - index * slice));
}

const sum = (results: DeliveryRound[], pick: (round: DeliveryRound) => number): number => results.reduce((total, round) => total + pick(round), 0);

/** A run's total over its slices, shared out over the rounds they made up. */
const perRound = (results: DeliveryRound[], rounds: number, pick: (round: DeliveryRound) => number): number => sum(results, pick) / rounds;

/** A run's rate over all its slices: its records (or executions) over its seconds. */
const perSecond = (results: DeliveryRound[], pick: (round: DeliveryRound) => number): number => sum(results, pick) / sum(results, (round) => round.seconds);

function triggerSetup(spec: TriggerCase, rounds: number, version: string): string {
	const deliveries = spec.records / spec.perDelivery;
	const sliceDeliveries = spec.slice / spec.perDelivery;
	return `The sandbox delivers ${spec.records.toLocaleString('en-US')} rate records${spec.perDelivery > 1 ? `, ${spec.perDelivery} per delivery (${deliveries.toLocaleString('en-US')} deliveries)` : ', one per delivery'}, from ${SENDERS} concurrent senders, to the workflow's production URL with a bearer token. Beside the two sides, the same deliveries go to n8n's Webhook node at version 1 without authentication${spec.perDelivery > 1 ? ' (then Split Out, as on the built-in side)' : ''}: n8n ${version} takes a V8 expression isolate for the webhook phase of every request to a trigger but its own Webhook node from version 1.1 on (LiveWebhooks.webhookPhaseNeedsIsolate), so at version 1 the Webhook node is handled as any other trigger is, and without a credential it takes no second isolate (Header Auth takes one for its credential on every request): the fastest n8n lets a trigger other than its own Webhook node go, the floor the second row holds the trigger to. The three runs go in slices of ${sliceDeliveries.toLocaleString('en-US')} deliveries, interleaved (the trigger, the Webhook node, the floor, in turn), so that a change in the machine's load reaches all three alike; each rate is a run's ${spec.per} over its seconds, each slice timed from its first delivery until every delivery is answered and the last execution it started has finished (counted, and their finish times read, through n8n's REST API, /rest/executions). A delivery not answered 200, a failed execution, or executions that do not match the records fail the benchmark. ${rounds} round${rounds === 1 ? '' : 's'} (BENCH_TRIGGER_ROUNDS), after a warm-up of 50 deliveries each.`;
}

/**
 * Benchmarks 3a and 3b: rate record deliveries into the Rate Record Trigger against the Webhook
 * node, and against the floor n8n sets for any trigger but its own Webhook node, in the same slices.
 */
export async function rateTrigger(env: BenchEnvironment, spec: TriggerCase, deliveryToken: string, rounds: number): Promise<BenchmarkResult> {
	progress(`${spec.id} ${spec.title}`);
	const {
		results: [trigger, webhook, floor],
		failure,
	} = await interleavedSlices(
		env,
		spec.id,
		[spec.trigger, spec.webhook, spec.floor],
		{ perDelivery: spec.perDelivery, slices: sliceSizes(rounds * spec.records, spec.slice), inSlice: () => [0, 1, 2] },
		deliveryToken,
	);
	const rate = (results: DeliveryRound[]): number => perSecond(results, (round) => (spec.per === 'executions' ? round.executions : round.records));
	const packageRate = rate(trigger);
	const builtInRate = rate(webhook);
	const floorRate = rate(floor);
	const ofWebhook = ratio(packageRate, builtInRate, true);
	const ofFloor = ratio(packageRate, floorRate, true);
	const met = failure === undefined && ofWebhook !== null && ofWebhook >= spec.targetRatio;
	const floorMet = failure === undefined && ofFloor !== null && ofFloor >= WEBHOOK_FLOOR_TARGET;
	const unit = spec.per === 'executions' ? 'executions' : 'records';
	const notes: string[] = [];
	if (!floorMet) notes.push(`Target missed: ${spec.missedBecause}`);
	else if (!met) {
		notes.push(
			`The Webhook node's target is bounded by the isolate: n8n ${env.runtime.version} takes a V8 expression isolate for the webhook phase of every request to a trigger other than its own Webhook node (from version 1.1 on, with static parameters; LiveWebhooks.webhookPhaseNeedsIsolate, N8N_EXPRESSION_ENGINE_ALLOW_WEBHOOK_ISOLATE_SKIP, default true), which no community trigger can have. The same Webhook node given that isolate (version 1, no authentication) took ${floorRate.toFixed(1)} ${unit}/s in the same slices, the bound measured in this run; the trigger's ${packageRate.toFixed(1)} /s is ${ofFloor?.toFixed(2)}× it (target ≥ ${WEBHOOK_FLOOR_TARGET}×).`,
		);
	}
	const per = spec.per === 'executions' ? 'Executions' : 'Records';
	return {
		id: spec.id,
		title: spec.title,
		setup: triggerSetup(spec, rounds, env.runtime.version),
		packageSide: spec.packageSide,
		builtInSide: spec.builtInSide,
		rows: [
			row(`${per} per second`, '/s', packageRate, builtInRate, `≥ ${spec.targetRatio}× the built-in side`, met, true),
			row(
				`${per} per second against n8n's floor for triggers other than its own Webhook node (second column: the Webhook node at version 1, no authentication, which n8n gives the isolate)`,
				'/s',
				packageRate,
				floorRate,
				`≥ ${WEBHOOK_FLOOR_TARGET}× that bound`,
				floorMet,
				true,
			),
			row('Time for all records', 's', perRound(trigger, rounds, (round) => round.seconds), perRound(webhook, rounds, (round) => round.seconds)),
			row('Executions started', '', perRound(trigger, rounds, (round) => round.executions), perRound(webhook, rounds, (round) => round.executions)),
		],
		notes,
		...(failure ? { failure } : {}),
		rounds: { package: trigger, builtIn: webhook, floor },
	};
}

/**
 * The fastest a trigger that filters out `filteredShare` of single-record deliveries can take
 * them on this n8n: each filtered-out delivery costs n8n's per-request work (1/F seconds at
 * `floor` F deliveries a second), each kept one a whole execution (1/E at `whole` E a second).
 */
export function filteredBound(floor: number, whole: number, filteredShare = FILTERED_SHARE): number {
	return 1 / (filteredShare / floor + (1 - filteredShare) / whole);
}

/**
 * 3c's deliveries go in slices of this many, the four runs' slices interleaved (the trigger,
 * Webhook + IF, then every record filtered out or none, in turn), so that a change in the load of
 * a shared machine reaches all four alike; each run's rate is its records over its seconds.
 */
const SLICE = 500;

/** Benchmark 3c: the filtered trigger against Webhook + IF, and against the bound n8n's own per-request work sets. */
export async function filteredRateTrigger(env: BenchEnvironment, spec: FilteredTriggerCase, deliveryToken: string, rounds: number): Promise<BenchmarkResult> {
	progress(`${spec.id} ${spec.title}`);
	const {
		results: [trigger, webhook, allOut, noneOut],
		failure,
	} = await interleavedSlices(
		env,
		spec.id,
		[spec.trigger, spec.webhook, spec.allFilteredOut, spec.noneFilteredOut],
		{ perDelivery: 1, slices: sliceSizes(rounds * spec.records, SLICE), inSlice: (slice) => [0, 1, slice % 2 === 0 ? 2 : 3] },
		deliveryToken,
	);
	const recordsPerSecond = (results: DeliveryRound[]): number => perSecond(results, (round) => round.records);
	const filtered = recordsPerSecond(trigger);
	const floor = recordsPerSecond(allOut);
	const whole = recordsPerSecond(noneOut);
	const bound = filteredBound(floor, whole);
	const ofBound = ratio(filtered, bound, true);
	const met = failure === undefined && ofBound !== null && ofBound >= FLOOR_TARGET;
	const percent = `${Math.round(FILTERED_SHARE * 100)} %`;
	const formula = `1 / (${FILTERED_SHARE}/F + ${Math.round((1 - FILTERED_SHARE) * 10) / 10}/E)`;
	const rows: Row[] = [
		row('Records per second', '/s', filtered, recordsPerSecond(webhook), '', null, true),
		row(`Records per second against n8n's floor (second column: the bound for ${percent} filtered out, ${formula})`, '/s', filtered, bound, `≥ ${FLOOR_TARGET}× the bound`, met, true),
		row("F: the trigger with every record filtered out (n8n's per-request floor), deliveries per second", '/s', floor, null),
		row('E: the trigger with no record filtered out, deliveries per second', '/s', whole, null),
		row('Time for all records', 's', perRound(trigger, rounds, (round) => round.seconds), perRound(webhook, rounds, (round) => round.seconds)),
		row('Executions started', '', perRound(trigger, rounds, (round) => round.executions), perRound(webhook, rounds, (round) => round.executions)),
	];
	return {
		id: spec.id,
		title: spec.title,
		setup: `The sandbox delivers ${spec.records.toLocaleString('en-US')} rate records, one per delivery, from ${SENDERS} concurrent senders, to the workflow's production URL with a bearer token; records cycle over 10 hotels, so the kept hotel (${KEPT_HOTEL}) is exactly 10 %. Beside the two sides, the trigger takes ${(spec.records / 2).toLocaleString('en-US')} deliveries twice more: filtering on a hotel no record names (${ABSENT_HOTEL}), so no delivery starts an execution (F, n8n's per-request floor), and without filters, so every delivery starts one (E). A trigger that filters out ${percent} spends at least 1/F seconds on each delivery it filters out and 1/E on each it keeps, so it takes at most ${formula} records per second. The four runs go in slices of ${SLICE} deliveries, interleaved (the trigger, Webhook + IF, then F's run or E's in turn), so that a change in the machine's load reaches all four alike; each rate is a run's records over its seconds, each slice timed from its first delivery until every delivery is answered and the last execution it started has finished (counted, and their finish times read, through n8n's REST API, /rest/executions). A delivery not answered 200, a failed execution, or executions that do not match the records fail the benchmark. ${rounds} round${rounds === 1 ? '' : 's'} (BENCH_TRIGGER_ROUNDS), after a warm-up of 50 deliveries each.`,
		packageSide: spec.packageSide,
		builtInSide: spec.builtInSide,
		rows,
		notes: met ? [] : [`Target missed: ${spec.missedBecause}`],
		...(failure ? { failure } : {}),
		rounds: { package: trigger, builtIn: webhook, allFilteredOut: allOut, noneFilteredOut: noneOut, bound: { floor, whole, filteredShare: FILTERED_SHARE, recordsPerSecond: bound } },
	};
}
