import type { IDataObject } from 'n8n-workflow';

import { storedNumber, type Observation, type StoredRate } from '../rules/observation';

import { numberText, packCells, textNumber, unpackCells, type CellValueCodec, type MonthCells } from './monthCells';
import type { StoredRow } from './monthRows';

/**
 * The rates table: one row per hotel, website, room type, nights, guests and month of check-in
 * (a "stay month"), holding the latest record of each of its stays, day by day, in one text column.
 * A stay is what a guest would book (rules/observation.ts); its row is its stay month.
 */

/** The rates of one stay as its newest record had them. */
export interface StayRates {
	onsiteRate: number | null;
	netRate: number | null;
	totalRate: number | null;
	currency: string;
	/**
	 * The stay's one collection so far: a record collected before it, arriving later, is then the
	 * previous rate it was never compared with (Detect Changes, docs/nodes/rate-changes.md).
	 */
	seenOnce: boolean;
}

export interface StayMonthKey {
	hotelCode: number;
	websiteCode: number;
	roomType: string;
	los: number;
	guests: number;
	/** `YYYY-MM` of the check-in days. */
	month: string;
}

/** A stay month as read from its row, or as it will be written. */
export interface StayMonth extends StayMonthKey {
	key: string;
	/** Of the newest record of the row: its hotel name, shop, currency and place. */
	hotelName: string;
	shopId: number | null;
	currency: string;
	latitude: number | null;
	longitude: number | null;
	days: MonthCells<StayRates>;
}

export function stayMonthKey({ hotelCode, websiteCode, month, los, guests, roomType }: StayMonthKey): string {
	return [hotelCode, websiteCode, month, los, guests, roomType].join('|');
}

export function stayMonthOf(observation: Observation): StayMonthKey {
	const { hotelCode, websiteCode, roomType, los, guests, checkIn } = observation;
	return { hotelCode, websiteCode, roomType, los, guests, month: checkIn.slice(0, 7) };
}

export function dayOf(checkIn: string): number {
	return Number(checkIn.slice(8, 10));
}

export function checkInOf(month: string, day: number): string {
	return `${month}-${String(day).padStart(2, '0')}`;
}

/**
 * `onsite/net/total`, with `=` for a total equal to the onsite rate (the tax is included) and
 * nothing for an unknown rate; `#EUR` after it when the stay's currency is not the row's; `!` last
 * while the stay has been seen once. A row written before `!` was kept reads as seen more than
 * once: a late record is then stale, as it always was.
 */
function stayRatesCodec(rowCurrency: string): CellValueCodec<StayRates> {
	return {
		encode: ({ onsiteRate, netRate, totalRate, currency, seenOnce }) => {
			const total = totalRate !== null && totalRate === onsiteRate ? '=' : numberText(totalRate);
			const rates = `${numberText(onsiteRate)}/${numberText(netRate)}/${total}`;
			return `${currency === rowCurrency ? rates : `${rates}#${currency}`}${seenOnce ? '!' : ''}`;
		},
		decode: (text) => {
			const seenOnce = text.endsWith('!');
			const [rates, currency = rowCurrency] = (seenOnce ? text.slice(0, -1) : text).split('#');
			const [onsite = '', net = '', total = ''] = rates.split('/');
			const onsiteRate = textNumber(onsite);
			return { onsiteRate, netRate: textNumber(net), totalRate: total === '=' ? onsiteRate : textNumber(total), currency, seenOnce };
		},
	};
}

export function emptyStayMonth(key: StayMonthKey, observation: Observation): StayMonth {
	return {
		...key,
		key: stayMonthKey(key),
		hotelName: observation.hotelName,
		shopId: observation.shopId,
		currency: observation.currency,
		latitude: observation.latitude,
		longitude: observation.longitude,
		days: new Map(),
	};
}

/**
 * What a stay month row of the rates table or of the history table beside it (same key and key
 * columns) says of itself: its key, hotel name and currency.
 */
export function readStayMonthHead(row: StoredRow): StayMonthKey & { key: string; hotelName: string; currency: string } {
	return {
		hotelCode: storedNumber(row.hotelCode) ?? 0,
		websiteCode: storedNumber(row.websiteCode) ?? 0,
		roomType: text(row.roomType),
		los: storedNumber(row.los) ?? 0,
		guests: storedNumber(row.guests) ?? 0,
		month: text(row.month),
		key: text(row.block),
		hotelName: text(row.hotelName),
		currency: text(row.currency),
	};
}

/** The key columns of a stay month row, as both tables write them. */
export function stayMonthHeadRow(month: StayMonthKey & { key: string; hotelName: string; currency: string }): IDataObject {
	return {
		block: month.key,
		hotelCode: month.hotelCode,
		hotelName: month.hotelName,
		websiteCode: month.websiteCode,
		roomType: month.roomType,
		los: month.los,
		guests: month.guests,
		month: month.month,
		currency: month.currency,
	};
}

export function readStayMonth(row: StoredRow): StayMonth {
	const head = readStayMonthHead(row);
	return {
		...head,
		shopId: storedNumber(row.shopId),
		latitude: storedNumber(row.latitude),
		longitude: storedNumber(row.longitude),
		days: unpackCells({ cells: row.rates, collected: row.collected }, stayRatesCodec(head.currency)),
	};
}

export function stayMonthRow(month: StayMonth): IDataObject {
	const { cells, collected } = packCells(month.days, stayRatesCodec(month.currency));
	return {
		...stayMonthHeadRow(month),
		shopId: month.shopId,
		latitude: month.latitude,
		longitude: month.longitude,
		rates: cells,
		collected,
	};
}

/** The stored stay of one day, as the comparison reads it. */
export function storedRate(day: { value: StayRates; dtCollected: string }): StoredRate {
	const { currency, onsiteRate, netRate } = day.value;
	return { currency, onsiteRate, netRate, dtCollected: day.dtCollected };
}

/**
 * The month with one newer record in it: the record's day takes all of the record's rates (never
 * a mix of an old and a new record), and the row's hotel name, shop, currency and place are the
 * newest record's.
 */
export function withObservation(month: StayMonth, observation: Observation): StayMonth {
	const days = new Map(month.days);
	const { onsiteRate, netRate, totalRate, currency, dtCollected } = observation;
	const day = dayOf(observation.checkIn);
	days.set(day, { value: { onsiteRate, netRate, totalRate, currency, seenOnce: !month.days.has(day) }, dtCollected });
	const newest = [...month.days.values()].every((day) => day.dtCollected <= dtCollected);
	if (!newest) return { ...month, days };
	return {
		...month,
		days,
		hotelName: observation.hotelName || month.hotelName,
		shopId: observation.shopId ?? month.shopId,
		currency,
		latitude: observation.latitude ?? month.latitude,
		longitude: observation.longitude ?? month.longitude,
	};
}

/** The month once the stay of `day`, seen once, has been compared with a collection before it: its rates stay, it is no longer seen once. */
export function withEarlierCollection(month: StayMonth, day: number): StayMonth {
	const stored = month.days.get(day);
	if (!stored) return month;
	return { ...month, days: new Map(month.days).set(day, { ...stored, value: { ...stored.value, seenOnce: false } }) };
}

function text(value: unknown): string {
	return value === null || value === undefined ? '' : String(value);
}

/** Every stay of a month row as an observation, the shape incoming records have: the one mapping from a stored row to the model. */
export function storedStays(month: StayMonth): Observation[] {
	return [...month.days.keys()].flatMap((day) => storedStay(month, day) ?? []);
}

/** The stay of one day of a month row as an observation; undefined when the row has no stay that day. */
export function storedStay(month: StayMonth, day: number): Observation | undefined {
	const stored = month.days.get(day);
	if (!stored) return undefined;
	const checkIn = checkInOf(month.month, day);
	const { hotelCode, websiteCode, los, guests, roomType } = month;
	const { onsiteRate, netRate, totalRate, currency } = stored.value;
	return {
		stayKey: [hotelCode, websiteCode, checkIn, los, guests, roomType].join('|'),
		hotelCode,
		websiteCode,
		checkIn,
		los,
		guests,
		roomType,
		shopId: month.shopId,
		hotelName: month.hotelName,
		onsiteRate,
		netRate,
		totalRate,
		currency,
		dtCollected: stored.dtCollected,
		latitude: month.latitude,
		longitude: month.longitude,
	};
}
