import type { IDataObject } from 'n8n-workflow';

import type { DataTablesApi, Fault } from '../../platform/dataTables';

import { baseRate, changeText, DETECT, DIGEST, shopOf, staysOf, withStandIn, type StaySpec } from '../harness/standIn';
import { describeEveryFault, digestText, FIRST, moved, runnerFor, SECOND, stays } from './faults';

describeEveryFault('detectChanges');

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
