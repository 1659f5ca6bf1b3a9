import fs from 'node:fs';
import path from 'node:path';

import { FULL_DESCRIPTION } from '../../nodes/RateChanges/storage/dataTables';
import type { RunSummary } from '../../platform/sandbox';
import {
	callMorningDigest,
	dataTablesUsage,
	demoExample,
	digestOnCall,
	longE2eVersions,
	fillDataTables,
	outputOf,
	printProgress,
	publicApiHasDataTables,
	rateChangesKeyScopes,
	REPO_ROOT,
	retryFailedExecutions,
	type E2eEnvironment,
	type Recovery,
} from '../../platform/n8n';
import { describeVersions } from './describeVersions';
import { RATE_ALERTS as EXAMPLE, RATE_DIGEST as DIGEST } from './exampleWorkflows';
import { useE2eWithInbox } from './useE2e';
import { changeIdentity, passesRule, repeated } from './rateChangeAlerts';

/**
 * Rate alerts held back at n8n's Data Tables size limit and put out once after it: the "Rate change
 * alerts" example in an n8n started with a small N8N_DATA_TABLES_MAX_SIZE_BYTES. A first shop fits;
 * then a table of the user's fills n8n's Data Tables to a little below the limit, and the next
 * shop, with moves, reaches it half way: executions fail with the node's error that names
 * N8N_DATA_TABLES_MAX_SIZE_BYTES, the words the node's page quotes. n8n is restarted with a larger
 * limit, the failed executions are retried through n8n's REST API as the editor's Retry does, and
 * every expected alert has come out exactly once; the digest lists each once. Before the restart,
 * the morning digest (a production run, as the published workflow makes it) still reaches the
 * inbox at the limit: it says the limit is reached, what to do, and that it marked nothing.
 */

const DIGEST_PATH = 'size-limit-morning-digest';
const SHOP_ID = 1;
const RECORDS = 240;
const DELIVERY = { perDelivery: 8, concurrency: 4 };
const MIB = 1024 * 1024;
const SMALL_LIMIT = MIB;
const LARGER_LIMIT = 50 * MIB;
/** What is left free below the limit for the next shop: less than it writes, so it stops half way. */
const ROOM_BYTES = 8 * 1024;

/** What n8n answers at the limit (its DataTableSizeValidator) inside the node's message, as the node's reference page quotes it. */
const FULL_MESSAGE = /^n8n's Data Tables are full: Validation error with data table request: Data table size limit exceeded: \d+MB used, limit is 1MB$/;

describeVersions(longE2eVersions().filter(publicApiHasDataTables), 'Rate alerts held back at the Data Tables size limit in n8n %s', (version) => {
	const { env, inbox } = useE2eWithInbox((started) => ({
		version,
		workflows: [demoExample(EXAMPLE.file, started, EXAMPLE.id), digestOnCall(DIGEST.file, DIGEST.id, started, DIGEST_PATH)],
		publish: [EXAMPLE.id, DIGEST.id],
		// No cached size: n8n refuses from the very write that reaches the limit, not up to 5 s later.
		env: { N8N_DATA_TABLES_MAX_SIZE_BYTES: String(SMALL_LIMIT), N8N_DATA_TABLES_SIZE_CHECK_CACHE_DURATION_MS: '0' },
	}));
	let firstRun: RunSummary;
	let secondRun: RunSummary;
	let before: Set<string>;

	async function deliver(options: Parameters<E2eEnvironment['sandbox']['runShop']>[0]): Promise<RunSummary> {
		const known = new Set(await env.n8n.executionIds(EXAMPLE.id));
		const run = await env.sandbox.runShop({ ...DELIVERY, ...options });
		expect(run.byStatus).toEqual({ 200: run.deliveries });
		// A delivery answered too late is posted again, and n8n takes it again: records delivered again.
		const resent = env.sandbox.deliveries().filter((delivery) => delivery.runId === run.runId).reduce((sum, delivery) => sum + delivery.attempts.length - 1, 0);
		await env.n8n.waitForDeliveries(EXAMPLE.id, known, run.deliveries + resent);
		return run;
	}

	test('a first shop fits below the limit and alerts nothing', async () => {
		firstRun = await deliver({ shopId: SHOP_ID, records: RECORDS });
		const recovery = await retryFailedExecutions(env.n8n, EXAMPLE.id, new Set(), 0);
		expect(recovery.failed).toEqual([]);
		expect(recovery.final.flatMap((execution) => outputOf(execution.run, 'Detect changes'))).toEqual([]);
	});

	test("at the limit the next shop's executions fail with the error that names N8N_DATA_TABLES_MAX_SIZE_BYTES", async () => {
		const key = await env.n8n.createApiKey('The user’s own tables', rateChangesKeyScopes(version));
		const { refusal, usage } = await fillDataTables(env.n8n, key, { limitBytes: SMALL_LIMIT, roomBytes: ROOM_BYTES });
		printProgress(`n8n ${version} refused the filler with "${refusal}"; ${usage.totalBytes} of ${SMALL_LIMIT} bytes used before the next shop`);
		before = new Set(await env.n8n.executionIds(EXAMPLE.id));
		secondRun = await deliver({ repeatRun: firstRun.runId, changes: { seed: 7, changed: 0.15, soldOut: 0.05, backOnSale: 0.5 } });
		const executions = await Promise.all([...(await env.n8n.executionIds(EXAMPLE.id))].filter((id) => !before.has(id)).map(async (id) => await env.n8n.execution(id)));
		const failed = executions.filter((execution) => execution.status !== 'success');
		printProgress(`next shop at the limit: ${executions.length} executions, ${failed.length} failed, ${(await dataTablesUsage(env.n8n)).totalBytes} bytes used`);
		expect(failed.length).toBeGreaterThan(0);
		for (const { error } of failed) {
			expect(error).toEqual({ node: 'Detect changes', message: expect.stringMatching(FULL_MESSAGE), description: FULL_DESCRIPTION });
		}
		// The node's reference page quotes the same words, with the figures left out.
		const page = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'nodes', 'rate-changes-reference.md'), 'utf8');
		expect(page).toContain("n8n's Data Tables are full: Validation error with data table request: Data table size limit exceeded: …MB used, limit is …MB");
	});

	test('the morning digest at the limit still reaches the inbox: the limit is reached, what to do, and nothing marked', async () => {
		const morning = await callMorningDigest(env.n8n.webhookUrl(DIGEST_PATH), inbox, DIGEST.file);
		printProgress(`the morning digest at the limit on n8n ${version}: ${morning.posts.length} post(s), ${morning.digested} changes`);
		expect(morning.posts).toHaveLength(1);
		const [text] = morning.posts;
		expect(text).toContain("n8n's Data Tables are full");
		expect(text).toContain('N8N_DATA_TABLES_MAX_SIZE_BYTES');
		expect(text).toContain('retry the failed executions');
		expect(text).toContain('Not marked as reported: the next digest lists these changes again.');
	});

	test('n8n restarted with a larger limit and the failed executions retried: every expected alert once, and the digest lists each once', async () => {
		await env.n8n.restart({ N8N_DATA_TABLES_MAX_SIZE_BYTES: String(LARGER_LIMIT) });
		const recovery: Recovery = await retryFailedExecutions(env.n8n, EXAMPLE.id, before);
		expect(recovery.final.filter((execution) => execution.status !== 'success').map(({ id, error }) => ({ id, error }))).toEqual([]);
		const alerts = recovery.final.flatMap((execution) => outputOf(execution.run, 'Detect changes')).map(changeIdentity);
		const expected = (secondRun.expectedChanges ?? []).filter(passesRule).map(changeIdentity);
		printProgress(
			`after the restart on n8n ${version}: ${recovery.failed.length} failed executions, ${recovery.retries} retries, ${alerts.length} alerts of ${expected.length} expected`,
		);
		expect(repeated(alerts)).toEqual([]);
		expect(alerts.sort()).toEqual(expected.sort());

		const digests = outputOf(await env.n8n.execute(DIGEST.id), 'Digest');
		const listed = digests.flatMap((digest) => (digest.changes as Array<Record<string, unknown>>).map(changeIdentity));
		expect(repeated(listed)).toEqual([]);
		expect(listed.sort()).toEqual(expected.sort());
	});
});

if (longE2eVersions().length === 0) test.skip('runs with E2E_LONG=1 (docs/e2e.md)', () => undefined);
