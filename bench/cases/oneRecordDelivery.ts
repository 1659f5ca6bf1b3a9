import { alertTally, alertText, asDelivered, ShopSeries, staysIn, type DayShop, type StaySet } from '../../platform/engine/dailyShops';
import { formatDuration, outputOf, type StoredExecution, type WorkflowRun } from '../../platform/n8n';
import { DeliveryClient, runPool, type DeliveryOutcome } from '../../platform/sandbox/delivery';
import { createPrng, deriveSeed } from '../../platform/sandbox/prng';
import type { StoredWebhook } from '../../platform/sandbox/webhooks';
import { startBenchEnvironment, type BenchEnvironment } from '../environment';
import { BenchmarkFailure, progress } from '../measure';
import type { BenchmarkResult, Row } from '../report';
import { deliveryAuthCredential, oneRecordWorkflows, STAY_ROW_COLUMNS, type OneRecordWorkflows } from '../workflows';
import { row } from './common';
import { ABSENT_HOTEL } from './rateTrigger';
import { createWorkflow, publicApi } from './rateChanges';

/**
 * Benchmark 10: Rate Changes as the service feeds it, one rate record a POST (spec part 6), 20 POSTs
 * in flight. A shop collected on two days (the change model of benchmark 8: the second day moves 10 %
 * of the stays by 5 to 30 %) goes to three workflows in turn: (a) what n8n does without this
 * package, its Webhook node into a No Operation node, one execution a delivery; (b) the same alerts
 * built from n8n's Data Table nodes behind that Webhook node, one execution a delivery; (c) the Rate
 * Record Trigger (version 1.1, gathering the deliveries that arrive together into one execution)
 * into Rate Changes, Detect Changes. Beside them, F: the same trigger filtering out every record,
 * which starts no execution, measures n8n's work on each request, the bound no gathering removes.
 * Each order of the deliveries (as the shop collects them, and
 * shuffled) runs in a fresh n8n, so on fresh tables and with nothing any node keeps in n8n's
 * process from the other order. Per side, order and day: the time from the first POST until the
 * last execution ended, the executions and the records they hold, failed executions, and the
 * alerts against the ones the change model expects.
 */

export interface OneRecordCase {
	/** n8n versions, each measured in n8n instances of its own. */
	versions: string[];
	/** Stays of the shop: 2 hotels × 5 websites × 2 room types × stays / 20 check-in days. */
	stays: number;
	/** The bearer token the trigger and the Webhook node's Header Auth check. */
	token: string;
	/** Given the result so far after each order, so that a run stopped before the end keeps what it measured. */
	keep?: (partial: BenchmarkResult) => void;
}

type Side = 'webhook' | 'dataTables' | 'rateChanges';
type Order = 'collected' | 'shuffled';

const SIDES: Side[] = ['webhook', 'dataTables', 'rateChanges'];
const ORDERS: Order[] = ['collected', 'shuffled'];
const SIDE_LABELS: Record<Side, string> = {
	webhook: "(a) n8n's Webhook node",
	dataTables: '(b) Data Table nodes',
	rateChanges: '(c) Rate Record Trigger, gathering, Rate Changes',
};
const ORDER_LABELS: Record<Order, string> = { collected: 'collected order', shuffled: 'shuffled' };

/** POSTs in flight, as the sandbox's sender has them by default. */
const SENDERS = 20;
const MOVED_SHARE = 0.1;
const SHUFFLE_SEED = 10;
/** (c)'s speed targets: records per second at least as many as n8n's Webhook node's (a), and 1.5 times the Data Table build's (b). */
const SPEED_TARGETS: Array<{ side: Side; least: number }> = [
	{ side: 'webhook', least: 1 },
	{ side: 'dataTables', least: 1.5 },
];
/** (c)'s target: at most one execution per this many records. */
const RECORDS_PER_EXECUTION = 10;
/** A POST answered later than this is counted as not taken: each side answers once the execution holding its record exists. */
const POST_TIMEOUT_MS = 60_000;
/** How long the executions may take to end after the last POST was answered before the day is given up. */
const FINISH_TIMEOUT_MS = 600_000;
/** Executions read back at a time. */
const READERS = 4;
/** An execution's statuses once it has ended, however it ended. */
const ENDED = ['success', 'error', 'crashed', 'canceled'];
const BUILT_IN_TABLE = 'bench_one_record_stays';

/** The shop: 2 hotels × 5 websites × 2 room types, as many check-in days ahead as make `stays`. */
export function oneRecordShop(stays: number): StaySet {
	return { hotels: 2, websites: 5, roomTypes: 2, windowDays: Math.max(1, Math.round(stays / 20)) };
}

/** The POSTs of each day's per-request floor, F. */
const PER_REQUEST_POSTS = 500;
const PER_REQUEST_LABEL = "F, n8n's per-request floor (the trigger filtering out every record)";

/** F of one day: POSTs to the trigger filtering out every record, each answered at once, none starting an execution. */
interface PerRequestRun {
	version: string;
	order: Order;
	day: number;
	posts: number;
	/** From the first POST until the last one was answered. */
	seconds: number;
	refused: number;
	executions: number;
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
	/** From the first POST until the last one was answered. */
	answeredSeconds: number;
	/** From the first POST until the last execution ended. */
	seconds: number;
	executions: number;
	/** The fewest and the most records an execution held. */
	fewestHeld: number;
	mostHeld: number;
	/** Records answered 200 that no execution holds, and records held by more than one execution. */
	lost: number;
	heldTwice: number;
	failed: number;
	firstError?: string;
	/** Executions that had not ended FINISH_TIMEOUT_MS after the last POST was answered. */
	unfinished: number;
	/** The alerts the change model expects (none for (a), which puts none out), put out, and how they differ. */
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
/** What keeps a run from counting: a POST not taken, an execution not ended, a record lost or held twice. */
const lostWork = (run: DayRun): number => run.refused + run.unfinished + run.lost + run.heldTwice;

/** The items a node put out in an execution, none when it did not run (an IF before it sent nothing its way). */
function itemsOf(run: WorkflowRun, nodeName: string): Array<Record<string, unknown>> {
	return run.data.resultData.runData[nodeName] ? outputOf(run, nodeName) : [];
}

/** The records an execution holds, by recordId: (c)'s trigger items, or the body of the Webhook node's one delivery. */
function recordsOf(side: Side, workflows: OneRecordWorkflows, run: WorkflowRun): string[] {
	if (side === 'rateChanges') return itemsOf(run, workflows.trigger).map((record) => String(record.recordId));
	return itemsOf(run, 'Webhook').map((request) => String((request.body as Record<string, unknown> | undefined)?.recordId));
}

/** The alerts an execution put out, as `stay|previous→rate`: the items that reached the No Operation node. */
function alertsOf(side: Side, workflows: OneRecordWorkflows, run: WorkflowRun): string[] {
	if (side === 'webhook') return [];
	const alerts = itemsOf(run, workflows.alerts);
	if (side === 'rateChanges') return alerts.map((alert) => alertText(alert));
	// The Data Table build's alert is the updated row; its previous rate is the row Get found.
	const [stored] = itemsOf(run, workflows.storedRate);
	return alerts.map((updated) => alertText({ ...updated, previousRate: stored?.onsiteRate, rate: updated.onsiteRate }));
}

/** A day's records as POST bodies, each with every field of spec part 6, in the order asked. */
function bodies(shop: DayShop, order: Order): Array<{ recordId: string; payload: string }> {
	const records = shop.records.map(({ record }, index) => {
		const delivered = asDelivered(record, index);
		return { recordId: String(delivered.recordId), payload: JSON.stringify(delivered) };
	});
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

/** Posts each payload to a production URL, a record a POST, SENDERS in flight, as the sandbox's sender does (no retries). */
async function postAll(context: OrderContext, path: string, payloads: string[]): Promise<{ outcomes: DeliveryOutcome[]; started: number; answered: number }> {
	const webhook: StoredWebhook = {
		webhookId: 1,
		account: 'demo',
		createdAt: new Date().toISOString(),
		registration: { endpoint: context.env.n8n.webhookUrl(path), authType: 'bearer', token: context.token },
	};
	const client = new DeliveryClient();
	const started = Date.now();
	const outcomes = await runPool(
		payloads.map((payload) => async () => await client.post(webhook, payload, POST_TIMEOUT_MS)),
		SENDERS,
	);
	const answered = Date.now();
	client.close();
	return { outcomes, started, answered };
}

/** Posts a day's shop to one side, a record a POST, waits until none of its executions is new or running, and reads back every one it started. */
async function deliverDay(context: OrderContext, side: Side, day: number, shop: DayShop, deliveries: Array<{ recordId: string; payload: string }>): Promise<DayRun> {
	const { env, workflows, seen } = context;
	const receiver = workflows[side];
	env.n8nApi.proxy.clear();
	const { outcomes, started, answered } = await postAll(
		context,
		receiver.path,
		deliveries.map(({ payload }) => payload),
	);
	const refused = outcomes.filter((outcome) => outcome.status !== 200);
	// Every POST answered 200 has its execution by now (each side answers once it exists), but (c)
	// holds many records in one: wait until no execution is new or running, whatever their number.
	let stalled = false;
	try {
		await env.n8n.waitUntilFinished(receiver.seed.id, { timeoutMs: FINISH_TIMEOUT_MS });
	} catch {
		stalled = true;
	}
	const requests = env.n8nApi.proxy.requests().length;
	const finished = Date.now();
	const executions = await newExecutions(env, receiver.seed.id, seen[side]);
	const readSeconds = (Date.now() - finished) / 1000;
	const ended = executions.filter((execution) => ENDED.includes(execution.status));
	const failed = ended.filter((execution) => execution.status !== 'success');
	const alerts = ended.filter((execution) => execution.status === 'success').flatMap((execution) => alertsOf(side, workflows, execution.run));
	const heldBy = executions.map((execution) => recordsOf(side, workflows, execution.run));
	const held = heldBy.flat();
	const heldOnce = new Set(held);
	const taken = deliveries.filter((_, index) => outcomes[index].status === 200);
	const expected = side === 'webhook' ? new Set<string>() : shop.expected;
	const lastEnded = Math.max(answered, ...ended.map((execution) => execution.stoppedAt ?? 0));
	const firstError = failed[0]?.error;
	const result: DayRun = {
		version: context.version,
		order: context.order,
		side,
		day,
		date: shop.date,
		records: deliveries.length,
		refused: refused.length,
		...(refused[0] ? { firstRefusal: `${refused[0].status ?? 'no answer'}: ${refused[0].error ?? refused[0].responseBody ?? ''}`.slice(0, 300) } : {}),
		answeredSeconds: (answered - started) / 1000,
		seconds: (lastEnded - started) / 1000,
		executions: executions.length,
		fewestHeld: Math.min(...heldBy.map((records) => records.length), heldBy.length === 0 ? 0 : Number.POSITIVE_INFINITY),
		mostHeld: Math.max(0, ...heldBy.map((records) => records.length)),
		lost: taken.filter(({ recordId }) => !heldOnce.has(recordId)).length,
		heldTwice: held.length - heldOnce.size,
		failed: failed.length,
		...(failed[0] ? { firstError: firstError ? `${firstError.node ? `${firstError.node}: ` : ''}${firstError.message}`.slice(0, 300) : failed[0].status } : {}),
		unfinished: executions.length - ended.length + (stalled && executions.length === ended.length ? 1 : 0),
		expected: expected.size,
		alerts: alerts.length,
		...alertTally(alerts, expected),
		requests,
	};
	progress(
		`  n8n ${context.version}, ${ORDER_LABELS[context.order]}, day ${day}, ${SIDE_LABELS[side]}: ${result.records} records in ${result.seconds.toFixed(1)} s (${perSecond(result).toFixed(1)}/s, POSTs answered in ${result.answeredSeconds.toFixed(1)} s), ${result.executions} executions (${result.fewestHeld} to ${result.mostHeld} records each, read back in ${readSeconds.toFixed(1)} s), ${result.failed} failed, ${result.refused} refused, ${result.unfinished} unfinished, ${result.lost} records lost, ${result.heldTwice} held twice, ${result.alerts} alerts of ${result.expected} (${result.missing} missing, ${result.unexpected} unexpected, ${result.twice} twice), ${requests} requests to n8n's API`,
	);
	return result;
}

/**
 * n8n's per-request floor for the trigger: the day's first PER_REQUEST_POSTS POSTs to the same
 * trigger filtering out every record, answered at once and starting no execution. (c) takes each
 * POST through the same work before it gathers, so it can take no more POSTs a second than this.
 */
async function deliverPerRequest(context: OrderContext, day: number, deliveries: Array<{ recordId: string; payload: string }>): Promise<PerRequestRun> {
	const receiver = context.workflows.perRequest;
	const posts = deliveries.slice(0, PER_REQUEST_POSTS).map(({ payload }) => payload);
	const before = await context.env.n8n.countExecutions(receiver.seed.id);
	const { outcomes, started, answered } = await postAll(context, receiver.path, posts);
	const result: PerRequestRun = {
		version: context.version,
		order: context.order,
		day,
		posts: posts.length,
		seconds: (answered - started) / 1000,
		refused: outcomes.filter((outcome) => outcome.status !== 200).length,
		executions: (await context.env.n8n.countExecutions(receiver.seed.id)) - before,
	};
	progress(
		`  n8n ${context.version}, ${ORDER_LABELS[context.order]}, day ${day}, ${PER_REQUEST_LABEL}: ${result.posts} POSTs in ${result.seconds.toFixed(1)} s (${(result.posts / result.seconds).toFixed(1)}/s), ${result.refused} refused, ${result.executions} executions`,
	);
	return result;
}

/** Both days of the shop through the three sides in turn, in a fresh n8n with fresh tables. */
async function runOrder(version: string, order: Order, set: StaySet, token: string, runs: DayRun[], perRequest: PerRequestRun[]): Promise<void> {
	const env = await startBenchEnvironment(version, () => ({ workflows: [], credentials: [deliveryAuthCredential(token)] }));
	try {
		const table = await publicApi<{ id: string }>(env, 'POST', '/data-tables', { name: BUILT_IN_TABLE, columns: STAY_ROW_COLUMNS.map(({ name, type }) => ({ name, type })) });
		const workflows = oneRecordWorkflows(token, table.id, ABSENT_HOTEL);
		for (const receiver of [...SIDES.map((side) => workflows[side]), workflows.perRequest]) await createWorkflow(env, receiver.seed);
		const context: OrderContext = { env, workflows, token, version, order, seen: { webhook: new Set(), dataTables: new Set(), rateChanges: new Set() } };
		const series = new ShopSeries(set, { movedShare: MOVED_SHARE });
		for (const day of [1, 2]) {
			const shop = series.next();
			const deliveries = bodies(shop, order);
			for (const side of SIDES) runs.push(await deliverDay(context, side, day, shop, deliveries));
			perRequest.push(await deliverPerRequest(context, day, deliveries));
		}
	} finally {
		await env.close();
	}
}

/** The table's rows of one n8n version: each cell one order, both days. */
function versionRows(version: string, runs: DayRun[], perRequest: PerRequestRun[]): Row[] {
	const of = (order: Order, side: Side): DayRun[] => runs.filter((run) => run.version === version && run.order === order && run.side === side).sort((a, b) => a.day - b.day);
	const complete = (order: Order): boolean => SIDES.every((side) => of(order, side).length === 2);
	/** One order's cell, `–` when the order did not run to its end. */
	const cell = (order: Order, text: () => string): string | null => (complete(order) ? text() : null);
	const both = (text: (order: Order) => string): [string | null, string | null] => [cell('collected', () => text('collected')), cell('shuffled', () => text('shuffled'))];
	// A run stopped early judges a target on the orders it finished, and says which.
	const measured = ORDERS.filter(complete);
	const inOrders = measured.length === ORDERS.length ? 'in both orders' : measured.length === 0 ? 'in no order measured' : `in the ${measured[0]} order alone (the other not measured)`;
	const everyDay = (check: (order: Order, day: number) => boolean): boolean | null =>
		measured.length === 0 ? null : measured.every((order) => [0, 1].every((day) => check(order, day)));
	const days = (order: Order, side: Side, text: (run: DayRun) => string): string => of(order, side).map((run) => `day ${run.day}: ${text(run)}`).join('; ');
	const speed = (numerator: Side, denominator: Side) => (order: Order, day: number) => perSecond(of(order, numerator)[day]) / perSecond(of(order, denominator)[day]);
	const count = (value: number): string => value.toLocaleString('en-US');

	const timeRow = (side: Side): Row =>
		row(
			`n8n ${version}, ${SIDE_LABELS[side]}: time (POSTs answered within), records per second`,
			'',
			...both((order) => days(order, side, (run) => `${run.seconds.toFixed(1)} s (${run.answeredSeconds.toFixed(1)} s), ${perSecond(run).toFixed(1)}/s`)),
		);
	const alertRow = (side: Side): Row =>
		row(
			`n8n ${version}, ${SIDE_LABELS[side]}: alerts put out of those expected`,
			'',
			...both((order) => days(order, side, (run) => `${run.alerts} of ${run.expected}${exact(run) ? '' : ` (${run.missing} missing, ${run.twice} twice, ${run.unexpected} unexpected)`}`)),
			`exact: none missing, none twice, none unexpected, ${inOrders}`,
			everyDay((order, day) => exact(of(order, side)[day])),
		);
	const ratioRow = (numerator: Side, denominator: Side, least: number): Row =>
		row(
			`n8n ${version}, records per second, ${SIDE_LABELS[numerator]} ÷ ${SIDE_LABELS[denominator]}`,
			'',
			...both((order) => [0, 1].map((day) => `day ${day + 1}: ${speed(numerator, denominator)(order, day).toFixed(2)}×`).join('; ')),
			`≥ ${least}× on each day, ${inOrders}`,
			everyDay((order, day) => speed(numerator, denominator)(order, day) >= least),
		);
	return [
		...SIDES.map(timeRow),
		row(
			`n8n ${version}: executions, (a) / (b) / (c)`,
			'',
			...both((order) => [1, 2].map((day) => `day ${day}: ${SIDES.map((side) => count(of(order, side)[day - 1].executions)).join(' / ')}`).join('; ')),
		),
		row(
			`n8n ${version}, (c): records per execution (fewest to most)`,
			'',
			...both((order) => days(order, 'rateChanges', (run) => `${(run.records / run.executions).toFixed(1)} (${run.fewestHeld} to ${run.mostHeld})`)),
			`≥ ${RECORDS_PER_EXECUTION} (at most one execution per ${RECORDS_PER_EXECUTION} records) on each day, ${inOrders}`,
			everyDay((order, day) => of(order, 'rateChanges')[day].executions * RECORDS_PER_EXECUTION <= of(order, 'rateChanges')[day].records),
		),
		row(
			`n8n ${version}: failed executions, (a) / (b) / (c), both days`,
			'',
			...both((order) => {
				const counts = SIDES.map((side) => of(order, side).reduce((sum, run) => sum + run.failed, 0)).join(' / ');
				const lost = SIDES.flatMap((side) => of(order, side)).filter((run) => lostWork(run) > 0);
				const lines = lost.map(
					(run) => `${SIDE_LABELS[run.side]} day ${run.day}: ${run.refused} POSTs not taken, ${run.unfinished} unfinished, ${run.lost} records in no execution, ${run.heldTwice} in two`,
				);
				return [counts, ...lines].join('; ');
			}),
			`0, and every record answered 200 in exactly one execution, ${inOrders}`,
			everyDay((order, day) => SIDES.every((side) => of(order, side)[day].failed === 0 && lostWork(of(order, side)[day]) === 0)),
		),
		row(
			`n8n ${version}, ${PER_REQUEST_LABEL}: POSTs per second, the day's first ${PER_REQUEST_POSTS}`,
			'',
			...both((order) =>
				perRequest
					.filter((run) => run.version === version && run.order === order)
					.map((run) => `day ${run.day}: ${(run.posts / run.seconds).toFixed(1)}/s${run.refused + run.executions > 0 ? ` (${run.refused} refused, ${run.executions} executions)` : ''}`)
					.join('; '),
			),
		),
		alertRow('dataTables'),
		alertRow('rateChanges'),
		row(`n8n ${version}, (c): requests to n8n's API per record`, '', ...both((order) => days(order, 'rateChanges', (run) => (run.requests / run.records).toFixed(2)))),
		...SPEED_TARGETS.map(({ side, least }) => ratioRow('rateChanges', side, least)),
	];
}

/**
 * A missed speed target with what bounds it, from the run's own figures: (c) answers a POST only
 * once its gathering's execution exists, so it takes the POSTs no faster than n8n takes each
 * request, and no gathering removes that work; its rate is at most its records over the time its
 * POSTs took to be answered.
 */
function slowerNote(run: DayRun, other: DayRun, least: number, where: string, floor: PerRequestRun | undefined): string {
	const tail = run.seconds - run.answeredSeconds;
	const lines = [
		`${where}: ${perSecond(run).toFixed(1)} records/s (${run.seconds.toFixed(1)} s) against ${perSecond(other).toFixed(1)}/s (${other.seconds.toFixed(1)} s) for ${SIDE_LABELS[other.side]}, ${(perSecond(run) / perSecond(other)).toFixed(2)}×: the target ≥ ${least}× missed.`,
		`Its ${run.records.toLocaleString('en-US')} POSTs were answered within ${run.answeredSeconds.toFixed(1)} s (${(run.records / run.answeredSeconds).toFixed(1)} a second), in ${run.executions} executions of ${(run.records / run.executions).toFixed(1)} records on average, and its last execution ended ${tail.toFixed(1)} s after the last answer.`,
	];
	if (floor) {
		const floorRate = floor.posts / floor.seconds;
		const allowed = `the same trigger filtering out every record (F, no execution at all) took ${floorRate.toFixed(1)} POSTs a second that day, ${(floorRate / perSecond(other)).toFixed(2)}× the records a second of ${SIDE_LABELS[other.side]}`;
		lines.push(
			floorRate < least * perSecond(other)
				? `n8n's work on each request, which gathering does not remove, bounds it below the target: ${allowed}, so (c) could not reach ≥ ${least}× before any execution ran; it reached ${(perSecond(run) / floorRate).toFixed(2)} of that bound.`
				: `n8n's work on each request does not account for the miss: ${allowed}, above the target; (c) reached ${(perSecond(run) / floorRate).toFixed(2)} of it, the rest spent in its gatherings' waits and executions (${run.fewestHeld} to ${run.mostHeld} records each).`,
		);
	}
	return lines.join(' ');
}

/** What went wrong beyond the table's counts: each speed target missed, each side's first error and first refused POST, each order that stopped. */
function problemNotes(runs: DayRun[], perRequest: PerRequestRun[], stopped: string[]): string[] {
	const where = (run: DayRun): string => `n8n ${run.version}, ${ORDER_LABELS[run.order]}, day ${run.day}, ${SIDE_LABELS[run.side]}`;
	const beside = (run: DayRun, side: Side): DayRun | undefined =>
		runs.find((other) => other.version === run.version && other.order === run.order && other.day === run.day && other.side === side);
	const slower = runs
		.filter((run) => run.side === 'rateChanges')
		.flatMap((run) =>
			SPEED_TARGETS.flatMap(({ side, least }) => {
				const other = beside(run, side);
				const floor = perRequest.find((measured) => measured.version === run.version && measured.order === run.order && measured.day === run.day);
				return !other || perSecond(run) >= least * perSecond(other) ? [] : [slowerNote(run, other, least, where(run), floor)];
			}),
		);
	return [
		...slower,
		...runs.filter((run) => run.firstError).map((run) => `${where(run)}: ${run.failed} executions failed, the first with "${run.firstError}".`),
		...runs.filter((run) => run.firstRefusal).map((run) => `${where(run)}: ${run.refused} POSTs not answered 200, the first "${run.firstRefusal}".`),
		...perRequest
			.filter((run) => run.refused + run.executions > 0)
			.map((run) => `n8n ${run.version}, ${ORDER_LABELS[run.order]}, day ${run.day}, F: ${run.refused} POSTs not answered 200 and ${run.executions} executions started, where none should: F does not measure n8n's per-request work alone.`),
		...stopped.map((line) => `Stopped: ${line}.`),
	];
}

/** The benchmark's result from the runs so far; `pending` names what has not run yet. */
function resultOf(spec: OneRecordCase, runs: DayRun[], perRequest: PerRequestRun[], stopped: string[], started: number, pending: string[]): BenchmarkResult {
	const set = oneRecordShop(spec.stays);
	const stays = staysIn(set).toLocaleString('en-US');
	// A POST not taken, a record lost, an execution of (a) or (c) failing, or Rate Changes' alerts
	// not exact leave nothing to measure; the Data Table build's misses are a finding, in its rows.
	const broken = runs.filter((run) => lostWork(run) > 0 || (run.side !== 'dataTables' && (run.failed > 0 || !exact(run))));
	const failure = [
		...stopped,
		...broken.map(
			(run) =>
				`n8n ${run.version}, ${ORDER_LABELS[run.order]}, day ${run.day}, ${SIDE_LABELS[run.side]}: ${run.failed} failed, ${run.refused} POSTs not taken, ${run.unfinished} unfinished, ${run.lost} records in no execution, alerts ${exact(run) ? 'exact' : 'not exact'}`,
		),
	];
	const secondDay = runs.find((run) => run.side === 'rateChanges' && run.day === 2);
	return {
		id: '10',
		title: 'Rate Changes, one record a delivery',
		setup: `A shop of ${stays} stays (2 hotels × 5 websites × 2 room types × ${set.windowDays} check-in days ahead, the change model of benchmark 8, platform/engine/dailyShops.ts) collected on two days: the first shop (every stay first seen, no alert), then the next day's, the window a day on, with ${MOVED_SHARE * 100} % of the stays moved by 5 to 30 %; the moves of 10 % or more must alert${secondDay ? ` (${secondDay.expected.toLocaleString('en-US')} of them)` : ''}. Every record is its own POST (spec part 6, every field) with the delivery token (Authorization: Bearer), ${SENDERS} in flight, to a production URL. Three workflows take the same deliveries in turn, each day: (a) what n8n does without this package, its Webhook node → No Operation, one execution a delivery; (b) the same alerts from n8n's Data Table nodes behind that Webhook node, one execution a delivery; (c) the Rate Record Trigger (version 1.1, Gather Deliveries) → Rate Changes (Detect Changes). Each order of the deliveries runs in a fresh n8n (SQLite, its defaults, every execution saved), so on fresh tables. Once every POST is answered, each side's executions exist (each side answers a POST once the execution holding its record does); the benchmark then waits until none of the workflow's executions is new or running, and reads every one back through n8n's REST API. Measured per side, order and day: the time from the first POST until the last execution ended (n8n's stoppedAt) and until the last POST was answered, records per second, the executions and the records they hold (each record answered 200 in exactly one), failed executions (and POSTs not answered 200), and the alerts that reached the No Operation node against those the change model expects.`,
		packageSide: "each day's records posted in the order the shop collects them: hotel, website, room type, check-in date",
		builtInSide: `the same records shuffled (the sandbox's seeded PRNG, seed ${SHUFFLE_SEED} and the day)`,
		columns: { package: 'Collected order', builtIn: 'Shuffled' },
		// The columns are the two orders: the sides are compared in the rows.
		rows: spec.versions.flatMap((version) => versionRows(version, runs, perRequest)),
		notes: [
			...(pending.length > 0 ? [`Written while the run went on: ${pending.join(', ')} had not been measured to the end when this was written (their cells –; a run stopped there keeps this note).`] : []),
			`The run took ${formatDuration(Date.now() - started)}.`,
			"(a) n8n's Webhook node as benchmark 3a has it (version 2.1, POST, Header Auth: Authorization: Bearer and the delivery token, Respond Immediately) → No Operation: one execution a delivery, what a shop costs in n8n without this package.",
			"(b) The same Webhook node → Data Table Get (the row whose stayKey is the record's stay key, Limit 1, Always Output Data) → IF the row exists → IF the rate moved by 10 % or more (|new − stored| ÷ stored) → Data Table Update of the row by stayKey → No Operation (the alerts); a stay not stored yet → Data Table Insert. Its table has the stay row's columns and is created through n8n's public API before the workflow, which names it by id. It keeps the rate it last alerted on, where Rate Changes keeps the last one seen: over two days the alerts are the same.",
			"(c) Rate Record Trigger version 1.1 (Manual registration, Bearer Token, Executions: Gather Deliveries with its options' defaults: Gather For At Most 3 s, Records per Execution At Most 500) → Rate Changes (Detect Changes, its defaults: moves of 10 % or more) → No Operation (the alerts). Its requests to n8n's public API are counted by a proxy that is its credential's Base URL.",
			`F: after (c) each day, the day's first ${PER_REQUEST_POSTS} POSTs (in the same order) go to a fourth workflow, the Rate Record Trigger as in (c) with Hotel Codes set to a hotel no record names (${ABSENT_HOTEL}) → No Operation: each POST is answered at once and starts no execution, so its rate is n8n's per-request work for this trigger, which (c) does on every POST before it gathers (n8n 2.41 also takes an expression isolate for the webhook phase of every request to a trigger other than its own Webhook node, benchmark 3a), and which no gathering removes.`,
			...problemNotes(runs, perRequest, stopped),
		],
		...(failure.length > 0 ? { failure: failure.join('; ') } : {}),
		rounds: { days: runs, perRequest },
	};
}

export async function oneRecordDelivery(spec: OneRecordCase): Promise<BenchmarkResult> {
	const started = Date.now();
	const set = oneRecordShop(spec.stays);
	const runs: DayRun[] = [];
	const perRequest: PerRequestRun[] = [];
	const stopped: string[] = [];
	// Each order on every version before the next order, so that a run stopped early has measured every version.
	const plan = ORDERS.flatMap((order) => spec.versions.map((version) => ({ version, order })));
	for (const [index, { version, order }] of plan.entries()) {
		try {
			await runOrder(version, order, set, spec.token, runs, perRequest);
		} catch (error) {
			const message = error instanceof Error ? error.message : String(error);
			progress(`  n8n ${version}, ${ORDER_LABELS[order]} stopped: ${message}`);
			stopped.push(`n8n ${version}, ${ORDER_LABELS[order]}: ${message}`);
		}
		const pending = plan.slice(index + 1).map((next) => `n8n ${next.version} ${ORDER_LABELS[next.order]}`);
		if (pending.length > 0) spec.keep?.(resultOf(spec, runs, perRequest, stopped, started, pending));
	}
	if (runs.length === 0) throw new BenchmarkFailure(stopped.join('; '));
	return resultOf(spec, runs, perRequest, stopped, started, []);
}
