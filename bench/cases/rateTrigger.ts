import { setTimeout as sleep } from 'node:timers/promises';
import type { BenchEnvironment } from '../environment';
import { alternate, BenchmarkFailure, countExecutions, progress, waitForSuccessfulExecutions } from '../measure';
import type { BenchmarkResult } from '../report';
import type { ReceiverWorkflow } from '../workflows';
import { medianOf, row } from './common';

/** The trigger side is fed by a demo-account shop, the Webhook node side by an other-account shop. */
const TRIGGER_SHOP = 1;
const WEBHOOK_SHOP = 900;
const SENDERS = 20;
/** Records cycle over these 10 hotels on one website, so one hotel is exactly 10 % of the records. */
export const BENCH_RATE_HOTELS = Array.from({ length: 10 }, (_, index) => 100001 + index);
export const KEPT_HOTEL = BENCH_RATE_HOTELS[0];

export interface ReceiverPair {
	trigger: ReceiverWorkflow;
	webhook: ReceiverWorkflow;
}

export interface TriggerCase {
	id: string;
	title: string;
	pair: ReceiverPair;
	records: number;
	perDelivery: number;
	/** Only KEPT_HOTEL's records start the trigger's workflow / pass the IF node. */
	filtered: boolean;
	/** What is compared: executions or records per second. */
	per: 'executions' | 'records';
	/** Least package ÷ built-in ratio. */
	targetRatio: number;
	/** What bounds the package's side when the target is missed. */
	missedBecause: string;
	packageSide: string;
	builtInSide: string;
}

interface DeliveryRound {
	seconds: number;
	deliveries: number;
	records: number;
	executions: number;
	executionsPerSecond: number;
	recordsPerSecond: number;
}

/** Registers a receiver's production URL with the sandbox for one account, as a user registers a webhook. */
async function register(env: BenchEnvironment, accountToken: string, workflow: ReceiverWorkflow, deliveryToken: string): Promise<void> {
	const response = await fetch(`${env.sandbox.baseUrl}/webhook`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', authorization: `Bearer ${accountToken}` },
		body: JSON.stringify({ endpoint: env.n8n.webhookUrl(workflow.path), authType: 'bearer', token: deliveryToken }),
	});
	if (response.status !== 201) throw new Error(`Registering ${workflow.path} answered ${response.status}: ${await response.text()}`);
}

/**
 * One shop run delivered to one receiver: the time from the first send until n8n has stored every
 * execution it must start. Fails (the benchmark, not just the round) when a delivery was not
 * answered 200, an execution errored, or the executions do not match the records.
 */
async function deliverRound(env: BenchEnvironment, spec: TriggerCase, side: 'trigger' | 'webhook', records: number): Promise<DeliveryRound> {
	const workflowId = spec.pair[side].seed.id;
	const { n8n, sandbox } = env;
	const before = await countExecutions(n8n, workflowId, ['success']);
	const failedBefore = await countExecutions(n8n, workflowId, ['error', 'crashed']);
	const started = Date.now();
	const summary = await sandbox.runShop({
		shopId: side === 'trigger' ? TRIGGER_SHOP : WEBHOOK_SHOP,
		records,
		perDelivery: spec.perDelivery,
		concurrency: SENDERS,
		hotelCodes: BENCH_RATE_HOTELS,
		websiteCodes: [1],
	});
	const delivered = Date.now();
	if (summary.byStatus['200'] !== summary.deliveries) {
		throw new BenchmarkFailure(`${spec.id} ${side}: deliveries answered ${JSON.stringify(summary.byStatus)}, expected all ${summary.deliveries} with 200`);
	}
	const kept = sandbox
		.deliveries()
		.filter((delivery) => delivery.runId === summary.runId)
		.flatMap((delivery) => (Array.isArray(delivery.body) ? delivery.body : [delivery.body]))
		.filter((record) => record.hotelCode === KEPT_HOTEL).length;
	// The trigger starts one execution per delivery that has a record passing its filters; the
	// Webhook node one per delivery, whatever the IF node then does.
	const executions = side === 'trigger' && spec.filtered ? kept : summary.deliveries;
	const finished = await waitForSuccessfulExecutions(n8n, workflowId, before + executions);
	// Done when every delivery is answered and every execution it started has finished.
	const seconds = (Math.max(finished, delivered) - started) / 1000;
	await sleep(300);
	const after = await countExecutions(n8n, workflowId, ['success']);
	const failed = (await countExecutions(n8n, workflowId, ['error', 'crashed'])) - failedBefore;
	if (after !== before + executions || failed > 0) {
		throw new BenchmarkFailure(`${spec.id} ${side}: ${after - before} executions succeeded and ${failed} failed, expected ${executions}`);
	}
	progress(`  ${spec.id} ${side}: ${summary.records} records, ${executions} executions in ${seconds.toFixed(1)} s`);
	return {
		seconds,
		deliveries: summary.deliveries,
		records: summary.records,
		executions,
		executionsPerSecond: executions / seconds,
		recordsPerSecond: summary.records / seconds,
	};
}

/** Benchmark 3: rate record deliveries into the Rate Record Trigger against the Webhook node. */
export async function rateTrigger(env: BenchEnvironment, spec: TriggerCase, deliveryToken: string, rounds: number): Promise<BenchmarkResult> {
	progress(`${spec.id} ${spec.title}`);
	const { sandbox } = env;
	// Each case registers only its own pair, so a shop run reaches exactly one receiver.
	sandbox.reset();
	await register(env, sandbox.credentials.accessToken, spec.pair.trigger, deliveryToken);
	await register(env, sandbox.credentials.otherAccountToken, spec.pair.webhook, deliveryToken);

	let failure: string | undefined;
	let trigger: DeliveryRound[] = [];
	let webhook: DeliveryRound[] = [];
	try {
		// A short warm-up per side, then the measured rounds in alternation.
		const warmUp = spec.perDelivery * 50;
		await deliverRound(env, spec, 'trigger', warmUp);
		await deliverRound(env, spec, 'webhook', warmUp);
		[trigger, webhook] = await alternate(
			rounds,
			[() => deliverRound(env, spec, 'trigger', spec.records), () => deliverRound(env, spec, 'webhook', spec.records)],
			{ warmUp: false, between: async () => sandbox.clearDeliveries() },
		);
	} catch (error) {
		if (!(error instanceof BenchmarkFailure)) throw error;
		failure = error.message;
	}

	const rate = (results: DeliveryRound[]): number =>
		medianOf(results, (round) => (spec.per === 'executions' ? round.executionsPerSecond : round.recordsPerSecond));
	const packageRate = rate(trigger);
	const builtInRate = rate(webhook);
	const deliveries = spec.records / spec.perDelivery;
	return {
		id: spec.id,
		title: spec.title,
		setup: `The sandbox delivers ${spec.records.toLocaleString('en-US')} rate records${spec.perDelivery > 1 ? `, ${spec.perDelivery} per delivery (${deliveries.toLocaleString('en-US')} deliveries)` : ', one per delivery'}, from ${SENDERS} concurrent senders, to the workflow's production URL with a bearer token. Time: from the first delivery until every delivery is answered and the last execution it started has finished (executions counted, and their finish times read, through n8n's REST API, /rest/executions); a round with a delivery not answered 200, a failed execution, or executions that do not match the records fails the benchmark. ${rounds} measured round${rounds === 1 ? '' : 's'} per side, after a warm-up of 50 deliveries each (the run's time limit; BENCH_TRIGGER_ROUNDS sets more).${spec.filtered ? ` Records cycle over 10 hotels, so the kept hotel (${KEPT_HOTEL}) is exactly 10 %.` : ''}`,
		packageSide: spec.packageSide,
		builtInSide: spec.builtInSide,
		rows: [
			row(
				`${spec.per === 'executions' ? 'Executions' : 'Records'} per second`,
				'/s',
				packageRate,
				builtInRate,
				`≥ ${spec.targetRatio}× the built-in side`,
				failure === undefined && packageRate / builtInRate >= spec.targetRatio,
				true,
			),
			row('Time for all records', 's', medianOf(trigger, (round) => round.seconds), medianOf(webhook, (round) => round.seconds)),
			row('Executions started', '', medianOf(trigger, (round) => round.executions), medianOf(webhook, (round) => round.executions)),
		],
		notes: failure !== undefined || !(packageRate / builtInRate >= spec.targetRatio) ? [`Target missed: ${spec.missedBecause}`] : [],
		...(failure ? { failure } : {}),
		rounds: { package: trigger, builtIn: webhook },
	};
}
