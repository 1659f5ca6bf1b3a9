import type { RememberedRate } from '../rules/calendar';
import type { RateField } from '../rules/observation';
import { allOf, eq, type RowFilter } from '../storage/dataTables';
import { readStayMonth, storedStays, type StayMonth } from '../storage/stayMonths';
import type { MonthRows, Store, StoredRow } from '../storage/store';
import { ratesTable } from '../storage/tables';

import type { CalendarSource } from './calendarFields';

/** One filter per month of the window: the month, nights, guests, and the website when one (my hotel and every competitor share a month's rows). */
export function monthFilters(source: CalendarSource): RowFilter[] {
	const months = [...new Set(source.dates.map((date) => date.slice(0, 7)))];
	return months.map((month) => allOf(eq('month', month), eq('los', source.los), eq('guests', source.guests), ...(source.website === 'lowest' ? [] : [eq('websiteCode', source.website)])));
}

/** The month rows of the window in a table of month rows (the rates table, or the history beside it), each month read in one go. */
export async function readWindowMonths<T>(rows: MonthRows, source: CalendarSource, read: (row: StoredRow) => T): Promise<T[]> {
	return (await Promise.all(monthFilters(source).map(async (filter) => [...(await rows.readWhere(filter)).values()].map(read)))).flat();
}

/** Rate Calendar's and Suggest Rates' read of the rates table Detect Changes keeps: the stays of the window's months. */
export async function readStayMonths(store: Store, source: CalendarSource): Promise<StayMonth[]> {
	return await readWindowMonths(await store.monthRows(ratesTable(source.ratesTable)), source, readStayMonth);
}

export function rememberedRates(months: readonly StayMonth[], rateField: RateField): RememberedRate[] {
	return months.flatMap(storedStays).map((stay) => ({
		hotelCode: stay.hotelCode,
		hotelName: stay.hotelName,
		websiteCode: stay.websiteCode,
		roomType: stay.roomType,
		checkIn: stay.checkIn,
		currency: stay.currency,
		rate: stay[rateField],
		dtCollected: stay.dtCollected,
	}));
}

/** My hotel's newest row: its name, and its place for the events around it. */
export function newestOfMine(months: readonly StayMonth[], myHotelCode: number): StayMonth | undefined {
	const newest = (month: StayMonth) => [...month.days.values()].map((day) => day.dtCollected).sort().at(-1) ?? '';
	return months.filter((month) => month.hotelCode === myHotelCode).sort((a, b) => (newest(a) < newest(b) ? 1 : newest(a) > newest(b) ? -1 : 0))[0];
}
