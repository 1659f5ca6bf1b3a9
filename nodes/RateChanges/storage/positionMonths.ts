import type { IDataObject } from 'n8n-workflow';

import { storedNumber } from '../rules/observation';

import { packCells, unpackCells, type CellValueCodec, type MonthCells } from './monthCells';
import type { StoredRow } from './monthRows';

/**
 * The positions table: what Compare With My Hotel and Check Parity remember between shops, one
 * row per month: my rank of each stay-night (`rank`), or the websites' parity states of each stay
 * (`parity`), each day with the collection time of the shop it was worked out from; and what Rate
 * Calendar last sent of each date (`calendar`, calendarMonths.ts), with the time it went out.
 */

export type PositionKind = 'rank' | 'parity' | 'calendar';

export interface PositionMonth {
	key: string;
	kind: PositionKind;
	hotelCode: number;
	month: string;
	/** Each day's state: my rank ('' when I was sold out), the parity states (`4:reference,5:loss`), or a calendar's figures. */
	days: MonthCells<string>;
}

/** `rank|<my hotel>|<website, or * for all websites>|<month>|<nights>|<guests>` */
export function rankMonthKey(myHotelCode: number, websiteCode: number | null, month: string, los: number, guests: number): string {
	return ['rank', myHotelCode, websiteCode ?? '*', month, los, guests].join('|');
}

/** `parity|<hotel>|<month>|<nights>|<guests>|<room type>` */
export function parityMonthKey(hotelCode: number, month: string, los: number, guests: number, roomType: string): string {
	return ['parity', hotelCode, month, los, guests, roomType].join('|');
}

const stateCodec: CellValueCodec<string> = { encode: (state) => state, decode: (text) => text };

export function emptyPositionMonth(key: string, kind: PositionKind, hotelCode: number, month: string): PositionMonth {
	return { key, kind, hotelCode, month, days: new Map() };
}

export function readPositionMonth(row: StoredRow): PositionMonth {
	return {
		key: String(row.block ?? ''),
		kind: String(row.kind ?? '') as PositionKind,
		hotelCode: storedNumber(row.hotelCode) ?? 0,
		month: String(row.month ?? ''),
		days: unpackCells({ cells: row.states, collected: row.collected }, stateCodec),
	};
}

export function positionMonthRow(month: PositionMonth): IDataObject {
	const { cells, collected } = packCells(month.days, stateCodec);
	return { block: month.key, kind: month.kind, hotelCode: month.hotelCode, month: month.month, states: cells, collected };
}
