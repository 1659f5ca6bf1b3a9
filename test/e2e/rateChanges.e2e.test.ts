import type { Inbox } from '../../platform/inbox';
import type { RunSummary } from '../../platform/sandbox';
import {
	demoExample,
	digestExample,
	e2eVersions,
	NO_DATA_TABLES_REFUSAL,
	outputOf,
	publicApiHasDataTables,
	slackChannelOf,
	type E2eEnvironment,
	type WorkflowSeed,
} from '../../platform/n8n';
import { describeVersions } from './describeVersions';
import { RATE_ALERTS as EXAMPLE, RATE_DIGEST as DIGEST } from './exampleWorkflows';
import { useE2eWithInbox } from './useE2e';
import { ALERT_SHOP, changeIdentity, deliverShop, ONE_RECORD_A_POST, passesRule } from './rateChangeAlerts';

/**
 * The "Rate change alerts" and "Rate change digest" examples in a real n8n against the sandbox:
 * the sandbox runs one shop, then runs it again with a known share of its rates changed, sold
 * out or back on sale, and the alerts and the digest must be exactly those changes that pass the
 * example's rule (Rate Changes' defaults: a move of 10 % or more, sold out, back on sale),
 * each reported once. Every record is its own POST, twenty at once; the example's trigger (version
 * 1.1) gathers them into a few executions, which still overlap on the same month rows.
 */

const { shopId: SHOP_ID, records: RECORDS } = ALERT_SHOP;

type Record_ = Record<string, unknown>;

function examples(inbox: Inbox): WorkflowSeed[] {
	return [demoExample(EXAMPLE.file, inbox, EXAMPLE.id), digestExample(DIGEST.file, DIGEST.id, inbox)];
}

describeVersions(e2eVersions().filter(publicApiHasDataTables), 'Rate change alerts in n8n %s', (version) => {
	const { env, inbox } = useE2eWithInbox((started) => ({ version, workflows: examples(started), publish: [EXAMPLE.id] }));
	let firstRun: RunSummary;
	let secondRun: RunSummary;

	/** Runs a shop (or a repeat) one record a POST and returns the Detect changes output of every execution it started. */
	const deliver = async (options: Parameters<E2eEnvironment['sandbox']['runShop']>[0]) => await deliverShop(env, EXAMPLE.id, options);

	const postedDigests = () => inbox.slackMessages(slackChannelOf(DIGEST.file));

	test('a first shop fills the rates table without an alert, its single-record deliveries gathered five or more to an execution', async () => {
		const { run, alerts, executionIds } = await deliver({ shopId: SHOP_ID, records: RECORDS });
		firstRun = run;
		expect(alerts).toEqual([]);
		expect(executionIds.length).toBeLessThanOrEqual(run.deliveries / 5);
	});

	test('the shop run again alerts exactly the rates that moved 10 % or more, sold out or came back on sale', async () => {
		const { run, alerts } = await deliver({
			shopId: SHOP_ID,
			repeatRun: firstRun.runId,
			changes: { seed: 7, changed: 0.1, soldOut: 0.05, backOnSale: 0.5 },
		});
		secondRun = run;
		const expected = (run.expectedChanges ?? []).filter(passesRule);
		// The seed must give every kind of change, and moves the rule leaves out, so that each is proven.
		expect(new Set(expected.map((change) => change.changeType))).toEqual(new Set(['up', 'down', 'soldOut', 'backOnSale']));
		expect(expected.length).toBeLessThan(run.expectedChanges?.length ?? 0);
		expect(alerts.map(changeIdentity).sort()).toEqual(expected.map(changeIdentity).sort());
		for (const alert of alerts) {
			expect(alert.previousCollected).toBe(new Date(firstRun.collectedAt).toISOString());
			if (alert.changeType === 'up' || alert.changeType === 'down') {
				const change = Math.round(((alert.rate as number) - (alert.previousRate as number)) * 100) / 100;
				expect(alert.change).toBe(change);
				expect(alert.changePercent).toBe(Math.round((change / (alert.previousRate as number)) * 10_000) / 100);
			}
		}
	});

	test('the same deliveries again alert nothing', async () => {
		const { alerts } = await deliver({ shopId: SHOP_ID, repeatRun: secondRun.runId, replay: true });
		expect(alerts).toEqual([]);
	});

	test('the digest posts every change once, biggest first, and the next digest has nothing to post', async () => {
		const expected = (secondRun.expectedChanges ?? []).filter(passesRule);
		const run = await env.n8n.execute(DIGEST.id);
		const digests = outputOf(run, 'Digest');
		expect(digests).toHaveLength(1);
		const [digest] = digests;
		expect(digest).toMatchObject({ shopId: SHOP_ID, changeCount: expected.length });
		const changes = digest.changes as Record_[];
		expect(changes.map(changeIdentity).sort()).toEqual(expected.map(changeIdentity).sort());
		const sizes = changes.map((change) =>
			change.changeType === 'soldOut' || change.changeType === 'backOnSale' ? 100 : Math.abs(change.changePercent as number),
		);
		expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
		expect(postedDigests()).toHaveLength(1);
		expect(postedDigests()[0].payload).toMatchObject({ digestId: digest.digestId, shopId: SHOP_ID, changeCount: expected.length, text: digest.text });

		const again = await env.n8n.execute(DIGEST.id);
		expect(outputOf(again, 'Digest')).toEqual([]);
		expect(postedDigests()).toHaveLength(1);
	});

	test('the same changes delivered twice at once alert once each', async () => {
		const { run, alerts } = await deliver({
			shopId: SHOP_ID,
			repeatRun: secondRun.runId,
			changes: { seed: 11, changed: 0.2 },
			copies: 2,
		});
		expect(alerts.map(changeIdentity).sort()).toEqual((run.expectedChanges ?? []).filter(passesRule).map(changeIdentity).sort());
	});
});

describeVersions(
	e2eVersions().filter((version) => !publicApiHasDataTables(version)),
	'Rate change alerts in n8n %s, whose public API has no Data Tables',
	(version) => {
		const { env, inbox } = useE2eWithInbox((started) => ({ version, workflows: examples(started), publish: [EXAMPLE.id] }));

		test('a delivered shop is accepted, and its execution fails at Detect changes with the error that names n8n 2.8', async () => {
			const run = await env.sandbox.runShop({ shopId: SHOP_ID, records: ONE_RECORD_A_POST.perDelivery, ...ONE_RECORD_A_POST });
			expect(run.byStatus).toEqual({ 200: 1 });
			expect(await env.n8n.waitForExecutions(EXAMPLE.id, 1)).toBe(1);
			expect(await env.n8n.executionErrors(EXAMPLE.id)).toEqual([
				{ node: 'Detect changes', message: NO_DATA_TABLES_REFUSAL, description: expect.stringContaining('(n8n 1.x has none)') },
			]);
		});

		test('the digest fails with the same error and posts nothing', async () => {
			await expect(env.n8n.execute(DIGEST.id)).rejects.toThrow(NO_DATA_TABLES_REFUSAL);
			expect(inbox.messages()).toEqual([]);
		});
	},
);
