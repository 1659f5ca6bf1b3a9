import { slackTextToHtml } from '../../platform/inbox/slackText';

/** The HTML of one line, without its wrapper. */
function line(text: string): string {
	return slackTextToHtml(text).replace(/^<div class="line">|<\/div>$/g, '');
}

describe('Slack’s formatting, as Slack shows a webhook’s text', () => {
	it('bolds *text*, italicises _text_, strikes ~text~ and sets `code` apart', () => {
		expect(line('*Rate shop 1: 8 rate changes*')).toBe('<strong>Rate shop 1: 8 rate changes</strong>');
		expect(line('_Not marked as reported_ and ~gone~ and `digestId`')).toBe('<em>Not marked as reported</em> and <del>gone</del> and <code>digestId</code>');
		expect(line('*bold with _italic_ inside*')).toBe('<strong>bold with <em>italic</em> inside</strong>');
	});

	it('leaves a star or underscore inside a word alone', () => {
		expect(line('2*3*4 and snake_case_name')).toBe('2*3*4 and snake_case_name');
	});

	it('links <url|label>, <url>, mailto and a bare URL, and names mentions', () => {
		expect(line('<https://example.com/a?b=1&amp;c=2|the rate>')).toBe('<a href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer">the rate</a>');
		expect(line('see https://booking.example/hotel/x?checkin=2026-12-03.')).toBe(
			'see <a href="https://booking.example/hotel/x?checkin=2026-12-03" target="_blank" rel="noopener noreferrer">https://booking.example/hotel/x?checkin=2026-12-03</a>.',
		);
		expect(line('<mailto:rm@hotel.example>')).toContain('href="mailto:rm@hotel.example"');
		expect(line('<!here> <#C123|revenue> <@U42>')).toBe('<span class="mention">@here</span> <span class="mention">#revenue</span> <span class="mention">@U42</span>');
	});

	it('shows HTML in a message as text, and reads Slack’s &amp; &lt; &gt; as the characters', () => {
		expect(line('<script>alert(1)</script> & <b>x</b>')).toBe('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;x&lt;/b&gt;');
		expect(line('Room &lt;Deluxe&gt; &amp; breakfast')).toBe('Room &lt;Deluxe&gt; &amp; breakfast');
		expect(line('<javascript:alert(1)|click>')).toBe('&lt;javascript:alert(1)|click&gt;');
	});

	it('keeps each line, hangs a bulleted line after its bullet, quotes > lines and sets ``` blocks apart', () => {
		const html = slackTextToHtml('*Digest*\n• Hotel A: 160.00 GBP → 178.40 GBP (+11.5 %)\n&gt; quoted\n```a *not bold*\nb```');
		expect(html).toBe(
			[
				'<div class="line"><strong>Digest</strong></div>',
				'<div class="bullet"><span>•</span><span>Hotel A: 160.00 GBP → 178.40 GBP (+11.5 %)</span></div>',
				'<blockquote>quoted</blockquote>',
				'<pre>a *not bold*\nb</pre>',
			].join(''),
		);
	});
});
