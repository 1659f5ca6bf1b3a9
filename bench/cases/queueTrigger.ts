import type { Sandbox } from '../../platform/sandbox';
import { N8nInstance } from '../../platform/n8n';
import { startQueueCluster } from '../../platform/queue';
import { startBenchEnvironment } from '../environment';
import { BenchmarkFailure, countExecutions, progress, waitForSuccessfulExecutions } from '../measure';
import type { BenchmarkResult, Row } from '../report';
import { triggerWorkflow } from '../workflows';
import { row } from './common';

/**
 * Benchmark 6: the Rate Record Trigger's single-record deliveries in one n8n process and in queue
 * mode (webhook process + 2 workers, then 1), at N8N_EXPRESSION_ENGINE_POOL_SIZE 1, 2 and 4: the
 * figures behind the pool size docs/scaling.md recommends.
 */

const SHOP_ID = 1;
const SENDERS = 20;
const WARM_UP = 20;
/**
 * Senders wait for n8n (the trigger answers once the execution exists); at pool size 1 on 2 busy
 * cores a delivery behind 19 others can wait over the sandbox's default 10 s, which would count
 * as a lost delivery instead of a slow one.
 */
const SENDER_TIMEOUT_SECONDS = 60;
export const QUEUE_POOL_SIZES = [1, 2, 4];

/** What bounds benchmark 6's figures on this machine. */
export const QUEUE_NOTES = [
	'What bounds the figures on 2 cores: every process shares the same 2 cores (in queue mode the webhook process, 2 workers, the main, Postgres and Redis; in both, the sandbox and its 20 senders). Queue mode adds processes and round trips to Postgres and Redis to each delivery without adding a core, so it cannot be much faster than one process here; a second worker adds no core either, and the executions of this workflow (trigger and a no-op) are cheap beside the per-request work of the process that takes the deliveries, which is what bounds single-record deliveries. Queue mode pays off with more machines (webhook processes and workers scale out), not on one small one.',
	'The pool size lets a process handle as many deliveries at once as it holds isolates; beyond the cores, more isolates only add memory. Which size is fastest changes from run to run on a shared machine: single figures move by tens of percent (see the load averages), and an earlier run at load average 19.7 measured 1.5 to 2.5 deliveries a second throughout.',
];

interface Receiver {
	sandbox: Sandbox;
	/** The n8n whose REST API counts the executions (the main in queue mode). */
	n8n: N8nInstance;
	/** The production URL the sandbox posts to (the webhook process in queue mode). */
	endpoint: string;
}

interface DeliveryRun {
	records: number;
	seconds: number;
	recordsPerSecond: number;
}

/** Registers the receiver with the sandbox, as a user registers a webhook by hand. */
async function register(receiver: Receiver, token: string): Promise<void> {
	const response = await fetch(`${receiver.sandbox.baseUrl}/webhook`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', authorization: `Bearer ${receiver.sandbox.credentials.accessToken}` },
		body: JSON.stringify({ endpoint: receiver.endpoint, authType: 'bearer', token }),
	});
	if (response.status !== 201) throw new Error(`Registering ${receiver.endpoint} answered ${response.status}: ${await response.text()}`);
}

/** One shop run of single-record deliveries: from the first send until every execution has succeeded. */
async function deliver(receiver: Receiver, workflowId: string, records: number, label: string): Promise<DeliveryRun> {
	const before = await countExecutions(receiver.n8n, workflowId, ['success']);
	const started = Date.now();
	const summary = await receiver.sandbox.runShop({ shopId: SHOP_ID, records, concurrency: SENDERS, timeoutSeconds: SENDER_TIMEOUT_SECONDS });
	const delivered = Date.now();
	if (summary.byStatus['200'] !== summary.deliveries) {
		const errors = [...new Set(receiver.sandbox.deliveries().filter((delivery) => delivery.runId === summary.runId && delivery.error).map((delivery) => delivery.error))];
		throw new BenchmarkFailure(`${label}: deliveries answered ${JSON.stringify(summary.byStatus)}, expected all ${summary.deliveries} with 200 (${errors.join('; ')})`);
	}
	const finished = await waitForSuccessfulExecutions(receiver.n8n, workflowId, before + records);
	const seconds = (Math.max(finished, delivered) - started) / 1000;
	const failed = await countExecutions(receiver.n8n, workflowId, ['error', 'crashed']);
	if (failed > 0) throw new BenchmarkFailure(`${label}: ${failed} executions failed`);
	progress(`  ${label}: ${records} records in ${seconds.toFixed(1)} s (${(records / seconds).toFixed(1)}/s)`);
	receiver.sandbox.clearDeliveries();
	return { records, seconds, recordsPerSecond: records / seconds };
}

export async function queueTrigger(version: string, records: number, token: string): Promise<BenchmarkResult> {
	const workflow = triggerWorkflow('benchQueueTrig01', token);
	const runs: Record<string, DeliveryRun> = {};
	let failure: string | undefined;
	const measure = async (receiver: Receiver, label: string): Promise<void> => {
		await deliver(receiver, workflow.seed.id, WARM_UP, `${label} (warm-up)`);
		runs[label] = await deliver(receiver, workflow.seed.id, records, label);
	};
	try {
		for (const poolSize of QUEUE_POOL_SIZES) {
			// Without count-based pruning no execution of a round is pruned before it is counted.
			const env = { N8N_EXPRESSION_ENGINE_POOL_SIZE: String(poolSize), EXECUTIONS_DATA_PRUNE_MAX_COUNT: '0' };
			progress(`6 pool size ${poolSize}: one process`);
			const single = await startBenchEnvironment(version, () => ({ workflows: [workflow.seed], credentials: [] }), env);
			try {
				const receiver = { sandbox: single.sandbox, n8n: single.n8n, endpoint: single.n8n.webhookUrl(workflow.path) };
				await register(receiver, token);
				await measure(receiver, `single:${poolSize}`);
			} finally {
				await single.close();
			}
			progress(`6 pool size ${poolSize}: queue mode`);
			const cluster = await startQueueCluster({ version, workflows: [workflow.seed], activate: [workflow.seed.id], env });
			try {
				const receiver = { sandbox: cluster.sandbox, n8n: cluster.main, endpoint: cluster.webhookUrl(workflow.path) };
				await register(receiver, token);
				await measure(receiver, `queue2:${poolSize}`);
				await cluster.workers[1].stop();
				await measure(receiver, `queue1:${poolSize}`);
			} finally {
				await cluster.close();
			}
		}
	} catch (error) {
		if (!(error instanceof BenchmarkFailure)) throw error;
		failure = error.message;
	}

	const rate = (label: string): number | string => runs[label]?.recordsPerSecond ?? 'not measured';
	const rows: Row[] = QUEUE_POOL_SIZES.flatMap((poolSize) => [
		row(`Pool size ${poolSize}: queue mode, 2 workers`, '/s', rate(`queue2:${poolSize}`), rate(`single:${poolSize}`), '', null, true),
		row(`Pool size ${poolSize}: queue mode, 1 worker`, '/s', rate(`queue1:${poolSize}`), rate(`single:${poolSize}`), '', null, true),
	]);
	return {
		id: '6',
		title: 'Rate Record Trigger in queue mode against one process, by expression engine pool size',
		setup: `The sandbox delivers ${records.toLocaleString('en-US')} rate records, one per delivery, from ${SENDERS} concurrent senders (each waiting up to ${SENDER_TIMEOUT_SECONDS} s for an answer), to the trigger's production URL (after a warm-up of ${WARM_UP}). Time: from the first delivery until every execution has succeeded (counted through the main's REST API). For each N8N_EXPRESSION_ENGINE_POOL_SIZE (1 is the default of n8n 2.40 and 2.41), a fresh single n8n (SQLite), then a fresh queue-mode deployment (Postgres, Redis, main, webhook process, 2 workers; then one worker stopped). One round each.`,
		packageSide: 'the webhook process takes the deliveries, the workers run the executions (records per second)',
		builtInSide: 'one n8n process, the same workflow and deliveries (records per second)',
		columns: { package: 'Queue mode', builtIn: 'One process' },
		rows,
		notes: QUEUE_NOTES,
		...(failure ? { failure } : {}),
		rounds: runs,
	};
}
