import type { IDataObject } from 'n8n-workflow';

import { readObservation, type Observation } from '../../nodes/RateChanges/rules/observation';
import { emptyHistoryMonth, historyMonthRow, withRecords, type HistoryMonth } from '../../nodes/RateChanges/storage/stayHistory';
import { stayMonthKey, stayMonthOf } from '../../nodes/RateChanges/storage/stayMonths';
import { HISTORY_COLUMNS, RATES_TABLE_DEFAULT } from '../../nodes/RateChanges/storage/tables';
import type { DataTablesApi } from '../dataTables';

/**
 * The history table (`<Rates Table>_history`) as Detect Changes with Keep History on leaves it
 * after these records, made directly in the Data Tables stand-in by the history's own row format
 * (storage/stayHistory.ts): what Rate History reads, for its engine test, its output schema and
 * its email's pictures, until Detect Changes writes the table itself. Every history is kept (none
 * pruned). Once it does, this becomes a run of Detect Changes with Keep History on.
 */
export function seedHistoryTable(api: DataTablesApi, records: readonly IDataObject[], ratesTableName: string = RATES_TABLE_DEFAULT): void {
	const months = new Map<string, { month: HistoryMonth; observations: Observation[] }>();
	for (const record of records) {
		const observation = readObservation(record, 'onsiteRate');
		const key = stayMonthKey(stayMonthOf(observation));
		const month = months.get(key) ?? { month: emptyHistoryMonth(stayMonthOf(observation), observation), observations: [] };
		month.observations.push(observation);
		months.set(key, month);
	}
	const rows = [...months.values()].map(({ month, observations }) => historyMonthRow(withRecords(month, observations, '1970-01-01T00:00:00.000Z').month));
	api.seed(`${ratesTableName}_history`, HISTORY_COLUMNS, rows as never);
}
