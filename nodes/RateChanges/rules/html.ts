/**
 * What the HTML of every Rate Changes message shares (digests, the Rate Calendar, Suggested Rates). Email clients (Gmail, Outlook,
 * phone mail apps) drop <style> blocks and classes, block scripts and outside images, and Outlook
 * lays out with Word: so tables and inline styles only, and every value escaped.
 */

export function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] as string);
}

/**
 * Escaped for a message n8n's Send and Wait for Response sends: n8n decodes &lt; &gt; &amp; &quot;
 * and &#39; in its message before it puts it in the email (n8n-nodes-base's utilities escapeHtml),
 * which would turn an escaped "<script>" in a hotel's name back into markup. The numeric forms of
 * < and > are left as they are, and read the same in every client.
 */
export function escapeHtmlForSendAndWait(text: string): string {
	return escapeHtml(text).replace(/&lt;/g, '&#60;').replace(/&gt;/g, '&#62;').replace(/&amp;/g, '&#38;');
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
