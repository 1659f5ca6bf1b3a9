import { randomUUID } from 'node:crypto';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { DataTablesApi, Fault } from '../../platform/dataTables';
import type { NodeRunResult } from '../harness';

import { historySays } from '../harness/historyRows';
import { baseRate, changeText, DETECT, DIGEST, digestChangeText, runRateChanges, shopOf, staysOf, withStandIn, type StaySpec } from '../harness/standIn';

/**
 * Exactly once under faults: for every operation of Rate Changes and every request it sends, each
 * fault a real network shows is injected once at that request (n8n's answer lost after it stored
 * the write, a 500 after it stored it, a 500 before, a refused connection, a slow answer, the size
 * limit), and the execution is cancelled there (an execution that dies between writes). Then
 * n8n's own recovery: a failed execution is retried (Executions, Retry), and every delivery comes
 * again, as a retrying service sends it. The alerts put out and the digest must equal those of the
 * run without a fault: none lost, none twice. Detect Changes' history table too: after every
 * fault and its recovery, each row's text is the run's without a fault.
 */

type Injected = Fault | 'cancel';

const FAULTS: Injected[] = ['lostAfterCommit', 'error500AfterCommit', 'error500BeforeCommit', 'refused', { kind: 'latency', ms: 30 }, 'sizeLimit', 'cancel'];

function faultName(fault: Injected): string {
	return typeof fault === 'string' ? fault : fault.kind;
}

interface Outcome {
	/** Every alert item put out by an execution that succeeded, as text. */
	alerts: string[];
	/** Every change the digest after it listed, as text. */
	digest: string[];
	/** Whether an execution stopped in the window the node's page names: cancelled during or after the request that confirms its alerts. */
	diedAfterConfirming: boolean;
	/** Whether a digest went out unmarked (n8n refused to mark it: its Data Tables were full), saying the next one lists its changes again. */
	unmarked: boolean;
	/** What Detect Changes' history table says once every delivery came again, stay by stay (test/harness/historyRows.ts); none without the table. */
	history: string[];
}

interface Scenario {
	name: string;
	/** What runs before the part under test, without faults. */
	setup: (api: DataTablesApi, run: Runner) => Promise<void>;
	/** The part under test: its executions, in order. */
	executions: Array<{ parameters: INodeParameters; items: IDataObject[] }>;
	/** The text of an alert item. */
	alertText: (json: IDataObject) => string[];
}

type Runner = (parameters: INodeParameters, items: IDataObject[], options?: Parameters<typeof runRateChanges>[3]) => Promise<NodeRunResult>;

/** One workflow, as n8n keeps it across executions and retries. */
function runnerFor(api: DataTablesApi): Runner {
	const workflowId = randomUUID();
	return async (parameters, items, options = {}) => await runRateChanges(api, parameters, items, { workflowId, ...options });
}

const digestText = (json: IDataObject): string[] => ((json.changes as IDataObject[]) ?? []).map((change) => digestChangeText(change));

/**
 * How a failed execution is recovered: n8n's Retry of it (the editor's button), or only the
 * service delivering its records again, as it does after a failed POST or once the user has made
 * room at the size limit.
 */
type Recovery = 'retry' | 'redelivery';

async function play(scenario: Scenario, fault?: { at: number; kind: Injected }, recovery: Recovery = 'retry'): Promise<Outcome> {
	return await withStandIn(async (api) => {
		const run = runnerFor(api);
		await scenario.setup(api, run);
		const base = api.requests.length;
		let cancel: (() => void) | undefined;
		let confirmingAt = Number.POSITIVE_INFINITY;
		if (fault) {
			if (fault.kind === 'cancel') {
				api.onRequest((request, index) => {
					if (index === base + fault.at) cancel?.();
				});
			} else {
				const kind = fault.kind;
				api.plan((_, index) => (index === base + fault.at ? kind : undefined));
			}
		}
		const alerts: string[] = [];
		let diedAfterConfirming = false;
		let unmarked = false;
		for (const execution of scenario.executions) {
			const first = await run(execution.parameters, execution.items, { cancelWith: (stop) => (cancel = stop) });
			let result = first;
			if (result.error) {
				// Whether the cancel came at or after this execution's confirming update.
				const confirms = api.requests.filter((request, index) => index >= base && request.operation === 'updateRows' && JSON.stringify(request.body).includes('"confirmed"'));
				confirmingAt = Math.min(confirmingAt, ...confirms.map((request) => api.requests.indexOf(request) - base));
				if (fault?.kind === 'cancel' && fault.at >= confirmingAt) diedAfterConfirming = true;
				api.plan(undefined);
				api.onRequest(undefined);
				if (recovery === 'redelivery') continue;
				for (let attempt = 1; result.error && attempt <= 3; attempt++) result = await run(execution.parameters, execution.items, { mode: 'retry' });
			}
			expect(result.error).toBeUndefined();
			alerts.push(...result.items.flatMap((item) => scenario.alertText(item.json)));
			unmarked ||= result.items.some((item) => item.json.marked === false);
		}
		api.plan(undefined);
		api.onRequest(undefined);
		// The service delivers every batch again.
		for (const execution of scenario.executions.filter((each) => each.parameters.operation !== 'digest')) {
			const again = await run(execution.parameters, execution.items);
			expect(again.error).toBeUndefined();
			alerts.push(...again.items.flatMap((item) => scenario.alertText(item.json)));
		}
		const digest = await run(DIGEST, [{ scheduled: 'after' }]);
		expect(digest.error).toBeUndefined();
		const history = Object.entries(historySays(api, HISTORY)).map(([stay, entries]) => `${stay} ${entries.join(',')}`).sort();
		return { alerts: alerts.sort(), digest: digest.items.flatMap((item) => digestText(item.json)).sort(), diedAfterConfirming, unmarked, history };
	});
}

/** How many requests the part under test sends without faults. */
async function requestsOf(scenario: Scenario): Promise<number> {
	return await withStandIn(async (api) => {
		const run = runnerFor(api);
		await scenario.setup(api, run);
		const base = api.requests.length;
		for (const execution of scenario.executions) await run(execution.parameters, execution.items);
		await api.settled();
		return api.requests.length - base;
	});
}

const HISTORY = 'travel_pricing_rates_history';
const FIRST = '2027-02-01T06:00:00Z';
const SECOND = '2027-02-02T06:00:00Z';
const stays = staysOf([100001], [1, 2], '2027-02-25', 8);

function moved(stay: StaySpec, index: number): number {
	const rate = baseRate(stay, index);
	if (index % 5 === 0) return 0;
	return index % 2 === 0 ? Math.round(rate * 130) / 100 : rate;
}

/** My hotel and three competitors on one website; on the second shop two of them undercut me on some nights. */
const market = staysOf([200001, 200002, 200003, 200004], [1], '2027-02-26', 6);
function marketRate(dtCollected: string) {
	return (stay: StaySpec, index: number): number => {
		const day = index % 6;
		if (stay.hotelCode === 200001) return 150;
		if (dtCollected === SECOND && stay.hotelCode === 200002 && day % 2 === 0) return 120;
		if (dtCollected === SECOND && stay.hotelCode === 200003 && day === 3) return 100;
		return 160 + stay.hotelCode - 200000;
	};
}

const THIRD = '2027-02-03T06:00:00Z';
const RANK_CHANGED: INodeParameters = { operation: 'compareWithMyHotel', myHotelCode: '200001', compareAlertOn: 'rankChanged', options: {} };

/** My hotel on its own site (1) and two others; on the second shop website 3 sells below on some nights. */
const parityStays = staysOf([300001], [1, 2, 3], '2027-02-26', 6);
function parityRate(dtCollected: string) {
	return (stay: StaySpec, index: number): number => (dtCollected === SECOND && stay.websiteCode === 3 && index % 2 === 0 ? 180 : 200);
}

const SCENARIOS: Scenario[] = [
	{
		name: 'Detect Changes',
		setup: async (_, run) => void (await run(DETECT, shopOf(stays, FIRST, baseRate))),
		executions: [
			{ parameters: DETECT, items: shopOf(stays, SECOND, moved).slice(0, 8) },
			{ parameters: DETECT, items: shopOf(stays, SECOND, moved).slice(8) },
		],
		alertText: (json) => [changeText(json)],
	},
	{
		name: 'Compare With My Hotel',
		setup: async (_, run) => void (await run({ operation: 'compareWithMyHotel', myHotelCode: '200001', options: {} }, shopOf(market, FIRST, marketRate(FIRST)))),
		executions: [{ parameters: { operation: 'compareWithMyHotel', myHotelCode: '200001', options: {} }, items: shopOf(market, SECOND, marketRate(SECOND)) }],
		alertText: (json) => [[json.checkIn, json.rank, json.gap, json.undercut].join('|')],
	},
	{
		// The second shop came without competitor 200003, so no view of it was complete: the third shop's batch judges it late (its write with the third run's state), then the third run itself.
		name: 'Compare With My Hotel, a run judged late',
		setup: async (_, run) => {
			await run(RANK_CHANGED, shopOf(market, FIRST, marketRate(FIRST)));
			await run(RANK_CHANGED, shopOf(market, SECOND, marketRate(SECOND)).filter((record) => record.hotelCode !== 200003));
		},
		executions: [{ parameters: RANK_CHANGED, items: shopOf(market, THIRD, marketRate(FIRST)) }],
		alertText: (json) => [[json.checkIn, json.previousRank, json.rank, json.judgedLate ?? false].join('|')],
	},
	{
		name: 'Check Parity',
		setup: async (_, run) => void (await run({ operation: 'checkParity', parityHotelCode: '300001', referenceWebsiteCode: '1', options: {} }, shopOf(parityStays, FIRST, parityRate(FIRST)))),
		executions: [{ parameters: { operation: 'checkParity', parityHotelCode: '300001', referenceWebsiteCode: '1', options: {} }, items: shopOf(parityStays, SECOND, parityRate(SECOND)) }],
		alertText: (json) => [[json.checkIn, json.losses, json.severity].join('|')],
	},
	{
		name: 'Digest',
		setup: async (_, run) => {
			await run(DETECT, shopOf(stays, FIRST, baseRate));
			await run(DETECT, shopOf(stays, SECOND, moved));
		},
		executions: [{ parameters: DIGEST, items: [{ scheduled: 'morning' }] }],
		alertText: digestText,
	},
];

describe.each(SCENARIOS)('$name: every alert once, whatever single fault hits whichever request', (scenario) => {
	let clean: Outcome;
	let requests: number;

	beforeAll(async () => {
		clean = await play(scenario);
		requests = await requestsOf(scenario);
	}, 60_000);

	it('has alerts to lose or repeat, and a digest of them, without faults', () => {
		expect(clean.alerts.length).toBeGreaterThan(0);
		expect(new Set(clean.alerts).size).toBe(clean.alerts.length);
		// The digest after Digest's own run has nothing left; after the other operations it lists their alerts.
		if (scenario.name === 'Digest') expect(clean.digest).toEqual([]);
		else expect(clean.digest.length).toBeGreaterThan(0);
		// The run judged late alerts its three rank changes, then the next run its own.
		if (scenario.name.endsWith('judged late')) expect(clean.alerts.filter((alert) => alert.endsWith('|true'))).toHaveLength(3);
		// Detect Changes writes the history of its stays: the first shop, then the second's moves.
		if (scenario.name === 'Detect Changes') expect(clean.history.filter((row) => row.includes(',')).length).toBeGreaterThan(0);
	});

	it.each(FAULTS.map((fault) => [faultName(fault), fault] as const))('%s at each request: the same alerts, the same digest and the same history after recovery', async (_, fault) => {
		const results: Array<{ at: number; outcome: Outcome }> = [];
		for (let at = 0; at < requests; at++) results.push({ at, outcome: await play(scenario, { at, kind: fault }) });
		for (const { at, outcome } of results) {
			const where = `${scenario.name}, ${faultName(fault)} at request ${at + 1} of ${requests}`;
			// A digest n8n refused to mark went out saying so, and the next one lists its changes again.
			expect({ where, digest: outcome.digest }).toEqual({ where, digest: outcome.unmarked ? clean.alerts : clean.digest });
			// Never twice; and every alert comes out, but for an execution that died once it had
			// confirmed its alerts (they are then in the digest only, as the node's page says).
			expect({ where, repeated: outcome.alerts.filter((alert, index) => outcome.alerts.indexOf(alert) !== index) }).toEqual({ where, repeated: [] });
			if (outcome.diedAfterConfirming) expect(clean.alerts).toEqual(expect.arrayContaining(outcome.alerts));
			else expect({ where, alerts: outcome.alerts }).toEqual({ where, alerts: clean.alerts });
			// The history holds every rate once, as without the fault.
			expect({ where, history: outcome.history }).toEqual({ where, history: clean.history });
		}
		// The size of this part of the matrix: requests × one fault.
		process.stdout.write(`${scenario.name} × ${faultName(fault)}: ${requests} requests\n`);
	}, 600_000);
	/*
	 * A failed execution recovered by the records delivered again, with no Retry (issue 36: at the
	 * size limit, the records delivered again once the user made room put out 3 of 68 alerts, the
	 * rest held for the 10-minute rule): the pass that takes the node's lease after the failed one
	 * resolves what it left at once, so the alerts come out as items of the delivery again, each once.
	 */
	for (const fault of scenario.name === 'Digest' ? [] : (['sizeLimit', 'error500AfterCommit'] as const)) {
		it(`${fault} at each request, recovered by the records delivered again: the same alerts as items, the same digest and the same history`, async () => {
			for (let at = 0; at < requests; at++) {
				const outcome = await play(scenario, { at, kind: fault }, 'redelivery');
				const where = `${scenario.name}, ${fault} at request ${at + 1} of ${requests}, delivered again`;
				expect({ where, alerts: outcome.alerts, digest: outcome.digest, history: outcome.history }).toEqual({ where, alerts: clean.alerts, digest: clean.digest, history: clean.history });
			}
		}, 600_000);
	}
});

/**
 * The same fault at every attempt of one write (n8n makes the write at the first and its answer
 * never comes back, as behind a load balancer that keeps failing for a while): the node's retries
 * run out, yet it reads what n8n holds and recognises its own write, so the execution goes on and
 * its alerts come out once. Without that, the execution failed between its rows and its confirm,
 * and its retry found the alerts confirmed already (they came out of no execution) or, once other
 * executions had written the same month row, its write no longer named among the row's writers
 * (lost from the digest too).
 */
describe('a write n8n made though every answer to it was lost is recognised, and its alerts come out once', () => {
	const isStayWrite = (body: IDataObject) => JSON.stringify(body.filter).includes('"writers"');
	const isConfirm = (body: IDataObject) => (body.data as IDataObject | undefined)?.state === 'confirmed';
	const WRITES = [
		['the compare-and-set of a month row', isStayWrite],
		['the confirm of the alerts', isConfirm],
	] as const;
	const second = shopOf(stays, SECOND, moved);

	async function oneRecordAtATime(stuck?: { write: (body: IDataObject) => boolean; fault: Fault }): Promise<{ alerts: string[]; digest: string[]; errors: number }> {
		return await withStandIn(async (api) => {
			const run = runnerFor(api);
			await run(DETECT, shopOf(stays, FIRST, baseRate));
			let stuckOn: string | undefined;
			api.plan((request) => {
				const key = JSON.stringify([request.method, request.path, request.query, request.body]);
				if (stuck && stuckOn === undefined && request.operation === 'updateRows' && stuck.write(request.body as IDataObject)) stuckOn = key;
				return key === stuckOn ? stuck?.fault : undefined;
			});
			const alerts: string[] = [];
			let errors = 0;
			// One record a delivery: every later execution writes the same month rows again.
			for (const record of second) {
				const result = await run(DETECT, [record]);
				if (result.error) errors++;
				alerts.push(...result.items.map((item) => changeText(item.json)));
				if (stuckOn !== undefined) api.plan(undefined);
			}
			const digest = await run(DIGEST, [{ scheduled: 'after' }]);
			return { alerts: alerts.sort(), digest: digest.items.flatMap((item) => digestText(item.json)).sort(), errors };
		});
	}

	let clean: Awaited<ReturnType<typeof oneRecordAtATime>>;
	beforeAll(async () => {
		clean = await oneRecordAtATime();
	});

	// The row keeps its last four writers only: other executions writing it during the backoff before
	// a resend would push this one's token out, and its write, made, would count as lost (its alerts
	// gone). So the row is read first, at once.
	it('a compare-and-set whose answer was lost is looked into at once: the row is read before the update is sent again', async () => {
		await withStandIn(async (api) => {
			const run = runnerFor(api);
			await run(DETECT, shopOf(stays, FIRST, baseRate));
			let lostAt: number | undefined;
			api.plan((request, index) => {
				if (lostAt !== undefined || request.operation !== 'updateRows' || !isStayWrite(request.body as IDataObject)) return undefined;
				lostAt = index;
				return 'lostAfterCommit';
			});
			const result = await run(DETECT, [second[0]]);
			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => item.json.changeType)).toEqual(['soldOut']);
			const next = api.requests[(lostAt as number) + 1];
			expect({ method: next.method, operation: next.operation }).toEqual({ method: 'GET', operation: 'readRows' });
		});
	});

	it.each(WRITES.flatMap(([name, write]) => (['lostAfterCommit', 'error500AfterCommit'] as const).map((fault) => [name, fault, write] as const)))(
		'%s, %s at every attempt: no execution fails, every alert once',
		async (_, fault, write) => {
			expect(clean.alerts.length).toBeGreaterThan(0);
			expect(await oneRecordAtATime({ write, fault })).toEqual(clean);
		},
		60_000,
	);
});

/** A stay's rate 30 % up from the first shop's. */
const up30 = (stay: StaySpec, index: number): number => Math.round(baseRate(stay, index) * 130) / 100;

/** Whether a request is a compare-and-set of the rates table's row of a month (`YYYY-MM`), found by its id as stored now. */
function compareAndSetOf(api: DataTablesApi, month: string): (request: { operation?: string; body?: unknown; tableName?: string }) => boolean {
	const row = api.rows('travel_pricing_rates').find((candidate) => JSON.stringify(candidate).includes(month));
	expect(row).toBeDefined();
	return (request) =>
		request.tableName === 'travel_pricing_rates' && request.operation === 'updateRows' && JSON.stringify(request.body).includes(`"value":${String(row?.id)}`) && JSON.stringify(request.body).includes('"writers"');
}

describe('an execution that died between its write and its confirm is recognised however many write the row after it', () => {
	it('puts its alerts out once on n8n\'s Retry, after ten other executions wrote the same month row', async () => {
		await withStandIn(async (api) => {
			const run = runnerFor(api);
			const month = staysOf([100001], [1], '2027-03-01', 12);
			await run(DETECT, shopOf(month, FIRST, baseRate));
			// The first stay moves 30 %; its execution writes the month row, then n8n fails every
			// attempt to confirm its alerts (500, nothing stored), and the execution stops.
			const dying = shopOf(month.slice(0, 1), SECOND, up30);
			api.plan((request) => (request.operation === 'updateRows' && JSON.stringify(request.body).includes('"confirmed"') ? 'error500BeforeCommit' : undefined));
			// Another workflow's node: the pass of this one's would resolve what it left at once (its records stay staged for it).
			const elsewhere = { workflowId: 'dying-workflow' };
			const died = await run(DETECT, dying, elsewhere);
			api.plan(undefined);
			expect(died.error).toBeDefined();
			// Ten executions, one record each, write the same month row after it.
			for (let index = 1; index <= 10; index++) {
				const later = shopOf([month[index]], SECOND, () => baseRate(month[index], index));
				expect((await run(DETECT, later)).error).toBeUndefined();
			}
			expect(String(api.rows('travel_pricing_rates')[0].writers).split(' ').length).toBeGreaterThan(4);
			const retried = await run(DETECT, dying, { ...elsewhere, mode: 'retry' });
			expect(retried.error).toBeUndefined();
			expect(retried.items.map((item) => changeText(item.json))).toEqual([`100001|1|2027-03-01|Double|up|${baseRate(month[0], 0)}|${up30(month[0], 0)}`]);
			const digest = await run(DIGEST, [{ scheduled: 'next' }]);
			expect(digest.items.flatMap((item) => digestText(item.json))).toHaveLength(1);
		});
	}, 60_000);
});

describe('an execution that confirmed a round of writes and failed in a later one', () => {
	it("puts out the first round's alerts on n8n's Retry too, once, and the digest lists each once", async () => {
		await withStandIn(async (api) => {
			const run = runnerFor(api);
			// Two check-in months: 31 March in one month row, 1 and 2 April in the next.
			const stays = staysOf([100001], [1], '2027-03-31', 3);
			await run(DETECT, shopOf(stays, FIRST, baseRate));
			const aprilCas = compareAndSetOf(api, '2027-04');
			// As this execution's first write of the April row arrives, another workflow's node writes that
			// row (2 April moves; one node's executions take turns, two nodes' do not): the first round gets
			// the March row in and confirms its alert, the April row goes to a second round, where n8n
			// fails every attempt (500, nothing stored).
			let otherRunning = false;
			let aprilWrites = 0;
			api.onRequest(async (request) => {
				if (otherRunning || !aprilCas(request) || aprilWrites++ > 0) return;
				otherRunning = true;
				expect((await run(DETECT, shopOf(stays.slice(2), FIRST.replace('T06', 'T07'), (stay) => up30(stay, 2)), { workflowId: 'other-workflow' })).error).toBeUndefined();
				otherRunning = false;
			});
			api.plan((request) => (!otherRunning && aprilCas(request) && aprilWrites > 1 ? 'error500BeforeCommit' : undefined));
			const failing = shopOf(stays.slice(0, 2), SECOND, up30);
			const failed = await run(DETECT, failing);
			api.onRequest(undefined);
			api.plan(undefined);
			expect(failed.error).toBeDefined();
			expect(aprilWrites).toBeGreaterThan(1);

			const retried = await run(DETECT, failing, { mode: 'retry' });
			expect(retried.error).toBeUndefined();
			expect(retried.items.map((item) => changeText(item.json)).sort()).toEqual([
				`100001|1|2027-03-31|Double|up|${baseRate(stays[0], 0)}|${up30(stays[0], 0)}`,
				`100001|1|2027-04-01|Double|up|${baseRate(stays[1], 1)}|${up30(stays[1], 1)}`,
			]);
			const digest = await run(DIGEST, [{ scheduled: 'next' }]);
			expect(digest.items.flatMap((item) => digestText(item.json))).toHaveLength(3);
		});
	}, 60_000);
});

describe('an execution whose later round got no row in, and whose empty entry n8n would not remove', () => {
	it('still ends well and puts out every alert once', async () => {
		await withStandIn(async (api) => {
			const run = runnerFor(api);
			const stays = staysOf([100001], [1], '2027-03-31', 4);
			await run(DETECT, shopOf(stays, FIRST, baseRate));
			const aprilCas = compareAndSetOf(api, '2027-04');
			// Another workflow's node writes the April row as this one's first and second writes of it
			// arrive (2, then 3 April move): the second round gets nothing in, and n8n fails every attempt
			// to remove that round's entry.
			let otherRunning = false;
			let aprilWrites = 0;
			api.onRequest(async (request) => {
				if (otherRunning || !aprilCas(request) || ++aprilWrites > 2) return;
				otherRunning = true;
				const stay = aprilWrites + 1;
				expect((await run(DETECT, shopOf([stays[stay]], FIRST.replace('T06', `T0${6 + aprilWrites}`), () => up30(stays[stay], stay)), { workflowId: 'other-workflow' })).error).toBeUndefined();
				otherRunning = false;
			});
			api.plan((request) => (!otherRunning && request.operation === 'deleteRows' && JSON.stringify(request).includes('tentative') ? 'error500BeforeCommit' : undefined));
			const result = await run(DETECT, shopOf(stays.slice(0, 2), SECOND, up30));
			api.onRequest(undefined);
			api.plan(undefined);
			expect(aprilWrites).toBe(3);
			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => changeText(item.json)).sort()).toEqual([
				`100001|1|2027-03-31|Double|up|${baseRate(stays[0], 0)}|${up30(stays[0], 0)}`,
				`100001|1|2027-04-01|Double|up|${baseRate(stays[1], 1)}|${up30(stays[1], 1)}`,
			]);
			const digest = await run(DIGEST, [{ scheduled: 'next' }]);
			expect(digest.items.flatMap((item) => digestText(item.json))).toHaveLength(4);
		});
	}, 60_000);
});

describe("a Retry that resolved another execution's orphan and then failed itself", () => {
	it("leaves the orphan to the next Retry, which puts its alerts out once", async () => {
		await withStandIn(async (api) => {
			const run = runnerFor(api);
			const stays = staysOf([100001], [1], '2027-03-31', 2);
			await run(DETECT, shopOf(stays, FIRST, baseRate));
			const aprilCas = compareAndSetOf(api, '2027-04');
			// n8n fails every write of the April row: the execution gets March in and stops, and so does
			// its first Retry, after finding that March happened.
			api.plan((request) => (aprilCas(request) ? 'error500BeforeCommit' : undefined));
			const shop = shopOf(stays, SECOND, up30);
			expect((await run(DETECT, shop)).error).toBeDefined();
			expect((await run(DETECT, shop, { mode: 'retry' })).error).toBeDefined();
			api.plan(undefined);
			const retried = await run(DETECT, shop, { mode: 'retry' });
			expect(retried.error).toBeUndefined();
			expect(retried.items.map((item) => changeText(item.json)).sort()).toEqual([
				`100001|1|2027-03-31|Double|up|${baseRate(stays[0], 0)}|${up30(stays[0], 0)}`,
				`100001|1|2027-04-01|Double|up|${baseRate(stays[1], 1)}|${up30(stays[1], 1)}`,
			]);
			const digest = await run(DIGEST, [{ scheduled: 'next' }]);
			expect(digest.items.flatMap((item) => digestText(item.json))).toHaveLength(2);
		});
	}, 60_000);
});

describe('an execution that died before its confirm, its row then written by executions that began before it', () => {
	it("is still named by the row, and n8n's Retry puts its alert out once", async () => {
		await withStandIn(async (api) => {
			const run = runnerFor(api);
			const stays = staysOf([100001], [1], '2027-03-01', 5);
			await run(DETECT, shopOf(stays, FIRST, baseRate));
			const isCas = (request: { operation?: string; body?: unknown }) => request.operation === 'updateRows' && JSON.stringify(request.body).includes('"writers"');
			// Four nodes of other workflows, one stay each, read the month row and send their writes (a
			// node's own executions take turns; other nodes' do not); n8n holds the writes while a fifth
			// execution writes the row and then cannot confirm its alert (it dies).
			let release: () => void = () => undefined;
			const released = new Promise<void>((resolve) => (release = resolve));
			let held = 0;
			let allHeld: () => void = () => undefined;
			const fourHeld = new Promise<void>((resolve) => (allHeld = resolve));
			api.onRequest(async (request) => {
				if (!isCas(request) || held >= 4) return;
				if (++held === 4) allHeld();
				await released;
			});
			const early = [1, 2, 3, 4].map(async (index) => await run(DETECT, shopOf([stays[index]], SECOND, () => up30(stays[index], index)), { workflowId: `other-workflow-${index}` }));
			await fourHeld;
			api.plan((request) => (request.operation === 'updateRows' && JSON.stringify(request.body).includes('"confirmed"') ? 'error500BeforeCommit' : undefined));
			const dying = shopOf([stays[0]], SECOND, () => up30(stays[0], 0));
			expect((await run(DETECT, dying)).error).toBeDefined();
			api.plan(undefined);
			release();
			for (const result of await Promise.all(early)) expect(result.error).toBeUndefined();
			api.onRequest(undefined);

			const retried = await run(DETECT, dying, { mode: 'retry' });
			expect(retried.error).toBeUndefined();
			expect(retried.items.map((item) => changeText(item.json))).toEqual([`100001|1|2027-03-01|Double|up|${baseRate(stays[0], 0)}|${up30(stays[0], 0)}`]);
			const digest = await run(DIGEST, [{ scheduled: 'next' }]);
			expect(digest.items.flatMap((item) => digestText(item.json))).toHaveLength(5);
		});
	}, 60_000);
});
