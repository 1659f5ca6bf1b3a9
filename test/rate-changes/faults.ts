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

export type Runner = (parameters: INodeParameters, items: IDataObject[], options?: Parameters<typeof runRateChanges>[3]) => Promise<NodeRunResult>;

/** One workflow, as n8n keeps it across executions and retries. */
export function runnerFor(api: DataTablesApi): Runner {
	const workflowId = randomUUID();
	return async (parameters, items, options = {}) => await runRateChanges(api, parameters, items, { workflowId, ...options });
}

export const digestText = (json: IDataObject): string[] => ((json.changes as IDataObject[]) ?? []).map((change) => digestChangeText(change));

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
export const FIRST = '2027-02-01T06:00:00Z';
export const SECOND = '2027-02-02T06:00:00Z';
export const stays = staysOf([100001], [1, 2], '2027-02-25', 8);

export function moved(stay: StaySpec, index: number): number {
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

/** One scenario's matrix: every fault at every request, and the recovery by the records delivered again. */
function everyFaultAtEveryRequest(scenario: Scenario): void {
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
}

/**
 * The matrix of every scenario of one operation (`detectChanges`, `compareWithMyHotel`…), in a test
 * file of its own, faults.<operation>.engine.test.ts: the fault suite is the longest of `npm test`,
 * and Jest's workers run its files side by side.
 */
export function describeEveryFault(operation: string): void {
	const scenarios = SCENARIOS.filter((scenario) => scenario.executions.every((execution) => execution.parameters.operation === operation));
	if (scenarios.length === 0) throw new Error(`The fault suite has no scenario of the operation ${operation}`);
	describe.each(scenarios)('$name: every alert once, whatever single fault hits whichever request', everyFaultAtEveryRequest);
}
