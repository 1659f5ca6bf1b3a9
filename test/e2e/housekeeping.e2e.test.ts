import type { RunSummary } from '../../platform/sandbox';
import { VERSIONS } from '../../platform/dataTables/versions';
import type { ApiVersion } from '../../platform/dataTables';
import {
	DATA_TABLE_SCOPES,
	demoExample,
	digestExample,
	e2eVersions,
	N8N_API_CREDENTIAL,
	outputOf,
	publicApiHasDataTables,
	RATE_CHANGES_KEY_LABEL,
	slackChannelOf,
	type E2eEnvironment,
} from '../../platform/n8n';
import { describeVersions } from './describeVersions';
import { RATE_ALERTS as EXAMPLE, RATE_DIGEST as DIGEST } from './exampleWorkflows';
import { ALERT_SHOP, changeIdentity, deliverShop, passesRule, repeated } from './rateChangeAlerts';
import { useE2eWithInbox } from './useE2e';

/**
 * Housekeeping never costs an alert (issue 38), in a real n8n: the API key of Rate Changes loses
 * `dataTableRow:delete` once the credential's scope check has passed and n8n has stored it (the
 * key edited in Settings > n8n API; a key without it from the start fails that check, before
 * anything is written: n8nApiCredential.e2e.test.ts). The next day's shop, one record a POST, 20
 * in flight, as the rate change alerts example runs it: no execution fails, every alert comes out
 * once, and the morning digest lists each once and says what stopped the clean-up and what to add.
 * Only where n8n checks a key's scopes (2.41; 2.8.4 gives every key all of them).
 */

const { shopId: SHOP_ID, records: RECORDS } = ALERT_SHOP;
const WITHOUT_DELETE = DATA_TABLE_SCOPES.filter((scope) => scope !== 'dataTableRow:delete');

type Record_ = Record<string, unknown>;

const checksKeyScopes = (version: string): boolean => VERSIONS[version as ApiVersion]?.scopesEnforcedByDefault ?? true;

describeVersions(
	e2eVersions().filter((version) => publicApiHasDataTables(version) && checksKeyScopes(version)),
	'Rate change alerts in n8n %s with a key that loses dataTableRow:delete',
	(version) => {
		const { env, inbox } = useE2eWithInbox((started) => ({
			version,
			workflows: [demoExample(EXAMPLE.file, started, EXAMPLE.id), digestExample(DIGEST.file, DIGEST.id, started)],
			publish: [EXAMPLE.id],
		}));
		let firstRun: RunSummary;
		let secondRun: RunSummary;

		/** Runs a shop (or a repeat) one record a POST: the Detect changes output and the error of every execution it started. */
		async function deliver(options: Parameters<E2eEnvironment['sandbox']['runShop']>[0]) {
			const { run, alerts, executionIds } = await deliverShop(env, EXAMPLE.id, options);
			const errors: string[] = [];
			for (const id of executionIds) {
				const { error } = await env.n8n.execution(id);
				if (error) errors.push(`${error.node}: ${error.message}`);
			}
			return { run, alerts, errors };
		}

		test('a first shop with the whole key fills the rates table without an alert, and n8n stores that the key passed its check', async () => {
			const { run, alerts, errors } = await deliver({ shopId: SHOP_ID, records: RECORDS });
			firstRun = run;
			expect(errors).toEqual([]);
			expect(alerts).toEqual([]);
			expect((await env.n8n.storedCredential(N8N_API_CREDENTIAL.id)).scopesCheckedAt).toBeTruthy();
		});

		test("the key loses dataTableRow:delete; the next day's shop fails no execution and alerts every change once", async () => {
			await env.n8n.setApiKeyScopes(RATE_CHANGES_KEY_LABEL, WITHOUT_DELETE);
			const { run, alerts, errors } = await deliver({
				shopId: SHOP_ID,
				repeatRun: firstRun.runId,
				changes: { seed: 7, changed: 0.1, soldOut: 0.05, backOnSale: 0.5 },
			});
			secondRun = run;
			expect(new Date(run.collectedAt).toISOString().slice(0, 10)).not.toBe(new Date(firstRun.collectedAt).toISOString().slice(0, 10));
			expect(errors).toEqual([]);
			const identities = alerts.map(changeIdentity);
			expect(repeated(identities)).toEqual([]);
			expect(identities.sort()).toEqual((run.expectedChanges ?? []).filter(passesRule).map(changeIdentity).sort());
		});

		test('the digest lists every change once and says once what stopped the clean-up and which scope to add; the next says nothing more', async () => {
			const expected = (secondRun.expectedChanges ?? []).filter(passesRule);
			const digests = outputOf(await env.n8n.execute(DIGEST.id), 'Digest');
			expect(digests).toHaveLength(1);
			const [digest] = digests;
			expect(digest).toMatchObject({ shopId: SHOP_ID, changeCount: expected.length });
			expect((digest.changes as Record_[]).map(changeIdentity).sort()).toEqual(expected.map(changeIdentity).sort());
			const text = String(digest.text);
			expect(text.match(/could not run/g)).toHaveLength(1);
			expect(text).toMatch(/could not run \(The n8n API key may not do this \(DELETE \/data-tables\/\w+\/rows\/delete\): it lacks the scope dataTableRow:delete\)/);
			expect(text).toContain('add it in Settings > n8n API');
			const posted = inbox.slackMessages(slackChannelOf(DIGEST.file));
			expect(posted).toHaveLength(1);
			expect(posted[0].payload).toMatchObject({ changeCount: expected.length, text });

			expect(outputOf(await env.n8n.execute(DIGEST.id), 'Digest')).toEqual([]);
			expect(inbox.slackMessages(slackChannelOf(DIGEST.file))).toHaveLength(1);
		});
	},
);
