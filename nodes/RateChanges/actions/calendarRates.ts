import type { RememberedRate } from '../rules/calendar';
import type { RateField } from '../rules/observation';
import { allOf, eq } from '../storage/dataTables';
import { readStayMonth, storedStays, type StayMonth } from '../storage/stayMonths';
import type { Store } from '../storage/store';
import { ratesTable } from '../storage/tables';

import type { CalendarSource } from './calendarFields';

/**
 * Rate Calendar's and Suggest Rates' read of the rates table Detect Changes keeps: the stays of the
 * window's months, read in one go per month (my hotel and every competitor share a month's rows).
 */
export async function readStayMonths(store: Store, source: CalendarSource): Promise<StayMonth[]> {
	const rows = await store.monthRows(ratesTable(source.ratesTable));
	const months = [...new Set(source.dates.map((date) => date.slice(0, 7)))];
	const read = await Promise.all(
		months.map(async (month) => {
			const filter = allOf(eq('month', month), eq('los', source.los), eq('guests', source.guests), ...(source.website === 'lowest' ? [] : [eq('websiteCode', source.website)]));
			return [...(await rows.readWhere(filter)).values()].map(readStayMonth);
		}),
	);
	return read.flat();
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
