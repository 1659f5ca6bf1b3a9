import { alertText, asDelivered, chunked, ShopSeries, TABLES, type DayShop, type StaySet, type TableRole } from '../../platform/engine/dailyShops';
import { startInbox, type Inbox } from '../../platform/inbox';
import {
	demoExample,
	digestOnCall,
	callMorningDigest,
	dataTablesUsage,
	longE2eVersions,
	outputOf,
	printProgress,
	publicApiHasDataTables,
	startE2e,
	type E2eEnvironment,
} from '../../platform/n8n';
import { startPostgres, type ServiceProcess } from '../../platform/queue';
import { authHeaders } from '../../platform/sandbox/delivery';
import { describeVersions } from './describeVersions';
import { RATE_ALERTS as ALERTS, RATE_DIGEST as DIGEST } from './exampleWorkflows';

/**
 * State that stays bounded, in a real n8n: the "Rate change alerts" example takes a shop a day
 * (each record's dtCollected a day later than the last shop's, the check-in window moving on a day),
 * and a morning digest follows each, until the window has turned over and more; n8n's own measure
 * of Rate Changes' tables (its limits route, as its Data tables screen reads it) must stay within
 * 10 % of what they took while the window first turned over. The digest at the limit, and the
 * alerts held back there, are alertsAtSizeLimit.e2e.test.ts's.
 *
 * The records are posted to the example's trigger as the service posts them (its registered
 * address and secret), by the change model of platform/engine/dailyShops.ts, which benchmark 8
 * runs for a year against the stand-in. n8n runs on SQLite; N8N_DATA_TABLES_DATABASES=sqlite,postgres
 * adds a run on Postgres (with Postgres' own autovacuum).
 */

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
const PER_DELIVERY = 500;

function databases(): Array<'sqlite' | 'postgres'> {
	const wanted = process.env.N8N_DATA_TABLES_DATABASES?.split(',').map((name) => name.trim());
	return (wanted ?? ['sqlite']).filter((name): name is 'sqlite' | 'postgres' => name === 'sqlite' || name === 'postgres');
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
				workflows: [demoExample(ALERTS.file, inbox, ALERTS.id), digestOnCall(DIGEST.file, DIGEST.id, inbox, DIGEST_PATH)],
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
		async function deliver(shop: DayShop): Promise<{ alerts: string[]; failed: string[] }> {
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
			const ids = await env.n8n.waitForDeliveries(ALERTS.id, before, deliveries.length);
			const executions = await Promise.all(ids.map(async (id) => await env.n8n.execution(id)));
			const alerts = executions.flatMap((execution) => outputOf(execution.run, DETECT_NODE).map((json) => alertText(json)));
			return { alerts, failed: executions.filter((execution) => execution.status !== 'success').map((execution) => execution.id) };
		}

		/** Runs the morning digest; the changes it posted to the inbox and the texts of its posts. */
		async function morning(): Promise<{ digested: number; posts: string[] }> {
			return await callMorningDigest(env.n8n.webhookUrl(DIGEST_PATH), inbox, DIGEST.file);
		}

		/** n8n's own figure of Rate Changes' tables, as its Data tables screen reads it. */
		async function ownBytes(): Promise<Record<TableRole, number>> {
			const { tables } = await dataTablesUsage(env.n8n);
			return { rates: tables.get(TABLES.rates) ?? 0, changes: tables.get(TABLES.changes) ?? 0, history: tables.get(TABLES.history) ?? 0 };
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
	});
}

if (longE2eVersions().length === 0) test.skip('runs with E2E_LONG=1 (docs/e2e.md)', () => undefined);
