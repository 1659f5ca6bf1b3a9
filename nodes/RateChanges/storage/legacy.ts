import type { ReportedChange, ReportedType } from '../rules/alert';
import { storedNumber } from '../rules/observation';

import { allOf, eq, type DataTables, type Row, type RowCondition, type RowFilter, type TableHandle } from './dataTables';
import type { MonthCells } from './monthCells';
import type { PositionMonth } from './positionMonths';
import { checkInOf, dayOf, type StayMonth, type StayRates } from './stayMonths';

/**
 * Version 1.0 kept one row per stay, per alert and per position. Its tables are renamed
 * `<name>_1_0` on the first run of 1.1 (tables.ts), and read here for each month the new tables
 * have not stored yet: the new month row starts from what 1.0 remembered, so no stored rate is
 * lost and nothing alerts as seen for the first time. 1.0 rows go with the daily clean-up once
 * their days have passed, and the 1.0 table with them.
 */

function like(columnName: string, value: string): RowCondition {
	return { columnName, condition: 'like', value };
}

function stayMonthFilter(month: StayMonth): RowFilter {
	return allOf(
		eq('hotelCode', month.hotelCode),
		eq('websiteCode', month.websiteCode),
		eq('los', month.los),
		eq('guests', month.guests),
		eq('roomType', month.roomType),
		like('checkIn', `${month.month}-%`),
	);
}

/** The month as 1.0 stored it: every stay of it, the row with the lowest id where 1.0 stored one twice. */
export async function legacyStays(api: DataTables, legacy: TableHandle, month: StayMonth): Promise<StayMonth> {
	const rows = await api.readRows(legacy, stayMonthFilter(month));
	const days: MonthCells<StayRates> = new Map();
	for (const row of rows) {
		const checkIn = String(row.checkIn ?? '');
		if (checkIn.slice(0, 7) !== month.month || days.has(dayOf(checkIn))) continue;
		days.set(dayOf(checkIn), {
			value: {
				onsiteRate: storedNumber(row.onsiteRate),
				netRate: storedNumber(row.netRate),
				totalRate: storedNumber(row.totalRate),
				currency: String(row.currency ?? month.currency),
			},
			dtCollected: String(row.dtCollected ?? ''),
		});
	}
	return { ...month, days };
}

/** The 1.0 position key of one day of a position month (`rank|…|checkIn|…`, `parity|…|checkIn|…`). */
function legacyPositionKey(month: PositionMonth, checkIn: string): string {
	const parts = month.key.split('|');
	return month.kind === 'rank'
		? ['rank', parts[1], parts[2], checkIn, parts[4], parts[5]].join('|')
		: ['parity', parts[1], checkIn, parts[3], parts[4], parts.slice(5).join('|')].join('|');
}

export async function legacyPositions(api: DataTables, legacy: TableHandle, month: PositionMonth): Promise<PositionMonth> {
	const pattern = legacyPositionKey(month, `${month.month}-%`);
	const rows = await api.readRows(legacy, allOf(like('positionKey', pattern)));
	const days: MonthCells<string> = new Map();
	for (let day = 1; day <= 31; day++) {
		const key = legacyPositionKey(month, checkInOf(month.month, day));
		const row = rows.find((candidate) => candidate.positionKey === key);
		if (row) days.set(day, { value: String(row.state ?? ''), dtCollected: String(row.dtCollected ?? '') });
	}
	return { ...month, days };
}


/** An alert as 1.0 kept it, one row each, in the shape a digest lists. */
export function legacyChange(row: Row): ReportedChange {
	const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));
	return {
		shopId: storedNumber(row.shopId),
		hotelCode: storedNumber(row.hotelCode) ?? 0,
		hotelName: text(row.hotelName),
		websiteCode: storedNumber(row.websiteCode),
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

/** 1.0's unreported alerts, claimed for a digest as 1.0 claimed them: one update, so two digests never share one. */
export async function claimLegacyChanges(api: DataTables, legacy: TableHandle, digestId: string, reportedAt: string): Promise<ReportedChange[]> {
	const { rows, uncertain } = await api.updateRows(legacy, allOf(eq('digestId', null)), { digestId, reportedAt });
	return (uncertain ? await api.readRows(legacy, allOf(eq('digestId', digestId))) : rows).map(legacyChange);
}

export async function legacyChanges(api: DataTables, legacy: TableHandle, digestId: string | null): Promise<ReportedChange[]> {
	return (await api.readRows(legacy, allOf(eq('digestId', digestId)))).map(legacyChange);
}
