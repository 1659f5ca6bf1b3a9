import { entryOf, packAlerts, unpackAlerts } from '../../../nodes/RateChanges/storage/journal';

import { journalAlert as alert } from './journalAlert';

describe('an entry of the changes table packs its alerts', () => {
	it('reads back every field of every alert, whatever operation raised it', () => {
		const alerts = [
			alert(),
			alert({ checkIn: '2027-02-08', changeType: 'soldOut', rate: null, change: null, changePercent: null }),
			alert({ block: 'rank|100001|*|2027-02|1|2', websiteCode: null, websiteName: '', roomType: 'Deluxe Double Room', changeType: 'undercut', previousRate: null, previousCollected: null, comparedWith: 'hotel 100008 Sea Breeze (Double)', comparedRate: 120, change: 13, changePercent: 9.77 }),
			alert({ block: 'parity|100001|2027-02|1|2|Double', websiteCode: 5, websiteName: 'trip.com', rateField: 'totalRate', changeType: 'parityLoss', comparedWith: 'booking.com (1)', comparedRate: 150, severity: 'medium' }),
		];
		expect(unpackAlerts(packAlerts(alerts))).toEqual(alerts);
	});

	it('writes what alerts of one row share once, so an alert costs a few dozen bytes', () => {
		const alerts = Array.from({ length: 28 }, (_, day) => alert({ checkIn: `2027-02-${String(day + 1).padStart(2, '0')}` }));
		expect(packAlerts(alerts).length / alerts.length).toBeLessThan(50);
	});

	it("keeps each website's name with its alerts, once a group", () => {
		const alerts = [alert(), alert({ checkIn: '2027-02-08' })];
		expect(JSON.parse(packAlerts(alerts)).g).toMatchObject([{ w: 2, o: 'expedia.com' }]);
		expect(packAlerts(alerts).match(/expedia\.com/g)).toHaveLength(1);
	});

	it('reads an entry written before names were kept, its website without a name', () => {
		const before = JSON.stringify({ t: ['2027-02-01T06:00:00.000Z'], g: [{ k: 100001, n: 'Harbour View Hotel', w: 2, m: '2027-02', l: 1, u: 2, r: 'Double', c: 'EUR', s: 7, f: 'onsiteRate', a: [[7, 'up', 100, 110, 10, 10, null, 0]] }] });
		expect(unpackAlerts(before)).toEqual([expect.objectContaining({ websiteCode: 2, websiteName: '', changeType: 'up', rate: 110 })]);
	});

	it('reads an empty entry as no alerts', () => {
		expect(unpackAlerts('')).toEqual([]);
		expect(unpackAlerts(null)).toEqual([]);
	});
});

describe("a digest's row holds what it reported", () => {
	it('names the entries it holds, and leaves out the month row where the stay names it', () => {
		const alerts = [alert(), alert({ checkIn: '2027-02-09' })];
		const text = packAlerts(alerts, [13, 14]);
		expect(JSON.parse(text)).toMatchObject({ r: [13, 14] });
		expect(text).not.toContain('"b"');
		expect(entryOf({ id: 20, entry: 'digest.13', state: 'reported', alerts: text }).replaces).toEqual([13, 14]);
		expect(unpackAlerts(text)).toEqual(alerts);
	});
});
