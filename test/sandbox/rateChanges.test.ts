import { deliveredRecords, START, useSubscribedSandbox } from './frozenSandbox';
import type { ChangeType, ExpectedChange, RateRecord, RunSummary } from '../../platform/sandbox';

const CHANGES = { seed: 42, changed: 0.1, soldOut: 0.05, backOnSale: 0.5 };

// A frozen clock: a repeat made at once must still be collected later than the run it repeats.
const { sandbox, control, receiver } = useSubscribedSandbox();

/** What the Rate Changes node keys a stay on. */
function stayOf(record: RateRecord): string {
	return [record.hotelCode, record.websiteCode, record.checkIn.slice(0, 10), record.los, record.guests, record.roomType].join('|');
}

function recNumber(record: RateRecord): number {
	return Number(/-rec(\d+)$/.exec(record.recordId)?.[1]);
}

/** The records the receiver got from one run, in record order. */
function deliveredBy(summary: RunSummary): RateRecord[] {
	const prefix = `shop${summary.shopId}-run${summary.runId}-rec`;
	return deliveredRecords(receiver).filter((record) => record.recordId.startsWith(prefix)).sort((a, b) => recNumber(a) - recNumber(b));
}

function changeTypeOf(previousRate: number, rate: number): ChangeType {
	if (rate === 0) return 'soldOut';
	if (previousRate === 0) return 'backOnSale';
	return rate > previousRate ? 'up' : 'down';
}

/** What a consumer comparing each record with the last one of its stay finds, worked out from the deliveries alone. */
function changesBetween(previous: RateRecord[], next: RateRecord[]): ExpectedChange[] {
	const lastByStay = new Map(previous.map((record) => [stayOf(record), record]));
	return next.flatMap((record) => {
		const before = lastByStay.get(stayOf(record));
		if (!before) throw new Error(`${record.recordId} is a stay the repeated run did not have`);
		if (before.onsiteRate === record.onsiteRate) return [];
		const { recordId, hotelCode, websiteCode, checkIn, los, guests, roomType, currency } = record;
		return [{ recordId, hotelCode, websiteCode, checkIn, los, guests, roomType, currency, previousRate: before.onsiteRate || null, rate: record.onsiteRate || null, changeType: changeTypeOf(before.onsiteRate, record.onsiteRate) }];
	});
}

function countByType(changes: ExpectedChange[]): Record<ChangeType, number> {
	const counts: Record<ChangeType, number> = { up: 0, down: 0, soldOut: 0, backOnSale: 0 };
	for (const change of changes) counts[change.changeType]++;
	return counts;
}

/** What a sold-out record sets; the only fields a repeat's changes may touch. */
const RATE_FIELDS: ReadonlyArray<keyof RateRecord> = ['onsiteRate', 'netRate', 'taxAmount', 'statusCode', 'roomAvailable', 'roomLeft', 'isLAR', 'promo', 'otherInformation'];
const RUN_FIELDS: ReadonlyArray<keyof RateRecord> = ['recordId', 'dtCollected'];

/** Every field a repeat keeps from the run it repeats. */
function withoutRunAndRate(record: RateRecord): Partial<RateRecord> {
	return Object.fromEntries(Object.entries(record).filter(([field]) => ![...RUN_FIELDS, ...RATE_FIELDS].includes(field as keyof RateRecord)));
}

function soldOutShape(record: RateRecord): Partial<RateRecord> {
	return Object.fromEntries(RATE_FIELDS.map((field) => [field, record[field]]));
}

describe('stays within one run', () => {
	it('makes every record a stay of its own when a run has more records than pairs × horizon: one guest more per round', async () => {
		const shop = sandbox.data.shops.get(4)!;
		const round = shop.hotelCodes.length * shop.config.websiteCode.length * shop.config.horizon;
		const summary = await sandbox.runShop({ shopId: 4, records: Math.floor(round * 2.5), perDelivery: 50 });
		const records = deliveredBy(summary);
		expect(records).toHaveLength(Math.floor(round * 2.5));
		expect(new Set(records.map(stayOf)).size).toBe(records.length);
		expect(records.map((record) => record.guests)).toEqual(records.map((_, i) => 2 + Math.floor(i / round)));
		expect(records.every((record) => record.occupancy === record.guests)).toBe(true);
	});
});

describe('repeating a run (repeatRun)', () => {
	it('without changes delivers the same stays and rates again, with new recordIds and a later dtCollected', async () => {
		const base = await sandbox.runShop({ shopId: 3, records: 300, perDelivery: 50 });
		const repeat = await sandbox.runShop({ repeatRun: base.runId, perDelivery: 50 });
		expect(repeat).toMatchObject({ shopId: 3, account: 'demo', records: 300, byStatus: { '200': 6 }, repeatOf: base.runId, expectedChanges: [] });
		expect(Date.parse(repeat.collectedAt)).toBeGreaterThan(Date.parse(base.collectedAt));
		const before = deliveredBy(base);
		const after = deliveredBy(repeat);
		expect(after).toEqual(before.map((record, i) => ({ ...record, recordId: `shop3-run${repeat.runId}-rec${i + 1}`, dtCollected: repeat.collectedAt })));
	});

	it('is collected the next day, as a daily shop collects, while the clock is less than a day past the run it repeats', async () => {
		const base = await sandbox.runShop({ shopId: 3, records: 5 });
		sandbox.setClock('2026-12-01T12:00:00.000Z');
		const repeat = await sandbox.runShop({ repeatRun: base.runId });
		expect(Date.parse(repeat.collectedAt) - Date.parse(base.collectedAt)).toBe(24 * 3_600_000);
		expect(sandbox.now().getTime()).toBeLessThan(Date.parse(repeat.collectedAt));
	});

	it('is collected at the clock’s time once the clock is a day past the run it repeats', async () => {
		const base = await sandbox.runShop({ shopId: 3, records: 5 });
		sandbox.setClock('2026-12-03T12:00:00.000Z');
		const repeat = await sandbox.runShop({ repeatRun: base.runId });
		expect(repeat.collectedAt).toBe('2026-12-03T12:00:00.000Z');
		expect(deliveredBy(repeat).every((record) => record.dtCollected === repeat.collectedAt)).toBe(true);
	});

	describe('with changes', () => {
		let base: RunSummary;
		let repeat: RunSummary;

		beforeEach(async () => {
			base = await sandbox.runShop({ shopId: 2, records: 1000, perDelivery: 100 });
			repeat = await sandbox.runShop({ repeatRun: base.runId, changes: CHANGES, perDelivery: 100 });
		});

		it('reports in expectedChanges exactly what differs between the two runs’ deliveries, in record order', () => {
			const found = changesBetween(deliveredBy(base), deliveredBy(repeat));
			expect(found.length).toBeGreaterThan(0);
			expect(repeat.expectedChanges).toEqual(found);
		});

		it('changes round(share × eligible) records of each kind: changed and soldOut from those on sale, backOnSale from the sold out', () => {
			const onSale = deliveredBy(base).filter((record) => record.onsiteRate > 0).length;
			const soldOut = 1000 - onSale;
			expect(soldOut).toBeGreaterThan(10);
			const counts = countByType(repeat.expectedChanges ?? []);
			expect(counts.up + counts.down).toBe(Math.round(CHANGES.changed * onSale));
			expect(counts.up).toBeGreaterThan(0);
			expect(counts.down).toBeGreaterThan(0);
			expect(counts.soldOut).toBe(Math.round(CHANGES.soldOut * onSale));
			expect(counts.backOnSale).toBe(Math.round(CHANGES.backOnSale * soldOut));
		});

		it('moves a changed rate by 5 to 30 % in cents, with taxAmount and netRate following; sold-out and back-on-sale records look like the sandbox’s own', () => {
			const before = deliveredBy(base);
			const after = deliveredBy(repeat);
			const anySoldOut = before.find((record) => record.onsiteRate === 0)!;
			const anyOnSale = before.find((record) => record.onsiteRate > 0)!;
			for (const [i, record] of after.entries()) {
				const previous = before[i];
				expect(withoutRunAndRate(record)).toEqual(withoutRunAndRate(previous));
				if (record.onsiteRate === previous.onsiteRate) {
					expect(record).toEqual({ ...previous, recordId: record.recordId, dtCollected: record.dtCollected });
				} else if (record.onsiteRate === 0) {
					expect(soldOutShape(record)).toEqual(soldOutShape(anySoldOut));
				} else if (previous.onsiteRate === 0) {
					expect(record).toMatchObject({ statusCode: anyOnSale.statusCode, roomAvailable: anyOnSale.roomAvailable });
					expect(record.onsiteRate).toBeGreaterThan(0);
					expect(record.taxAmount).toBeGreaterThan(0);
				} else {
					// Whole cents make the share move by up to half a cent either side of 5 and 30 %.
					const move = Math.abs(record.onsiteRate - previous.onsiteRate) / previous.onsiteRate;
					expect(move).toBeGreaterThanOrEqual(0.05 - 0.0001);
					expect(move).toBeLessThanOrEqual(0.3 + 0.0001);
					expect(Number(record.onsiteRate.toFixed(2))).toBe(record.onsiteRate);
					expect(record.taxAmount / record.onsiteRate).toBeCloseTo(previous.taxAmount / previous.onsiteRate, 3);
					expect(record).toEqual({ ...previous, recordId: record.recordId, dtCollected: record.dtCollected, onsiteRate: record.onsiteRate, netRate: record.netRate, taxAmount: record.taxAmount });
				}
				expect(record.netRate).toBeCloseTo(record.taxStatus === 1 ? record.onsiteRate - record.taxAmount : record.onsiteRate, 2);
			}
		});

		it('makes the same changes for the same seed, and other ones for another seed', async () => {
			const again = await sandbox.runShop({ repeatRun: base.runId, changes: CHANGES, perDelivery: 100 });
			const other = await sandbox.runShop({ repeatRun: base.runId, changes: { ...CHANGES, seed: 43 }, perDelivery: 100 });
			const byRecord = (summary: RunSummary): unknown[] => (summary.expectedChanges ?? []).map(({ recordId, ...change }) => ({ rec: recordId.replace(/-run\d+-/, '-'), ...change }));
			expect(byRecord(again)).toEqual(byRecord(repeat));
			expect(byRecord(other)).not.toEqual(byRecord(repeat));
		});

		it('repeats a repeat: its changes count from the repeat, later again', async () => {
			const next = await sandbox.runShop({ repeatRun: repeat.runId, changes: { ...CHANGES, seed: 7 }, perDelivery: 100 });
			expect(next.repeatOf).toBe(repeat.runId);
			expect(Date.parse(next.collectedAt)).toBeGreaterThan(Date.parse(repeat.collectedAt));
			expect(next.expectedChanges).toEqual(changesBetween(deliveredBy(repeat), deliveredBy(next)));
			expect(next.expectedChanges?.length).toBeGreaterThan(0);
		});
	});

	describe('with drift: the small moves of a day', () => {
		const DRIFTING = { seed: 9, changed: 0.1, drift: 0.6, soldOut: 0.05 };

		it('moves round(drift × on sale) other rates by 0.5 to 4.9 %, and the changed ones by 5 to 30 %, every one reported', async () => {
			const base = await sandbox.runShop({ shopId: 2, records: 500, perDelivery: 100 });
			const repeat = await sandbox.runShop({ repeatRun: base.runId, changes: DRIFTING, perDelivery: 100 });
			const before = deliveredBy(base);
			const onSale = before.filter((record) => record.onsiteRate > 0).length;
			expect(repeat.expectedChanges).toEqual(changesBetween(before, deliveredBy(repeat)));
			const moves = (repeat.expectedChanges ?? [])
				.filter((change) => change.previousRate !== null && change.rate !== null)
				.map((change) => Math.abs((change.rate as number) - (change.previousRate as number)) / (change.previousRate as number));
			const small = moves.filter((move) => move < 0.05 - 0.0001);
			expect(moves).toHaveLength(Math.round(0.1 * onSale) + Math.round(0.6 * onSale));
			expect(small).toHaveLength(Math.round(0.6 * onSale));
			// Whole cents move the share by up to half a cent either side of 0.5 %.
			expect(Math.min(...small)).toBeGreaterThanOrEqual(0.005 - 0.0005);
			expect(moves.filter((move) => move >= 0.05 - 0.0001).every((move) => move <= 0.3 + 0.0001)).toBe(true);
			expect(countByType(repeat.expectedChanges ?? []).soldOut).toBe(Math.round(0.05 * onSale));
		});

		it('leaves the changed and back-on-sale records of a seed as they are without drift: drift takes other records', async () => {
			const base = await sandbox.runShop({ shopId: 2, records: 300, perDelivery: 100 });
			const rec = (change: ExpectedChange) => change.recordId.replace(/-run\d+-/, '-');
			const bigOrBack = (summary: RunSummary) =>
				(summary.expectedChanges ?? [])
					.filter((change) => change.changeType === 'backOnSale' || (change.changeType !== 'soldOut' && Math.abs((change.rate as number) - (change.previousRate as number)) >= 0.05 * (change.previousRate as number) - 0.01))
					.map((change) => [rec(change), change.rate]);
			const changes = { ...DRIFTING, backOnSale: 0.5 };
			const withDrift = await sandbox.runShop({ repeatRun: base.runId, changes, perDelivery: 100 });
			const without = await sandbox.runShop({ repeatRun: base.runId, changes: { ...changes, drift: 0 }, perDelivery: 100 });
			expect(bigOrBack(withDrift)).toEqual(bigOrBack(without));
			expect(bigOrBack(without).length).toBeGreaterThan(0);
		});
	});

	describe("repeatRun 'latest'", () => {
		it('repeats the latest run of the shop named, whatever its runId, so a printed command follows the ones before it', async () => {
			const first = await sandbox.runShop({ shopId: 3, records: 20 });
			await sandbox.runShop({ shopId: 4, records: 5 });
			const { status, data } = await control.post('/run-shop', { shopId: 3, repeatRun: 'latest', changes: { seed: 7, changed: 0.2 } });
			expect(status).toBe(200);
			expect(data).toMatchObject({ shopId: 3, repeatOf: first.runId, expectedChanges: changesBetween(deliveredBy(first), deliveredBy(data as RunSummary)) });
			const next = await sandbox.runShop({ shopId: 3, repeatRun: 'latest', replay: true });
			expect(next.repeatOf).toBe((data as RunSummary).runId);
		});
	});

	it('is driven by POST /__sandbox/run-shop and listed by GET /__sandbox/runs with repeatOf and expectedChanges', async () => {
		const base = (await control.post('/run-shop', { shopId: 5, records: 200, perDelivery: 20 })).data as RunSummary;
		const { status, data } = await control.post('/run-shop', { repeatRun: base.runId, changes: CHANGES, perDelivery: 20 });
		expect(status).toBe(200);
		expect(data).toMatchObject({ shopId: 5, repeatOf: base.runId, expectedChanges: changesBetween(deliveredBy(base), deliveredBy(data)) });
		const runs = (await control.get('/runs')).data as RunSummary[];
		expect(runs.map((run) => run.repeatOf)).toEqual([undefined, base.runId]);
		expect(runs[1]).toEqual(data);
	});

	it('still repeats a run after clearDeliveries, but not after reset', async () => {
		const base = await sandbox.runShop({ shopId: 3, records: 3 });
		sandbox.clearDeliveries();
		expect(await sandbox.runShop({ repeatRun: base.runId })).toMatchObject({ repeatOf: base.runId, records: 3 });
		sandbox.reset();
		await expect(sandbox.runShop({ repeatRun: base.runId })).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/unknown repeatRun/) });
	});

	it.each<[string, (runId: number) => Record<string, unknown>, RegExp]>([
		['repeatRun is unknown', (runId) => ({ repeatRun: runId + 1 }), /unknown repeatRun \d+: no run of this sandbox/],
		['repeatRun is not an integer', (runId) => ({ repeatRun: String(runId) }), /repeatRun must be a runId \(an integer\) or 'latest'/],
		["repeatRun is 'latest' without shopId", () => ({ repeatRun: 'latest' }), /repeatRun 'latest' needs shopId/],
		["repeatRun is 'latest' of a shop without runs", () => ({ repeatRun: 'latest', shopId: 4 }), /shop 4 has no run to repeat yet/],
		['changes comes without repeatRun', () => ({ shopId: 3, changes: { changed: 0.1 } }), /changes needs repeatRun/],
		['a share is above 1', (runId) => ({ repeatRun: runId, changes: { changed: 1.2 } }), /changes.changed must be a number from 0 to 1/],
		['a share is below 0', (runId) => ({ repeatRun: runId, changes: { backOnSale: -0.1 } }), /changes.backOnSale must be a number from 0 to 1/],
		['a share is a string', (runId) => ({ repeatRun: runId, changes: { soldOut: '0.1' } }), /changes.soldOut must be a number from 0 to 1/],
		['changed and soldOut add up past 1', (runId) => ({ repeatRun: runId, changes: { changed: 0.6, soldOut: 0.5 } }), /must not pass 1/],
		['changed, drift and soldOut add up past 1', (runId) => ({ repeatRun: runId, changes: { changed: 0.3, drift: 0.6, soldOut: 0.2 } }), /changed \+ changes.drift \+ changes.soldOut must not pass 1/],
		['the seed is not an integer', (runId) => ({ repeatRun: runId, changes: { seed: 1.5 } }), /changes.seed must be an integer/],
		['changes has an unknown field', (runId) => ({ repeatRun: runId, changes: { soldout: 0.1 } }), /unknown field 'changes.soldout'/],
		['records is set with repeatRun', (runId) => ({ repeatRun: runId, records: 5 }), /records cannot be set with repeatRun/],
		['shopId is another shop than the repeated run’s', (runId) => ({ repeatRun: runId, shopId: 4 }), /not the shop of run \d+ \(shop 3\)/],
		['an option is misspelt', (runId) => ({ repeatrun: runId, shopId: 3 }), /unknown field 'repeatrun'/],
	])('answers 400 when %s', async (_case, body, reason) => {
		const base = await sandbox.runShop({ shopId: 3, records: 2 });
		const { status, data } = await control.post('/run-shop', body(base.runId));
		expect(status).toBe(400);
		expect(data).toEqual({ error: true, status: 400, message: expect.stringMatching(reason) });
	});
});

describe('delivering again (replay) and at once twice (copies)', () => {
	it('replay delivers a run’s records again exactly as they were: same recordIds, same dtCollected, same rates', async () => {
		const base = await sandbox.runShop({ shopId: 3, records: 40, perDelivery: 10 });
		const first = deliveredRecords(receiver).map((record) => ({ ...record }));
		const replay = await sandbox.runShop({ repeatRun: base.runId, replay: true, perDelivery: 10 });
		expect(replay).toMatchObject({ shopId: 3, repeatOf: base.runId, expectedChanges: [], collectedAt: base.collectedAt, deliveries: 4 });
		expect(deliveredRecords(receiver).slice(first.length).sort((a, b) => recNumber(a) - recNumber(b))).toEqual(first.sort((a, b) => recNumber(a) - recNumber(b)));
	});

	it('copies posts every delivery that many times', async () => {
		const run = await sandbox.runShop({ shopId: 3, records: 30, perDelivery: 10, copies: 2 });
		expect(run).toMatchObject({ deliveries: 6, records: 30, byStatus: { '200': 6 } });
		const counts = new Map<string, number>();
		for (const record of deliveredRecords(receiver)) counts.set(record.recordId, (counts.get(record.recordId) ?? 0) + 1);
		expect([...counts.values()]).toEqual(Array.from({ length: 30 }, () => 2));
	});

	it.each([
		['replay without repeatRun', { shopId: 3, replay: true }, /replay needs repeatRun/],
		['replay with changes', { repeatRun: 1, replay: true, changes: { changed: 0.1 } }, /leave changes out/],
		['copies out of range', { shopId: 3, copies: 9 }, /copies/],
	])('answers 400 for %s', async (_case, body, reason) => {
		await sandbox.runShop({ shopId: 3, records: 1 });
		const { status, data } = await control.post('/run-shop', body);
		expect(status).toBe(400);
		expect(data).toMatchObject({ status: 400, message: expect.stringMatching(reason) });
	});
});

describe('shops of earlier days (daysAgo)', () => {
	const DAY = 24 * 3_600_000;
	const MARKET = { seed: 5, myHotelCode: 100085 };

	it('a fresh run is collected that many days before the clock, for the stays a run collected now has, at the same rates', async () => {
		const now = await sandbox.runShop({ shopId: 1, records: 60, market: MARKET });
		const earlier = await sandbox.runShop({ shopId: 1, records: 60, market: MARKET, daysAgo: 28 });
		expect(Date.parse(now.collectedAt) - Date.parse(earlier.collectedAt)).toBe(28 * DAY);
		const [today, then] = [deliveredBy(now), deliveredBy(earlier)];
		expect(then.every((record) => record.dtCollected === earlier.collectedAt)).toBe(true);
		expect(then.map(withoutRunAndRate)).toEqual(today.map(withoutRunAndRate));
		expect(then.map((record) => record.onsiteRate)).toEqual(today.map((record) => record.onsiteRate));
	});

	it('repeats collected on later days, each after the one it repeats, move the rates of the same stays by their changes: a history', async () => {
		const days = [28, 21, 14, 7];
		const runs = [await sandbox.runShop({ shopId: 1, records: 60, market: MARKET, daysAgo: days[0] })];
		for (const [i, daysAgo] of days.slice(1).entries()) {
			runs.push(await sandbox.runShop({ shopId: 1, repeatRun: 'latest', daysAgo, changes: { seed: 30 + i, drift: 0.5, changed: 0.2 } }));
		}
		expect(runs.map((run) => (Date.parse(START) - Date.parse(run.collectedAt)) / DAY)).toEqual(days);
		for (const [i, run] of runs.slice(1).entries()) {
			expect(run.repeatOf).toBe(runs[i].runId);
			expect(run.expectedChanges).toEqual(changesBetween(deliveredBy(runs[i]), deliveredBy(run)));
			expect((run.expectedChanges ?? []).length).toBeGreaterThan(30);
		}
		const stays = runs.map((run) => deliveredBy(run).map(stayOf));
		for (const other of stays.slice(1)) expect(other).toEqual(stays[0]);
		// A repeat without daysAgo is today's shop of the same stays, after them all.
		const today = await sandbox.runShop({ shopId: 1, repeatRun: 'latest' });
		expect(today.collectedAt).toBe(START);
		expect(deliveredBy(today).map(stayOf)).toEqual(stays[0]);
	});

	it.each<[string, Record<string, unknown>, RegExp]>([
		['daysAgo is not an integer', { shopId: 1, records: 2, daysAgo: 1.5 }, /daysAgo must be an integer/],
		['daysAgo is more than a year', { shopId: 1, records: 2, daysAgo: 366 }, /daysAgo/],
		['a repeat is not after the run it repeats', { shopId: 1, repeatRun: 'latest', daysAgo: 10 }, /daysAgo 10 is not after run \d+ .*collected after the run it repeats/],
		['a replay has daysAgo', { shopId: 1, repeatRun: 'latest', replay: true, daysAgo: 1 }, /replay delivers a run as it was collected: leave daysAgo out/],
	])('answers 400 when %s, and the run takes no runId', async (_case, body, reason) => {
		const base = await sandbox.runShop({ shopId: 1, records: 2, daysAgo: 7 });
		const { status, data } = await control.post('/run-shop', body);
		expect(status).toBe(400);
		expect(data).toEqual({ error: true, status: 400, message: expect.stringMatching(reason) });
		expect((await sandbox.runShop({ shopId: 1, records: 1 })).runId).toBe(base.runId + 1);
	});
});
