/**
 * What the HTML of every Rate Changes message shares (digests, the Rate Calendar, Suggested Rates). Email clients (Gmail, Outlook,
 * phone mail apps) drop <style> blocks and classes, block scripts and outside images, and Outlook
 * lays out with Word: so tables and inline styles only, and every value escaped.
 */

export function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] as string);
}

/** The font stack every client has. */
const FONT = 'Arial,Helvetica,sans-serif';

/** An outer table that fills a phone's width and stops at 600 px, the width email layouts keep to. */
export function emailTable(rows: readonly string[]): string {
	return [
		`<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:600px;border-collapse:collapse;font-family:${FONT};color:#202124;">`,
		...rows.map((row) => `<tr><td style="padding:4px 0;">${row}</td></tr>`),
		'</table>',
	].join('\n');
}
