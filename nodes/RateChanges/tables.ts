import type { IDataObject } from 'n8n-workflow';

import type { ColumnSpec, Row, TableSpec } from './dataTables';
import { storedNumber, type ChangeType, type Observation, type RateChange, type RateField, type StoredRate } from './rateChanges';

/**
 * The two tables Rate Changes keeps in n8n's Data Tables, column by column (docs/nodes/rate-changes.md
 * shows them to users). Times are ISO 8601 text, not date columns: text compares exactly as it
 * was written on every database n8n runs on, and a compare-and-set filters on it.
 */

export const RATES_TABLE_DEFAULT = 'travel_pricing_rates';
export const CHANGES_TABLE_DEFAULT = 'travel_pricing_rate_changes';

const STAY_COLUMNS: ColumnSpec[] = [
	{ name: 'stayKey', type: 'string' },
	{ name: 'hotelCode', type: 'number' },
	{ name: 'hotelName', type: 'string' },
	{ name: 'websiteCode', type: 'number' },
	{ name: 'checkIn', type: 'string' },
	{ name: 'los', type: 'number' },
	{ name: 'guests', type: 'number' },
	{ name: 'roomType', type: 'string' },
	{ name: 'currency', type: 'string' },
	{ name: 'shopId', type: 'number' },
];

/** One row per stay: its last rates and when they were collected. */
export const RATES_COLUMNS: readonly ColumnSpec[] = [
	...STAY_COLUMNS,
	{ name: 'onsiteRate', type: 'number' },
	{ name: 'netRate', type: 'number' },
	{ name: 'totalRate', type: 'number' },
	{ name: 'dtCollected', type: 'string' },
];

/** One row per alert; digestId stays empty until a digest reports it. */
export const CHANGES_COLUMNS: readonly ColumnSpec[] = [
	...STAY_COLUMNS,
	{ name: 'rateField', type: 'string' },
	{ name: 'changeType', type: 'string' },
	{ name: 'previousRate', type: 'number' },
	{ name: 'rate', type: 'number' },
	{ name: 'change', type: 'number' },
	{ name: 'changePercent', type: 'number' },
	{ name: 'previousCollected', type: 'string' },
	{ name: 'dtCollected', type: 'string' },
	{ name: 'comparedWith', type: 'string' },
	{ name: 'comparedRate', type: 'number' },
	{ name: 'severity', type: 'string' },
	{ name: 'digestId', type: 'string' },
	{ name: 'reportedAt', type: 'string' },
];

/**
 * What Compare With My Hotel and Check Parity remember between shops, one row per stay-night (or
 * stay) and kind: my last rank, or the websites' last parity states.
 */
export const POSITIONS_COLUMNS: readonly ColumnSpec[] = [
	{ name: 'positionKey', type: 'string' },
	{ name: 'kind', type: 'string' },
	{ name: 'state', type: 'string' },
	{ name: 'dtCollected', type: 'string' },
];

export const POSITIONS_TABLE_DEFAULT = 'travel_pricing_positions';

export function positionsTable(name: string): TableSpec {
	return { field: 'Positions Table', name, columns: POSITIONS_COLUMNS };
}

export function ratesTable(name: string): TableSpec {
	return { field: 'Rates Table', name, columns: RATES_COLUMNS };
}

export function changesTable(name: string): TableSpec {
	return { field: 'Changes Table', name, columns: CHANGES_COLUMNS };
}

function stayColumns(observation: Observation): IDataObject {
	const { stayKey, hotelCode, hotelName, websiteCode, checkIn, los, guests, roomType, currency, shopId } = observation;
	return { stayKey, hotelCode, hotelName, websiteCode, checkIn, los, guests, roomType, currency, shopId };
}

/** The rates row of an observation, as inserted or written over the stored one. */
export function rateRow(observation: Observation): IDataObject {
	return {
		...stayColumns(observation),
		onsiteRate: observation.onsiteRate,
		netRate: observation.netRate,
		totalRate: observation.totalRate,
		dtCollected: observation.dtCollected,
	};
}

export interface StoredStay extends StoredRate {
	id: number;
}

export function storedStay(row: Row): StoredStay {
	return {
		id: row.id,
		currency: String(row.currency ?? ''),
		onsiteRate: storedNumber(row.onsiteRate),
		netRate: storedNumber(row.netRate),
		dtCollected: String(row.dtCollected ?? ''),
	};
}

export function changeRow(observation: Observation, change: RateChange, rateField: RateField): IDataObject {
	return { ...stayColumns(observation), rateField, ...change, dtCollected: observation.dtCollected };
}

/** What Compare With My Hotel and Check Parity write to the changes table. */
export type StandingType = 'undercut' | 'rankChanged' | 'parityLoss';

export type ReportedType = ChangeType | StandingType;

/** A change as a digest lists it, read back from the changes table. */
export interface ReportedChange {
	shopId: number | null;
	hotelCode: number;
	hotelName: string;
	websiteCode: number;
	checkIn: string;
	los: number;
	guests: number;
	roomType: string;
	currency: string;
	rateField: string;
	changeType: ReportedType;
	previousRate: number | null;
	rate: number | null;
	change: number | null;
	changePercent: number | null;
	previousCollected: string | null;
	/** Undercut: the competitor; parity loss: the reference website; rank change: the ranks. */
	comparedWith: string;
	comparedRate: number | null;
	severity: string;
	dtCollected: string;
}

export function reportedChange(row: Row): ReportedChange {
	const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));
	return {
		shopId: storedNumber(row.shopId),
		hotelCode: storedNumber(row.hotelCode) ?? 0,
		hotelName: text(row.hotelName),
		websiteCode: storedNumber(row.websiteCode) ?? 0,
		checkIn: text(row.checkIn),
		los: storedNumber(row.los) ?? 0,
		guests: storedNumber(row.guests) ?? 0,
		roomType: text(row.roomType),
		currency: text(row.currency),
		rateField: text(row.rateField),
		changeType: text(row.changeType) as ReportedType,
		previousRate: storedNumber(row.previousRate),
		rate: storedNumber(row.rate),
		change: storedNumber(row.change),
		changePercent: storedNumber(row.changePercent),
		previousCollected: row.previousCollected ? text(row.previousCollected) : null,
		comparedWith: text(row.comparedWith),
		comparedRate: storedNumber(row.comparedRate),
		severity: text(row.severity),
		dtCollected: text(row.dtCollected),
	};
}
