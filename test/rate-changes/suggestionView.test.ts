import type { Suggestion } from '../../nodes/RateChanges/rules/suggestion';
import { suggestionCounts, suggestionSummary, type SuggestionMeta } from '../../nodes/RateChanges/rules/suggestionView';

/** Suggested Rates as an approval message (nodes/RateChanges/rules/suggestionView.ts). */

const META: SuggestionMeta = { hotelName: 'Harbour View Hotel', hotelCode: 100001, los: 1, guests: 2 };

/** A suggestion on `date` from 100.00 to `suggested`; null: no suggestion. */
function suggestion(date: string, suggested: number | null, overrides: Partial<Suggestion> = {}): Suggestion {
	const change = suggested === null ? null : Math.round((suggested - 100) * 100) / 100;
	return {
		date,
		weekday: 'Fri',
		currentRate: 100,
		suggestedRate: suggested,
		change,
		changePercent: change,
		currency: 'EUR',
		reason: suggested === null ? 'no suggestion: my hotel is sold out' : `comp median ${suggested.toFixed(2)}`,
		steps: [],
		skipped: suggested === null ? 'soldOut' : null,
		...overrides,
	};
}

const week = [
	suggestion('2026-11-02', 105),
	suggestion('2026-11-03', 100),
	suggestion('2026-11-04', 92),
	suggestion('2026-11-05', null),
	suggestion('2026-11-06', 108),
	suggestion('2026-11-07', 95),
];

describe('counts', () => {
	it('count the changes up and down, the unchanged dates and the dates without a suggestion', () => {
		expect(suggestionCounts(week)).toEqual({ dates: 6, changes: 4, up: 2, down: 2, unchanged: 1, skipped: 1 });
	});
});

describe('the changes to approve', () => {
	it('are the dates whose suggestion differs from my current rate, the biggest move first, up or down', () => {
		expect(suggestionSummary(week, META).changes.map((change) => change.date)).toEqual(['2026-11-04', '2026-11-06', '2026-11-02', '2026-11-07']);
	});

	it('keep date order between moves of one size', () => {
		const tied = [suggestion('2026-11-09', 95), suggestion('2026-11-08', 105)];
		expect(suggestionSummary(tied, META).changes.map((change) => change.date)).toEqual(['2026-11-08', '2026-11-09']);
	});
});

describe('text: the same table in a code block, for Slack or Teams', () => {
	it('has a bold headline, then a table by date of the changes and of the dates without a suggestion, then the unchanged dates counted', () => {
		expect(suggestionSummary(week, META).text.split('\n')).toEqual([
			'*Suggested rates for Harbour View Hotel (100001), 1 night, 2 guests: 4 rates to approve (2 up, 2 down)*',
			'```',
			'Date             Current   Suggested  Change',
			'Fri 2026-11-02    100.00  105.00 EUR  +5.00 (+5.0 %)',
			'  comp median 105.00',
			'Fri 2026-11-04    100.00   92.00 EUR  −8.00 (−8.0 %)',
			'  comp median 92.00',
			'Fri 2026-11-05  sold out        none',
			'  my hotel is sold out',
			'Fri 2026-11-06    100.00  108.00 EUR  +8.00 (+8.0 %)',
			'  comp median 108.00',
			'Fri 2026-11-07    100.00   95.00 EUR  −5.00 (−5.0 %)',
			'  comp median 95.00',
			'```',
			'1 date unchanged (the suggestion is the current rate)',
		]);
	});

	it('lists the biggest changes up to the most asked for, by date, and counts the rest', () => {
		const lines = suggestionSummary(week, { ...META, maxListed: 2 }).text.split('\n');
		expect(lines.filter((line) => line.startsWith('Fri')).map((line) => line.slice(4, 14))).toEqual(['2026-11-04', '2026-11-05', '2026-11-06']);
		expect(lines.at(-1)).toBe('and 2 more changes, smaller than those listed; 1 date unchanged (the suggestion is the current rate)');
	});

	it('says when no rate is to change', () => {
		expect(suggestionSummary([suggestion('2026-11-03', 100)], { ...META, los: 2, guests: 1 }).text).toBe(
			'*Suggested rates for Harbour View Hotel (100001), 2 nights, 1 guest: no rate to change*\n1 date unchanged (the suggestion is the current rate)',
		);
	});
});

describe('html: what Send and Wait emails', () => {
	const hostile = suggestionSummary([suggestion('2026-11-06', 108, { reason: `event '<script>alert("x")</script>' impact 85: +8 % = 108.00` })], {
		...META,
		hotelName: `<script>alert("x")</script> O'Brien & "Sons"`,
	}).html;

	it('uses tables and inline styles only: no <style>, no class, no script, no image', () => {
		expect(hostile).not.toMatch(/<style/i);
		expect(hostile).not.toMatch(/class=/i);
		expect(hostile).not.toMatch(/<script/i);
		expect(hostile).not.toMatch(/<img|<link/i);
		expect(hostile).toMatch(/^<table [^>]*style="width:100%;max-width:600px;/);
	});

	it('escapes every value so that n8n, which decodes &lt; and &gt; in its message, still shows text', () => {
		expect(hostile).toContain('Suggested rates for &#60;script&#62;alert(&quot;x&quot;)&#60;/script&#62; O&#39;Brien &#38; &quot;Sons&quot; (100001)');
		expect(hostile).toContain('event &#39;&#60;script&#62;alert(&quot;x&quot;)&#60;/script&#62;&#39; impact 85: +8 % = 108.00');
		expect(hostile).not.toMatch(/&lt;|&gt;|&amp;/);
	});

	it('is one line, since Send and Wait keeps the line breaks of its message', () => {
		expect(suggestionSummary(week, META).html).not.toContain('\n');
	});

	it('has a row per date to look at, by date: date, current, suggested and change, and its reason across the table under them', () => {
		const html = suggestionSummary(week, META).html;
		expect([...html.matchAll(/<th [^>]*>([^<]*)<\/th>/g)].map((match) => match[1])).toEqual(['Date', 'Current', 'Suggested', 'Change']);
		const rows = [...html.matchAll(/<tr>(<td[\s\S]*?)<\/tr>/g)].map((row) => [...row[1].matchAll(/<td [^>]*>(?:<strong>)?([^<]*)/g)].map((cell) => cell[1]));
		expect(rows.filter((cells) => cells.length === 4)).toEqual([
			['Fri 2026-11-02', '100.00', '105.00 EUR', '+5.00 (+5.0 %)'],
			['Fri 2026-11-04', '100.00', '92.00 EUR', '−8.00 (−8.0 %)'],
			['Fri 2026-11-05', 'sold out', 'none', ''],
			['Fri 2026-11-06', '100.00', '108.00 EUR', '+8.00 (+8.0 %)'],
			['Fri 2026-11-07', '100.00', '95.00 EUR', '−5.00 (−5.0 %)'],
		]);
		// The reason is a row of its own, one cell as wide as the four: no narrow column to wrap a word a line.
		expect([...html.matchAll(/<tr><td colspan="4" [^>]*>([^<]*)<\/td><\/tr>/g)].map((match) => match[1])).toEqual([
			'comp median 105.00',
			'comp median 92.00',
			'my hotel is sold out',
			'comp median 108.00',
			'comp median 95.00',
		]);
		expect(rows.every((cells) => cells.length === 4 || cells.length === 1)).toBe(true);
		expect(html).toContain('color:#c5221f;">−8.00 (−8.0 %)</td>');
		expect(html).toContain('color:#137333;">+8.00 (+8.0 %)</td>');
	});

	it('writes every move to one decimal, so moves of one rule read alike', () => {
		const capped = [10, 9.99, 9.97].map((percent, index) =>
			suggestion(`2026-11-0${index + 2}`, 100 + percent, { changePercent: percent, reason: 'capped at the most per suggestion, 10 %' }),
		);
		const { text, html } = suggestionSummary(capped, META);
		expect(text.match(/\(\+[\d.]+ %\)/g)).toEqual(['(+10.0 %)', '(+10.0 %)', '(+10.0 %)']);
		expect(html.match(/\(\+[\d.]+ %\)/g)).toEqual(['(+10.0 %)', '(+10.0 %)', '(+10.0 %)']);
	});

	it('names the dates without a suggestion and why: not shopped, sold out, too few competitors', () => {
		const html = suggestionSummary(
			[
				suggestion('2026-11-02', null, { currentRate: null, skipped: 'notShopped', reason: 'no suggestion: my hotel was not shopped for this date' }),
				suggestion('2026-11-03', null, { skipped: 'fewCompetitors', reason: 'no suggestion: 2 competitors on sale, fewer than the minimum of 3' }),
				suggestion('2026-11-04', null),
			],
			META,
		).html;
		expect(html).toContain('>not shopped</td>');
		expect(html).toContain('>my hotel was not shopped for this date</td>');
		expect(html).toContain('>2 competitors on sale, fewer than the minimum of 3</td>');
		expect(html).toContain('>my hotel is sold out</td>');
		expect(html).toContain('no rate to change');
	});

	it('names the website the rates are of, with its code beside it', () => {
		expect(suggestionSummary(week, { ...META, website: 4, websiteName: 'Hotels.com' }).html).toContain('Harbour View Hotel (100001), 1 night, 2 guests, Hotels.com (4): 4 rates to approve');
		expect(suggestionSummary(week, { ...META, website: 'lowest' }).text).toContain('2 guests, lowest of all websites: 4 rates');
	});

	it('has no table when there is nothing to show', () => {
		const html = suggestionSummary([suggestion('2026-11-03', 100)], META).html;
		expect(html).toContain('no rate to change');
		expect(html).toContain('1 date unchanged');
		expect(html).not.toContain('>Date</th>');
	});
});
