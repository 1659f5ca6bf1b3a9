import { parityOf, parityStates, severityOf, totalOf, type Parity, type Reference, type Tolerance, type WebsiteTotal } from '../../nodes/RateChanges/rules/parity';

/** Rate parity of one hotel's stay and room across websites (nodes/RateChanges/parity.ts), rule by rule. */

const OWN_SITE: Reference = { kind: 'website', websiteCode: 2 };
const LOWEST: Reference = { kind: 'lowest' };
const NO_TOLERANCE: Tolerance = { percent: 0, amount: 0 };

function total(websiteCode: number, amount: number | null, currency = 'EUR'): WebsiteTotal {
	return { websiteCode, currency, total: amount };
}

/** The own site (website 2) at `reference`, and website 5 at `other`: website 5's parity. */
function against(reference: number, other: number, tolerance: Tolerance = NO_TOLERANCE) {
	const parity = parityOf([total(2, reference), total(5, other)], OWN_SITE, tolerance);
	return parity.websites.find((website) => website.websiteCode === 5);
}

const states = (parity: Parity) => parity.websites.map(({ websiteCode, state }) => `${websiteCode} ${state}`);

describe('totals are compared, as a guest pays them', () => {
	it('adds the tax where the website shows it apart (taxStatus 0), to the cent', () => {
		expect(totalOf(100.1, 12.2, 0)).toBe(112.3);
	});

	it('takes the rate as it is where the tax is included, or no tax amount came', () => {
		expect(totalOf(112.3, 12.2, 1)).toBe(112.3);
		expect(totalOf(100, null, 0)).toBe(100);
		expect(totalOf(100, 12, null)).toBe(100);
	});

	it('has no total when the room is sold out (a rate of 0 or none)', () => {
		expect(totalOf(0, 0, 0)).toBeNull();
		expect(totalOf(null, 12, 0)).toBeNull();
	});
});

describe('the reference: a website by code, or the lowest', () => {
	it('holds every other website against the reference website', () => {
		const parity = parityOf([total(5, 190), total(2, 200), total(12, 210)], OWN_SITE, NO_TOLERANCE);
		expect(parity).toMatchObject({ referenceWebsite: 2, referenceTotal: 200, currency: 'EUR' });
		expect(parity.websites[0]).toEqual({ websiteCode: 2, websiteName: '', total: 200, state: 'reference', difference: 0, differencePercent: 0, severity: null });
	});

	it('lists the websites in website code order', () => {
		const parity = parityOf([total(12, 210), total(5, 190), total(2, 200)], OWN_SITE, NO_TOLERANCE);
		expect(parity.websites.map((website) => website.websiteCode)).toEqual([2, 5, 12]);
	});

	it('takes the cheapest website on sale as the lowest, the lower code of two at one total', () => {
		const parity = parityOf([total(2, 200), total(5, null), total(11, 180), total(12, 180)], LOWEST, NO_TOLERANCE);
		expect(parity).toMatchObject({ referenceWebsite: 11, referenceTotal: 180 });
		expect(states(parity)).toEqual(['2 win', '5 soldOut', '11 reference', '12 meet']);
	});

	it('finds no loss against the lowest, since no website is below it', () => {
		const parity = parityOf([total(2, 200), total(5, 170), total(12, 185)], LOWEST, NO_TOLERANCE);
		expect(parity).toMatchObject({ referenceWebsite: 5, losses: 0, severity: null });
	});

	it('says noReference when the reference website has no total for the stay: not shopped, or sold out there', () => {
		for (const totals of [[total(5, 190), total(12, null)], [total(2, null), total(5, 190), total(12, null)]]) {
			const parity = parityOf(totals, OWN_SITE, NO_TOLERANCE);
			expect(parity).toMatchObject({ referenceWebsite: null, referenceTotal: null, currency: null, losses: 0, severity: null });
			expect(parity.websites.filter((website) => website.websiteCode !== 2).map(({ websiteCode, state, difference }) => ({ websiteCode, state, difference }))).toEqual([
				{ websiteCode: 5, state: 'noReference', difference: null },
				{ websiteCode: 12, state: 'soldOut', difference: null },
			]);
		}
	});

	it('says noReference when every website is sold out and the reference is the lowest', () => {
		const parity = parityOf([total(2, null), total(5, null)], LOWEST, NO_TOLERANCE);
		expect(parity.referenceWebsite).toBeNull();
		expect(states(parity)).toEqual(['2 soldOut', '5 soldOut']);
	});
});

describe('win, meet or loss', () => {
	it('is a win when the reference is cheaper, with the difference in amount and percent of the reference', () => {
		expect(against(200, 210)).toEqual({ websiteCode: 5, websiteName: '', total: 210, state: 'win', difference: 10, differencePercent: 5, severity: null });
	});

	it('is a meet at the same total', () => {
		expect(against(200, 200)).toMatchObject({ state: 'meet', difference: 0, differencePercent: 0, severity: null });
	});

	it('is a loss when a website sells below the reference, with its severity', () => {
		expect(against(200, 195)).toEqual({ websiteCode: 5, websiteName: '', total: 195, state: 'loss', difference: -5, differencePercent: -2.5, severity: 'low' });
	});

	it('rounds the difference to the cent and its percentage to two decimals', () => {
		expect(against(108.9, 110)).toMatchObject({ difference: 1.1, differencePercent: 1.01 });
	});
});

describe('the tolerance: within either the percentage or the amount meets', () => {
	it('with neither set, only an equal total meets', () => {
		expect(against(200, 200)?.state).toBe('meet');
		expect(against(200, 199.99)?.state).toBe('loss');
		expect(against(200, 200.01)?.state).toBe('win');
	});

	it('meets exactly at the percentage, above or below, and not a cent beyond', () => {
		const tolerance = { percent: 1, amount: 0 };
		expect(against(200, 198, tolerance)?.state).toBe('meet');
		expect(against(200, 202, tolerance)?.state).toBe('meet');
		expect(against(200, 197.99, tolerance)?.state).toBe('loss');
		expect(against(200, 202.01, tolerance)?.state).toBe('win');
	});

	it('meets exactly at the percentage where the division is not exact in floating point (3.12 of 104)', () => {
		expect(against(104, 100.88, { percent: 3, amount: 0 })).toMatchObject({ state: 'meet', differencePercent: -3 });
		expect(against(104, 100.87, { percent: 3, amount: 0 })?.state).toBe('loss');
	});

	it('meets exactly at the amount, and not a cent beyond', () => {
		const tolerance = { percent: 0, amount: 2 };
		expect(against(200, 198, tolerance)?.state).toBe('meet');
		expect(against(200, 202, tolerance)?.state).toBe('meet');
		expect(against(200, 197.99, tolerance)?.state).toBe('loss');
		expect(against(200, 202.01, tolerance)?.state).toBe('win');
	});

	it('with both set, meets within either, whichever is wider', () => {
		// 196 is 4.00 and 2 % below 200.
		expect(against(200, 196, { percent: 1, amount: 5 })?.state).toBe('meet');
		expect(against(200, 196, { percent: 2, amount: 1 })?.state).toBe('meet');
		expect(against(200, 196, { percent: 1.99, amount: 3.99 })?.state).toBe('loss');
	});
});

describe('severity of a loss by how far below the reference', () => {
	it('is low below 5 %, medium from 5 % and below 10 %, high from 10 %', () => {
		expect([-4.99, -5, -9.99, -10, -35].map(severityOf)).toEqual(['low', 'medium', 'medium', 'high', 'high']);
	});

	it('is given to each loss, by its percentage of the reference', () => {
		const parity = parityOf([total(2, 100), total(5, 95.01), total(11, 95), total(12, 90.01), total(14, 90)], OWN_SITE, NO_TOLERANCE);
		expect(parity.websites.slice(1).map(({ websiteCode, severity }) => `${websiteCode} ${severity}`)).toEqual(['5 low', '11 medium', '12 medium', '14 high']);
	});

	it('sums up the stay with the number of losses and the worst severity', () => {
		expect(parityOf([total(2, 100), total(5, 97), total(11, 92), total(12, 104)], OWN_SITE, NO_TOLERANCE)).toMatchObject({ losses: 2, severity: 'medium' });
		expect(parityOf([total(2, 100), total(5, 85), total(11, 97)], OWN_SITE, NO_TOLERANCE)).toMatchObject({ losses: 2, severity: 'high' });
	});

	it('gives no severity to a win, a meet or the reference, and none to a stay without a loss', () => {
		const parity = parityOf([total(2, 100), total(5, 100), total(12, 120)], OWN_SITE, NO_TOLERANCE);
		expect(parity.websites.map((website) => website.severity)).toEqual([null, null, null]);
		expect(parity).toMatchObject({ losses: 0, severity: null });
	});
});

describe('websites sold out or in another currency are not compared', () => {
	it('says soldOut for a website without a total, not a loss', () => {
		expect(parityOf([total(2, 200), total(5, null)], OWN_SITE, NO_TOLERANCE).websites[1]).toEqual({
			websiteCode: 5,
			websiteName: '',
			total: null,
			state: 'soldOut',
			difference: null,
			differencePercent: null,
			severity: null,
		});
	});

	it('says otherCurrency for a website selling in another currency than the reference, however low its total', () => {
		const parity = parityOf([total(2, 200), total(5, 20, 'USD')], OWN_SITE, NO_TOLERANCE);
		expect(parity.websites[1]).toMatchObject({ state: 'otherCurrency', difference: null, severity: null });
		expect(parity).toMatchObject({ currency: 'EUR', losses: 0 });
	});
});

describe('parityStates: the websites\' states as one text, to tell a change since the last shop', () => {
	it('lists each website code and its state in website order', () => {
		const parity = parityOf([total(12, 210), total(2, 200), total(5, 190), total(11, null)], OWN_SITE, NO_TOLERANCE);
		expect(parityStates(parity)).toBe('2:reference,5:loss,11:soldOut,12:win');
	});

	it('changes when one website\'s state changes, not when its total moves within its state', () => {
		const before = parityStates(parityOf([total(2, 200), total(5, 190)], OWN_SITE, NO_TOLERANCE));
		expect(parityStates(parityOf([total(2, 200), total(5, 180)], OWN_SITE, NO_TOLERANCE))).toBe(before);
		expect(parityStates(parityOf([total(2, 200), total(5, 200)], OWN_SITE, NO_TOLERANCE))).not.toBe(before);
	});
});
