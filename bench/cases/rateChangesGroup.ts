import http from 'node:http';
import { alertText, asDelivered, chunked, ShopSeries, staysIn, TABLES, type DayShop, type StaySet, type TableRole } from '../../platform/engine/dailyShops';
import { dataTablesUsage, formatDuration, outputOf } from '../../platform/n8n';
import { startQueueCluster, type QueueCluster } from '../../platform/queue';
import { BenchmarkFailure, countExecutions, progress, waitForExecutions } from '../measure';
import type { BenchmarkResult } from '../report';
import { groupWorkflows, type GroupWorkflows } from '../workflows';
import { row } from './common';

/**
 * Benchmark 9: Rate Changes at group scale, the 100-hotel group of issue #28 (100 hotels × 10
 * websites × 3 room types × 365 check-in days: 1,095,000 stays), in a real n8n in queue mode on
 * Postgres (a main, 2 workers, a webhook process): the first shop, then daily shops with 10 % of
 * the stays moved, each posted to the Rate Record Trigger in deliveries of 500 records and taken
 * by Detect Changes (its defaults), each followed by the morning Digest. n8n's own
 * measure of the tables after each (its limits route: heap, indexes and TOAST on 2.41), the
 * records per second from the first delivery to the last execution's end, the alerts exact.
 *
 * `hotels` runs the first hotels of the group only (BENCH_GROUP_HOTELS): the size per stay and the
 * rate are those of the run, and the group's size is projected from its bytes per stay.
 */

export const GROUP_SET: StaySet = { hotels: 100, websites: 10, roomTypes: 3, windowDays: 365 };

/** The share of the group's stays that move each day after the first shop. */
export const GROUP_MOVED_SHARE = 0.1;

export interface GroupCase {
	version: string;
	hotels: number;
	days: number;
	/** The bearer token the trigger checks. */
	token: string;
}

const MIB = 1024 * 1024;
const TARGET_BYTES = 100 * MIB;
const TARGET_RATE = 200;
const PER_DELIVERY = 500;
/** Deliveries in flight: the trigger answers once its execution is queued, so a few keep both workers busy. */
const SENDERS = 4;
/** Executions read back at a time: each holds its 500 records twice. */
const READ_PAGE = 10;
/** An execution's statuses once it has ended, however it ended. */
const ENDED = ['success', 'error', 'crashed'];

interface GroupDay {
	day: number;
	date: string;
	records: number;
	seconds: number;
	expected: number;
	alerts: number;
	missing: number;
	unexpected: number;
	twice: number;
	failed: number;
	digested: number;
	digestSeconds: number;
	bytes: Record<TableRole, number>;
}

const total = (day: GroupDay): number => day.bytes.rates + day.bytes.changes + day.bytes.history;
const mib = (bytes: number): string => `${(bytes / MIB).toFixed(1)} MiB`;
const tablesText = (day: GroupDay): string => `${mib(day.bytes.rates)} / ${mib(day.bytes.changes)} / ${mib(day.bytes.history)}`;

/** Posts a day's shop to the trigger, 500 records a delivery, and waits until n8n ran every execution; the alerts they put out. */
async function shop(cluster: QueueCluster, workflows: GroupWorkflows, token: string, day: DayShop, lastBefore: string): Promise<{ seconds: number; alerts: string[]; failed: number; last: string }> {
	const workflowId = workflows.shop.seed.id;
	const before = await countExecutions(cluster.main, workflowId, ENDED);
	const deliveries = chunked(day.records, PER_DELIVERY);
	const started = Date.now();
	let next = 0;
	const sender = async (): Promise<void> => {
		while (next < deliveries.length) {
			const index = next++;
			const body = JSON.stringify(deliveries[index].map(({ record }, offset) => asDelivered(record, index * PER_DELIVERY + offset)));
			const { status, text } = await post(cluster.webhookUrl(workflows.shop.path), body, { authorization: `Bearer ${token}` }).catch((error: Error) => {
				throw new BenchmarkFailure(`delivery ${index + 1} of ${day.date} got no answer: ${error.message}`);
			});
			if (status !== 200) throw new BenchmarkFailure(`delivery ${index + 1} of ${day.date} answered ${status}: ${text.slice(0, 300)}`);
		}
	};
	await Promise.all(Array.from({ length: SENDERS }, sender));
	await waitForExecutions(cluster.main, workflowId, before + deliveries.length, ENDED, 600_000);
	const seconds = (Date.now() - started) / 1000;
	const alerts: string[] = [];
	let failed = 0;
	let last = lastBefore;
	for (;;) {
		const page = await cluster.executions(workflowId, { after: last, limit: READ_PAGE });
		if (page.length === 0) break;
		for (const execution of page) {
			if (execution.status !== 'success') failed++;
			else alerts.push(...outputOf(execution.run, workflows.detectNode).map((json) => alertText(json)));
		}
		last = page[page.length - 1].id;
	}
	return { seconds, alerts, failed, last };
}

/**
 * A POST on a connection of its own: a kept-alive connection that lay idle while the executions
 * were read back can be closed by n8n as it is reused (fetch then fails with "other side closed").
 */
async function post(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
	return await new Promise((resolve, reject) => {
		const request = http.request(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers } }, (response) => {
			const chunks: Buffer[] = [];
			response.on('data', (chunk: Buffer) => chunks.push(chunk));
			response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
			response.on('error', reject);
		});
		request.on('error', reject);
		request.end(body);
	});
}

/** Runs the morning digest once: the changes it reported. */
async function morningDigest(cluster: QueueCluster, workflows: GroupWorkflows): Promise<number> {
	const { status, text } = await post(cluster.webhookUrl(workflows.digest.path), '{}').catch((error: Error) => {
		throw new BenchmarkFailure(`the morning digest got no answer: ${error.message}`);
	});
	if (status !== 200) throw new BenchmarkFailure(`the morning digest answered ${status}: ${text.slice(0, 300)}`);
	const items = JSON.parse(text) as Array<{ changeCount?: number }> | { changeCount?: number };
	return (Array.isArray(items) ? items : [items]).reduce((sum, item) => sum + Number(item.changeCount ?? 0), 0);
}

/** n8n's own figure for Rate Changes' tables, as its Data tables screen reads it. */
async function tableBytes(cluster: QueueCluster): Promise<Record<TableRole, number>> {
	const { tables } = await dataTablesUsage(cluster.main);
	return { rates: tables.get(TABLES.rates) ?? 0, changes: tables.get(TABLES.changes) ?? 0, history: tables.get(TABLES.history) ?? 0 };
}

export async function rateChangesGroup(spec: GroupCase): Promise<BenchmarkResult> {
	const started = Date.now();
	const set: StaySet = { ...GROUP_SET, hotels: spec.hotels };
	const stays = staysIn(set);
	const groupStays = staysIn(GROUP_SET);
	const workflows = groupWorkflows(spec.token);
	const days: GroupDay[] = [];
	let failure: string | undefined;
	// n8n's size check is not cached, so its limits route reads the tables as they are now.
	const cluster = await startQueueCluster({
		version: spec.version,
		workflows: [workflows.shop.seed, workflows.digest.seed],
		activate: [workflows.shop.seed.id, workflows.digest.seed.id],
		env: { N8N_DATA_TABLES_SIZE_CHECK_CACHE_DURATION_MS: '0', N8N_DATA_TABLES_MAX_SIZE_BYTES: String(1024 * MIB), EXECUTIONS_DATA_PRUNE_MAX_COUNT: '0' },
	});
	try {
		const series = new ShopSeries(set, { movedShare: GROUP_MOVED_SHARE });
		let last = '0';
		for (let day = 1; day <= spec.days; day++) {
			const today = series.next();
			const run = await shop(cluster, workflows, spec.token, today, last);
			last = run.last;
			const digestStarted = Date.now();
			const digested = await morningDigest(cluster, workflows);
			const seen = new Set<string>();
			const twice = run.alerts.filter((alert) => seen.has(alert) || !seen.add(alert)).length;
			const sample: GroupDay = {
				day,
				date: today.date,
				records: today.records.length,
				seconds: run.seconds,
				expected: today.expected.size,
				alerts: run.alerts.length,
				missing: [...today.expected].filter((alert) => !seen.has(alert)).length,
				unexpected: [...seen].filter((alert) => !today.expected.has(alert)).length,
				twice,
				failed: run.failed,
				digested,
				digestSeconds: (Date.now() - digestStarted) / 1000,
				bytes: await tableBytes(cluster),
			};
			days.push(sample);
			progress(
				`  group of ${spec.hotels} hotels, day ${day}: ${sample.records} records in ${formatDuration(sample.seconds * 1000)} (${(sample.records / sample.seconds).toFixed(1)}/s), ${sample.alerts} alerts of ${sample.expected} (${sample.missing} missing, ${sample.unexpected} unexpected, ${twice} twice, ${sample.failed} executions failed), digest ${digested} in ${sample.digestSeconds.toFixed(1)} s; rates ${mib(sample.bytes.rates)}, changes ${mib(sample.bytes.changes)}`,
			);
		}
	} catch (error) {
		failure = error instanceof Error ? error.message : String(error);
	} finally {
		await cluster.close();
	}
	if (days.length === 0) throw new BenchmarkFailure(failure ?? 'no day ran');
	const first = days[0];
	const latest = days[days.length - 1];
	const rate = (day: GroupDay) => day.records / day.seconds;
	const later = days.slice(1);
	const wrong = days.reduce((sum, day) => sum + day.missing + day.unexpected + day.twice + day.failed + Math.abs(day.digested - day.expected), 0);
	const projected = (bytes: number) => (bytes / stays) * groupStays;
	const slowest = later.length > 0 ? Math.min(...later.map(rate)) : rate(first);
	const whole = spec.hotels === GROUP_SET.hotels;
	const scope = whole ? 'the group' : `${spec.hotels} of its 100 hotels (${stays.toLocaleString('en-US')} stays), projected to the group by bytes per stay`;
	return {
		id: '9',
		title: 'Rate Changes at group scale: 1.1M stays, queue mode on Postgres',
		setup: `A 100-hotel group (100 hotels × 10 websites × 3 room types × 365 days ahead: ${groupStays.toLocaleString('en-US')} stays) shopped daily: ${whole ? 'all of it' : `its first ${spec.hotels} hotels, ${stays.toLocaleString('en-US')} stays`}, the first shop, then ${spec.days - 1} shop${spec.days === 2 ? '' : 's'} with 10 % of the stays moved, posted to the Rate Record Trigger ${PER_DELIVERY} records a delivery, ${SENDERS} at once, into Detect Changes (1.1, its defaults), and the morning Digest after each; n8n ${spec.version} in queue mode (main, 2 workers, webhook process) on Postgres, n8n's own measure of the tables (heap, indexes and TOAST).`,
		packageSide: 'Rate Changes, its defaults',
		builtInSide: `after day ${latest.day}`,
		columns: { package: 'First shop', builtIn: `After day ${latest.day}` },
		// The two columns are two moments of the same run: no ratio between them.
		rows: [
			row(`Size of the tables as n8n measures them, ${scope}`, 'MiB', projected(total(first)) / MIB, projected(total(latest)) / MIB, '≤ 100 MiB', projected(total(latest)) <= TARGET_BYTES && projected(total(first)) <= TARGET_BYTES),
			row('Rates table / changes table / history table, as run', '', tablesText(first), tablesText(latest)),
			row('Bytes per stay', 'bytes', total(first) / stays, total(latest) / stays, '≤ 95', total(latest) / stays <= TARGET_BYTES / groupStays),
			row('Records per second, first delivery to last execution (the slowest later day)', 'records/s', rate(first), slowest, `≥ ${TARGET_RATE}/s`, slowest >= TARGET_RATE && rate(first) >= TARGET_RATE, true),
			row('Alerts (missing, unexpected or twice; failed executions; digests that differed)', '', first.alerts, `${later.reduce((sum, day) => sum + day.alerts, 0)} (${wrong})`, 'exact', wrong === 0),
		].map((line) => ({ ...line, ratio: null })),
		notes: [
			`The run took ${formatDuration(Date.now() - started)}. Postgres with its own autovacuum; n8n's size check uncached; the size limit raised to 1 GiB so that the run measures the size instead of stopping at it.`,
		],
		failure,
		rounds: days,
	};
}
