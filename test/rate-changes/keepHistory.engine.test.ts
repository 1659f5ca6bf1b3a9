import type { IDataObject } from 'n8n-workflow';

import { runPool } from '../../platform/sandbox/delivery';

import { historySays } from '../harness/historyRows';
import { baseRate, chunks, DETECT, runRateChanges, shopOf, staysOf, useStandIn, type StaySpec } from '../harness/standIn';

/**
 * The history Detect Changes keeps (Keep History, `<Rates Table>_history`): each stay's first rate
 * and every change after it, each with the collection time of the record that showed it, written
 * by the same executions that write the rates table; nothing written, nor read, for a shop that
 * moves nothing; the same text however the records arrive; entries older than Keep History pruned
 * on write and rows of old months gone with the day's clean-up.
 */

const api = useStandIn();

const RATES = 'travel_pricing_rates';
const HISTORY = `${RATES}_history`;
/** Two websites, eight check-ins across the end of February: two month rows each. */
const stays = staysOf([100001], [1, 2], '2027-02-25', 8);
const FIRST = '2027-02-01T06:00:00.000Z';
const SECOND = '2027-02-02T06:00:00.000Z';
const THIRD = '2027-02-03T06:00:00.000Z';

type RateOf = (stay: StaySpec, index: number) => number;

/** The second shop: every 3rd stay 20 % dearer, every 4th sold out, the rest as the first. */
const secondRate: RateOf = (stay, index) => (index % 4 === 0 ? 0 : index % 3 === 0 ? Math.round(baseRate(stay, index) * 120) / 100 : baseRate(stay, index));
/** The third shop: every other stay back at its first rate, the rest as the second. */
const thirdRate: RateOf = (stay, index) => (index % 2 === 0 ? baseRate(stay, index) : secondRate(stay, index));

const SHOPS: Array<[string, RateOf]> = [
	[FIRST, baseRate],
	[SECOND, secondRate],
	[THIRD, thirdRate],
];

function stayName({ hotelCode, websiteCode, checkIn }: { hotelCode: number; websiteCode: number; checkIn: string }): string {
	return `${hotelCode}|${websiteCode}|${checkIn}`;
}

/**
 * What the history table says, each stay's entries `<collected>=<onsite rate>`, oldest first, an
 * entry that repeats the rate before it left out: records arriving in another order may leave such
 * a repeat in the text (no record removes an entry), and it changes no rate at any moment.
 */
function historyOf(): Record<string, string[]> {
	return Object.fromEntries(Object.entries(historySays(api, HISTORY)).map(([stay, entries]) => [stay.split('|').slice(0, 3).join('|'), entries]));
}

/** What the history must hold after the shops: each stay's first rate and each change, at the shop that showed it. */
function expectedHistory(shops: ReadonlyArray<[string, RateOf]>): Record<string, string[]> {
	const ordered = [...shops].sort(([a], [b]) => (a < b ? -1 : 1));
	return Object.fromEntries(
		stays.map((stay, index) => {
			const entries: string[] = [];
			let last: number | undefined;
			for (const [at, rateOf] of ordered) {
				const rate = rateOf(stay, index);
				if (rate !== last) entries.push(`${at}=${rate}`);
				last = rate;
			}
			return [stayName(stay), entries];
		}),
	);
}

/** Every history row's text, by its key: what two runs must agree on to the byte. */
function historyText(): string[] {
	return api.rows(HISTORY).map((row) => `${String(row.block)} ${String(row.history)}`).sort();
}

async function deliver(records: IDataObject[], perDelivery = records.length, inFlight = 1, parameters = DETECT): Promise<void> {
	const results = await runPool(
		chunks(records, perDelivery).map((batch) => async () => await runRateChanges(api, parameters, batch)),
		inFlight,
	);
	expect(results.flatMap((result) => (result.error ? [result.error.message] : []))).toEqual([]);
}

/** The requests `run` sent, all of them and those to the history table, by method. */
async function requestsOf(run: () => Promise<void>): Promise<{ all: number; history: Record<string, number> }> {
	const base = api.requests.length;
	await run();
	await api.settled();
	const sent = api.requests.slice(base);
	const history: Record<string, number> = {};
	for (const request of sent.filter((each) => each.tableName === HISTORY)) history[request.method] = (history[request.method] ?? 0) + 1;
	return { all: sent.length, history };
}

function shuffled<T>(values: readonly T[], seed: number): T[] {
	const result = [...values];
	let state = seed;
	for (let index = result.length - 1; index > 0; index--) {
		state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
		const other = state % (index + 1);
		[result[index], result[other]] = [result[other], result[index]];
	}
	return result;
}

describe("a stay's history is its first rate and each change, each with its collection time", () => {
	it('keeps the first shop, then only the changes of each later shop', async () => {
		for (const [at, rateOf] of SHOPS) await deliver(shopOf(stays, at, rateOf));
		expect(historyOf()).toEqual(expectedHistory(SHOPS));
		// One row per stay month of the rates table, with the same key.
		expect(api.rows(HISTORY).map((row) => row.block).sort()).toEqual(api.rows(RATES).map((row) => row.block).sort());
	});

	it('costs a shop that moves nothing no request to the history table, and one that moves costs a read and a write per month row', async () => {
		await deliver(shopOf(stays, FIRST, baseRate));
		const moving = await requestsOf(async () => await deliver(shopOf(stays, SECOND, secondRate)));
		// The same rates again, later the same day (the day's clean-up is done).
		const unchanged = await requestsOf(async () => await deliver(shopOf(stays, '2027-02-02T12:00:00.000Z', secondRate)));
		const oneAPost = await requestsOf(async () => await deliver(shopOf(stays, '2027-02-02T18:00:00.000Z', secondRate), 1, 4));
		process.stdout.write(`History requests: a moving shop ${JSON.stringify(moving)}, an unchanged one ${JSON.stringify(unchanged)}, one record a POST ${JSON.stringify(oneAPost)}\n`);
		expect(unchanged.history).toEqual({});
		expect(oneAPost.history).toEqual({});
		// Four month rows (two websites × February and March): one read of them, one write each, and the new day's clean-up.
		expect(moving.history).toEqual({ GET: 1, PATCH: 4, DELETE: 1 });
		expect(historyOf()).toEqual(expectedHistory(SHOPS.slice(0, 2)));
	});
});

describe('the same records give the same history, however they arrive', () => {
	const records = SHOPS.map(([at, rateOf]) => shopOf(stays, at, rateOf));

	it.each([
		['one record a POST, 4 in flight, shop after shop', async () => {
			for (const shop of records) await deliver(shop, 1, 4);
		}],
		['batches of 5, the shops shuffled together, 4 in flight', async () => await deliver(shuffled(records.flat(), 7), 5, 4)],
		['one record a POST, the three shops shuffled together, 4 in flight', async () => await deliver(shuffled(records.flat(), 11), 1, 4)],
		['the first shop, then the two later shops back to back in one delivery, the later first', async () => {
			await deliver(records[0]);
			await deliver([...records[2], ...records[1]]);
		}],
		['the last shop first, then the others', async () => {
			await deliver(records[2]);
			await deliver(records[0]);
			await deliver(records[1]);
		}],
	])('%s', async (_, arrive) => {
		await arrive();
		expect(historyOf()).toEqual(expectedHistory(SHOPS));
		const text = historyText();
		// Delivered again: nothing written.
		const again = await requestsOf(async () => await deliver(records.flat(), 10, 4));
		expect({ PATCH: again.history.PATCH, POST: again.history.POST }).toEqual({ PATCH: undefined, POST: undefined });
		expect(historyText()).toEqual(text);
	});

	it('puts a late record between the entries it falls between, once', async () => {
		for (const [at, rateOf] of SHOPS) await deliver(shopOf(stays, at, rateOf));
		// A record of the first stay collected between the first and the second shop, at another rate.
		const LATE = '2027-02-01T18:00:00.000Z';
		const late = shopOf(stays.slice(0, 1), LATE, () => 111);
		await deliver(late);
		await deliver(late);
		const first = stayName(stays[0]);
		const expected = expectedHistory([...SHOPS, [LATE, (stay, index) => (index === 0 ? 111 : baseRate(stay, index))]]);
		expect(historyOf()[first]).toEqual(expected[first]);
		expect(historyOf()[first]).toContain(`${LATE}=111`);
	});
});

describe('another workflow writing the same stay between the history write and the rates write', () => {
	it("makes the month wait for the next batch, which writes the history again with the other's rate: nothing lost", async () => {
		const one = stays.slice(0, 1);
		await deliver(shopOf(one, FIRST, () => 100));
		// As this execution's history write arrives, another workflow's node stores a newer record of the
		// stay at the stored rate (no history write of its own); this execution's rates row has then moved.
		let other: Promise<void> | undefined;
		api.onRequest(async (request) => {
			if (other || request.tableName !== HISTORY || request.method !== 'PATCH') return;
			other = (async () => {
				const result = await runRateChanges(api, DETECT, shopOf(one, THIRD, () => 100), { workflowId: 'other-workflow' });
				expect(result.error).toBeUndefined();
			})();
			await other;
		});
		await deliver(shopOf(one, SECOND, () => 120));
		api.onRequest(undefined);
		expect(other).toBeDefined();
		expect(historyOf()[stayName(one[0])]).toEqual([`${FIRST}=100`, `${SECOND}=120`, `${THIRD}=100`]);
		expect(String(api.rows(RATES)[0].rates)).toMatch(/^25=100\//);
	});
});

describe('Keep History', () => {
	const one = staysOf([100001], [1], '2027-03-20', 1);
	const daily = (day: number) => `2027-03-${String(day).padStart(2, '0')}T06:00:00.000Z`;

	it('prunes entries older than Keep History on each write, keeping the last before them: the rate when the kept history begins', async () => {
		for (let day = 1; day <= 6; day++) await deliver(shopOf(one, daily(day), () => 100 + day), undefined, 1, { ...DETECT, options: { keepHistoryDays: 2 } });
		// The newest record is of 6 March: entries from 4 March on, and 3 March's, the rate until then.
		expect(historyOf()[stayName(one[0])]).toEqual([3, 4, 5, 6].map((day) => `${daily(day)}=${100 + day}`));
	});

	it("leaves a month's history rows after its check-ins passed, and the clean-up removes them once the month ended Keep History days ago", async () => {
		const months = [...staysOf([100001], [1], '2027-02-27', 3), ...staysOf([100001], [1], '2027-04-01', 1)];
		const keep = { ...DETECT, options: { keepHistoryDays: 30 } };
		await deliver(shopOf(months, '2027-02-01T06:00:00.000Z', baseRate), undefined, 1, keep);
		const monthsOf = (table: string) => api.rows(table).map((row) => String(row.month)).sort();
		expect(monthsOf(HISTORY)).toEqual(['2027-02', '2027-03', '2027-04']);
		// 15 April: February and March have passed for the rates table; February's history ended 45 days ago, March's 15.
		await deliver(shopOf(staysOf([100001], [1], '2027-04-20', 1), '2027-04-15T06:00:00.000Z', baseRate), undefined, 1, keep);
		expect(monthsOf(RATES)).toEqual(['2027-04']);
		expect(monthsOf(HISTORY)).toEqual(['2027-03', '2027-04']);
		// 2 May: March ended 32 days ago.
		await deliver(shopOf(staysOf([100001], [1], '2027-05-20', 1), '2027-05-02T06:00:00.000Z', baseRate), undefined, 1, keep);
		expect(monthsOf(HISTORY)).toEqual(['2027-04', '2027-05']);
	});

	it('at 0 keeps no history: no table is made and nothing is sent to one', async () => {
		const off = { ...DETECT, options: { keepHistoryDays: 0 } };
		for (const [at, rateOf] of SHOPS) await deliver(shopOf(stays, at, rateOf), undefined, 1, off);
		expect(api.tables().map((table) => table.name)).not.toContain(HISTORY);
		expect(api.requests.filter((request) => request.tableName === HISTORY || JSON.stringify(request.body ?? '').includes(HISTORY))).toEqual([]);
		expect(api.rows(RATES).length).toBe(4);
	});
});

/** Requests of the same shops, one record a POST, with and without history: what the history costs. */
describe('what the history costs in requests', () => {
	it('the three shops and a fourth that moves nothing, later the same day, one record a POST, 4 in flight: Keep History 90 and 0', async () => {
		const shops = [...SHOPS, ['2027-02-03T12:00:00.000Z', thirdRate] as const];
		const perShop = async (parameters: typeof DETECT) => {
			const counts: number[] = [];
			for (const [at, rateOf] of shops) counts.push((await requestsOf(async () => await deliver(shopOf(stays, at, rateOf), 1, 4, parameters))).all);
			return counts;
		};
		const kept = await perShop(DETECT);
		// The same shops into tables of their own, without history.
		const none = await perShop({ ...DETECT, ratesTable: 'rates_without_history', changesTable: 'changes_without_history', options: { keepHistoryDays: 0 } });
		const perRecord = (counts: number[]) => counts.map((count) => (count / stays.length).toFixed(2)).join(', ');
		process.stdout.write(`Requests a record, shops 1 to 4, one record a POST, 4 in flight: Keep History 90 ${perRecord(kept)}; Keep History 0 ${perRecord(none)}\n`);
		expect(api.tables().map((table) => table.name)).not.toContain('rates_without_history_history');
		// A shop that moves nothing costs what it costs without history.
		expect(kept[3]).toBe(none[3]);
	});
});
