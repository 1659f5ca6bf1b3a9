import { rangeDates } from '../../nodes/RateChanges/rules/calendar';
import { buildCurve } from '../../nodes/RateChanges/rules/bookingCurve';
import { buildHistory, type DateHistory, type StayHistory } from '../../nodes/RateChanges/rules/history';
import { CHART_DATES, FIGURE_MOVES, curveHtml, curveSlackText, curveText, historyCounts, historyHtml, historySlackText, historyText, TEXT_DATES, type HistoryMeta } from '../../nodes/RateChanges/rules/historyView';
import type { HistoryEntry } from '../../nodes/RateChanges/storage/stayHistory';

/** Rate History as a message (nodes/RateChanges/rules/historyView.ts): the email charts, the Slack and plain texts. */

const MINE = 100001;
const [B, C, D] = [100002, 100003, 100004];
const HOSTILE_NAME = `<script>alert("x")</script> O'Brien & "Sons"`;
const META: HistoryMeta = { hotelName: HOSTILE_NAME, hotelCode: MINE, website: 'lowest', los: 1, guests: 2, lookBackDays: 30 };

function entry(day: string, rate: number): HistoryEntry {
	return { value: { onsiteRate: rate, netRate: null, totalRate: null, currency: 'ZAR' }, dtCollected: `${day}T06:00:00.000Z` };
}

/** Thirty daily shops (1 to 30 April) of each date: the competitors climbing 10 a day, me moving once 21 days out and selling out on the 12th date's last five. */
function stays(dates: readonly string[]): StayHistory[] {
	const days = rangeDates('2027-04-01', '2027-04-30');
	return dates.flatMap((checkIn, index) => [
		{ hotelCode: MINE, hotelName: HOSTILE_NAME, websiteCode: 1, roomType: 'Double', checkIn, lastSeen: '2027-04-30T06:00:00.000Z', entries: [entry(days[0], 3100), entry(days[9], 3300), ...(index === 11 ? [entry(days[25], 0)] : [])] },
		...[B, C, D].map((hotelCode, offset) => ({
			hotelCode,
			hotelName: `Hotel ${hotelCode}`,
			websiteCode: 1,
			roomType: 'Double',
			checkIn,
			lastSeen: '2027-04-30T06:00:00.000Z',
			entries: days.map((day, shop) => entry(day, 3000 + offset * 200 + shop * 10 + index)),
		})),
	]);
}

function histories(count: number): DateHistory[] {
	const dates = rangeDates('2027-05-01', '2027-06-30').slice(0, count);
	return buildHistory(stays(dates), { myHotelCode: MINE, compSet: 'all', website: 'lowest', dates, rateField: 'onsiteRate', lookBackDays: 30 });
}

describe('the history email', () => {
	const html = historyHtml(histories(30), META);

	it('is tables and inline styles only, every value escaped', () => {
		expect(html).not.toMatch(/<style|class=|<img|<script|<svg|<div[^>]*display:\s*flex/i);
		expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; O&#39;Brien &amp; &quot;Sons&quot;');
	});

	it(`charts the first ${CHART_DATES} dates, two bars a shop day, and lists the others by their line`, () => {
		const charted = histories(30);
		for (const history of charted.slice(0, CHART_DATES)) expect(html).toContain(`${history.weekday} ${history.date}</div>`);
		expect(html).toContain(`${30 - CHART_DATES} more dates`);
		expect(html).toContain(`<strong>${charted[CHART_DATES].weekday} ${charted[CHART_DATES].date}</strong>: ${charted[CHART_DATES].line}`);
		expect(html.match(/bgcolor="#1a73e8"/g)).toHaveLength(CHART_DATES * 30);
		expect(html.match(/bgcolor="#9aa0a6"/g)).toHaveLength(CHART_DATES * 30);
	});

	it('gives the figures of the first shop day, each day I moved or sold out, and the last', () => {
		const twelfth = historyHtml(histories(12).slice(11), META);
		const rows = [...twelfth.matchAll(/<tr><td style="[^"]*">(\d+)<\/td>/g)].map((match) => Number(match[1]));
		// 1 April is 41 days before 12 May; I moved 10 April (32 days out), sold out 26 April (16), the last shop 30 April (12).
		expect(rows).toEqual([41, 32, 16, 12]);
		expect(twelfth).toContain('Sold out');
		expect(twelfth.match(/bgcolor="#c5221f"/g)).toHaveLength(5);
	});

	it('stays under the 102 KB at which Gmail cuts an email, with 30 dates of 30 shop days', () => {
		process.stderr.write(`history email, 30 dates of 30 shop days: ${Buffer.byteLength(html)} bytes\n`);
		expect(Buffer.byteLength(html)).toBeLessThan(102 * 1024);
	});
});

describe('the figures under a chart', () => {
	it(`give my ${FIGURE_MOVES} biggest moves, in shop-day order, between the first and the last shop day`, () => {
		const days = rangeDates('2027-04-01', '2027-04-10');
		const moves = [3100, 3110, 3300, 3290, 3000, 3010, 3400, 3405, 3100, 3101];
		const mine: StayHistory = { hotelCode: MINE, hotelName: 'Mine', websiteCode: 1, roomType: 'Double', checkIn: '2027-04-20', lastSeen: '2027-04-10T06:00:00.000Z', entries: days.map((day, shop) => entry(day, moves[shop])) };
		const other: StayHistory = { ...mine, hotelCode: B, entries: [entry(days[0], 3200)] };
		const [history] = buildHistory([mine, other], { myHotelCode: MINE, compSet: 'all', website: 'lowest', dates: ['2027-04-20'], rateField: 'onsiteRate', lookBackDays: 30 });
		const html = historyHtml([history], META);
		const rows = [...html.matchAll(/<tr><td style="[^"]*">(\d+)<\/td>/g)].map((match) => Number(match[1]));
		// Moves of 10, 190, 10, 290, 10, 390, 5, 305 and 1, 18 to 10 days out: the biggest five are 390 (13
		// days out), 305 (11), 290 (15), 190 (17) and, of the three of 10, the farthest out (18).
		expect(rows).toEqual([19, 18, 17, 15, 13, 11, 10]);
	});
});

describe('the history texts', () => {
	it('give a title, the counts and each date’s line, in Slack’s mrkdwn with its three characters escaped', () => {
		const slack = historySlackText(histories(2), META);
		expect(slack.split('\n').slice(0, 3)).toEqual([
			`*Rate history: &lt;script&gt;alert("x")&lt;/script&gt; O'Brien &amp; "Sons" (${MINE})*`,
			'lowest rate of all websites, 1 night, 2 guests, 2027-05-01 to 2027-05-02, the last 30 shop days before arrival, ZAR',
			'2 dates, 2 with history: comp median up on 2, down on 0; you moved 2 times, sold out on 0',
		]);
		expect(slack).toContain('• *Sat 2027-05-01*: comp median 3,200 → 3,490 ZAR (+9 %) over 30 days; you moved once, 21 days out');
		expect(historyText(histories(2), META)).toContain('- Sat 2027-05-01: comp median 3,200 → 3,490 ZAR (+9 %) over 30 days; you moved once, 21 days out');
	});

	it(`list at most ${TEXT_DATES} dates and say how many they leave out`, () => {
		const many = histories(61);
		expect(historyText(many, META, 60).split('\n').at(-1)).toBe("1 later date (2027-06-30) left out here; each date's item has them");
	});

	it('count the dates, their history, the median’s direction, my moves and sell-outs', () => {
		expect(historyCounts(histories(12))).toEqual({ dates: 12, withHistory: 12, compMedianUp: 12, compMedianDown: 0, myMoves: 12, mySoldOut: 1 });
	});
});

describe('the curve', () => {
	const dates = rangeDates('2027-05-01', '2027-05-10');
	const curve = buildCurve(stays(dates), { myHotelCode: MINE, compSet: 'all', website: 'lowest', dates, rateField: 'onsiteRate' });

	it('is one row per bucket, farthest first, my index a bar with its figure, the median with its move', () => {
		const html = curveHtml(curve, META);
		expect(html).not.toMatch(/<style|class=|<img|<script/i);
		expect([...html.matchAll(/font-weight:bold;">([0-9–]+)<\/td>/g)].map((match) => match[1])).toEqual(['61–90', '31–60', '15–30', '8–14', '0–7']);
		expect(html).toContain('no index');
		const bucket = curve.buckets.find((entry) => entry.label === '15–30');
		expect(html).toContain(`width="${Math.round(((bucket?.myIndex as number) / 150) * 100)}%"`);
	});

	it('says the same in the texts', () => {
		expect(curveText(curve, META).split('\n')[1]).toBe(curve.line);
		expect(curveSlackText(curve, META)).toContain('• 61–90 days out: no index, no comp median, 0 stays');
	});
});
