import { alertTally, alertText, asDelivered, ShopSeries, staysIn, type DayShop, type StaySet } from '../../platform/engine/dailyShops';
import { formatDuration, outputOf, type StoredExecution, type WorkflowRun } from '../../platform/n8n';
import { DeliveryClient, runPool } from '../../platform/sandbox/delivery';
import { createPrng, deriveSeed } from '../../platform/sandbox/prng';
import type { StoredWebhook } from '../../platform/sandbox/webhooks';
import { startBenchEnvironment, type BenchEnvironment } from '../environment';
import { BenchmarkFailure, progress, waitForExecutions } from '../measure';
import type { BenchmarkResult, Row } from '../report';
import { oneRecordWorkflows, STAY_ROW_COLUMNS, type OneRecordWorkflows } from '../workflows';
import { row } from './common';
import { createWorkflow, publicApi } from './rateChanges';

/**
 * Benchmark 10: Rate Changes as the service feeds it, one rate record a POST (spec part 6), 20 POSTs
 * in flight. A shop collected on two days (the change model of benchmark 8: the second day moves 10 %
 * of the stays by 5 to 30 %) goes to three workflows in turn, each behind its own Rate Record
 * Trigger: (a) n8n's floor, the trigger into a No Operation node; (b) the same alerts built from
 * n8n's Data Table nodes; (c) Rate Changes, Detect Changes. Each order of the deliveries (as the
 * shop collects them, and shuffled) runs in a fresh n8n, so on fresh tables and with nothing any
 * node keeps in n8n's process from the other order. Per side, order and day: the time from the
 * first POST until the last execution ended, failed executions, and the alerts against the ones
 * the change model expects.
 */

export interface OneRecordCase {
	/** n8n versions, each measured in n8n instances of its own. */
	versions: string[];
	/** Stays of the shop: 2 hotels × 5 websites × 2 room types × stays / 20 check-in days. */
	stays: number;
	/** The bearer token the triggers check. */
	token: string;
}

type Side = 'floor' | 'dataTables' | 'rateChanges';
type Order = 'collected' | 'shuffled';

const SIDES: Side[] = ['floor', 'dataTables', 'rateChanges'];
const ORDERS: Order[] = ['collected', 'shuffled'];
const SIDE_LABELS: Record<Side, string> = { floor: "(a) n8n's floor", dataTables: '(b) Data Table nodes', rateChanges: '(c) Rate Changes' };
const ORDER_LABELS: Record<Order, string> = { collected: 'collected order', shuffled: 'shuffled' };

/** POSTs in flight, as the sandbox's sender has them by default. */
const SENDERS = 20;
const MOVED_SHARE = 0.1;
const SHUFFLE_SEED = 10;
/** Rate Changes' (c) targets: records per second at least as many as the Data Table build's (b), and at least half n8n's floor's (a). */
const SPEED_TARGETS: Array<{ side: Side; least: number }> = [
	{ side: 'dataTables', least: 1 },
	{ side: 'floor', least: 0.5 },
];
/** A POST answered later than this is counted as not taken: the trigger answers once the execution has started. */
const POST_TIMEOUT_MS = 60_000;
/** How long the count of ended executions may stand still short of the deliveries before the day is given up. */
const QUIET_MS = 300_000;
/** Executions read back at a time. */
const READERS = 4;
/** An execution's statuses once it has ended, however it ended. */
const ENDED = ['success', 'error', 'crashed', 'canceled'];
const BUILT_IN_TABLE = 'bench_one_record_stays';

/** The shop: 2 hotels × 5 websites × 2 room types, as many check-in days ahead as make `stays`. */
export function oneRecordShop(stays: number): StaySet {
	return { hotels: 2, websites: 5, roomTypes: 2, windowDays: Math.max(1, Math.round(stays / 20)) };
}

/** One side's deliveries of one day's shop in one order, and what came of them. */
interface DayRun {
	version: string;
	order: Order;
	side: Side;
	day: number;
	date: string;
	records: number;
	/** POSTs not answered 200, with the first answer. */
	refused: number;
	firstRefusal?: string;
	/** From the first POST until the last execution ended. */
	seconds: number;
	failed: number;
	firstError?: string;
	/** Executions that had not ended when the count stood still for QUIET_MS. */
	unfinished: number;
	/** The alerts the change model expects (none for the floor, which puts none out), put out, and how they differ. */
	expected: number;
	alerts: number;
	missing: number;
	unexpected: number;
	twice: number;
	/** Requests n8n's public API received from Rate Changes (the counting proxy). */
	requests: number;
}

const perSecond = (run: DayRun): number => run.records / run.seconds;
const exact = (run: DayRun): boolean => run.missing === 0 && run.unexpected === 0 && run.twice === 0;

/** The items a node put out in an execution, none when it did not run (an IF before it sent nothing its way). */
function itemsOf(run: WorkflowRun, nodeName: string): Array<Record<string, unknown>> {
	return run.data.resultData.runData[nodeName] ? outputOf(run, nodeName) : [];
}

/** The alerts an execution put out, as `stay|previous→rate`: the items that reached the No Operation node. */
function alertsOf(side: Side, workflows: OneRecordWorkflows, run: WorkflowRun): string[] {
	if (side === 'floor') return [];
	const alerts = itemsOf(run, workflows.alerts);
	if (side === 'rateChanges') return alerts.map((alert) => alertText(alert));
	// The Data Table build's alert is the updated row; its previous rate is the row Get found.
	const [stored] = itemsOf(run, workflows.storedRate);
	return alerts.map((updated) => alertText({ ...updated, previousRate: stored?.onsiteRate, rate: updated.onsiteRate }));
}

/** A day's records as POST bodies, each with every field of spec part 6, in the order asked. */
function bodies(shop: DayShop, order: Order): string[] {
	const records = shop.records.map(({ record }, index) => JSON.stringify(asDelivered(record, index)));
	return order === 'collected' ? records : createPrng(deriveSeed(SHUFFLE_SEED, shop.date)).sample(records, records.length);
}

/** The executions of a workflow not read before, oldest first. */
async function newExecutions(env: BenchEnvironment, workflowId: string, seen: Set<string>): Promise<StoredExecution[]> {
	const ids = (await env.n8n.executionIds(workflowId)).filter((id) => !seen.has(id)).sort((a, b) => Number(a) - Number(b));
	for (const id of ids) seen.add(id);
	return await runPool(
		ids.map((id) => async () => await env.n8n.execution(id)),
		READERS,
	);
}

/** One order's fresh n8n, its workflows, and the executions of each already read. */
interface OrderContext {
	env: BenchEnvironment;
	workflows: OneRecordWorkflows;
	token: string;
	version: string;
	order: Order;
	seen: Record<Side, Set<string>>;
}

/** Posts a day's shop to one side, a record a POST, and reads back every execution it started. */
async function deliverDay(context: OrderContext, side: Side, day: number, shop: DayShop, payloads: string[]): Promise<DayRun> {
	const { env, workflows, seen } = context;
	const receiver = workflows[side];
	const webhook: StoredWebhook = {
		webhookId: 1,
		account: 'demo',
		createdAt: new Date().toISOString(),
		registration: { endpoint: env.n8n.webhookUrl(receiver.path), authType: 'bearer', token: context.token },
	};
	const client = new DeliveryClient();
	env.n8nApi.proxy.clear();
	const started = Date.now();
	const outcomes = await runPool(
		payloads.map((payload) => async () => await client.post(webhook, payload, POST_TIMEOUT_MS)),
		SENDERS,
	);
	const delivered = Date.now();
	client.close();
	const refused = outcomes.filter((outcome) => outcome.status !== 200);
	let stalled = false;
	try {
		await waitForExecutions(env.n8n, receiver.seed.id, seen[side].size + outcomes.length - refused.length, ENDED, QUIET_MS);
	} catch (error) {
		if (!(error instanceof BenchmarkFailure)) throw error;
		stalled = true;
	}
	const requests = env.n8nApi.proxy.requests().length;
	const executions = await newExecutions(env, receiver.seed.id, seen[side]);
	const ended = executions.filter((execution) => ENDED.includes(execution.status));
	const failed = ended.filter((execution) => execution.status !== 'success');
	const alerts = ended.filter((execution) => execution.status === 'success').flatMap((execution) => alertsOf(side, workflows, execution.run));
	const expected = side === 'floor' ? new Set<string>() : shop.expected;
	const lastEnded = Math.max(delivered, ...ended.map((execution) => execution.stoppedAt ?? 0));
	const firstError = failed[0]?.error;
	const result: DayRun = {
		version: context.version,
		order: context.order,
		side,
		day,
		date: shop.date,
		records: payloads.length,
		refused: refused.length,
		...(refused[0] ? { firstRefusal: `${refused[0].status ?? 'no answer'}: ${refused[0].error ?? refused[0].responseBody ?? ''}`.slice(0, 300) } : {}),
		seconds: (lastEnded - started) / 1000,
		failed: failed.length,
		...(failed[0] ? { firstError: firstError ? `${firstError.node ? `${firstError.node}: ` : ''}${firstError.message}`.slice(0, 300) : failed[0].status } : {}),
		unfinished: executions.length - ended.length + (stalled ? Math.max(0, outcomes.length - refused.length - executions.length) : 0),
		expected: expected.size,
		alerts: alerts.length,
		...alertTally(alerts, expected),
		requests,
	};
	progress(
		`  n8n ${context.version}, ${ORDER_LABELS[context.order]}, day ${day}, ${SIDE_LABELS[side]}: ${result.records} records in ${result.seconds.toFixed(1)} s (${perSecond(result).toFixed(1)}/s), ${result.failed} failed, ${result.refused} refused, ${result.unfinished} unfinished, ${result.alerts} alerts of ${result.expected} (${result.missing} missing, ${result.unexpected} unexpected, ${result.twice} twice), ${requests} requests to n8n's API`,
	);
	return result;
}

/** Both days of the shop through the three sides in turn, in a fresh n8n with fresh tables. */
async function runOrder(version: string, order: Order, set: StaySet, token: string, runs: DayRun[]): Promise<void> {
	const env = await startBenchEnvironment(version, () => ({ workflows: [], credentials: [] }));
	try {
		const table = await publicApi<{ id: string }>(env, 'POST', '/data-tables', { name: BUILT_IN_TABLE, columns: STAY_ROW_COLUMNS.map(({ name, type }) => ({ name, type })) });
		const workflows = oneRecordWorkflows(token, table.id);
		for (const side of SIDES) await createWorkflow(env, workflows[side].seed);
		const context: OrderContext = { env, workflows, token, version, order, seen: { floor: new Set(), dataTables: new Set(), rateChanges: new Set() } };
		const series = new ShopSeries(set, { movedShare: MOVED_SHARE });
		for (const day of [1, 2]) {
			const shop = series.next();
			const payloads = bodies(shop, order);
			for (const side of SIDES) runs.push(await deliverDay(context, side, day, shop, payloads));
		}
	} finally {
		await env.close();
	}
}

/** The table's rows of one n8n version: each cell one order, both days. */
function versionRows(version: string, runs: DayRun[]): Row[] {
	const of = (order: Order, side: Side): DayRun[] => runs.filter((run) => run.version === version && run.order === order && run.side === side).sort((a, b) => a.day - b.day);
	const complete = (order: Order): boolean => SIDES.every((side) => of(order, side).length === 2);
	/** One order's cell, `–` when the order did not run to its end. */
	const cell = (order: Order, text: () => string): string | null => (complete(order) ? text() : null);
	const both = (text: (order: Order) => string): [string | null, string | null] => [cell('collected', () => text('collected')), cell('shuffled', () => text('shuffled'))];
	const everyDay = (check: (order: Order, day: number) => boolean): boolean => ORDERS.every((order) => complete(order) && [0, 1].every((day) => check(order, day)));
	const days = (order: Order, side: Side, text: (run: DayRun) => string): string => of(order, side).map((run) => `day ${run.day}: ${text(run)}`).join('; ');
	const speed = (numerator: Side, denominator: Side) => (order: Order, day: number) => perSecond(of(order, numerator)[day]) / perSecond(of(order, denominator)[day]);

	const timeRow = (side: Side): Row => row(`n8n ${version}, ${SIDE_LABELS[side]}: time, records per second`, '', ...both((order) => days(order, side, (run) => `${run.seconds.toFixed(1)} s, ${perSecond(run).toFixed(1)}/s`)));
	const alertRow = (side: Side): Row =>
		row(
			`n8n ${version}, ${SIDE_LABELS[side]}: alerts put out of those expected`,
			'',
			...both((order) => days(order, side, (run) => `${run.alerts} of ${run.expected}${exact(run) ? '' : ` (${run.missing} missing, ${run.twice} twice, ${run.unexpected} unexpected)`}`)),
			'exact: none missing, none twice, none unexpected',
			everyDay((order, day) => exact(of(order, side)[day])),
		);
	const ratioRow = (numerator: Side, denominator: Side, least: number): Row =>
		row(
			`n8n ${version}, records per second, ${SIDE_LABELS[numerator]} ÷ ${SIDE_LABELS[denominator]}`,
			'',
			...both((order) => [0, 1].map((day) => `day ${day + 1}: ${speed(numerator, denominator)(order, day).toFixed(2)}×`).join('; ')),
			`≥ ${least}× on each day, in both orders`,
			everyDay((order, day) => speed(numerator, denominator)(order, day) >= least),
		);
	const failures = (run: DayRun): number => run.failed + run.refused + run.unfinished;
	return [
		...SIDES.map(timeRow),
		row(
			`n8n ${version}: failed executions, (a) / (b) / (c), both days`,
			'',
			...both((order) => {
				const counts = SIDES.map((side) => of(order, side).reduce((sum, run) => sum + run.failed, 0)).join(' / ');
				const lost = SIDES.flatMap((side) => of(order, side)).filter((run) => run.refused + run.unfinished > 0);
				return lost.length === 0 ? counts : `${counts}; ${lost.map((run) => `${SIDE_LABELS[run.side]} day ${run.day}: ${run.refused} POSTs not taken, ${run.unfinished} unfinished`).join('; ')}`;
			}),
			'0',
			ORDERS.every((order) => complete(order) && SIDES.every((side) => of(order, side).every((run) => failures(run) === 0))),
		),
		alertRow('dataTables'),
		alertRow('rateChanges'),
		row(`n8n ${version}, (c): requests to n8n's API per record`, '', ...both((order) => days(order, 'rateChanges', (run) => (run.requests / run.records).toFixed(2)))),
		...SPEED_TARGETS.map(({ side, least }) => ratioRow('rateChanges', side, least)),
	];
}

/** What went wrong beyond the table's counts: each speed target missed, each side's first error and first refused POST, each order that stopped. */
function problemNotes(runs: DayRun[], stopped: string[]): string[] {
	const where = (run: DayRun): string => `n8n ${run.version}, ${ORDER_LABELS[run.order]}, day ${run.day}, ${SIDE_LABELS[run.side]}`;
	const beside = (run: DayRun, side: Side): DayRun | undefined =>
		runs.find((other) => other.version === run.version && other.order === run.order && other.day === run.day && other.side === side);
	const slower = runs
		.filter((run) => run.side === 'rateChanges')
		.flatMap((run) =>
			SPEED_TARGETS.flatMap(({ side, least }) => {
				const other = beside(run, side);
				if (!other || perSecond(run) >= least * perSecond(other)) return [];
				return [
					`${where(run)}: ${perSecond(run).toFixed(1)} records/s (${run.seconds.toFixed(1)} s) against ${perSecond(other).toFixed(1)}/s (${other.seconds.toFixed(1)} s) for ${SIDE_LABELS[side]}, ${(perSecond(run) / perSecond(other)).toFixed(2)}×: the target ≥ ${least}× missed.`,
				];
			}),
		);
	return [
		...slower,
		...runs.filter((run) => run.firstError).map((run) => `${where(run)}: ${run.failed} executions failed, the first with "${run.firstError}".`),
		...runs.filter((run) => run.firstRefusal).map((run) => `${where(run)}: ${run.refused} POSTs not answered 200, the first "${run.firstRefusal}".`),
		...stopped.map((line) => `Stopped: ${line}.`),
	];
}

export async function oneRecordDelivery(spec: OneRecordCase): Promise<BenchmarkResult> {
	const started = Date.now();
	const set = oneRecordShop(spec.stays);
	const stays = staysIn(set).toLocaleString('en-US');
	const runs: DayRun[] = [];
	const stopped: string[] = [];
	for (const version of spec.versions) {
		for (const order of ORDERS) {
			try {
				await runOrder(version, order, set, spec.token, runs);
			} catch (error) {
				const message = error instanceof Error ? error.message : String(error);
				progress(`  n8n ${version}, ${ORDER_LABELS[order]} stopped: ${message}`);
				stopped.push(`n8n ${version}, ${ORDER_LABELS[order]}: ${message}`);
			}
		}
	}
	if (runs.length === 0) throw new BenchmarkFailure(stopped.join('; '));
	// n8n's floor failing, or Rate Changes losing a record or an alert, leaves nothing to measure; the
	// Data Table build's misses are a finding, in its rows.
	const broken = runs.filter((run) => run.refused + run.unfinished > 0 || (run.side !== 'dataTables' && (run.failed > 0 || !exact(run))));
	const failure = [...stopped, ...broken.map((run) => `n8n ${run.version}, ${ORDER_LABELS[run.order]}, day ${run.day}, ${SIDE_LABELS[run.side]}: ${run.failed} failed, ${run.refused} POSTs not taken, ${run.unfinished} unfinished, alerts ${exact(run) ? 'exact' : 'not exact'}`)];
	const secondDay = runs.find((run) => run.side === 'rateChanges' && run.day === 2);
	return {
		id: '10',
		title: 'Rate Changes, one record a delivery',
		setup: `A shop of ${stays} stays (2 hotels × 5 websites × 2 room types × ${set.windowDays} check-in days ahead, the change model of benchmark 8, platform/engine/dailyShops.ts) collected on two days: the first shop (every stay first seen, no alert), then the next day's, the window a day on, with ${MOVED_SHARE * 100} % of the stays moved by 5 to 30 %; the moves of 10 % or more must alert${secondDay ? ` (${secondDay.expected.toLocaleString('en-US')} of them)` : ''}. Every record is its own POST (spec part 6, every field) to a Rate Record Trigger's production URL (Manual registration, Bearer Token), ${SENDERS} in flight. Three workflows take the same deliveries in turn, each day: (a) n8n's floor, the trigger into a No Operation node; (b) the same job from n8n's Data Table nodes; (c) Rate Changes, Detect Changes. Each order of the deliveries runs in a fresh n8n (SQLite, its defaults, every execution saved), so on fresh tables. Measured per side, order and day: the time from the first POST until the last execution ended (n8n's stoppedAt), records per second, failed executions (and POSTs not answered 200), and the alerts that reached the No Operation node against those the change model expects.`,
		packageSide: 'each day\'s records posted in the order the shop collects them: hotel, website, room type, check-in date',
		builtInSide: `the same records shuffled (the sandbox's seeded PRNG, seed ${SHUFFLE_SEED} and the day)`,
		columns: { package: 'Collected order', builtIn: 'Shuffled' },
		// The columns are the two orders: the sides are compared in the rows.
		rows: spec.versions.flatMap((version) => versionRows(version, runs)),
		notes: [
			`The run took ${formatDuration(Date.now() - started)}.`,
			"(a) Rate Record Trigger → No Operation: what n8n itself costs per delivery, the ceiling for any workflow behind this trigger.",
			"(b) Rate Record Trigger → Data Table Get (the row whose stayKey is the record's stay key, Limit 1, Always Output Data) → IF the row exists → IF the rate moved by 10 % or more (|new − stored| ÷ stored) → Data Table Update of the row by stayKey → No Operation (the alerts); a stay not stored yet → Data Table Insert. Its table has the stay row's columns and is created through n8n's public API before the workflow, which names it by id. It keeps the rate it last alerted on, where Rate Changes keeps the last one seen: over two days the alerts are the same.",
			`(c) Rate Record Trigger → Rate Changes (Detect Changes, its defaults: moves of 10 % or more) → No Operation (the alerts). Its requests to n8n's public API are counted by a proxy that is its credential's Base URL.`,
			...problemNotes(runs, stopped),
		],
		...(failure.length > 0 ? { failure: failure.join('; ') } : {}),
		rounds: runs,
	};
}
