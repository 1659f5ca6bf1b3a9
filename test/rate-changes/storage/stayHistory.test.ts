import type { Observation } from '../../../nodes/RateChanges/rules/observation';
import { emptyHistoryMonth, historyMonthRow, historyRecords, readHistoryMonth, withRecords, type HistoryMonth } from '../../../nodes/RateChanges/storage/stayHistory';
import { emptyStayMonth, stayMonthOf, withObservation } from '../../../nodes/RateChanges/storage/stayMonths';
import { readObservation } from '../../../nodes/RateChanges/rules/observation';
import { rateRecord } from '../../harness/rateRecords';

/** A record of 20 March 2027's stay, collected on the day of March given, at a rate. */
function record(day: number, onsiteRate: number, hour = 6): Observation {
	const dtCollected = `2027-03-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00Z`;
	return readObservation(rateRecord({ checkIn: '2027-03-20T00:00:00Z', dtCollected, onsiteRate, netRate: onsiteRate, taxStatus: 1 }), 'onsiteRate');
}

const KEEP_ALL = '2000-01-01T00:00:00.000Z';

function monthOf(observations: readonly Observation[], keepFrom = KEEP_ALL): HistoryMonth {
	return withRecords(emptyHistoryMonth(stayMonthOf(observations[0]), observations[0]), observations, keepFrom).month;
}

/** The day's entries as `<day of March>=<onsite rate>`. */
function entries(month: HistoryMonth): string[] {
	return (month.days.get(20) ?? []).map(({ value, dtCollected }) => `${Number(dtCollected.slice(8, 10))}=${String(value.onsiteRate)}`);
}

describe("a stay's history: its first rate and each change, in collection order", () => {
	it('drops a record that repeats the rate before it', () => {
		expect(entries(monthOf([record(1, 100), record(2, 100), record(3, 120), record(4, 120), record(5, 100)]))).toEqual(['1=100', '3=120', '5=100']);
	});

	it('puts a late record between the entries it falls between, and the same record twice is one entry', () => {
		const month = monthOf([record(1, 100), record(5, 120)]);
		const late = withRecords(month, [record(3, 90), record(3, 90)], KEEP_ALL);
		expect(entries(late.month)).toEqual(['1=100', '3=90', '5=120']);
		expect(withRecords(late.month, [record(3, 90)], KEEP_ALL).changed).toBe(false);
	});

	it('reads back the text it writes', () => {
		const month = monthOf([record(1, 100), record(3, 0), record(5, 120.5)]);
		const row = historyMonthRow(month);
		expect(historyMonthRow(readHistoryMonth({ id: 1, ...row }))).toEqual(row);
		expect(row.history).toMatch(/^20=\w+:100\/100\/=,\w+:0\/0\/,\w+:120\.5\/120\.5\/=$/);
	});

	it('prunes entries collected before the kept days, all but the last: the rate when the kept history begins', () => {
		const month = monthOf([record(1, 100), record(2, 110), record(3, 120), record(4, 130)]);
		expect(entries(withRecords(month, [], '2027-03-03T00:00:00.000Z').month)).toEqual(['2=110', '3=120', '4=130']);
		expect(entries(withRecords(month, [], '2027-03-10T00:00:00.000Z').month)).toEqual(['4=130']);
	});
});

describe('which records may change the history, told from the rates row', () => {
	const stored = withObservation(emptyStayMonth(stayMonthOf(record(1, 100)), record(1, 100)), record(1, 100));

	it("a stay the rates table has not seen: its first record, and each of the batch's later ones that moves", () => {
		const first = [record(1, 100), record(2, 100), record(3, 0)];
		expect(historyRecords(undefined, first)).toEqual([first[0], first[2]]);
	});

	it('not a newer record at the stored rate (a shop that moved nothing), nor one that repeats the newer record of the batch before it', () => {
		expect(historyRecords(stored, [record(2, 100)])).toEqual([]);
		const moved = [record(2, 120), record(3, 120), record(4, 100)];
		expect(historyRecords(stored, moved)).toEqual([moved[0], moved[2]]);
	});

	it('a record collected before the stored one, whatever its rate: a late record takes its place', () => {
		const later = withObservation(stored, record(5, 100));
		expect(historyRecords(later, [record(3, 100)]).length).toBe(1);
	});
});
