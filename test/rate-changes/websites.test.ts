import { readObservation } from '../../nodes/RateChanges/rules/observation';
import { parityOf } from '../../nodes/RateChanges/rules/parity';
import { parityAlerts } from '../../nodes/RateChanges/rules/standing';
import { websiteLabel, websiteNameOf } from '../../nodes/RateChanges/rules/websites';

/** Websites as a person reads them (nodes/RateChanges/rules/websites.ts): by name, the code beside it. */

describe("a website's name from a rate record's sourceUrl", () => {
	it('is the host without www.', () => {
		expect(websiteNameOf('https://www.hotels.com/ho-cape-town-100085?checkin=2026-11-29&los=1')).toBe('hotels.com');
		expect(websiteNameOf('https://all.accor.com/hotel/x')).toBe('all.accor.com');
		expect(websiteNameOf('HTTPS://WWW.Booking.com/hotel/za/x.html')).toBe('booking.com');
	});

	it('is read from an address without a scheme too', () => {
		expect(websiteNameOf('www.expedia.com/x.Hotel-Information')).toBe('expedia.com');
	});

	it('is empty when the record has no address to read', () => {
		expect(websiteNameOf(undefined)).toBe('');
		expect(websiteNameOf('')).toBe('');
		expect(websiteNameOf('not a url at all')).toBe('');
		expect(websiteNameOf(42)).toBe('');
	});
});

describe('a website as a message names it', () => {
	it('is its name with the code beside it', () => {
		expect(websiteLabel(4, 'hotels.com')).toBe('hotels.com (4)');
	});

	it('is its code alone when no name is known', () => {
		expect(websiteLabel(4, '')).toBe('website 4');
		expect(websiteLabel(4, undefined)).toBe('website 4');
	});
});

describe('the name travels with the record into its alerts', () => {
	const record = {
		shopId: 1,
		hotelCode: 100085,
		hotelName: 'Hilton Cape Town Riverside',
		websiteCode: 4,
		sourceUrl: 'https://www.hotels.com/ho-hilton-cape-town-100085',
		checkIn: '2026-11-29T00:00:00Z',
		los: 1,
		guests: 2,
		roomType: 'Double',
		currency: 'GBP',
		onsiteRate: 143.7,
		netRate: 120,
		dtCollected: '2026-11-28T06:00:00Z',
	};

	it('is read from the record', () => {
		expect(readObservation(record, 'onsiteRate').websiteName).toBe('hotels.com');
	});

	it('names the website that loses parity and the reference it loses to', () => {
		const first = readObservation(record, 'onsiteRate');
		const parity = parityOf(
			[
				{ websiteCode: 1, websiteName: 'booking.com', currency: 'GBP', total: 160 },
				{ websiteCode: 4, websiteName: 'hotels.com', currency: 'GBP', total: 143.7 },
			],
			{ kind: 'website', websiteCode: 1 },
			{ percent: 1, amount: 0 },
		);
		expect(parity.referenceWebsiteName).toBe('booking.com');
		expect(parityAlerts(first, parity)).toEqual([expect.objectContaining({ websiteCode: 4, websiteName: 'hotels.com', comparedWith: 'booking.com (1)' })]);
	});
});
