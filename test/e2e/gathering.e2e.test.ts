import { e2eVersions, formatDuration, OLDEST_N8N, printProgress, startE2e, type E2eEnvironment, type StoredExecution } from '../../platform/n8n';
import { DeliveryClient, postWithRetries, runPool, type DeliveryOutcome } from '../../platform/sandbox/delivery';
import type { StoredWebhook } from '../../platform/sandbox/webhooks';
import { rateRecord } from '../harness/rateRecords';
import { describeVersions } from './describeVersions';
import { loadWorkflow } from './loadWorkflow';

/**
 * The Rate Record Trigger (version 1.1, Gather Deliveries at its defaults) in a real n8n, fed as the
 * service feeds it: one record a POST, 20 in flight, each sender posting its next record once
 * answered. A shop costs tens of executions, not one a record; and n8n stopped in the middle of a
 * shop (SIGTERM, then SIGKILL) and started again, with the records that got no 200 posted again as
 * the service would, loses no record answered 200: each is in the items of exactly one execution
 * (of a crashed one too: n8n stores an execution with its trigger's items when it creates it),
 * and only a record whose first POST got no 200 may be in two.
 *
 * n8n runs at its own defaults here, without the N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true that the
 * harness gives n8n 2.40 and 2.41 elsewhere (docs/compatibility.md recommends it): this file proves
 * that the gathering holds at the defaults, where every waiting delivery holds an isolate.
 */

const WORKFLOW_FILE = 'rate-trigger-gathering.json';
const TRIGGER_NODE = 'Rate Record Trigger';
const IN_FLIGHT = 20;
/** A sender waits this long for n8n's answer; a stopped n8n refuses at once. */
const SEND = { timeoutMs: 60_000, retries: 0 };

/** The shop n8n is stopped in: a third of it answered first, the rest refused or cut off, then sent again. */
const STOPPED_SHOP = 300;

/** Both lines of n8n this package supports on every run: the gathering is the trigger's default. */
const VERSIONS = [...new Set([...e2eVersions().filter((version) => !version.startsWith('1.')), OLDEST_N8N])];

function shop(name: string, count: number): Array<Record<string, unknown>> {
	return Array.from({ length: count }, (_, index) =>
		rateRecord({ recordId: `${name}-${index}`, hotelCode: 100001 + (index % 7), checkIn: `2027-01-${String((index % 28) + 1).padStart(2, '0')}T00:00:00Z` }),
	);
}

interface Posted {
	recordId: string;
	outcomes: DeliveryOutcome[];
}

/** The trigger items of an execution: from its run data, or, for one n8n never ran (crashed), from the stack it was created with. */
function triggerItems(execution: StoredExecution): string[] {
	const data = execution.run.data as unknown as {
		resultData: { runData: Record<string, Array<{ data?: { main: Array<Array<{ json: Record<string, unknown> }>> } }>> };
		executionData?: { nodeExecutionStack?: Array<{ node: { name: string }; data: { main: Array<Array<{ json: Record<string, unknown> }>> } }> };
	};
	const ran = data.resultData.runData[TRIGGER_NODE]?.[0]?.data?.main[0];
	const stacked = data.executionData?.nodeExecutionStack?.find((entry) => entry.node.name === TRIGGER_NODE)?.data.main[0];
	return (ran ?? stacked ?? []).map((item) => String(item.json.recordId));
}

describeVersions(VERSIONS, 'Rate Record Trigger gathering deliveries in n8n %s', (version) => {
	let env: E2eEnvironment;
	let webhook: StoredWebhook;
	const client = new DeliveryClient();
	const workflow = loadWorkflow(WORKFLOW_FILE);

	beforeAll(async () => {
		env = await startE2e({ version, workflows: [workflow], publish: [workflow.id], n8nDefaults: true });
		const [view] = env.sandbox.webhooks();
		webhook = { webhookId: view.webhookId, account: view.account, createdAt: view.createdAt, registration: view };
	}, 30 * 60_000);

	afterAll(async () => {
		client.close();
		await env?.close();
	});

	async function post(records: Array<Record<string, unknown>>, posted: Map<string, Posted>): Promise<void> {
		await runPool(
			records.map((record) => async () => {
				const { outcome } = await postWithRetries(client, webhook, JSON.stringify(record), SEND);
				const recordId = String(record.recordId);
				const entry = posted.get(recordId) ?? { recordId, outcomes: [] };
				entry.outcomes.push(outcome);
				posted.set(recordId, entry);
			}),
			IN_FLIGHT,
		);
	}

	async function executionsOf(except: ReadonlySet<string>): Promise<StoredExecution[]> {
		const ids = (await env.n8n.executionIds(workflow.id)).filter((id) => !except.has(id));
		return await runPool(ids.map((id) => async () => await env.n8n.execution(id)), 8);
	}

	test('a shop of 600 single-record POSTs, 20 in flight: every POST answered 200 with its counts, at most one execution per 10 records, each record in one', async () => {
		const before = new Set(await env.n8n.executionIds(workflow.id));
		const records = shop('quiet', 600);
		const posted = new Map<string, Posted>();
		const started = Date.now();
		await post(records, posted);
		const answers = [...posted.values()].map(({ outcomes }) => outcomes.at(-1)!);
		expect(answers.filter((outcome) => outcome.status !== 200)).toEqual([]);
		expect(new Set(answers.map((outcome) => outcome.responseBody))).toEqual(new Set([JSON.stringify({ received: 1, emitted: 1 })]));
		await env.n8n.waitUntilFinished(workflow.id, { timeoutMs: 5 * 60_000 });
		const executions = await executionsOf(before);
		printProgress(`n8n ${version}: 600 records in ${executions.length} executions, ${formatDuration(Date.now() - started)}`);
		expect(executions.length).toBeLessThanOrEqual(60);
		expect(executions.filter((execution) => execution.status !== 'success')).toEqual([]);
		expect(executions.flatMap(triggerItems).sort()).toEqual(records.map((record) => String(record.recordId)).sort());
	}, 10 * 60_000);

	test.each([
		['SIGTERM', 20_000],
		['SIGKILL', 0],
	])('n8n stopped with %s in the middle of a shop and started again: every record answered 200 is in exactly one execution', async (signal, graceMs) => {
		const before = new Set(await env.n8n.executionIds(workflow.id));
		const records = shop(signal, STOPPED_SHOP);
		const posted = new Map<string, Posted>();
		const shopRun = post(records, posted);
		// Stopped once about a third of the shop was answered.
		while ([...posted.values()].length < records.length / 3) await new Promise((resolve) => setTimeout(resolve, 20));
		const stopped = Date.now();
		await env.n8n.stop(graceMs);
		await shopRun;
		await env.n8n.start();
		// The service sends again what got no 200.
		const unanswered = records.filter((record) => posted.get(String(record.recordId))!.outcomes.at(-1)!.status !== 200);
		await post(unanswered, posted);
		expect([...posted.values()].filter(({ outcomes }) => outcomes.at(-1)!.status !== 200)).toEqual([]);
		// The executions the stopped n8n left never finish; their records are read from what they stored.
		await env.n8n.waitUntilFinished(workflow.id, { timeoutMs: 5 * 60_000, createdSince: stopped });

		const executions = await executionsOf(before);
		const seen = new Map<string, number>();
		for (const id of executions.flatMap(triggerItems)) seen.set(id, (seen.get(id) ?? 0) + 1);
		const answeredFirstTime = [...posted.values()].filter(({ outcomes }) => outcomes[0].status === 200).map(({ recordId }) => recordId);
		printProgress(
			`n8n ${version}, ${signal}: ${unanswered.length} of ${STOPPED_SHOP} POSTs got no 200 and were sent again; ${executions.length} executions (${executions.filter((execution) => execution.status !== 'success').length} not successful); ${[...seen.values()].filter((count) => count > 1).length} records in two`,
		);
		expect(answeredFirstTime.length).toBeGreaterThan(0);
		expect(unanswered.length).toBeGreaterThan(0);
		// Every record is in an execution; one answered 200 at its first POST in exactly one.
		expect(records.filter((record) => !seen.has(String(record.recordId)))).toEqual([]);
		expect(answeredFirstTime.filter((recordId) => seen.get(recordId) !== 1)).toEqual([]);
	}, 15 * 60_000);
});
