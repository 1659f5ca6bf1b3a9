import { readObservation } from '../../nodes/RateChanges/rules/observation';
import { emptyStayMonth, stayMonthKey, stayMonthOf, stayMonthRow, withObservation, type StayMonth } from '../../nodes/RateChanges/storage/stayMonths';
import type { WorkflowSeed } from '../../platform/n8n';
import type { ExpectedChange, RateRecord } from '../../platform/sandbox';
import { repeatRecords } from '../../platform/sandbox/rateChanges';
import { buildRateRecords } from '../../platform/sandbox/rateRecords';
import type { ProxiedRequest } from '../countingProxy';
import type { BenchEnvironment } from '../environment';
import { alternate, BenchmarkFailure, callWorkflow, latestExecution, nodeOutput, progress, storedRunData, summarizeRuns } from '../measure';
import type { BenchmarkResult } from '../report';
import { rateChangesWorkflows, STAY_ROW_COLUMNS } from '../workflows';
import { medianOf, row } from './common';

const RATE_RECORDS = 10_000;
/** The share of the second run's records whose onsiteRate moved (up or down by 5 to 30 %). */
const CHANGED_SHARE = 0.1;
const SHOP_ID = 7;
/** 100 hotels × 1 website × 100 check-in days: 10,000 stays, one record each. */
const HOTELS = 100;
const WEBSITE_CODE = 1;
const HORIZON_DAYS = 100;
const FIRST_COLLECTED = Date.parse('2026-03-01T06:00:00Z');
const SECOND_COLLECTED = Date.parse('2026-03-02T06:00:00Z');

/**
 * The fields of a rate record that a stay and its alert use. The sandbox's records carry 48
 * fields (14 MB for 10,000, near n8n's 16 MB body limit, and saved twice with every execution):
 * the rest would only make feeding the records, the same on both sides, a larger part of the time.
 */
const FED_FIELDS = ['recordId', 'shopId', 'dtCollected', 'hotelCode', 'hotelName', 'websiteCode', 'checkIn', 'los', 'guests', 'roomType', 'currency', 'onsiteRate', 'netRate'] as const;

/**
 * The warm-up runs both sides on the first records only, first run included: it loads the nodes,
 * and shows the first-seen paths at work (the measured rounds fill the tables directly).
 */
const WARM_UP_RECORDS = 1_000;
/** Rows per insert when the benchmark fills a table. */
const ROWS_PER_FILL = 1_000;

const TABLES = { ratesTable: 'bench_rates_rate_changes_node', changesTable: 'bench_rate_changes_node' };
const BUILT_IN_TABLE = 'bench_rates_data_table_nodes';

interface ChangesRound {
	ok: boolean;
	records: number;
	/** The first run when it went through the workflow (the warm-up); measured rounds fill the table directly. */
	firstRunMs?: number;
	/** The second run: the Webhook call until the last node finished. */
	wallMs: number;
	/** Own time of the measured nodes in the second run (Rate Changes; Get + IF + Upsert + If Row Does Not Exist + Insert). */
	nodeMs: number;
	/** Built-in side: Get + IF + Upsert only, without the first-seen path. */
	changedPathMs?: number;
	nodeTimes: Record<string, number>;
	alerts: number;
	/** Alerts not among the expected changes, and expected changes not alerted, as stay|previous→rate. */
	unexpected: string[];
	missing: string[];
	/** Requests n8n's public API received from the node in the second run. */
	requests: number;
	/** By what they were sent for: how many, their summed time, and from the first one's start to the last one's end. */
	requestsByKind: Record<string, { count: number; totalMs: number; spanMs: number }>;
	error?: string;
}

/** The records of the two runs, and the changes the second one must alert on. */
interface ChangeRuns {
	first: RateRecord[];
	second: RateRecord[];
	expected: ExpectedChange[];
}

/** A change as `stay|previousRate→rate`, whichever side reports it. */
function changeKey(stay: string, previousRate: unknown, rate: unknown): string {
	return `${stay}|${String(previousRate)}→${String(rate)}`;
}

function stayOf(record: Pick<RateRecord, 'hotelCode' | 'websiteCode' | 'checkIn' | 'los' | 'guests' | 'roomType'>): string {
	return [record.hotelCode, record.websiteCode, String(record.checkIn).slice(0, 10), record.los, record.guests, record.roomType].join('|');
}

function fed(records: RateRecord[]): Array<Record<string, unknown>> {
	return records.map((record) => Object.fromEntries(FED_FIELDS.map((field) => [field, record[field]])));
}

/** The rows a first run leaves in the Data Table node build's table: one per stay. */
function stayRows(records: RateRecord[]): Array<Record<string, unknown>> {
	return records.map((record) => {
		const row: Record<string, unknown> = { stayKey: stayOf(record) };
		for (const { name } of STAY_ROW_COLUMNS) if (name !== 'stayKey') row[name] = name === 'checkIn' ? record.checkIn.slice(0, 10) : record[name as keyof RateRecord];
		return row;
	});
}

/** The rows a first run leaves in Rate Changes' rates table: one per stay month, built by the node's own storage code. */
function stayMonthRows(records: RateRecord[]): Array<Record<string, unknown>> {
	const months = new Map<string, StayMonth>();
	for (const record of records) {
		const observation = readObservation(record as unknown as Record<string, unknown>, 'onsiteRate');
		const key = stayMonthKey(stayMonthOf(observation));
		months.set(key, withObservation(months.get(key) ?? emptyStayMonth(stayMonthOf(observation), observation), observation));
	}
	return [...months.values()].map((month) => ({ ...stayMonthRow(month), writers: 'bench' }));
}

/** The first `count` stays of both runs, and the changes among them. */
function firstStays(runs: ChangeRuns, count: number): ChangeRuns {
	const stays = new Set(runs.first.slice(0, count).map(stayOf));
	return { first: runs.first.slice(0, count), second: runs.second.slice(0, count), expected: runs.expected.filter((change) => stays.has(stayOf(change))) };
}

/** The first shop of 10,000 stays, and the same stays collected a day later with 10 % of their rates moved. */
function rateChangeRuns(env: BenchEnvironment): ChangeRuns {
	const first = buildRateRecords(env.sandbox.data, {
		shopId: SHOP_ID,
		runNo: 1,
		collectedAt: FIRST_COLLECTED,
		count: RATE_RECORDS,
		hotelCodes: env.sandbox.data.hotels.slice(0, HOTELS).map((hotel) => hotel.hotelcode),
		websiteCodes: [WEBSITE_CODE],
		los: 1,
		currency: 'USD',
		horizon: HORIZON_DAYS,
		pos: 1,
	});
	// The sandbox changes a share of the records on sale (5 % are sold out): this share of those is
	// exactly CHANGED_SHARE of all records.
	const onSale = first.filter((record) => record.onsiteRate > 0).length;
	const changed = (CHANGED_SHARE * first.length) / onSale;
	const { records: second, expectedChanges } = repeatRecords(first, { shopId: SHOP_ID, runNo: 2, collectedAt: SECOND_COLLECTED }, { seed: 1, changed, drift: 0, soldOut: 0, backOnSale: 0 });
	if (new Set(first.map(stayOf)).size !== first.length) throw new Error('The benchmark records repeat a stay');
	if (expectedChanges.length !== Math.round(CHANGED_SHARE * first.length)) throw new Error(`${expectedChanges.length} changed records, not ${CHANGED_SHARE * first.length}`);
	return { first, second, expected: expectedChanges };
}

/** n8n's public API with the benchmark's own key, straight to n8n (not through the counting proxy). */
export async function publicApi<T>(env: BenchEnvironment, method: string, path: string, body?: unknown): Promise<T> {
	const response = await fetch(`${env.n8n.baseUrl}/api/v1${path}`, {
		method,
		headers: { 'x-n8n-api-key': env.n8nApi.benchKey, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	if (!response.ok) throw new Error(`${method} /api/v1${path} answered ${response.status}: ${text.slice(0, 300)}`);
	return (text ? JSON.parse(text) : undefined) as T;
}

async function tableId(env: BenchEnvironment, name: string): Promise<string | undefined> {
	const listing = await publicApi<{ data: Array<{ id: string; name: string }> }>(env, 'GET', `/data-tables?filter=${encodeURIComponent(JSON.stringify({ name }))}`);
	return listing.data.find((table) => table.name === name)?.id;
}

async function emptyTable(env: BenchEnvironment, id: string): Promise<void> {
	await publicApi(env, 'DELETE', `/data-tables/${id}/rows/clear`);
}

async function fillTable(env: BenchEnvironment, id: string, rows: Array<Record<string, unknown>>): Promise<void> {
	for (let start = 0; start < rows.length; start += ROWS_PER_FILL) {
		await publicApi(env, 'POST', `/data-tables/${id}/rows`, { data: rows.slice(start, start + ROWS_PER_FILL), returnType: 'count' });
	}
}

/** Imports a workflow through the REST API, as the editor saves one, and publishes it. */
export async function createWorkflow(env: BenchEnvironment, seed: WorkflowSeed): Promise<void> {
	const created = await env.n8n.request<{ data?: { id: string } }>('POST', '/rest/workflows', seed);
	if (created.status !== 200 || created.body.data?.id !== seed.id) throw new Error(`Creating ${seed.id} answered ${created.status}: ${created.text.slice(0, 300)}`);
	await env.n8n.activateWorkflow(seed.id);
}

/**
 * Benchmark 7: the second run of a 10,000-record shop with 10 % of its rates changed, through
 * Rate Changes (Detect Changes) and through n8n's Data Table nodes, each side filling its own
 * empty table with the first run and then measured on the second; both must alert on exactly the
 * changed stays.
 */
export async function rateChanges(env: BenchEnvironment, rounds: number): Promise<BenchmarkResult> {
	const runs = rateChangeRuns(env);
	const { first, expected } = runs;
	progress(`7 Rate Changes: ${first.length} stays, ${expected.length} rates changed in the second run`);

	const builtInTableId = (await publicApi<{ id: string }>(env, 'POST', '/data-tables', { name: BUILT_IN_TABLE, columns: STAY_ROW_COLUMNS.map(({ name, type }) => ({ name, type })) })).id;
	const pair = rateChangesWorkflows(TABLES, builtInTableId);
	await createWorkflow(env, pair.node.seed);
	await createWorkflow(env, pair.builtIn.seed);

	/**
	 * One round of one side: its tables emptied, the first run (through the workflow, or the rows
	 * it leaves written directly), then the second run, measured and checked.
	 */
	const runSide = async (side: 'node' | 'builtIn', records: ChangeRuns, firstRun: 'workflow' | 'fill'): Promise<ChangesRound> => {
		const workflow = side === 'node' ? pair.node : pair.builtIn;
		// Rate Changes creates its tables on its first run (the warm-up's).
		const tables = side === 'node' ? await Promise.all(Object.values(TABLES).map((name) => tableId(env, name))) : [builtInTableId];
		for (const id of tables) if (id) await emptyTable(env, id);

		let firstRunMs: number | undefined;
		if (firstRun === 'workflow') {
			const call = await callWorkflow(env.n8n, workflow.path, { items: fed(records.first) });
			const execution = await latestExecution(env.n8n, workflow.seed.id);
			if (call.status !== 200 || execution.status !== 'success') throw new BenchmarkFailure(`${workflow.seed.name}, first run: answered ${call.status}, execution ${execution.status}`);
			firstRunMs = call.wallMs;
		} else {
			await fillTable(env, tables[0] as string, side === 'node' ? stayMonthRows(records.first) : stayRows(records.first));
		}

		const expectedKeys = new Set(records.expected.map((change) => changeKey(stayOf(change), change.previousRate, change.rate)));
		env.n8nApi.proxy.clear();
		const call = await callWorkflow(env.n8n, workflow.path, { items: fed(records.second) });
		const requests = env.n8nApi.proxy.requests();
		const execution = await latestExecution(env.n8n, workflow.seed.id);
		const runData = await storedRunData(env.n8n, execution.id);
		const nodeRuns = summarizeRuns(runData);
		const failedNode = Object.entries(nodeRuns).find(([, run]) => run.error);
		const timed = side === 'node' ? [pair.node.measuredNode] : [...pair.builtIn.changedPath, ...pair.builtIn.firstSeenPath];
		const nodeTimes = Object.fromEntries(timed.map((name) => [name, nodeRuns[name]?.executionTime ?? 0]));

		let alerts: string[];
		if (side === 'node') {
			alerts = nodeOutput(runData, pair.node.measuredNode).map((alert) => changeKey(stayOf(alert as unknown as RateRecord), alert.previousRate, alert.rate));
		} else {
			const previous = new Map(nodeOutput(runData, pair.builtIn.changedIf).map((stored) => [String(stored.stayKey), stored.onsiteRate]));
			alerts = nodeOutput(runData, pair.builtIn.upsert).map((updated) => changeKey(String(updated.stayKey), previous.get(String(updated.stayKey)), updated.onsiteRate));
		}
		const alerted = new Set(alerts);
		const round: ChangesRound = {
			ok: call.status === 200 && execution.status === 'success' && !failedNode,
			records: records.second.length,
			...(firstRunMs === undefined ? {} : { firstRunMs }),
			wallMs: call.wallMs,
			nodeMs: Object.values(nodeTimes).reduce((sum, ms) => sum + ms, 0),
			...(side === 'builtIn' ? { changedPathMs: pair.builtIn.changedPath.reduce((sum, name) => sum + nodeTimes[name], 0) } : {}),
			nodeTimes,
			alerts: alerts.length,
			unexpected: [...alerted].filter((key) => !expectedKeys.has(key)),
			missing: [...expectedKeys].filter((key) => !alerted.has(key)),
			requests: requests.length,
			requestsByKind: requestProfile(requests),
			...(failedNode ? { error: `${failedNode[0]}: ${failedNode[1].error}` } : call.status !== 200 ? { error: `answered ${call.status}: ${JSON.stringify(call.body).slice(0, 200)}` } : {}),
		};
		progress(
			`  ${workflow.seed.name}, ${round.records} records: ${firstRunMs === undefined ? '' : `first run ${Math.round(firstRunMs)} ms, `}second ${Math.round(round.wallMs)} ms (nodes ${Math.round(round.nodeMs)} ms), ${round.alerts} alerts, ${round.requests} requests to n8n's API`,
		);
		return round;
	};

	const warmUpRuns = firstStays(runs, WARM_UP_RECORDS);
	const warmUp = [await runSide('node', warmUpRuns, 'workflow'), await runSide('builtIn', warmUpRuns, 'workflow')];
	const [node, builtIn] = await alternate(rounds, [() => runSide('node', runs, 'fill'), () => runSide('builtIn', runs, 'fill')], { warmUp: false });

	const failures = [
		...node.filter((round) => !round.ok).map((round) => `Rate Changes: ${round.error ?? 'failed'}`),
		...builtIn.filter((round) => !round.ok).map((round) => `Data Table nodes: ${round.error ?? 'failed'}`),
		...warmUp.filter((round) => !round.ok).map((round) => `warm-up: ${round.error ?? 'failed'}`),
		...[
			...[warmUp[0], ...node].map((round) => ({ side: 'Rate Changes', round })),
			...[warmUp[1], ...builtIn].map((round) => ({ side: 'Data Table nodes', round })),
		]
			.filter(({ round }) => round.unexpected.length > 0 || round.missing.length > 0)
			.map(({ side, round }) => `${side}: ${round.alerts} alerts, ${round.missing.length} expected changes missing (${round.missing.slice(0, 2).join(', ')}), ${round.unexpected.length} unexpected (${round.unexpected.slice(0, 2).join(', ')})`),
	];
	const perRecord = (ms: number): number => ms / RATE_RECORDS;
	const wall = (results: ChangesRound[]): number => medianOf(results, (round) => round.wallMs);
	const own = (results: ChangesRound[]): number => medianOf(results, (round) => round.nodeMs);
	const requests = medianOf(node, (round) => round.requests);
	const sameAlerts = failures.length === 0;
	const records = RATE_RECORDS.toLocaleString('en-US');
	const warmUpRecords = WARM_UP_RECORDS.toLocaleString('en-US');
	return {
		id: '7',
		title: `Rate Changes, Detect Changes on the second run of a ${records}-record shop, ${CHANGED_SHARE * 100} % of its rates changed`,
		setup: `${records} rate records (${HOTELS} hotels × ${HORIZON_DAYS} check-in days on one website, one stay each; the ${FED_FIELDS.length} fields of each record a stay and its alert use) in a Webhook call's body, split into items. The second run is the same stays a day later with exactly ${(CHANGED_SHARE * RATE_RECORDS).toLocaleString('en-US')} onsite rates moved by 5 to 30 % (the sandbox's repeatRecords). Each side has a table of its own, emptied before each round and filled with the rows the first run leaves (written through n8n's public API: the built-in side's first run takes minutes), then the second run is measured: wall time of the call ("When Last Node Finishes"), the nodes' own time from the stored execution, and the requests n8n's public API received from Rate Changes (a counting proxy is its credential's Base URL). The warm-up runs both sides on the first ${warmUpRecords} stays, first run included. Every run's alerts must be exactly the moved rates (stay, previous rate, new rate).`,
		packageSide: 'Rate Changes, Detect Changes, Change At Least (%) 0 (any move alerts), other defaults (Rate Field onsiteRate, first seen does not, Concurrency 10), its rates and changes tables by name',
		builtInSide:
			"Data Table node Get (the row whose stayKey is the record's stay key, Limit 1) → IF (stored onsiteRate ≠ the record's) → Data Table Upsert by stayKey, the record's columns; beside it, for stays not stored yet (Get puts out nothing for them), Data Table If Row Does Not Exist → Insert. The table has one row per stay (its stay key and the record's fields, as Rate Changes 1.0 kept them); the stay key is an expression on each node.",
		rows: [
			row('Alerts in the second run (the moved rates)', '', medianOf(node, (round) => round.alerts), medianOf(builtIn, (round) => round.alerts), `the same ${expected.length.toLocaleString('en-US')} on both sides`, sameAlerts),
			row('Wall time of the second run', 'ms', wall(node), wall(builtIn)),
			row('Wall time per record', 'ms', perRecord(wall(node)), perRecord(wall(builtIn)), 'at least as fast (ratio ≥ 1)', wall(node) <= wall(builtIn)),
			row("The nodes' own time (all five on the built-in side)", 'ms', own(node), own(builtIn)),
			row('Own time, Get + IF + Upsert only (the first-seen path left out)', 'ms', own(node), medianOf(builtIn, (round) => round.changedPathMs ?? Number.NaN)),
			row('Requests to n8n per record', '', requests / RATE_RECORDS, 0),
			row("Requests to n8n's public API in the second run", '', requests, 'none (in process)'),
			row(`First run of the warm-up's ${warmUpRecords} records (every stay first seen)`, 'ms', warmUp[0].firstRunMs ?? Number.NaN, warmUp[1].firstRunMs ?? Number.NaN),
		],
		notes: [
			`Rate Changes' requests in the second run (first measured round), in the order it sends them; the time is each request's own (summed) and the span from the first one's start to the last one's end: ${profileText(node[0]?.requestsByKind ?? {})}.`,
			"n8n's Data Table nodes reach the tables inside n8n's process (its data table proxy, which n8n gives its own nodes only); Rate Changes goes through n8n's public REST API with an API key, so each of its requests is one n8n serves over HTTP (authentication, the project's access, a transaction).",
			`The built-in side writes only the stays whose rate moved (its Upsert, 1,000 items). Rate Changes keeps month rows (one hotel's stays of one month on one website, room, nights and guests, their rates and collection times packed) and writes each month row its records reach whole, with a compare-and-set on the row's state, so that overlapping executions alert once: the collection times of the ${(RATE_RECORDS - CHANGED_SHARE * RATE_RECORDS).toLocaleString('en-US')} unchanged stays, which tell a record collected before the stored one as stale, go in the same writes as the moved rates.`,
		],
		...(failures.length > 0 ? { failure: failures.join('; ') } : {}),
		rounds: { warmUp: { package: warmUp[0], builtIn: warmUp[1] }, package: node, builtIn },
	};
}

/** What Detect Changes sends a request for (docs/nodes/rate-changes.md, "How many requests a run makes"). */
function requestKind(request: ProxiedRequest): string {
	const path = request.path.replace(/^\/api\/v1/, '').replace(/\/data-tables\/[^/]+/, '/data-tables/:id');
	const failed = request.status >= 300 ? ` (answered ${request.status})` : '';
	if (request.method === 'GET' && path === '/data-tables') return `find a table by name${failed}`;
	if (request.method === 'POST' && path === '/data-tables') return `create a table${failed}`;
	if (request.method === 'GET' && path === '/data-tables/:id/rows') return `read stored stays, GET …/rows${failed}`;
	if (request.method === 'POST' && path === '/data-tables/:id/rows') return `insert rows (first seen, alerts), POST …/rows${failed}`;
	// Every update is a compare-and-set on a row's state: a month row of stays (its rates and
	// collection times), or the alerts of an execution confirmed.
	if (request.method === 'PATCH' && path === '/data-tables/:id/rows/update') return `compare-and-set of a month row or of alerts, PATCH …/rows/update${failed}`;
	return `${request.method} ${path}${failed}`;
}

function requestProfile(requests: ProxiedRequest[]): ChangesRound['requestsByKind'] {
	const kinds: Record<string, { count: number; totalMs: number; first: number; last: number }> = {};
	for (const request of requests) {
		const kind = requestKind(request);
		const entry = (kinds[kind] ??= { count: 0, totalMs: 0, first: Infinity, last: 0 });
		entry.count++;
		entry.totalMs += request.ms;
		entry.first = Math.min(entry.first, request.startedAt);
		entry.last = Math.max(entry.last, request.startedAt + request.ms);
	}
	return Object.fromEntries(
		Object.entries(kinds)
			.sort(([, a], [, b]) => a.first - b.first)
			.map(([kind, { count, totalMs, first, last }]) => [kind, { count, totalMs: Math.round(totalMs), spanMs: Math.round(last - first) }]),
	);
}

function profileText(profile: ChangesRound['requestsByKind']): string {
	return Object.entries(profile)
		.map(([kind, { count, totalMs, spanMs }]) => `${count} × ${kind}: ${(totalMs / 1000).toFixed(1)} s summed, ${(spanMs / 1000).toFixed(1)} s span (${(totalMs / count).toFixed(0)} ms each)`)
		.join('; ');
}
