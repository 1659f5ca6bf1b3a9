import { FieldError } from '../../nodes/shared/errors';
import {
	dayRange,
	demandDays,
	demandEventRecords,
	demandSeries,
	resolveDemandDates,
	shapeDemand,
	type DateOrderChoice,
	type HotelDemandResponse,
} from '../../nodes/shared/demand';

type Row = Record<string, number | string>;

function row(code: number, values: Record<string, number>): Row {
	return { HotelCode: code, HotelName: `Hotel ${code}`, ...values };
}

function response(
	absolute: Row[],
	registered: Row[] = absolute,
	relative: Row[] = absolute,
	records: Array<Record<string, unknown>> = [],
): HotelDemandResponse {
	return {
		'Absolute_Value.json': absolute,
		'Events_registered.json': registered,
		'Relative_Values.json': relative,
		'Event_records.json': records,
	} as unknown as HotelDemandResponse;
}

/** One hotel with the given date members, each worth 1. */
function withDates(keys: string[]): HotelDemandResponse {
	return response([row(1, Object.fromEntries(keys.map((key) => [key, 1])))]);
}

function isoDates(keys: string[], choice: DateOrderChoice = 'auto'): string[] {
	const { isoByKey } = resolveDemandDates(withDates(keys), choice);
	return keys.map((key) => isoByKey.get(key) as string);
}

describe('Auto reads the date order from the whole response (spec 4.7 leaves it open)', () => {
	it('reads day first when a first part is above 12', () => {
		expect(isoDates(['12/01/2026', '13/01/2026'])).toEqual(['2026-01-12', '2026-01-13']);
	});

	it('reads month first when a second part is above 12', () => {
		expect(isoDates(['01/12/2026', '01/13/2026'])).toEqual(['2026-01-12', '2026-01-13']);
	});

	it('reads day first when only that keeps consecutive dates consecutive', () => {
		expect(isoDates(['01/03/2026', '02/03/2026', '03/03/2026'])).toEqual(['2026-03-01', '2026-03-02', '2026-03-03']);
	});

	it('reads month first when only that keeps consecutive dates consecutive', () => {
		expect(isoDates(['03/01/2026', '03/02/2026', '03/03/2026'])).toEqual(['2026-03-01', '2026-03-02', '2026-03-03']);
	});

	it('counts the dates of the event records as evidence too', () => {
		const demand = response([row(1, { '01/02/2026': 1, '03/04/2026': 2 })], undefined, undefined, [{ id: 1, date: '25/01/2026' }]);
		expect(resolveDemandDates(demand, 'auto').order).toBe('dayFirst');
	});

	it('reads dates whose day and month are equal, which are the same day in either order', () => {
		expect(isoDates(['05/05/2026'])).toEqual(['2026-05-05']);
	});
});

describe('Auto never guesses: when the data cannot tell, the user must choose', () => {
	it('stops on sparse dates with every part at most 12', () => {
		const ask = () => isoDates(['01/02/2027', '03/07/2027', '11/05/2027']);
		expect(ask).toThrow(FieldError);
		expect(ask).toThrow(/^Date Order "Auto": .*"01\/02\/2027".*choose Day First or Month First under Options > Date Order/);
	});

	it('stops on a single date whose parts differ', () => {
		expect(() => isoDates(['05/06/2026'])).toThrow(/cannot tell whether "05\/06\/2026" is day first or month first/);
	});

	it('stops when one date reads only month first and another only day first', () => {
		expect(() => isoDates(['01/13/2026', '13/01/2026'])).toThrow(
			'"01/13/2026", which reads only month first, and "13/01/2026", which reads only day first',
		);
	});

	it('stops on a date that is no date in either order', () => {
		expect(() => isoDates(['31/31/2026'])).toThrow('the service wrote the date "31/31/2026", which is not a date in either order');
	});

	it('lets the user settle an undecidable response by choosing', () => {
		expect(isoDates(['01/02/2027', '03/07/2027'], 'dayFirst')).toEqual(['2027-02-01', '2027-07-03']);
		expect(isoDates(['01/02/2027', '03/07/2027'], 'monthFirst')).toEqual(['2027-01-02', '2027-03-07']);
	});
});

describe('an explicit date order that contradicts the data is an error naming the date', () => {
	it('refuses Month First for 25/01/2026', () => {
		expect(() => isoDates(['12/01/2026', '25/01/2026'], 'monthFirst')).toThrow(
			'Date Order "Month First": the service wrote the date "25/01/2026", which is not a date with the month first; choose Day First or Auto',
		);
	});

	it('refuses Day First for 01/25/2026', () => {
		expect(() => isoDates(['01/25/2026'], 'dayFirst')).toThrow(/^Date Order "Day First": .*"01\/25\/2026".*choose Month First or Auto/);
	});

	it('refuses 31 February in the chosen order', () => {
		expect(() => isoDates(['31/02/2026'], 'dayFirst')).toThrow('"31/02/2026", which is not a date in either order');
	});
});

const days = ['30/12/2026', '31/12/2026', '01/01/2027'];
const full = response(
	[row(1, { [days[0]]: 10, [days[1]]: 11, [days[2]]: 12 }), row(2, { [days[0]]: 20, [days[1]]: 21, [days[2]]: 22 })],
	[row(1, { [days[0]]: 1, [days[1]]: 0, [days[2]]: 3 }), row(2, { [days[0]]: 2, [days[1]]: 2, [days[2]]: 2 })],
	[row(1, { [days[0]]: 50, [days[1]]: 55, [days[2]]: 60 }), row(2, { [days[0]]: 70, [days[1]]: 71, [days[2]]: 72 })],
	[
		{ id: 7, eventName: 'New Year Gala', date: '31/12/2026' },
		{ id: 8, eventName: 'Parade', date: '01/01/2027' },
	],
);

describe('Per Hotel and Date joins the three tables into one row per hotel and date', () => {
	it('gives hotel, ISO date and the three values, hotel by hotel in calendar order', () => {
		const rows = demandDays(full, resolveDemandDates(full, 'auto'));
		expect(rows).toHaveLength(6);
		expect(rows.slice(0, 3)).toEqual([
			{ hotelCode: 1, hotelName: 'Hotel 1', date: '2026-12-30', absoluteValue: 10, eventsRegistered: 1, relativeValue: 50 },
			{ hotelCode: 1, hotelName: 'Hotel 1', date: '2026-12-31', absoluteValue: 11, eventsRegistered: 0, relativeValue: 55 },
			{ hotelCode: 1, hotelName: 'Hotel 1', date: '2027-01-01', absoluteValue: 12, eventsRegistered: 3, relativeValue: 60 },
		]);
		expect(rows[5]).toEqual({ hotelCode: 2, hotelName: 'Hotel 2', date: '2027-01-01', absoluteValue: 22, eventsRegistered: 2, relativeValue: 72 });
	});

	it('sorts dates by the calendar, not by the order of the members', () => {
		const shuffled = response([row(1, { '02/01/2027': 2, '31/12/2026': 1, '01/01/2027': 3 })]);
		const rows = demandDays(shuffled, resolveDemandDates(shuffled, 'auto'));
		expect(rows.map((r) => r.date)).toEqual(['2026-12-31', '2027-01-01', '2027-01-02']);
	});

	it('keeps a hotel missing from one table, with that table\'s values null', () => {
		const demand = response(
			[row(1, { [days[0]]: 10 }), row(2, { [days[0]]: 20 })],
			[row(1, { [days[0]]: 1 }), row(2, { [days[0]]: 2 })],
			[row(1, { [days[0]]: 50 })],
		);
		expect(demandDays(demand, resolveDemandDates(demand, 'dayFirst'))).toEqual([
			{ hotelCode: 1, hotelName: 'Hotel 1', date: '2026-12-30', absoluteValue: 10, eventsRegistered: 1, relativeValue: 50 },
			{ hotelCode: 2, hotelName: 'Hotel 2', date: '2026-12-30', absoluteValue: 20, eventsRegistered: 2, relativeValue: null },
		]);
	});

	it('keeps a hotel that only one table has', () => {
		const demand = response([row(1, { [days[0]]: 10 })], [row(1, { [days[0]]: 1 })], [row(1, { [days[0]]: 50 }), row(9, { [days[0]]: 90 })]);
		expect(demandDays(demand, resolveDemandDates(demand, 'dayFirst'))[1]).toEqual({
			hotelCode: 9,
			hotelName: 'Hotel 9',
			date: '2026-12-30',
			absoluteValue: null,
			eventsRegistered: null,
			relativeValue: 90,
		});
	});

	it('gives null for a date one table lacks, and no row for a date the hotel has nowhere', () => {
		const demand = response(
			[row(1, { [days[0]]: 10, [days[1]]: 11 }), row(2, { [days[0]]: 20 })],
			[row(1, { [days[0]]: 1 }), row(2, { [days[0]]: 2 })],
			[row(1, { [days[0]]: 50, [days[1]]: 55 }), row(2, { [days[0]]: 70 })],
		);
		const rows = demandDays(demand, resolveDemandDates(demand, 'dayFirst'));
		expect(rows.map((r) => [r.hotelCode, r.date, r.eventsRegistered])).toEqual([
			[1, '2026-12-30', 1],
			[1, '2026-12-31', null],
			[2, '2026-12-30', 2],
		]);
	});

	it('keeps only the dates inside From Date and To Date, both included', () => {
		const rows = demandDays(full, resolveDemandDates(full, 'auto'), { from: '2026-12-31', to: '2026-12-31' });
		expect(rows.map((r) => [r.hotelCode, r.date])).toEqual([
			[1, '2026-12-31'],
			[2, '2026-12-31'],
		]);
		expect(demandDays(full, resolveDemandDates(full, 'auto'), { from: '2027-01-01' })).toHaveLength(2);
		expect(demandDays(full, resolveDemandDates(full, 'auto'), { to: '2026-12-30' })).toHaveLength(2);
	});

	it('pivots 1,000 hotels x 365 dates into 365,000 rows', () => {
		const keys = Array.from({ length: 365 }, (_, i) => {
			const day = new Date(Date.UTC(2027, 0, 1 + i));
			return `${String(day.getUTCDate()).padStart(2, '0')}/${String(day.getUTCMonth() + 1).padStart(2, '0')}/2027`;
		});
		const table = Array.from({ length: 1000 }, (_, h) => row(100001 + h, Object.fromEntries(keys.map((key, d) => [key, h + d]))));
		const large = response(table);
		const rows = demandDays(large, resolveDemandDates(large, 'auto'));
		expect(rows).toHaveLength(365_000);
		expect(rows[364_999]).toEqual({
			hotelCode: 101000,
			hotelName: 'Hotel 101000',
			date: '2027-12-31',
			absoluteValue: 1363,
			eventsRegistered: 1363,
			relativeValue: 1363,
		});
	});
});

describe('Per Hotel gives one row per hotel with each table keyed by ISO date', () => {
	it('keys each table by ISO date in calendar order', () => {
		const [first] = demandSeries(full, resolveDemandDates(full, 'auto'));
		expect(first).toEqual({
			hotelCode: 1,
			hotelName: 'Hotel 1',
			absoluteValue: { '2026-12-30': 10, '2026-12-31': 11, '2027-01-01': 12 },
			eventsRegistered: { '2026-12-30': 1, '2026-12-31': 0, '2027-01-01': 3 },
			relativeValue: { '2026-12-30': 50, '2026-12-31': 55, '2027-01-01': 60 },
		});
		expect(Object.keys(first.absoluteValue ?? {})).toEqual(['2026-12-30', '2026-12-31', '2027-01-01']);
	});

	it('gives null for a table the hotel is missing from', () => {
		const demand = response([row(1, { [days[0]]: 10 })], [row(1, { [days[0]]: 1 })], []);
		expect(demandSeries(demand, resolveDemandDates(demand, 'dayFirst'))[0].relativeValue).toBeNull();
	});

	it('keeps only the dates of the range', () => {
		const [first] = demandSeries(full, resolveDemandDates(full, 'auto'), { from: '2027-01-01' });
		expect(first.absoluteValue).toEqual({ '2027-01-01': 12 });
	});
});

describe('Event Records gives the records with ISO dates', () => {
	it('writes each record date as YYYY-MM-DD, in the order the service sent them', () => {
		expect(demandEventRecords(full, resolveDemandDates(full, 'auto'))).toEqual([
			{ id: 7, eventName: 'New Year Gala', date: '2026-12-31' },
			{ id: 8, eventName: 'Parade', date: '2027-01-01' },
		]);
	});

	it('keeps only the records inside the range', () => {
		expect(demandEventRecords(full, resolveDemandDates(full, 'auto'), { from: '2027-01-01' }).map((r) => r.id)).toEqual([8]);
	});

	it('keeps a record whose date is in no known form as it came', () => {
		const demand = response([row(1, { '13/01/2026': 1 })], undefined, undefined, [{ id: 1, date: 'soon' }]);
		expect(demandEventRecords(demand, resolveDemandDates(demand, 'auto'), { from: '2027-01-01' })).toEqual([{ id: 1, date: 'soon' }]);
	});
});

describe('Raw gives the response as it came, without reading its dates', () => {
	it('returns the response itself, even when its dates are undecidable', () => {
		const demand = withDates(['01/02/2027', '03/07/2027']);
		expect(shapeDemand(demand, 'raw', 'auto', {})).toEqual([demand]);
	});
});

describe('a date range runs forwards', () => {
	it('refuses a To Date before the From Date', () => {
		expect(() => dayRange('2026-03-02', '2026-03-01')).toThrow('To Date "2026-03-01": is before From Date (2026-03-02)');
	});

	it('allows an open end', () => {
		expect(dayRange(undefined, '2026-03-01')).toEqual({ from: undefined, to: '2026-03-01' });
	});
});
