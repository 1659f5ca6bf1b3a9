import { buildCalendar, rangeDates, type CalendarDay, type DayEvent, type RememberedRate } from '../../nodes/RateChanges/rules/calendar';
import { calendarCounts, calendarHtml, calendarText, type CalendarMeta } from '../../nodes/RateChanges/rules/calendarView';

/** Rate Calendar as a message (nodes/RateChanges/rules/calendarView.ts): the email grid and the Slack text. */

const MINE = 100001;
const [B, C, D] = [100002, 100003, 100004];
const HOSTILE_NAME = `<script>alert("x")</script> O'Brien & "Sons"`;

const META: CalendarMeta = { hotelName: 'Harbour View Hotel', hotelCode: MINE, website: 2, websiteName: 'Booking.com', los: 1, guests: 2 };

function rate(hotelCode: number, checkIn: string, value: number | null, overrides: Partial<RememberedRate> = {}): RememberedRate {
	return { hotelCode, hotelName: `Hotel ${hotelCode}`, websiteCode: 2, roomType: 'Double', checkIn, currency: 'EUR', rate: value, dtCollected: '2026-11-01T06:00:00.000Z', ...overrides };
}

/** A day of the window with my rate and the competitors at 90, 100 and 120 (median 100). */
function shopped(date: string, mine: number | null): RememberedRate[] {
	return [rate(MINE, date, mine), rate(B, date, 90), rate(C, date, 100), rate(D, date, 120)];
}

/**
 * 2026-11-02 (a Monday) to 2026-12-01: cheaper, on par and dearer dates, a sold-out one, one not
 * shopped, a date 20 % over the median on the 4th, an underpriced busy date on the 6th and an
 * overpriced quiet one on the 25th.
 */
function november(): CalendarDay[] {
	const dates = rangeDates('2026-11-02', '2026-12-01');
	const mine: Record<string, number | null> = { '2026-11-03': 90, '2026-11-04': 120, '2026-11-05': 0, '2026-11-06': 95, '2026-11-25': 130 };
	const rates = dates.filter((date) => date !== '2026-11-07').flatMap((date) => shopped(date, date in mine ? mine[date] : 100));
	return buildCalendar({
		rates,
		settings: { myHotelCode: MINE, compSet: 'all', website: 2, dates },
		events: new Map([['2026-11-06', { name: 'City <Marathon>', score: 85, attendees: 30000 }]]),
		demand: new Map([['2026-11-25', 20]]),
		previous: [
			{ date: '2026-11-02', myRate: 95, compMedian: 102 },
			{ date: '2026-11-03', myRate: 99, compMedian: 100 },
		],
	});
}

const tagsOf = (html: string) => new Set([...html.matchAll(/<([a-z]+)[\s>]/g)].map((match) => match[1]));

/** The cells of the week rows of the month grids: the rows of 7 cells. */
function weekRows(html: string): string[][] {
	return [...html.matchAll(/<tr>(<td width="14%" valign="top"[\s\S]*?)<\/tr>/g)].map((row) => row[1].split('</td>').filter((cell) => cell !== ''));
}

describe('counts', () => {
	it('count the dates, the bands, my sold-out dates, the outliers and the dates with an event', () => {
		expect(calendarCounts(november())).toEqual({ dates: 30, cheaper: 1, onPar: 25, dearer: 2, soldOut: 1, outliers: 3, events: 1 });
	});

	it('are all 0 for no dates', () => {
		expect(calendarCounts([])).toEqual({ dates: 0, cheaper: 0, onPar: 0, dearer: 0, soldOut: 0, outliers: 0, events: 0 });
	});
});

describe('html: what email clients show', () => {
	const html = calendarHtml(november(), META);

	it('uses tables and inline styles only: no <style>, no class, no script, no image, no link', () => {
		expect(html).not.toMatch(/<style/i);
		expect(html).not.toMatch(/class=/i);
		expect(html).not.toMatch(/<script/i);
		expect(html).not.toMatch(/<img|<link|url\(/i);
		expect([...tagsOf(html)].sort()).toEqual(['br', 'div', 'span', 'strong', 'table', 'td', 'tr']);
	});

	it('keeps to 600 px wide, filling a phone', () => {
		expect(html).toMatch(/^<table [^>]*style="width:100%;max-width:600px;/);
	});

	it('titles the calendar with the hotel, the website, nights and guests, the window and the currency', () => {
		expect(html).toContain('Rate calendar: Harbour View Hotel (100001)');
		expect(html).toContain('Booking.com (2), 1 night, 2 guests, 2026-11-02 to 2026-12-01, EUR');
	});

	it('names the lowest of all websites when the calendar takes it', () => {
		expect(calendarHtml(november(), { ...META, website: 'lowest', los: 3, guests: 1 })).toContain('lowest rate of all websites, 3 nights, 1 guest');
	});

	it('has one grid per month, Monday to Sunday, seven cells a week', () => {
		expect(html).toContain('November 2026');
		expect(html).toContain('December 2026');
		expect(html).toContain('>Mon</td><td width="14%" style="padding:2px 4px;font-size:11px;color:#5f6368;text-align:center;">Tue<');
		const weeks = weekRows(html);
		expect(weeks.length).toBe(5 + 1);
		for (const week of weeks) expect(week).toHaveLength(7);
	});

	it("leaves another month's cells blank and greys the month's dates outside the window", () => {
		const december = weekRows(html)[5];
		expect(december[0]).toMatch(/background-color:#fafafa;color:#bdc1c6;font-size:11px;">$/);
		expect(december[1]).toContain('font-size:11px;">1</div><div><strong>100.00</strong>');
		expect(december.slice(2).map((cell) => cell.replace(/^.*color:#bdc1c6;font-size:11px;">/, ''))).toEqual(['2', '3', '4', '5', '6']);
	});

	it('colours each date by its band, a date without an index white', () => {
		const cellOf = (day: number) => weekRows(html).flat().find((cell) => cell.includes(`font-size:11px;">${day}`)) as string;
		expect(cellOf(3)).toContain('background-color:#d2e3fc');
		expect(cellOf(2)).toContain('background-color:#f1f3f4');
		expect(cellOf(4)).toContain('background-color:#fde2c4');
		expect(cellOf(5)).toContain('background-color:#ffffff');
	});

	it('shows my rate, my index, the comp median, the arrows of the moves, and the sold-out and not-shopped dates', () => {
		const cells = weekRows(html).flat();
		expect(cells.find((cell) => cell.includes('font-size:11px;">2<'))).toContain('<strong>100.00</strong> ▲</div><div style="color:#3c4043;">100.0</div><div style="color:#5f6368;font-size:11px;">100.00 ▼</div>');
		expect(cells.find((cell) => cell.includes('font-size:11px;">3<'))).toContain('<strong>90.00</strong> ▼');
		expect(cells.find((cell) => cell.includes('font-size:11px;">5<'))).toContain('Sold out');
		expect(cells.find((cell) => cell.includes('font-size:11px;">7<'))).toContain('&mdash;');
	});

	it('marks the dates with an event and the outliers, and lists the outliers with their reasons', () => {
		const busy = weekRows(html).flat().find((cell) => cell.includes('font-size:11px;">6 ')) as string;
		expect(busy).toContain('★');
		expect(busy).toContain('>!</span>');
		expect(html).toContain('Dates to look at');
		expect(html).toContain('<strong>Fri 2026-11-06</strong>: priced under the market on a busy day: event &#39;City &lt;Marathon&gt;&#39; impact 85; my rate 95.00 EUR is at index 95.00');
		expect(html).toContain('<strong>Wed 2026-11-25</strong>: priced over the market on a quiet day');
		expect(html).toContain('2026-11-06: City &lt;Marathon&gt; (impact 85, 30,000 attendees)');
	});

	it('explains the colours, the index, the arrows and the markers in a legend', () => {
		expect(html).toContain('cheaper: index below 95');
		expect(html).toContain('on par: 95 to 105');
		expect(html).toContain('dearer: above 105');
		expect(html).toContain('my rate as a percentage of the comp median');
		expect(html).toContain('then the comp median in grey');
		expect(html).toContain('▲ ▼ after a rate or the median: moved since the last calendar');
	});

	it('gives the legend the bands the calendar was built with', () => {
		expect(calendarHtml(november(), { ...META, bands: { cheaperBelow: 90, dearerAbove: 110 } })).toContain('on par: 90 to 110');
	});

	it('escapes every value: a hotel name with a script and quotes stays text', () => {
		const hostile = calendarHtml(november(), { ...META, hotelName: HOSTILE_NAME, websiteName: '<b>OTA</b>' });
		expect(hostile).not.toContain('<script>');
		expect(hostile).not.toContain('<b>');
		expect(hostile).toContain('Rate calendar: &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; O&#39;Brien &amp; &quot;Sons&quot; (100001)');
		expect(hostile).toContain('&lt;b&gt;OTA&lt;/b&gt; (2)');
	});

	it('has no month grid and says so for a calendar without dates', () => {
		const empty = calendarHtml([], META);
		expect(empty).toContain('no dates');
		expect(empty).not.toContain('Mon</td>');
	});
});

describe('text: every date for Slack or Teams', () => {
	const text = calendarText(november(), META);
	const lines = text.split('\n');

	it('starts with the title in bold, then the counts of the whole window, then the outlier rule', () => {
		expect(lines[0]).toBe('*Rate calendar: Harbour View Hotel (100001): Booking.com (2), 1 night, 2 guests, 2026-11-02 to 2026-12-01, EUR*');
		expect(lines[1]).toBe('30 dates: 1 cheaper, 25 on par, 2 dearer; 1 sold out, 3 outliers, 1 with an event');
		expect(lines[2]).toBe(
			'Outliers: my index at or under 100 on a busy day (an event of impact 70 or more, or demand of 80 or more), over 110 on a quiet day (demand of 40 or less, no busy event), or 20 % or more from the comp median on any day.',
		);
	});

	it('lists every date of the window, one line each, the outliers first', () => {
		const dateLines = lines.slice(3);
		expect(dateLines).toHaveLength(30);
		expect(dateLines.slice(0, 3)).toEqual([
			'⚠ Wed 2026-11-04: 120.00 EUR (index 120.00, dearer), median 100.00, rank 3 of 4: priced far from the market',
			'⚠ Fri 2026-11-06: 95.00 EUR (index 95.00, on par), median 100.00, rank 2 of 4, ★ City <Marathon> (85): priced under the market on a busy day',
			'⚠ Wed 2026-11-25: 130.00 EUR (index 130.00, dearer), median 100.00, rank 4 of 4: priced over the market on a quiet day',
		]);
		const others = rangeDates('2026-11-02', '2026-12-01').filter((date) => !['2026-11-04', '2026-11-06', '2026-11-25'].includes(date));
		expect(dateLines.slice(3).map((line) => line.slice(6, 16))).toEqual(others);
	});

	it('writes each date compactly: my rate and its move, the index and band, the median and its move, my rank', () => {
		expect(lines).toContain('• Mon 2026-11-02: 100.00 EUR ▲ +5.00 (index 100.00, on par), median 100.00 ▼ −2.00, rank 2 of 4');
		expect(lines).toContain('• Tue 2026-11-03: 90.00 EUR ▼ −9.00 (index 90.00, cheaper), median 100.00, rank 1 of 4');
		expect(lines).toContain('• Thu 2026-11-05: sold out, median 100.00');
		expect(lines).toContain('• Sat 2026-11-07: not shopped');
	});

	it('says how many dates it leaves out past the most asked for, from when to when, and names their outliers', () => {
		const short = calendarText(november(), META, 14).split('\n');
		expect(short).toHaveLength(3 + 14 + 2);
		expect(short.slice(-2)).toEqual(["16 later dates (2026-11-16 to 2026-12-01) left out here; the email's calendar has every date", 'Later outliers: Wed 2026-11-25']);
	});

	it('states no outlier rule when no date is an outlier', () => {
		const plain = calendarText(november().map((day) => ({ ...day, outlier: null })), META).split('\n');
		expect(plain.some((line) => line.startsWith('Outliers:'))).toBe(false);
	});

	it('says when every competitor is sold out', () => {
		const [day] = buildCalendar({
			rates: [rate(MINE, '2026-11-02', 100), rate(B, '2026-11-02', 0)],
			settings: { myHotelCode: MINE, compSet: 'all', website: 2, dates: ['2026-11-02'] },
		});
		expect(calendarText([day], META).split('\n')[2]).toBe('• Mon 2026-11-02: 100.00 EUR, every competitor sold out');
	});
});

describe('what a revenue manager reads (#39)', () => {
	/** Founders Day on five dates in a row, a one-day fair after it, and Founders Day again later. */
	function eventful(): CalendarDay[] {
		const dates = rangeDates('2026-11-02', '2026-11-15');
		const founders: DayEvent = { name: 'Founders Day', score: 80, attendees: 12000 };
		const events = new Map<string, DayEvent>([
			...['2026-11-03', '2026-11-04', '2026-11-05', '2026-11-06', '2026-11-07'].map((date) => [date, founders] as const),
			['2026-11-08', { name: 'Book Fair', score: 50, attendees: null }],
			['2026-11-12', founders],
		]);
		return buildCalendar({ rates: dates.flatMap((date) => shopped(date, 177.3)), settings: { myHotelCode: MINE, compSet: 'all', website: 2, dates, outliers: { farFromMedianPercent: 0 } }, events });
	}

	it('lists a multi-day event once, with its first and last date', () => {
		const html = calendarHtml(eventful(), META);
		expect(html).toContain('<strong>Events (★)</strong><br>2026-11-03 to 2026-11-07: Founders Day (impact 80, 12,000 attendees)<br>2026-11-08: Book Fair (impact 50)<br>2026-11-12: Founders Day (impact 80, 12,000 attendees)</div>');
		expect(html.match(/Founders Day \(impact/g)).toHaveLength(2);
	});

	it('writes every rate of the grid to the cent, beside the comp median', () => {
		const cells = weekRows(calendarHtml(eventful(), META)).flat();
		const monday = cells.find((cell) => cell.includes('font-size:11px;">2<')) as string;
		expect(monday).toContain('<strong>177.30</strong>');
		expect(monday).toContain('<div style="color:#5f6368;font-size:11px;">100.00</div>');
		expect(calendarHtml(november(), META)).not.toMatch(/<strong>\d+<\/strong>/);
	});

	it('states the outlier rule under the grid, with the thresholds the calendar was built with', () => {
		expect(calendarHtml(november(), META)).toContain('or 20 % or more from the comp median on any day.');
		expect(calendarHtml(november(), { ...META, outliers: { farFromMedianPercent: 25, busyEventScore: 60 } })).toContain(
			'Outliers: my index at or under 100 on a busy day (an event of impact 60 or more, or demand of 80 or more), over 110 on a quiet day (demand of 40 or less, no busy event), or 25 % or more from the comp median on any day.',
		);
		expect(calendarHtml(november(), { ...META, outliers: { farFromMedianPercent: 0 } })).not.toContain('from the comp median on any day');
	});

	it('says why a date is an outlier without saying "busy day" twice', () => {
		const html = calendarHtml(november(), META);
		expect(html).not.toContain('busy day: busy day');
		expect(html).not.toContain('quiet day: quiet day');
		expect(html).toContain('priced over the market on a quiet day: no event of impact 70 or more, demand 20; my rate 130.00 EUR is at index 130.00 of the comp median 100.00');
		expect(html).toContain('priced far from the market: my rate 120.00 EUR is at index 120.00 of the comp median 100.00, 20.00 % above it (20 % or more is far)');
	});

	it('names the website with its code beside it, or by its code alone when no name is known', () => {
		expect(calendarText(november(), { ...META, websiteName: 'hotels.com', website: 4 }).split('\n')[0]).toContain('hotels.com (4), 1 night');
		expect(calendarText(november(), { ...META, websiteName: undefined }).split('\n')[0]).toContain(': website 2, 1 night');
	});
});
