import { packCells, unpackCells, type CellValueCodec, type MonthCells } from '../../../nodes/RateChanges/storage/monthCells';
import { readStayMonth, stayMonthRow, storedStays, withEarlierCollection, withObservation, emptyStayMonth, stayMonthOf, type StayMonth } from '../../../nodes/RateChanges/storage/stayMonths';
import { readObservation } from '../../../nodes/RateChanges/rules/observation';
import { rateRecord } from '../../harness/rateRecords';

const text: CellValueCodec<string> = { encode: (value) => value, decode: (value) => value };

describe('a month row packs its days into one text: a day, its value and the index of its collection time', () => {
	it('writes days in day order and each distinct collection time once', () => {
		const cells: MonthCells<string> = new Map([
			[9, { value: 'b', dtCollected: '2027-02-01T06:00:00.000Z' }],
			[3, { value: 'a', dtCollected: '2027-02-01T06:00:00.000Z' }],
			[28, { value: '', dtCollected: '2027-01-31T06:00:00.000Z' }],
		]);
		expect(packCells(cells, text)).toEqual({ cells: '03=a@0 09=b@0 28=@1', collected: '2027-02-01T06:00:00.000Z -86400' });
	});

	it('reads back what it wrote, an empty value included', () => {
		const cells: MonthCells<string> = new Map([
			[1, { value: '4:reference,5:loss', dtCollected: '2027-02-01T06:00:00.000Z' }],
			[31, { value: '', dtCollected: '2027-02-02T06:00:00.000Z' }],
		]);
		expect(unpackCells(packCells(cells, text), text)).toEqual(cells);
	});

	it('writes collection times after the first as seconds from it, and reads back the same times, a row that keeps every time in full included', () => {
		const cells: MonthCells<string> = new Map([
			[1, { value: 'a', dtCollected: '2027-02-01T06:00:00.000Z' }],
			[2, { value: 'b', dtCollected: '2027-02-01T06:00:02.000Z' }],
			[3, { value: 'c', dtCollected: '2027-02-01T06:00:03.457Z' }],
			[4, { value: 'd', dtCollected: '2027-01-31T23:59:59.999Z' }],
		]);
		const packed = packCells(cells, text);
		expect(packed.collected).toBe('2027-02-01T06:00:00.000Z +2 +3.457 -21600.001');
		expect(unpackCells(packed, text)).toEqual(cells);
		expect(unpackCells({ cells: '01=a@0 02=b@1', collected: '2027-02-01T06:00:00.000Z 2027-02-01T06:00:02.000Z' }, text).get(2)?.dtCollected).toBe('2027-02-01T06:00:02.000Z');
	});

	it('reads an empty or missing row as no days, and leaves out an entry it cannot read rather than stop', () => {
		expect(unpackCells({ cells: '', collected: '' }, text).size).toBe(0);
		expect(unpackCells({}, text).size).toBe(0);
		expect([...unpackCells({ cells: '01=a@0 xx 02=b@7', collected: '2027-02-01T06:00:00.000Z' }, text).keys()]).toEqual([1]);
	});
});

describe('a stay month keeps each stay as its newest record had it', () => {
	const observe = (overrides: Record<string, unknown>) => readObservation(rateRecord(overrides), 'onsiteRate');
	const first = observe({ checkIn: '2027-02-07', onsiteRate: 133, netRate: 120.5, taxStatus: 0, taxAmount: 13.3, dtCollected: '2027-02-01T06:00:00Z' });

	function roundTrip(month: StayMonth): StayMonth {
		return readStayMonth({ id: 1, ...stayMonthRow(month), writers: 'a' });
	}

	it('reads back every rate of every day: onsite, net, the total a guest pays, sold out and unknown', () => {
		let month = emptyStayMonth(stayMonthOf(first), first);
		month = withObservation(month, first);
		month = withObservation(month, observe({ checkIn: '2027-02-08', onsiteRate: 0, netRate: 0, dtCollected: '2027-02-01T06:00:00Z' }));
		month = withObservation(month, observe({ checkIn: '2027-02-09', onsiteRate: 150, netRate: undefined, dtCollected: '2027-02-01T06:05:00Z' }));
		const read = roundTrip(month);
		expect(storedStays(read).map(({ checkIn, onsiteRate, netRate, totalRate, dtCollected }) => ({ checkIn, onsiteRate, netRate, totalRate, dtCollected }))).toEqual([
			{ checkIn: '2027-02-07', onsiteRate: 133, netRate: 120.5, totalRate: 146.3, dtCollected: '2027-02-01T06:00:00.000Z' },
			{ checkIn: '2027-02-08', onsiteRate: 0, netRate: 0, totalRate: null, dtCollected: '2027-02-01T06:00:00.000Z' },
			{ checkIn: '2027-02-09', onsiteRate: 150, netRate: null, totalRate: 150, dtCollected: '2027-02-01T06:05:00.000Z' },
		]);
	});

	it('keeps a stay shopped in another currency than the row in that currency', () => {
		const month = withObservation(withObservation(emptyStayMonth(stayMonthOf(first), first), first), observe({ checkIn: '2027-02-10', currency: 'usd', dtCollected: '2027-01-01T06:00:00Z' }));
		const read = roundTrip(month);
		expect(read.currency).toBe('EUR');
		expect(storedStays(read).find((stay) => stay.checkIn === '2027-02-10')?.currency).toBe('USD');
	});

	it('takes the hotel name, shop and place of the newest record of the row, never of an older one', () => {
		const newer = observe({ checkIn: '2027-02-12', hotelName: 'Harbour View Hotel & Spa', shopId: 9, dtCollected: '2027-02-02T06:00:00Z' });
		const older = observe({ checkIn: '2027-02-13', hotelName: 'Old Name', shopId: 3, dtCollected: '2027-01-20T06:00:00Z' });
		const month = withObservation(withObservation(emptyStayMonth(stayMonthOf(first), first), newer), older);
		expect(month).toMatchObject({ hotelName: 'Harbour View Hotel & Spa', shopId: 9 });
	});

	it('marks a stay seen once with ! until a second collection of it, earlier or later, is in', () => {
		const seenOnce = (month: StayMonth) => [...roundTrip(month).days].map(([day, { value }]) => [day, value.seenOnce]);
		const once = withObservation(emptyStayMonth(stayMonthOf(first), first), first);
		expect(stayMonthRow(once).rates).toBe('07=133/120.5/146.3!@0');
		expect(seenOnce(once)).toEqual([[7, true]]);
		expect(seenOnce(withObservation(once, observe({ checkIn: '2027-02-07', dtCollected: '2027-02-02T06:00:00Z' })))).toEqual([[7, false]]);
		expect(seenOnce(withEarlierCollection(once, 7))).toEqual([[7, false]]);
		expect(stayMonthRow(withEarlierCollection(once, 7)).rates).toBe('07=133/120.5/146.3@0');
	});

	it('reads a row written before stays seen once were marked as stays seen more than once', () => {
		const old = readStayMonth({ id: 1, block: 'b', currency: 'EUR', month: '2027-02', rates: '07=133/120.5/146.3@0 08=0/0/@0', collected: '2027-02-01T06:00:00.000Z', writers: 'a' });
		expect([...old.days.values()].map(({ value }) => value.seenOnce)).toEqual([false, false]);
	});

	it('is one row per hotel, website, room type, nights, guests and month', () => {
		expect(stayMonthRow(emptyStayMonth(stayMonthOf(first), first))).toMatchObject({ block: '100001|2|2027-02|1|2|Double', month: '2027-02', roomType: 'Double' });
	});
});
