import { badRequest } from './api/errors';
import { integer, rejectUnknownFields } from './api/fields';
import { createPrng, deriveSeed, type Prng } from './prng';
import { onSaleAgain, priced, recordIdFor, SOLD_OUT } from './rateRecords';
import type { RateRecord } from './types';

/**
 * Which rates a repeated run changes (sandbox extra). A consumer that compares each record with
 * the last one of the same stay must find exactly these changes, so each share is of the records
 * it can apply to, and the seed alone decides which records and what new rates.
 */
export interface RateChanges {
	/** The same seed changes the same records the same way (default 1). */
	seed: number;
	/** Share (0..1) of the records on sale whose rate goes up or down by 5 to 30 %. */
	changed: number;
	/**
	 * Share (0..1) of the records on sale whose rate drifts up or down by 0.5 to 4.9 %: the small
	 * moves of a day in a real market, which a consumer's threshold should keep out of its alerts.
	 */
	drift: number;
	/** Share (0..1) of the records on sale that become sold out. */
	soldOut: number;
	/** Share (0..1) of the sold-out records that come back on sale. */
	backOnSale: number;
}

export type ChangeType = 'up' | 'down' | 'soldOut' | 'backOnSale';

/** A record of a repeat whose rate differs from the run it repeats: a change a consumer should report. */
export interface ExpectedChange {
	recordId: string;
	hotelCode: number;
	websiteCode: number;
	checkIn: string;
	los: number;
	guests: number;
	roomType: string;
	currency: string;
	/** onsiteRate in the repeated run; null when it was sold out. */
	previousRate: number | null;
	/** onsiteRate in the repeat; null when sold out. */
	rate: number | null;
	changeType: ChangeType;
}

/** A repeat's own identity: everything else comes from the run it repeats. */
export interface RepeatStamp {
	shopId: number;
	runNo: number;
	collectedAt: number;
}

type PlannedChange = 'changed' | 'drift' | 'soldOut' | 'backOnSale';

const SHARES = ['changed', 'drift', 'soldOut', 'backOnSale'] as const;
const NO_CHANGES: RateChanges = { seed: 1, changed: 0, drift: 0, soldOut: 0, backOnSale: 0 };
/** How far a changed rate moves, and how far a drifting one. */
const MOVES = { changed: [0.05, 0.3], drift: [0.005, 0.049] } as const;
// Shares such as 0.7 + 0.3 add up to a hair above 1 in floating point.
const ROUNDING = 1e-9;

function share(value: unknown, field: string): number {
	if (typeof value !== 'number' || !(value >= 0 && value <= 1)) throw badRequest(`${field} must be a number from 0 to 1`);
	return value;
}

/** Checks the `changes` of a repeat; left out, the repeat delivers the same rates again. */
export function parseRateChanges(input: unknown): RateChanges {
	if (input === undefined) return NO_CHANGES;
	if (input === null || typeof input !== 'object' || Array.isArray(input)) throw badRequest('changes must be an object');
	const fields = input as Record<string, unknown>;
	rejectUnknownFields(fields, ['seed', ...SHARES], 'changes.');
	const changes = { ...NO_CHANGES };
	if (fields.seed !== undefined) changes.seed = integer(fields.seed, 'changes.seed');
	for (const key of SHARES) if (fields[key] !== undefined) changes[key] = share(fields[key], `changes.${key}`);
	if (changes.changed + changes.drift + changes.soldOut > 1 + ROUNDING) {
		throw badRequest('changes.changed + changes.drift + changes.soldOut must not pass 1: all three take from the records on sale');
	}
	return changes;
}

/** Up or down by a share drawn from [low, high], in whole cents: at least one cent away from the old rate, and never down to 0. */
function movedRate(rate: number, random: Prng, [low, high]: readonly [number, number]): number {
	const cents = Math.round(rate * 100);
	const step = Math.max(1, Math.round(cents * random.float(low, high, 3)));
	const down = random.chance(0.5) && cents - step >= 1;
	return (down ? cents - step : cents + step) / 100;
}

/** The fields a record on sale has and a sold-out one has not (SOLD_OUT's). */
const ON_SALE_FIELDS = ['onsiteRate', 'netRate', 'taxAmount', 'isLAR', 'roomAvailable', 'roomLeft', 'promo', 'otherInformation', 'statusCode'] as const;

function changedFields(record: RateRecord, change: PlannedChange, random: Prng, onSaleTwin: RateRecord | undefined): Partial<RateRecord> {
	switch (change) {
		case 'changed':
		case 'drift':
			// The tax stays the same share of the rate, so taxAmount and netRate move with it.
			return priced(movedRate(record.onsiteRate, random, MOVES[change]), record.taxAmount / record.onsiteRate, record.taxStatus === 1);
		case 'soldOut':
			return SOLD_OUT;
		case 'backOnSale':
			return onSaleTwin ? Object.fromEntries(ON_SALE_FIELDS.map((field) => [field, onSaleTwin[field]])) : onSaleAgain(record, random);
	}
}

function rateOrNull(onsiteRate: number): number | null {
	return onsiteRate > 0 ? onsiteRate : null;
}

function expectedChange(previous: RateRecord, record: RateRecord): ExpectedChange {
	const { recordId, hotelCode, websiteCode, checkIn, los, guests, roomType, currency } = record;
	const previousRate = rateOrNull(previous.onsiteRate);
	const rate = rateOrNull(record.onsiteRate);
	let changeType: ChangeType;
	if (rate === null) changeType = 'soldOut';
	else if (previousRate === null) changeType = 'backOnSale';
	else changeType = rate > previousRate ? 'up' : 'down';
	return { recordId, hotelCode, websiteCode, checkIn, los, guests, roomType, currency, previousRate, rate, changeType };
}

/** Which record gets which change: disjoint sets, each round(share × the records it can apply to). */
function plannedChanges(base: RateRecord[], changes: RateChanges): Map<number, PlannedChange> {
	const onSale = base.flatMap((record, i) => (record.onsiteRate > 0 ? [i] : []));
	const soldOut = base.flatMap((record, i) => (record.onsiteRate === 0 ? [i] : []));
	const random = createPrng(deriveSeed(changes.seed, 'rate-changes'));
	const changedCount = Math.round(changes.changed * onSale.length);
	const driftCount = Math.min(Math.round(changes.drift * onSale.length), onSale.length - changedCount);
	// Shares adding up to 1 can all round half up; then sold out gets the records left.
	const soldOutCount = Math.min(Math.round(changes.soldOut * onSale.length), onSale.length - changedCount - driftCount);
	const planned = new Map<number, PlannedChange>();
	random.sample(onSale, changedCount + driftCount + soldOutCount).forEach((i, n) => planned.set(i, n < changedCount ? 'changed' : n < changedCount + driftCount ? 'drift' : 'soldOut'));
	for (const i of random.sample(soldOut, Math.round(changes.backOnSale * soldOut.length))) planned.set(i, 'backOnSale');
	return planned;
}

/**
 * The stays of `base` collected again: every record in the same order, with the repeat's
 * recordId (same rec number) and dtCollected, the same rates but for the planned changes, and
 * those changes as a consumer should report them, in record order. A stay back on sale takes
 * the rate of its twin in `onSaleTwins` (a comp-set shop's layout), else one from its star band.
 */
export function repeatRecords(
	base: RateRecord[],
	stamp: RepeatStamp,
	changes: RateChanges,
	onSaleTwins?: readonly RateRecord[],
): { records: RateRecord[]; expectedChanges: ExpectedChange[] } {
	const planned = plannedChanges(base, changes);
	const dtCollected = new Date(stamp.collectedAt).toISOString();
	const expectedChanges: ExpectedChange[] = [];
	const records = base.map((previous, i) => {
		const change = planned.get(i);
		const record: RateRecord = { ...previous, recordId: recordIdFor(stamp.shopId, stamp.runNo, i + 1), dtCollected };
		if (change === undefined) return record;
		// Each record's new rate has its own stream, so it does not depend on which others change.
		Object.assign(record, changedFields(previous, change, createPrng(deriveSeed(changes.seed, 'rate-change', i)), onSaleTwins?.[i]));
		expectedChanges.push(expectedChange(previous, record));
		return record;
	});
	return { records, expectedChanges };
}
