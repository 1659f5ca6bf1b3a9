import type { JournalAlert } from '../../../nodes/RateChanges/storage/journal';

/** An alert as the changes journal keeps it: my hotel's rate on expedia.com, 133 down to 92.58, unless overridden. */
export function journalAlert(overrides: Partial<JournalAlert> = {}): JournalAlert {
	return {
		block: '100001|2|2027-02|1|2|Double',
		shopId: 7,
		hotelCode: 100001,
		hotelName: 'Harbour View Hotel',
		websiteCode: 2,
		websiteName: 'expedia.com',
		checkIn: '2027-02-07',
		los: 1,
		guests: 2,
		roomType: 'Double',
		currency: 'EUR',
		rateField: 'onsiteRate',
		changeType: 'down',
		previousRate: 133,
		rate: 92.58,
		change: -40.42,
		changePercent: -30.39,
		previousCollected: '2027-01-31T06:00:00.000Z',
		comparedWith: '',
		comparedRate: null,
		severity: '',
		dtCollected: '2027-02-01T06:00:00.000Z',
		...overrides,
	};
}
