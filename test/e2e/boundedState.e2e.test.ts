import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';

import { alertText, asDelivered, chunked, ShopSeries, TABLES, type DayShop, type StaySet, type TableRole } from '../../platform/engine/dailyShops';
import { startInbox, type Inbox } from '../../platform/inbox';
import {
	demoExample,
	digestExample,
	longE2eVersions,
	outputOf,
	printProgress,
	publicApiHasDataTables,
	retryFailedExecutions,
	slackChannelOf,
	startE2e,
	type E2eEnvironment,
	type WorkflowSeed,
} from '../../platform/n8n';
import { startPostgres, type ServiceProcess } from '../../platform/queue';
import { authHeaders } from '../../platform/sandbox/delivery';
import { describeVersions } from './describeVersions';

/**
 * State that stays bounded, in a real n8n: the "Rate change alerts" example takes a shop a day
 * (each record's dtCollected a day later than the last shop's, the check-in window moving on a day),
 * and a morning digest follows each, until the window has turned over and more; n8n's own measure
 * of Rate Changes' tables (its limits route, as its Data tables screen reads it) must stay within
 * 10 % of what they took while the window first turned over. Then a digest at the limit: n8n's
 * Data Tables limit set below what the tables hold, a day's deliveries fail, the morning digest
 * still reaches the inbox saying the limit is reached and what to do; the limit raised, the
 * failed executions retried through n8n as its Retry does, every expected alert comes out once.
 * (On n8n 2.41.1 the season passes; the digest at the limit stopped at its first shop of 36,500
 * stays, whose posts n8n closed with EPIPE: not looked into yet. alertsAtSizeLimit.e2e.test.ts
 * proves the alerts held back at the limit.)
 *
 * The records are posted to the example's trigger as the service posts them (its registered
 * address and secret), by the change model of platform/engine/dailyShops.ts, which benchmark 8
 * runs for a year against the stand-in. n8n runs on SQLite; N8N_DATA_TABLES_DATABASES=sqlite,postgres
 * adds a run on Postgres (with Postgres' own autovacuum).
 */

const ALERTS = { file: 'rate-change-alerts.json', id: 'exRateChanges001' };
const DIGEST = { file: 'rate-change-digest.json', id: 'exRateDigest0001' };
const DETECT_NODE = 'Detect changes';
const DIGEST_PATH = 'bounded-state-morning-digest';

/**
 * 2 hotels × 3 websites × 2 rooms × 62 check-in days: 744 stays a day, 2 deliveries. A window of
 * three or four months: SQLite's pages of the rates table fill and empty with the month (a month
 * row grows a day at a time, then goes), by up to 70 % over a month with one month in the window.
 */
const BOUNDED_SET: StaySet = { hotels: 2, websites: 3, roomTypes: 2, windowDays: 62 };
/** Keep Changes' default and a day: the changes table is full from then on. */
const KEEP_FULL = 15;
/** The window turned over once after Keep Changes was full, and two more weeks. */
const BOUNDED_DAYS = KEEP_FULL + BOUNDED_SET.windowDays + 14;
/** The one-hotel set of issue #28: 36,500 stays, whose first shop takes about 1.3 MB. */
const LIMIT_SET: StaySet = { hotels: 10, websites: 5, roomTypes: 2, windowDays: 365 };
const PER_DELIVERY = 500;
const MIB = 1024 * 1024;

function databases(): Array<'sqlite' | 'postgres'> {
	const wanted = process.env.N8N_DATA_TABLES_DATABASES?.split(',').map((name) => name.trim());
	return (wanted ?? ['sqlite']).filter((name): name is 'sqlite' | 'postgres' => name === 'sqlite' || name === 'postgres');
}

/** The digest example with its morning Schedule Trigger replaced by a Webhook node: each call is "the morning", as the published workflow runs it. */
function morningDigest(inbox: Inbox): WorkflowSeed {
	const workflow = digestExample(DIGEST.file, DIGEST.id, inbox);
	const nodes = workflow.nodes.map((node) =>
		node.name === 'Every morning at 8'
			? { ...node, type: 'n8n-nodes-base.webhook', typeVersion: 2, webhookId: randomUUID(), disabled: false, parameters: { httpMethod: 'POST', path: DIGEST_PATH, responseMode: 'lastNode', options: {} } }
			: node,
	);
	return { ...workflow, nodes };
}

interface Day {
	shop: DayShop;
	alerts: string[];
	/** Changes the morning digest posted, and the texts it posted. */
	digested: number;
	posts: string[];
	bytes: Record<TableRole, number>;
	failed: number;
}

for (const database of databases()) {
	describeVersions(longE2eVersions().filter(publicApiHasDataTables), `Rate Changes' state stays bounded in n8n %s on ${database === 'sqlite' ? 'SQLite' : 'Postgres'}`, (version) => {
		let env: E2eEnvironment;
		let inbox: Inbox;
		let postgres: ServiceProcess | undefined;

		async function start(extraEnv: Record<string, string> = {}): Promise<void> {
			inbox = await startInbox();
			postgres = database === 'postgres' ? await startPostgres() : undefined;
			const databaseEnv: Record<string, string> = postgres
				? { DB_TYPE: 'postgresdb', DB_POSTGRESDB_HOST: '127.0.0.1', DB_POSTGRESDB_PORT: String(postgres.port), DB_POSTGRESDB_DATABASE: 'n8n', DB_POSTGRESDB_USER: 'n8n', DB_POSTGRESDB_PASSWORD: '' }
				: {};
			env = await startE2e({
				version,
				workflows: [demoExample(ALERTS.file, inbox, ALERTS.id), morningDigest(inbox)],
				publish: [ALERTS.id, DIGEST.id],
				env: { ...databaseEnv, N8N_EXPRESSION_ENGINE_POOL_SIZE: '2', ...extraEnv },
			});
		}

		async function stop(): Promise<void> {
			await env?.close();
			await inbox?.close();
			await postgres?.close();
		}

		/** Posts a day's shop to the example's trigger as the service does, and waits for its executions; what they put out, and how many failed. */
		async function deliver(shop: DayShop): Promise<{ alerts: string[]; failed: string[]; before: Set<string> }> {
			const before = new Set(await env.n8n.executionIds(ALERTS.id));
			const [webhook] = env.sandbox.webhooks();
			const deliveries = chunked(
				shop.records.map(({ record }, index) => asDelivered(record, index)),
				PER_DELIVERY,
			);
			let next = 0;
			const sender = async (): Promise<void> => {
				while (next < deliveries.length) {
					const body = JSON.stringify(deliveries[next++]);
					const response = await fetch(webhook.endpoint, { method: 'POST', headers: { 'content-type': 'application/json', ...authHeaders(webhook) }, body });
					expect(response.status).toBe(200);
					await response.text();
				}
			};
			await Promise.all([sender(), sender()]);
			const total = before.size + deliveries.length;
			expect(await env.n8n.waitForExecutions(ALERTS.id, total)).toBe(total);
			const ids = (await env.n8n.executionIds(ALERTS.id)).filter((id) => !before.has(id));
			const executions = await Promise.all(ids.map(async (id) => await env.n8n.execution(id)));
			const alerts = executions.flatMap((execution) => outputOf(execution.run, DETECT_NODE).map((json) => alertText(json)));
			return { alerts, failed: executions.filter((execution) => execution.status !== 'success').map((execution) => execution.id), before };
		}

		/** Runs the morning digest; the changes it posted to the inbox and the texts of its posts. */
		async function morning(): Promise<{ digested: number; posts: string[] }> {
			const channel = slackChannelOf(DIGEST.file);
			const already = inbox.slackMessages(channel).length;
			const response = await fetch(env.n8n.webhookUrl(DIGEST_PATH), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
			await response.text();
			const posted = inbox.slackMessages(channel).slice(already);
			return {
				digested: posted.reduce((sum, message) => sum + Number((message.payload as { changeCount?: number }).changeCount ?? 0), 0),
				posts: posted.map((message) => String((message.payload as { text?: string }).text ?? '')),
			};
		}

		/** n8n's own figure of its Data Tables, as its Data tables screen reads it: all together, and each table by name. */
		async function usage(): Promise<{ totalBytes: number; tables: Map<string, number> }> {
			const response = await env.n8n.request<{ data: { totalBytes: number; dataTables: Record<string, { name: string; sizeBytes: number }> } }>('GET', '/rest/data-tables-global/limits');
			expect(response.status).toBe(200);
			const { totalBytes, dataTables } = response.body.data;
			return { totalBytes, tables: new Map(Object.values(dataTables).map((table) => [table.name, table.sizeBytes])) };
		}

		async function ownBytes(): Promise<Record<TableRole, number>> {
			const { tables } = await usage();
			return { rates: tables.get(TABLES.rates) ?? 0, changes: tables.get(TABLES.changes) ?? 0 };
		}

		describe(`${BOUNDED_DAYS} days of daily shops of ${BOUNDED_SET.hotels * BOUNDED_SET.websites * BOUNDED_SET.roomTypes * BOUNDED_SET.windowDays} stays, a ${BOUNDED_SET.windowDays}-day window`, () => {
			const days: Day[] = [];

			beforeAll(async () => {
				await start({ N8N_DATA_TABLES_SIZE_CHECK_CACHE_DURATION_MS: '0' });
				const series = new ShopSeries(BOUNDED_SET);
				for (let day = 1; day <= BOUNDED_DAYS; day++) {
					const shop = series.next();
					const { alerts, failed } = await deliver(shop);
					const { digested, posts } = await morning();
					days.push({ shop, alerts, digested, posts, failed: failed.length, bytes: await ownBytes() });
					if (day % 10 === 0) printProgress(`bounded state, n8n ${version} on ${database}: day ${day}, rates ${days[day - 1].bytes.rates} bytes, changes ${days[day - 1].bytes.changes} bytes`);
				}
			}, 90 * 60_000);

			afterAll(stop);

			test('every day alerts each move of 10 % or more once, and the morning digest posts them', () => {
				const wrong = days.flatMap((day) => {
					const expected = [...day.shop.expected].sort();
					const same = day.failed === 0 && JSON.stringify([...day.alerts].sort()) === JSON.stringify(expected) && day.digested === expected.length;
					return same ? [] : [{ date: day.shop.date, failed: day.failed, alerts: day.alerts.length, expected: expected.length, digested: day.digested }];
				});
				expect(wrong).toEqual([]);
				expect(days.slice(1).every((day) => day.alerts.length > 0)).toBe(true);
			});

			test.each(['rates', 'changes'] as TableRole[])("n8n's own measure of the %s table stays within 10 % of the most it took while the window first turned over", (role) => {
				const firstTurn = days.slice(KEEP_FULL - 1, KEEP_FULL - 1 + BOUNDED_SET.windowDays).map((day) => day.bytes[role]);
				const later = days.slice(KEEP_FULL - 1 + BOUNDED_SET.windowDays).map((day) => day.bytes[role]);
				const bound = Math.max(...firstTurn) * 1.1;
				printProgress(`n8n ${version} on ${database}, ${TABLES[role]}: day ${KEEP_FULL} ${firstTurn[0]} bytes, most while the window turned over ${Math.max(...firstTurn)}, most after ${Math.max(...later)}`);
				expect({ table: TABLES[role], later: later.filter((bytes) => bytes > bound) }).toEqual({ table: TABLES[role], later: [] });
			});
		});

		describe('a digest at the limit', () => {
			let limitBytes: number;
			let held: { shop: DayShop; failed: string[]; before: Set<string> };
			let atLimit: { digested: number; posts: string[] };

			beforeAll(async () => {
				await start();
				const series = new ShopSeries(LIMIT_SET);
				const first = await deliver(series.next());
				expect(first.failed).toEqual([]);
				const used = (await usage()).totalBytes;
				// A whole number of MiB below what the tables hold: n8n refuses every insert and update.
				limitBytes = Math.floor(used / MIB) * MIB;
				expect(limitBytes).toBeGreaterThanOrEqual(MIB);
				await env.n8n.restart({ N8N_DATA_TABLES_MAX_SIZE_BYTES: String(limitBytes), N8N_DATA_TABLES_SIZE_CHECK_CACHE_DURATION_MS: '0' });
				const shop = series.next();
				const delivered = await deliver(shop);
				held = { shop, failed: delivered.failed, before: delivered.before };
				atLimit = await morning();
			}, 60 * 60_000);

			afterAll(stop);

			test("the day's deliveries fail at the limit with n8n's own words, the ones the node's page quotes", async () => {
				expect(held.failed.length).toBeGreaterThan(0);
				const errors = await Promise.all(held.failed.map(async (id) => (await env.n8n.execution(id)).error?.message ?? ''));
				const limitMb = limitBytes / MIB;
				for (const message of errors) expect(message).toMatch(new RegExp(`^n8n's Data Tables are full: (Validation error with data table request: )?Data table size limit exceeded: \\d+MB used, limit is ${limitMb}MB$`));
				const page = ['rate-changes.md', 'rate-changes-reference.md']
					.map((file) => path.join(__dirname, '../../docs/nodes', file))
					.filter((file) => fs.existsSync(file))
					.map((file) => fs.readFileSync(file, 'utf8'))
					.join('\n');
				expect(page).toContain('Data table size limit exceeded: …MB used, limit is …MB');
			});

			test('the morning digest still reaches the inbox, saying the limit is reached and what to do', () => {
				expect(atLimit.posts).toHaveLength(1);
				const [text] = atLimit.posts;
				expect(text).toContain("n8n's Data Tables are full");
				expect(text).toContain('N8N_DATA_TABLES_MAX_SIZE_BYTES');
				expect(text).toContain('retry the failed executions');
				expect(text).toContain('Not marked as reported');
			});

			test('with the limit raised, the failed executions retried through n8n put out every alert held back once, and the next digest lists each once', async () => {
				await env.n8n.restart({ N8N_DATA_TABLES_MAX_SIZE_BYTES: String(200 * MIB) });
				const recovery = await retryFailedExecutions(env.n8n, ALERTS.id, held.before);
				expect(recovery.final.filter((execution) => execution.status !== 'success').map(({ id, error }) => ({ id, error }))).toEqual([]);
				const alerts = recovery.final.flatMap((execution) => outputOf(execution.run, DETECT_NODE).map((json) => alertText(json)));
				expect(alerts.sort()).toEqual([...held.shop.expected].sort());
				const next = await morning();
				expect(next.digested).toBe(held.shop.expected.size);
				printProgress(`a digest at the limit, n8n ${version} on ${database}: limit ${limitBytes} bytes, ${held.failed.length} executions failed, ${recovery.retries} retries, ${alerts.length} alerts of ${held.shop.expected.size} expected`);
			});
		});
	});
}

if (longE2eVersions().length === 0) test.skip('runs with E2E_LONG=1 (docs/e2e.md)', () => undefined);
