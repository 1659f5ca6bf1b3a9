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

describe('text', () => {
	it('has a bold headline, a line per change with the move and the reason, and the rest counted', () => {
		expect(suggestionSummary(week, META).text.split('\n')).toEqual([
			'*Suggested rates for Harbour View Hotel (100001), 1 night, 2 guests: 4 rates to approve (2 up, 2 down)*',
			'• Fri 2026-11-04: 100.00 → 92.00 EUR (−8.00, −8 %): comp median 92.00',
			'• Fri 2026-11-06: 100.00 → 108.00 EUR (+8.00, +8 %): comp median 108.00',
			'• Fri 2026-11-02: 100.00 → 105.00 EUR (+5.00, +5 %): comp median 105.00',
			'• Fri 2026-11-07: 100.00 → 95.00 EUR (−5.00, −5 %): comp median 95.00',
			'1 date unchanged, 1 without a suggestion',
		]);
	});

	it('lists up to the most asked for, and counts the rest', () => {
		const lines = suggestionSummary(week, { ...META, maxListed: 2 }).text.split('\n');
		expect(lines).toHaveLength(1 + 2 + 2);
		expect(lines[3]).toBe('and 2 more');
	});

	it('says when no rate is to change', () => {
		expect(suggestionSummary([suggestion('2026-11-03', 100)], { ...META, los: 2, guests: 1 }).text).toBe(
			'*Suggested rates for Harbour View Hotel (100001), 2 nights, 1 guest: no rate to change*\n1 date unchanged, 0 without a suggestion',
		);
	});
});

describe('html', () => {
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

	it('escapes every value: the hotel name and the reason stay text', () => {
		expect(hostile).toContain('Suggested rates for &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; O&#39;Brien &amp; &quot;Sons&quot; (100001)');
		expect(hostile).toContain('event &#39;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; impact 85: +8 % = 108.00');
	});

	it('has a row per change with the date, current, suggested, change and why', () => {
		const html = suggestionSummary(week, META).html;
		expect(html).toContain('>Date</td>');
		expect(html).toContain('>Why</td>');
		expect(html.match(/<tr><td style="padding:6px;/g)).toHaveLength(4);
		expect(html).toContain('<strong>92.00 EUR</strong>');
		expect(html).toContain('color:#c5221f;">−8 %</td>');
		expect(html).toContain('color:#137333;">+8 %</td>');
	});

	it('has no table when no rate is to change', () => {
		const html = suggestionSummary([suggestion('2026-11-05', null)], META).html;
		expect(html).toContain('no rate to change');
		expect(html).toContain('0 dates unchanged, 1 without a suggestion');
		expect(html).not.toContain('>Date</td>');
	});
});
