import { execFileSync } from 'node:child_process';
import path from 'node:path';

import {
	compareWithStored,
	isSoldOut,
	meetsRule,
	inCollectionOrder,
	readObservation,
	type ChangeRule,
	type Observation,
	type RateChange,
	type RateField,
	type StoredRate,
} from '../../nodes/RateChanges/rules/observation';
import { fieldErrorOf } from '../harness/fieldErrors';
import { rateRecord } from '../harness/rateRecords';

/** What Detect Changes compares (nodes/RateChanges/rateChanges.ts), rule by rule. */

const COLLECTED = '2025-03-01T06:30:00.000Z';
const LATER = '2025-03-02T06:30:00.000Z';

/** The record the Rate Record Trigger hands on, read as Detect Changes reads it. */
function observe(overrides: Record<string, unknown> = {}, rateField: RateField = 'onsiteRate'): Observation {
	return readObservation(rateRecord(overrides), rateField);
}

function stored(overrides: Partial<StoredRate> = {}): StoredRate {
	return { currency: 'EUR', onsiteRate: 100, netRate: 90, dtCollected: COLLECTED, ...overrides };
}

/** A newer record of the stay whose stored record is `before`, compared on `rateField`. */
function compare(rates: { onsiteRate?: unknown; netRate?: unknown; currency?: string }, before: Partial<StoredRate> = {}, rateField: RateField = 'onsiteRate') {
	return compareWithStored(observe({ dtCollected: LATER, ...rates }, rateField), stored(before), rateField);
}

/**
 * dtCollected of records read in a Node.js process running in `zone`: a process's timezone is set
 * when it starts (Jest hands each test file a copy of process.env, so setting TZ here changes nothing).
 */
function collectedInZone(zone: string, values: string[]): string[] {
	const script = `
		const { readObservation } = require(${JSON.stringify(path.resolve(__dirname, '../../nodes/RateChanges/rules/observation'))});
		const records = ${JSON.stringify(values.map((dtCollected) => rateRecord({ dtCollected })))};
		console.log(JSON.stringify(records.map((record) => readObservation(record, 'onsiteRate').dtCollected)));
	`;
	const output = execFileSync(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', script], {
		env: { ...process.env, TZ: zone },
		encoding: 'utf8',
	});
	return JSON.parse(output) as string[];
}

function without(field: string): Record<string, unknown> {
	const record = rateRecord();
	delete record[field];
	return record;
}

describe('a record is read by the fields of its stay, its rates and its collection time', () => {
	it('reads a spec record into its stay, rates, UTC collection time and the hotel\'s place', () => {
		expect(observe()).toEqual({
			stayKey: '100001|2|2025-04-10|1|2|Double',
			hotelCode: 100001,
			websiteCode: 2,
			checkIn: '2025-04-10',
			los: 1,
			guests: 2,
			roomType: 'Double',
			shopId: 7,
			hotelName: 'Harbour View Hotel',
			websiteName: 'ota.example',
			currency: 'EUR',
			onsiteRate: 142.5,
			netRate: 130,
			totalRate: 142.5,
			dtCollected: COLLECTED,
			latitude: 38.7071,
			longitude: -9.1355,
		});
	});

	it('reads a place the record gives as text, and takes a missing or impossible one as unknown, never as an error', () => {
		expect(observe({ latitude: '-33.9249', longitude: '18.4241' })).toMatchObject({ latitude: -33.9249, longitude: 18.4241 });
		expect(observe({ latitude: '', longitude: undefined })).toMatchObject({ latitude: null, longitude: null });
		expect(observe({ latitude: '91', longitude: 'east' })).toMatchObject({ latitude: null, longitude: null });
	});

	it('reads the total a guest pays: the onsite rate, plus the tax where the website shows it apart (taxStatus 0)', () => {
		expect(observe({ taxStatus: 1, taxAmount: 12.5 }).totalRate).toBe(142.5);
		expect(observe({ taxStatus: 0, taxAmount: 12.5 }).totalRate).toBe(155);
		expect(observe({ taxStatus: 0, taxAmount: 12.5 }, 'netRate').totalRate).toBe(155);
		expect(observe({ onsiteRate: 0, netRate: 0, taxStatus: 0, taxAmount: 0 }).totalRate).toBeNull();
	});

	it.each(['hotelCode', 'websiteCode', 'checkIn', 'los', 'guests', 'currency', 'dtCollected', 'onsiteRate'])(
		'refuses a record without %s, naming it',
		(field) => {
			expect(fieldErrorOf(() => readObservation(without(field), 'onsiteRate')).field).toBe(field);
		},
	);

	it.each([
		['hotelCode', 'abc'],
		['hotelCode', 0],
		['websiteCode', 2.5],
		['checkIn', 'next Tuesday'],
		['checkIn', '10/04/2025'],
		['los', -1],
		['guests', 'two'],
		['currency', 'EURO'],
		['dtCollected', '2025-03-01'],
		['dtCollected', 'yesterday'],
		['onsiteRate', -5],
		['onsiteRate', '12,50'],
	])('refuses %s %p, naming the field', (field, value) => {
		expect(fieldErrorOf(() => observe({ [field]: value })).field).toBe(field);
	});

	it('reads rates, text and the currency by the shared field rules, in their wording', () => {
		expect(fieldErrorOf(() => observe({ onsiteRate: '0x10' })).reason).toBe('must be a number of 0 or more');
		expect(fieldErrorOf(() => observe({ onsiteRate: '1e3' })).reason).toBe('must be a number of 0 or more');
		expect(observe({ onsiteRate: '.5' }).onsiteRate).toBe(0.5);
		expect(fieldErrorOf(() => observe({ onsiteRate: '  ' })).reason).toBe('is required: the rate to compare');
		expect(fieldErrorOf(() => observe({ currency: ' ' })).reason).toBe('is required');
		expect(fieldErrorOf(() => observe({ currency: 'EURO' })).reason).toBe('must be a three-letter currency code such as EUR');
		expect(observe({ currency: ' usd ' }).currency).toBe('USD');
		expect(fieldErrorOf(() => observe({ roomType: { name: 'Double' } })).reason).toBe('must be text');
	});

	it('requires the compared rate only: Net Rate needs netRate, and a missing onsiteRate is then unknown, not sold out', () => {
		expect(fieldErrorOf(() => readObservation(without('netRate'), 'netRate')).field).toBe('netRate');
		const netOnly = readObservation(without('onsiteRate'), 'netRate');
		expect(netOnly).toMatchObject({ onsiteRate: null, netRate: 130 });
		expect(readObservation(without('netRate'), 'onsiteRate')).toMatchObject({ onsiteRate: 142.5, netRate: null });
	});

	it('accepts codes, counts and rates written as text, as sheets and webhooks hand them over', () => {
		const observation = observe({ hotelCode: '100001', websiteCode: ' 2 ', los: '1', guests: '2', onsiteRate: '142.50', netRate: '130' });
		expect(observation).toMatchObject({ hotelCode: 100001, websiteCode: 2, los: 1, guests: 2, onsiteRate: 142.5, netRate: 130 });
		expect(observation.stayKey).toBe(observe().stayKey);
	});

	it('reads a rate of 0 (the service\'s sold out, status 204) and null both as sold out', () => {
		expect(observe({ onsiteRate: 0 }).onsiteRate).toBe(0);
		expect(observe({ onsiteRate: null }).onsiteRate).toBe(0);
		expect(isSoldOut(observe({ onsiteRate: 0 }).onsiteRate)).toBe(true);
		expect(isSoldOut(observe({ onsiteRate: null }).onsiteRate)).toBe(true);
		expect(isSoldOut(observe().onsiteRate)).toBe(false);
	});

	it('keeps the check-in day as the service wrote it, whatever its offset', () => {
		expect(observe({ checkIn: '2025-04-10T23:30:00-05:00' }).checkIn).toBe('2025-04-10');
		expect(observe({ checkIn: '2025-04-10' }).checkIn).toBe('2025-04-10');
	});

	it('writes every collection time as UTC ISO 8601, so that text order is time order', () => {
		expect(observe({ dtCollected: '2025-03-01T08:30:00+02:00' }).dtCollected).toBe(COLLECTED);
		expect(observe({ dtCollected: '2025-03-01 06:30:00Z' }).dtCollected).toBe(COLLECTED);
	});

	it('reads a collection time without an offset as UTC, as the spec says, whatever the server\'s timezone', () => {
		expect(collectedInZone('America/New_York', ['2025-03-01T06:30:00', '2025-03-01 06:30'])).toEqual([COLLECTED, COLLECTED]);
		expect(collectedInZone('Asia/Tokyo', ['2025-03-01T06:30:00'])).toEqual([COLLECTED]);
	});

	it('writes the currency in capitals, so "eur" and "EUR" are one currency', () => {
		expect(observe({ currency: ' eur ' }).currency).toBe('EUR');
	});
});

describe('a stay is the hotel, website, check-in day, nights, guests and room: nothing else', () => {
	it('gives two records of one stay the same key, whoever shopped it, from where and when', () => {
		const other = observe({ shopId: 99, pos: 4, recordId: 'other', dtCollected: LATER, onsiteRate: 99, checkIn: '2025-04-10T00:00:00+02:00' });
		expect(other.stayKey).toBe(observe().stayKey);
	});

	it.each([
		['hotelCode', 100002],
		['websiteCode', 3],
		['checkIn', '2025-04-11T00:00:00Z'],
		['los', 2],
		['guests', 3],
		['roomType', 'Suite'],
	])('gives another %s another stay', (field, value) => {
		expect(observe({ [field]: value }).stayKey).not.toBe(observe().stayKey);
	});

	it('allows a record without a room type or hotel name', () => {
		const observation = readObservation({ ...without('roomType'), hotelName: null }, 'onsiteRate');
		expect(observation).toMatchObject({ roomType: '', hotelName: '', stayKey: '100001|2|2025-04-10|1|2|' });
	});
});

describe('a stay seen for the first time is "first seen"', () => {
	it('has its rate and nothing to compare with', () => {
		expect(compareWithStored(observe(), undefined, 'onsiteRate')).toEqual({
			kind: 'change',
			change: { changeType: 'firstSeen', previousRate: null, rate: 142.5, change: null, changePercent: null, previousCollected: null },
		});
	});

	it('has no rate when it is first seen sold out', () => {
		const comparison = compareWithStored(observe({ onsiteRate: 0 }), undefined, 'onsiteRate');
		expect(comparison).toMatchObject({ kind: 'change', change: { changeType: 'firstSeen', rate: null } });
	});
});

describe('a record collected no later than the stored one is stale and changes nothing', () => {
	it('is stale when collected at the same time (a redelivery), even at another rate', () => {
		expect(compareWithStored(observe({ onsiteRate: 200 }), stored({ dtCollected: COLLECTED }), 'onsiteRate')).toEqual({ kind: 'stale' });
	});

	it('is stale when collected earlier (a late delivery)', () => {
		expect(compareWithStored(observe({ onsiteRate: 0 }), stored({ dtCollected: LATER }), 'onsiteRate')).toEqual({ kind: 'stale' });
	});

	it('compares times, not how they were written', () => {
		const sameInstant = observe({ dtCollected: '2025-03-01T07:30:00+01:00', onsiteRate: 200 });
		expect(compareWithStored(sameInstant, stored(), 'onsiteRate')).toEqual({ kind: 'stale' });
	});
});

describe('a newer record at the same rate is unchanged', () => {
	it('is unchanged at the same rate', () => {
		expect(compare({ onsiteRate: 100 })).toEqual({ kind: 'unchanged' });
	});

	it('is unchanged when the rates differ by less than half a cent', () => {
		expect(compare({ onsiteRate: 100.004 })).toEqual({ kind: 'unchanged' });
	});

	it('is unchanged when the stay was sold out and still is', () => {
		expect(compare({ onsiteRate: 0 }, { onsiteRate: 0 })).toEqual({ kind: 'unchanged' });
		expect(compare({ onsiteRate: null }, { onsiteRate: 0 })).toEqual({ kind: 'unchanged' });
	});
});

describe('a newer record at another rate is a move up or down, to the cent', () => {
	it('is "up" with the change and its percentage of the previous rate', () => {
		expect(compare({ onsiteRate: 120 })).toEqual({
			kind: 'change',
			change: { changeType: 'up', previousRate: 100, rate: 120, change: 20, changePercent: 20, previousCollected: COLLECTED },
		});
	});

	it('is "down" with a negative change and percentage', () => {
		expect(compare({ onsiteRate: 135 }, { onsiteRate: 150 })).toMatchObject({
			kind: 'change',
			change: { changeType: 'down', previousRate: 150, rate: 135, change: -15, changePercent: -10 },
		});
	});

	it('gives cents, not floating-point noise (120.1 − 100 is 20.1)', () => {
		expect(compare({ onsiteRate: 120.1 })).toMatchObject({ change: { change: 20.1, changePercent: 20.1 } });
		expect(compare({ onsiteRate: 0.3 }, { onsiteRate: 0.1 })).toMatchObject({ change: { change: 0.2, changePercent: 200 } });
	});

	it('rounds the percentage to two decimals', () => {
		expect(compare({ onsiteRate: 301 }, { onsiteRate: 300 })).toMatchObject({ change: { change: 1, changePercent: 0.33 } });
		expect(compare({ onsiteRate: 44.44 }, { onsiteRate: 33.33 })).toMatchObject({ change: { change: 11.11, changePercent: 33.33 } });
		expect(compare({ onsiteRate: 98 }, { onsiteRate: 300 })).toMatchObject({ change: { change: -202, changePercent: -67.33 } });
	});
});

describe('a stay that runs out of rooms or gets them back changes availability', () => {
	it('is "sold out" with the previous rate and no rate, change or percentage', () => {
		expect(compare({ onsiteRate: 0 })).toEqual({
			kind: 'change',
			change: { changeType: 'soldOut', previousRate: 100, rate: null, change: null, changePercent: null, previousCollected: COLLECTED },
		});
		expect(compare({ onsiteRate: null })).toMatchObject({ change: { changeType: 'soldOut' } });
	});

	it('is "back on sale" with the new rate and no previous rate', () => {
		expect(compare({ onsiteRate: 120 }, { onsiteRate: 0 })).toEqual({
			kind: 'change',
			change: { changeType: 'backOnSale', previousRate: null, rate: 120, change: null, changePercent: null, previousCollected: COLLECTED },
		});
	});
});

describe('a record in another currency is the new reference, never an alert', () => {
	it('is rebased when the currency changed, however far the number moved', () => {
		expect(compare({ currency: 'USD', onsiteRate: 300 })).toEqual({ kind: 'rebased' });
		expect(compare({ currency: 'USD', onsiteRate: 0 })).toEqual({ kind: 'rebased' });
	});

	it('is still stale when it is not newer', () => {
		expect(compareWithStored(observe({ currency: 'USD' }), stored(), 'onsiteRate')).toEqual({ kind: 'stale' });
	});
});

describe('Rate Field chooses which rate is compared', () => {
	const rates = { onsiteRate: 100, netRate: 95 };

	it('compares onsiteRate with the stored onsiteRate', () => {
		expect(compare(rates, {}, 'onsiteRate')).toEqual({ kind: 'unchanged' });
	});

	it('compares netRate with the stored netRate', () => {
		expect(compare(rates, {}, 'netRate')).toMatchObject({ change: { changeType: 'up', previousRate: 90, rate: 95, change: 5, changePercent: 5.56 } });
	});

	it('takes a stored rate that was never known (kept while the other field was compared) as the new reference, not "back on sale"', () => {
		expect(compare(rates, { netRate: null }, 'netRate')).toEqual({ kind: 'rebased' });
	});
});

describe('the rule decides which changes alert', () => {
	const anyMove: ChangeRule = { minPercent: 0, minAmount: 0, direction: 'either', includeAvailability: true, includeFirstSeen: false };

	function move(previousRate: number, rate: number): RateChange {
		const comparison = compare({ onsiteRate: rate }, { onsiteRate: previousRate });
		if (comparison.kind !== 'change') throw new Error(`${previousRate} → ${rate} is not a change`);
		return comparison.change;
	}

	function availability(changeType: 'soldOut' | 'backOnSale' | 'firstSeen'): RateChange {
		return { changeType, previousRate: null, rate: null, change: null, changePercent: null, previousCollected: null };
	}

	it('alerts on any move with both thresholds at 0', () => {
		expect(meetsRule(move(100, 100.01), anyMove)).toBe(true);
		expect(meetsRule(move(100, 99.99), anyMove)).toBe(true);
	});

	it('alerts on a move of exactly Change At Least (%), and not on one just under', () => {
		const rule = { ...anyMove, minPercent: 10 };
		expect(meetsRule(move(100, 110), rule)).toBe(true);
		expect(meetsRule(move(100, 90), rule)).toBe(true);
		expect(meetsRule(move(100, 109.99), rule)).toBe(false);
		expect(meetsRule(move(100, 90.01), rule)).toBe(false);
	});

	it('alerts on a move of exactly Change At Least (Amount), and not on one just under', () => {
		const rule = { ...anyMove, minAmount: 15 };
		expect(meetsRule(move(150, 165), rule)).toBe(true);
		expect(meetsRule(move(150, 135), rule)).toBe(true);
		expect(meetsRule(move(150, 164.99), rule)).toBe(false);
	});

	it('with both set, alerts only on a move that passes both', () => {
		const rule = { ...anyMove, minPercent: 10, minAmount: 20 };
		expect(meetsRule(move(100, 120), rule)).toBe(true);
		expect(meetsRule(move(100, 115), rule)).toBe(false);
		expect(meetsRule(move(500, 525), rule)).toBe(false);
		expect(meetsRule(move(500, 550), rule)).toBe(true);
	});

	it('alerts on moves up only, or down only, as Direction says', () => {
		expect(meetsRule(move(100, 120), { ...anyMove, direction: 'up' })).toBe(true);
		expect(meetsRule(move(100, 80), { ...anyMove, direction: 'up' })).toBe(false);
		expect(meetsRule(move(100, 80), { ...anyMove, direction: 'down' })).toBe(true);
		expect(meetsRule(move(100, 120), { ...anyMove, direction: 'down' })).toBe(false);
	});

	it('alerts on sold out and back on sale as Include Sold Out and Back On Sale says, whatever the thresholds and direction', () => {
		const strict = { ...anyMove, minPercent: 50, minAmount: 1000, direction: 'up' as const };
		for (const changeType of ['soldOut', 'backOnSale'] as const) {
			expect(meetsRule(availability(changeType), strict)).toBe(true);
			expect(meetsRule(availability(changeType), { ...strict, includeAvailability: false })).toBe(false);
		}
	});

	it('alerts on a stay seen first only with Include First Seen on', () => {
		expect(meetsRule(availability('firstSeen'), anyMove)).toBe(false);
		expect(meetsRule(availability('firstSeen'), { ...anyMove, includeFirstSeen: true })).toBe(true);
	});
});

describe('several records of one stay in one batch are each compared, in collection order', () => {
	function items(...records: Array<Record<string, unknown>>) {
		return records.map((overrides, itemIndex) => ({ itemIndex, observation: observe(overrides) }));
	}
	const order = (batch: ReturnType<typeof items>) => inCollectionOrder(batch).map(({ itemIndex }) => itemIndex);

	it('keeps every collection of a stay, oldest first, wherever it comes in the items', () => {
		expect(order(items({ dtCollected: LATER }, { dtCollected: COLLECTED }, { dtCollected: '2025-02-28T06:30:00Z' }))).toEqual([2, 1, 0]);
	});

	it('counts records of a stay collected at the same time once: the first item', () => {
		expect(order(items({ onsiteRate: 100 }, { onsiteRate: 200 }, { onsiteRate: 300 }))).toEqual([0]);
		expect(order(items({ dtCollected: LATER }, { dtCollected: COLLECTED }, { dtCollected: LATER }))).toEqual([1, 0]);
	});

	it('keeps the records of other stays collected at the same time, in item order', () => {
		expect(order(items({ guests: 2 }, { guests: 3 }, { guests: 2, dtCollected: LATER }, { guests: 4 }))).toEqual([0, 1, 3, 2]);
	});
});
