import type { IDataObject } from 'n8n-workflow';

import { buildDigests, SIGN_NOTE, type DigestGroup } from '../../nodes/RateChanges/rules/digestView';
import type { ReportedChange } from '../../nodes/RateChanges/rules/alert';

/** Digest (nodes/RateChanges/digest.ts): one message-ready item per shop, hotel, or hotel and day. */

const DIGEST_ID = '0b6f3c1e-4d2a-4f7e-9a51-3c8d2e7b9f10';

function reported(overrides: Partial<ReportedChange> = {}): ReportedChange {
	return {
		shopId: 7,
		hotelCode: 100001,
		hotelName: 'Harbour View Hotel',
		websiteCode: 2,
		checkIn: '2025-04-10',
		los: 1,
		guests: 2,
		roomType: 'Double',
		currency: 'EUR',
		rateField: 'onsiteRate',
		changeType: 'up',
		previousRate: 100,
		rate: 112,
		change: 12,
		changePercent: 12,
		previousCollected: '2025-03-01T06:30:00.000Z',
		comparedWith: '',
		comparedRate: null,
		severity: '',
		dtCollected: '2025-03-02T06:30:00.000Z',
		...overrides,
	};
}

const up = (percent: number, overrides: Partial<ReportedChange> = {}) =>
	reported({ changeType: 'up', previousRate: 100, rate: 100 + percent, change: percent, changePercent: percent, ...overrides });
const down = (percent: number, overrides: Partial<ReportedChange> = {}) =>
	reported({ changeType: 'down', previousRate: 100, rate: 100 - percent, change: -percent, changePercent: -percent, ...overrides });
const soldOut = (overrides: Partial<ReportedChange> = {}) =>
	reported({ changeType: 'soldOut', previousRate: 100, rate: null, change: null, changePercent: null, ...overrides });
const backOnSale = (overrides: Partial<ReportedChange> = {}) =>
	reported({ changeType: 'backOnSale', previousRate: null, rate: 140, change: null, changePercent: null, ...overrides });
const firstSeen = (overrides: Partial<ReportedChange> = {}) =>
	reported({ changeType: 'firstSeen', previousRate: null, rate: 90, change: null, changePercent: null, previousCollected: null, ...overrides });

/** As Compare With My Hotel writes them: my rate and the cheapest competitor, on every website unless told. */
const undercut = (overrides: Partial<ReportedChange> = {}) =>
	reported({
		changeType: 'undercut',
		websiteCode: 0,
		roomType: '',
		previousRate: null,
		previousCollected: null,
		rate: 200,
		comparedWith: 'hotel 100067 Quay Inn',
		comparedRate: 180,
		change: 20,
		changePercent: 10,
		...overrides,
	});
const rankChanged = (overrides: Partial<ReportedChange> = {}) =>
	reported({ changeType: 'rankChanged', websiteCode: 0, roomType: '', previousRate: null, previousCollected: null, rate: 200, comparedWith: 'rank 1 → 3 of 4', change: null, changePercent: null, ...overrides });
/** As Check Parity writes them: the website selling below the reference, on totals. */
const parityLoss = (overrides: Partial<ReportedChange> = {}) =>
	reported({
		changeType: 'parityLoss',
		websiteCode: 5,
		rateField: 'totalRate',
		previousRate: null,
		previousCollected: null,
		rate: 184,
		comparedWith: 'website 2',
		comparedRate: 200,
		change: -16,
		changePercent: -8,
		severity: 'medium',
		...overrides,
	});

function digests(changes: ReportedChange[], groupBy: DigestGroup = 'shop', maxListed = 50): IDataObject[] {
	return buildDigests(changes, { digestId: DIGEST_ID, groupBy, maxListed });
}

const listed = (digest: IDataObject) => digest.changes as unknown as ReportedChange[];
const textLines = (digest: IDataObject) => (digest.text as string).split('\n');
const htmlRows = (digest: IDataObject) => (digest.html as string).split('\n').filter((line) => line.startsWith('<tr><td>'));

describe('one digest per shop, or per hotel, in number order', () => {
	it('gives one item per shop, shop 2 before shop 10, each with only its own changes', () => {
		const result = digests([up(5, { shopId: 10 }), up(6, { shopId: 2 }), down(7, { shopId: 10 })]);
		expect(result.map((digest) => digest.shopId)).toEqual([2, 10]);
		expect(listed(result[0]).map((change) => change.changePercent)).toEqual([6]);
		expect(listed(result[1]).map((change) => change.changePercent)).toEqual([-7, 5]);
		expect(result.every((digest) => digest.digestId === DIGEST_ID)).toBe(true);
	});

	it('gives one item per hotel, with its code and name and no shop, across shops', () => {
		const result = digests(
			[up(5, { shopId: 1, hotelCode: 200002, hotelName: 'Quay Inn' }), up(6, { shopId: 2 }), down(7, { shopId: 3 })],
			'hotel',
		);
		expect(result.map(({ hotelCode, hotelName }) => ({ hotelCode, hotelName }))).toEqual([
			{ hotelCode: 100001, hotelName: 'Harbour View Hotel' },
			{ hotelCode: 200002, hotelName: 'Quay Inn' },
		]);
		expect(result.every((digest) => !('shopId' in digest))).toBe(true);
		expect(listed(result[0]).map((change) => change.shopId)).toEqual([3, 2]);
		expect(textLines(result[1])[0]).toBe('*Quay Inn (200002): 1 rate up*');
	});

	it('titles the changes of records without a shop "Rate shop"', () => {
		const [digest] = digests([up(5, { shopId: null })]);
		expect(digest.shopId).toBeNull();
		expect(textLines(digest)[0]).toBe('*Rate shop, Harbour View Hotel (100001): 1 rate up*');
	});
});

describe('each digest lists its biggest changes first', () => {
	it('counts sold out and back on sale as a 100 % move and first seen as none', () => {
		const result = digests([down(3), up(12, { hotelCode: 100002 }), firstSeen({ hotelCode: 100003 }), soldOut({ hotelCode: 100004 }), up(150, { hotelCode: 100005 }), backOnSale({ hotelCode: 100006 })]);
		expect(listed(result[0]).map(({ hotelCode, changeType }) => `${hotelCode} ${changeType}`)).toEqual([
			'100005 up',
			'100004 soldOut',
			'100006 backOnSale',
			'100002 up',
			'100001 down',
			'100003 firstSeen',
		]);
	});

	it('orders changes of one size by hotel, website, check-in, room, nights and guests', () => {
		const stays = [
			up(5, { guests: 3 }),
			up(5, { los: 2 }),
			up(5, { roomType: 'Suite' }),
			up(5, { checkIn: '2025-04-11' }),
			up(5, { websiteCode: 3 }),
			up(5, { hotelCode: 100002 }),
			up(5),
		];
		const order = listed(digests(stays)[0]).map(({ hotelCode, websiteCode, checkIn, roomType, los, guests }) => [hotelCode, websiteCode, checkIn, roomType, los, guests].join(' '));
		expect(order).toEqual([
			'100001 2 2025-04-10 Double 1 2',
			'100001 2 2025-04-10 Double 1 3',
			'100001 2 2025-04-10 Double 2 2',
			'100001 2 2025-04-10 Suite 1 2',
			'100001 2 2025-04-11 Double 1 2',
			'100001 3 2025-04-10 Double 1 2',
			'100002 2 2025-04-10 Double 1 2',
		]);
	});

	it('reads the same however the changes came in', () => {
		const changes = [up(5, { shopId: 2 }), soldOut(), down(5, { hotelCode: 100009 }), up(5), firstSeen({ shopId: 2 }), backOnSale({ hotelCode: 100003 })];
		const expected = digests(changes);
		expect(digests([...changes].reverse())).toEqual(expected);
		expect(digests([changes[3], changes[0], changes[5], changes[1], changes[4], changes[2]])).toEqual(expected);
	});
});

describe('each digest counts its changes by type and spans their collection times', () => {
	it('counts every type and says so in its first line', () => {
		const [digest] = digests([
			up(5, { dtCollected: '2025-03-02T08:00:00.000Z' }),
			up(9),
			down(4),
			soldOut({ dtCollected: '2025-03-02T05:00:00.000Z' }),
			backOnSale(),
			firstSeen(),
		]);
		expect(digest).toMatchObject({
			shopId: 7,
			changeCount: 6,
			up: 2,
			down: 1,
			soldOut: 1,
			backOnSale: 1,
			firstSeen: 1,
			collectedFrom: '2025-03-02T05:00:00.000Z',
			collectedTo: '2025-03-02T08:00:00.000Z',
		});
		expect(textLines(digest)[0]).toBe('*Rate shop 7, Harbour View Hotel (100001): 2 rates up, 1 rate down, 1 sold out, 1 back on sale, 1 first seen*');
		expect(digest.html).toContain('<p><strong>Rate shop 7, Harbour View Hotel (100001): 2 rates up, 1 rate down, 1 sold out, 1 back on sale, 1 first seen</strong></p>');
	});

	it('describes each change in a line a message can post', () => {
		const [digest] = digests([
			reported({ previousRate: 142.5, rate: 160, change: 17.5, changePercent: 12.28 }),
			soldOut({ hotelCode: 100002, hotelName: '', los: 2, roomType: '' }),
			backOnSale({ hotelCode: 100003, checkIn: '2025-04-12' }),
			down(5, { hotelCode: 100004 }),
			firstSeen({ hotelCode: 100005 }),
		]);
		expect(textLines(digest).slice(1)).toEqual([
			'• Hotel 100002 (100002), website 2, 2025-04-10, 2 nights: sold out (was 100.00 EUR)',
			'• Harbour View Hotel (100003), website 2, 2025-04-12, 1 night, Double: back on sale at 140.00 EUR',
			'• Harbour View Hotel (100001), website 2, 2025-04-10, 1 night, Double: 142.50 → 160.00 EUR (+12.3 %)',
			'• Harbour View Hotel (100004), website 2, 2025-04-10, 1 night, Double: 100.00 → 95.00 EUR (−5.0 %)',
			'• Harbour View Hotel (100005), website 2, 2025-04-10, 1 night, Double: first seen at 90.00 EUR',
			SIGN_NOTE,
		]);
		expect(htmlRows(digest)[0]).toBe(
			'<tr><td>Hotel 100002 (100002)</td><td>website 2</td><td>2025-04-10</td><td>2</td><td></td><td>sold out</td><td>100.00 EUR</td><td>sold out</td><td></td></tr>',
		);
		expect(htmlRows(digest)[2]).toBe(
			'<tr><td>Harbour View Hotel (100001)</td><td>website 2</td><td>2025-04-10</td><td>1</td><td>Double</td><td>up</td><td>142.50 EUR</td><td>160.00 EUR</td><td>+12.3 %</td></tr>',
		);
	});
});

describe('Max Changes in Text bounds the text and HTML, never the changes', () => {
	const five = [up(1), up(2, { hotelCode: 100002 }), up(3, { hotelCode: 100003 }), up(4, { hotelCode: 100004 }), up(5, { hotelCode: 100005 })];

	it('lists the biggest ones and counts the rest as "and N more" in the text and the HTML', () => {
		const [digest] = digests(five, 'shop', 3);
		expect(textLines(digest)).toHaveLength(1 + 3 + 1 + 1);
		expect(textLines(digest).slice(-2)).toEqual(['and 2 more', SIGN_NOTE]);
		expect(textLines(digest)[1]).toContain('(100005)');
		expect(htmlRows(digest)).toHaveLength(3);
		expect(digest.html).toMatch(/<\/table>\n<p>and 2 more<\/p>\n<p><small>Percentages: /);
		expect(digest.changeCount).toBe(5);
		expect(listed(digest)).toHaveLength(5);
		expect(textLines(digest)[0]).toContain('5 rates up');
	});

	it('says nothing more when every change fits', () => {
		const [digest] = digests(five, 'shop', 5);
		expect(textLines(digest)).toHaveLength(1 + 5 + 1);
		expect(digest.text).not.toContain('more');
		expect(digest.html).not.toContain('more');
		expect(htmlRows(digest)).toHaveLength(5);
	});
});

describe('the HTML is safe to send whatever a hotel is called', () => {
	const name = 'Smith & Sons <Inn> "Lux"';

	it('escapes the hotel name in the table and in the title', () => {
		const [digest] = digests([up(5, { hotelName: name })], 'hotel');
		const html = digest.html as string;
		expect(html).toContain('Smith &amp; Sons &lt;Inn&gt; &quot;Lux&quot; (100001)');
		expect(html).not.toContain('<Inn>');
		expect(html).not.toContain('"Lux"');
		// Named once: in the title, not on each row, when every row is the one hotel.
		expect(html.match(/Smith &amp; Sons/g)).toHaveLength(1);
	});

	it('keeps the text as written, for messages that are not HTML', () => {
		const [digest] = digests([up(5, { hotelName: name })], 'hotel');
		expect(textLines(digest)[0]).toBe(`*${name} (100001): 1 rate up*`);
		expect(digest.hotelName).toBe(name);
	});
});

describe('undercuts, rank changes and parity losses in the digest', () => {
	it('describes each in a line a message can post', () => {
		const [digest] = digests([undercut(), rankChanged({ hotelCode: 100002, hotelName: 'Quay Inn' }), parityLoss({ hotelCode: 100003 })]);
		expect(textLines(digest).slice(1)).toEqual([
			'• Harbour View Hotel (100001), all websites, 2025-04-10, 1 night: undercut: hotel 100067 Quay Inn 180.00 EUR, 10.0 % below mine (200.00 EUR)',
			'• Harbour View Hotel (100003), website 5, 2025-04-10, 1 night, Double: parity loss (medium): website 2 200.00 → 184.00 EUR (−8.0 %)',
			'• Quay Inn (100002), all websites, 2025-04-10, 1 night: rank 1 → 3 of 4, at 200.00 EUR',
			SIGN_NOTE,
		]);
	});

	it('shows each in a row of the HTML table, with what it was compared with', () => {
		const [digest] = digests([undercut(), rankChanged({ hotelCode: 100002, hotelName: 'Quay Inn' }), parityLoss({ hotelCode: 100003 })]);
		expect(htmlRows(digest)).toEqual([
			'<tr><td>Harbour View Hotel (100001)</td><td>all</td><td>2025-04-10</td><td>1</td><td></td><td>undercut</td><td>hotel 100067 Quay Inn: 180.00 EUR</td><td>200.00 EUR</td><td>10.0 % below mine</td></tr>',
			'<tr><td>Harbour View Hotel (100003)</td><td>website 5</td><td>2025-04-10</td><td>1</td><td>Double</td><td>parity loss</td><td>website 2: 200.00 EUR</td><td>184.00 EUR</td><td>−8.0 %</td></tr>',
			'<tr><td>Quay Inn (100002)</td><td>all</td><td>2025-04-10</td><td>1</td><td></td><td>rank changed</td><td>rank 1 → 3 of 4</td><td>200.00 EUR</td><td></td></tr>',
		]);
	});

	it('escapes what they were compared with in the HTML', () => {
		const [digest] = digests([undercut({ comparedWith: 'hotel 100067 Bed & <Breakfast>' })]);
		expect(digest.html).toContain('<td>hotel 100067 Bed &amp; &lt;Breakfast&gt;: 180.00 EUR</td>');
	});

	it('lists them by how far below: an undercut or a loss by its percentage, a rank change as no move', () => {
		const result = digests([rankChanged({ hotelCode: 100002 }), parityLoss({ changePercent: -8 }), undercut({ changePercent: 12 }), up(9), parityLoss({ changePercent: -15, websiteCode: 11 })]);
		expect(listed(result[0]).map(({ changeType, changePercent }) => `${changeType} ${changePercent}`)).toEqual([
			'parityLoss -15',
			'undercut 12',
			'up 9',
			'parityLoss -8',
			'rankChanged null',
		]);
	});

	it('counts each type in its own field and in the first line, after the rate moves', () => {
		const [digest] = digests([undercut(), undercut({ hotelCode: 100002 }), rankChanged(), parityLoss(), parityLoss({ websiteCode: 11 }), parityLoss({ websiteCode: 12 }), down(4)]);
		expect(digest).toMatchObject({ changeCount: 7, up: 0, down: 1, soldOut: 0, backOnSale: 0, firstSeen: 0, undercut: 2, rankChanged: 1, parityLoss: 3 });
		expect(textLines(digest)[0]).toBe('*Rate shop 7: 1 rate down, 2 undercuts, 1 change of rank, 3 parity losses*');
	});
});

describe('Group By hotel and day: one digest per hotel and check-in day', () => {
	const changes = [
		parityLoss({ hotelCode: 100001, checkIn: '2025-04-11' }),
		undercut({ hotelCode: 100001, checkIn: '2025-04-10' }),
		undercut({ hotelCode: 99999, hotelName: 'Old Town Inn', checkIn: '2025-04-12' }),
		parityLoss({ hotelCode: 100001, checkIn: '2025-04-10', websiteCode: 11 }),
		up(5, { hotelCode: 99999, hotelName: 'Old Town Inn', checkIn: '2025-04-09' }),
	];

	it('orders them by hotel code as a number, then by day', () => {
		const result = digests(changes, 'hotelDay');
		expect(result.map(({ hotelCode, checkIn }) => `${hotelCode} ${checkIn}`)).toEqual(['99999 2025-04-09', '99999 2025-04-12', '100001 2025-04-10', '100001 2025-04-11']);
	});

	it('gives each its hotel and day, no shop, and only its own changes', () => {
		const result = digests(changes, 'hotelDay');
		expect(result[2]).toMatchObject({ hotelCode: 100001, hotelName: 'Harbour View Hotel', checkIn: '2025-04-10', changeCount: 2, undercut: 1, parityLoss: 1 });
		expect(result.every((digest) => !('shopId' in digest))).toBe(true);
		expect(listed(result[2]).map(({ changeType, websiteCode }) => `${changeType} ${websiteCode}`)).toEqual(['undercut 0', 'parityLoss 11']);
	});

	it('titles each with the hotel and the day', () => {
		const result = digests(changes, 'hotelDay');
		expect(textLines(result[0])[0]).toBe('*Old Town Inn (99999), 2025-04-09: 1 rate up*');
		expect(textLines(result[3])[0]).toBe('*Harbour View Hotel (100001), 2025-04-11: 1 parity loss*');
	});
});

describe('what a revenue manager reads (#39)', () => {
	it('counts what happened by kind in the headline, not "rate changes"', () => {
		const [digest] = digests([undercut(), undercut({ checkIn: '2025-04-11' }), undercut({ checkIn: '2025-04-12' }), undercut({ checkIn: '2025-04-13' }), parityLoss()]);
		expect(textLines(digest)[0]).toBe('*Rate shop 7, Harbour View Hotel (100001): 4 undercuts, 1 parity loss*');
		expect(digest.html).toContain('<strong>Rate shop 7, Harbour View Hotel (100001): 4 undercuts, 1 parity loss</strong>');
	});

	it('names my hotel once, in the title, when every row is that hotel, and has no Hotel column then', () => {
		const [digest] = digests([undercut(), parityLoss()]);
		expect(textLines(digest).slice(1, 3).every((line) => !line.includes('Harbour View Hotel'))).toBe(true);
		expect(digest.html).not.toContain('<th align="left">Hotel</th>');
		expect((digest.html as string).match(/Harbour View Hotel/g)).toHaveLength(1);
	});

	it('names each website with its code beside it, in the text, the HTML and what a parity loss is held against', () => {
		const [digest] = digests([
			parityLoss({ websiteName: 'trip.com', comparedWith: 'expedia.com (2)' }),
			down(5, { websiteName: 'hotels.com', websiteCode: 4, checkIn: '2025-04-11' }),
		]);
		expect(textLines(digest).slice(1, 3)).toEqual([
			'• trip.com (5), 2025-04-10, 1 night, Double: parity loss (medium): expedia.com (2) 200.00 → 184.00 EUR (−8.0 %)',
			'• hotels.com (4), 2025-04-11, 1 night, Double: 100.00 → 95.00 EUR (−5.0 %)',
		]);
		expect(htmlRows(digest)[0]).toBe(
			'<tr><td>trip.com (5)</td><td>2025-04-10</td><td>1</td><td>Double</td><td>parity loss</td><td>expedia.com (2): 200.00 EUR</td><td>184.00 EUR</td><td>−8.0 %</td></tr>',
		);
	});

	it('shows an undercut as the trade reads it: the competitor so many percent below my rate, of my rate, said in words', () => {
		const [digest] = digests([undercut({ rate: 3921.38, comparedRate: 3081.66, change: 839.72, changePercent: 21.41, currency: 'ZAR' })]);
		expect(digest.text).toContain('undercut: hotel 100067 Quay Inn 3081.66 ZAR, 21.4 % below mine (3921.38 ZAR)');
		expect(htmlRows(digest)[0]).toContain('<td>21.4 % below mine</td>');
		expect(digest.text).not.toContain(SIGN_NOTE);
	});

	it('shows every other percentage as the rate against the one before it or compared with it, minus lower, and says so once', () => {
		const [digest] = digests([undercut({ rate: 170, comparedRate: 140, change: 30, changePercent: 17.65 }), parityLoss({ rate: 160, comparedRate: 170 })]);
		// The competitor's 140 is 17.6 % below my 170; the website's 160 against the reference's 170 is −5.9 %.
		expect(digest.text).toContain('hotel 100067 Quay Inn 140.00 EUR, 17.6 % below mine (170.00 EUR)');
		expect(digest.text).toContain('website 2 170.00 → 160.00 EUR (−5.9 %)');
		expect(textLines(digest).filter((line) => line === SIGN_NOTE)).toHaveLength(1);
		expect((digest.html as string).match(/minus means lower/g)).toHaveLength(1);
	});

	it('says nothing of signs when no row has a percentage', () => {
		const [digest] = digests([soldOut(), firstSeen({ checkIn: '2025-04-11' })]);
		expect(digest.text).not.toContain('minus');
		expect(digest.html).not.toContain('minus');
	});

	it('writes every amount to the cent', () => {
		const [digest] = digests([up(0.3, { previousRate: 177, rate: 177.3, change: 0.3, changePercent: 0.17 })]);
		expect(textLines(digest)[1]).toBe('• website 2, 2025-04-10, 1 night, Double: 177.00 → 177.30 EUR (+0.2 %)');
	});
});
