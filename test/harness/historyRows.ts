import type { DataTablesApi } from '../../platform/dataTables';
import type { StoredRow } from '../../nodes/RateChanges/storage/monthRows';
import { historyByCheckIn, readHistoryMonth, sameRates, type HistoryEntry } from '../../nodes/RateChanges/storage/stayHistory';

/**
 * What a history table says, stay by stay: each entry `<collected>=<onsite rate>`, oldest first,
 * without the entries that repeat the rate before them. The stored text may keep such a repeat (a
 * record never removes an entry, so records that arrive in another order can leave one), and Rate
 * History reads the rate at each moment, which a repeat does not change: two runs agree when this
 * does. A table not made (Keep History 0, or no Detect Changes) says nothing.
 */
export function historySays(api: DataTablesApi, tableName: string): Record<string, string[]> {
	const says: Record<string, string[]> = {};
	if (!api.tables().some((table) => table.name === tableName)) return says;
	for (const row of api.rows(tableName)) {
		const month = readHistoryMonth(row as unknown as StoredRow);
		for (const [checkIn, entries] of historyByCheckIn(month)) {
			says[[month.hotelCode, month.websiteCode, checkIn, month.los, month.guests, month.roomType].join('|')] = withoutRepeats(entries).map(
				({ value, dtCollected }) => `${dtCollected}=${String(value.onsiteRate)}${value.currency === month.currency ? '' : value.currency}`,
			);
		}
	}
	return says;
}

function withoutRepeats(entries: readonly HistoryEntry[]): HistoryEntry[] {
	return entries.filter((entry, index) => index === 0 || !sameRates(entries[index - 1].value, entry.value));
}
