/**
 * Slack's message formatting ("mrkdwn") as HTML, the way Slack shows a message an incoming webhook
 * posted: `*bold*`, `_italic_`, `~strike~`, `` `code` ``, ```` ```blocks``` ````, `>` quotes,
 * `<url|label>` links, bare URLs linked, `&amp;` `&lt;` `&gt;` read as the characters they stand
 * for, and every other character escaped, so that HTML in a message shows as text. Lines keep
 * their breaks; a line that starts with a bullet hangs its text after it.
 */

export function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] as string);
}

/** Slack's three entities (a sender escapes &, < and > so that they are not read as markup). */
function unescapeSlack(text: string): string {
	return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

const SAFE_LINK = /^(https?:|mailto:)/i;

function link(url: string, label: string): string {
	if (!SAFE_LINK.test(url)) return escapeHtml(label);
	return `<a href="${escapeHtml(url)}" target="_blank" rel="noopener noreferrer">${escapeHtml(label)}</a>`;
}

/** `<https://x|label>`, `<https://x>`, `<mailto:a@b|a>`, `<@U123>`, `<#C123|general>`, `<!here>`. */
function controlSequence(inner: string): string {
	const [target, label] = inner.split('|', 2);
	if (target.startsWith('@')) return `<span class="mention">@${escapeHtml(unescapeSlack(label ?? target.slice(1)))}</span>`;
	if (target.startsWith('#')) return `<span class="mention">#${escapeHtml(unescapeSlack(label ?? target.slice(1)))}</span>`;
	if (target.startsWith('!')) return `<span class="mention">@${escapeHtml(unescapeSlack(label ?? target.slice(1).split('^')[0]))}</span>`;
	return link(unescapeSlack(target), unescapeSlack(label ?? target.replace(/^mailto:/i, '')));
}

/*
 * Inline styles, tried in this order at each position: code (nothing inside it is formatted), a
 * bare URL, then bold, italic and strike, each opened after a start, a space or punctuation and
 * closed before an end, a space or punctuation, as Slack reads them.
 */
const INLINE = new RegExp(
	[
		'`([^`\\n]+)`',
		'(https?:\\/\\/[^\\s<>"]*[^\\s<>".,;:!?)\\]\'])',
		'(?<=^|[\\s(\\[{"\'.,;:!?/-])\\*([^*\\n]*[^*\\s])\\*(?=$|[\\s)\\]}"\'.,;:!?/-])',
		'(?<=^|[\\s(\\[{"\'.,;:!?/-])_([^_\\n]*[^_\\s])_(?=$|[\\s)\\]}"\'.,;:!?/-])',
		'(?<=^|[\\s(\\[{"\'.,;:!?/-])~([^~\\n]*[^~\\s])~(?=$|[\\s)\\]}"\'.,;:!?/-])',
	].join('|'),
	'g',
);

/** Plain text (Slack's entities already read) with its inline styles, as HTML. */
function inline(text: string): string {
	let html = '';
	let at = 0;
	for (const match of text.matchAll(INLINE)) {
		const index = match.index ?? 0;
		html += escapeHtml(text.slice(at, index));
		const [whole, code, url, bold, italic, strike] = match;
		if (code !== undefined) html += `<code>${escapeHtml(code)}</code>`;
		else if (url !== undefined) html += link(url, url);
		else if (bold !== undefined) html += `<strong>${inline(bold)}</strong>`;
		else if (italic !== undefined) html += `<em>${inline(italic)}</em>`;
		else if (strike !== undefined) html += `<del>${inline(strike)}</del>`;
		at = index + whole.length;
	}
	return html + escapeHtml(text.slice(at));
}

/** One line: its control sequences as links and mentions, the text between them styled. */
function line(raw: string): string {
	let html = '';
	let at = 0;
	// Only links and mentions are control sequences: any other <…> is text, shown as written.
	for (const match of raw.matchAll(/<((?:[@#!]|https?:|mailto:)[^<>\n]*)>/gi)) {
		const index = match.index ?? 0;
		html += inline(unescapeSlack(raw.slice(at, index)));
		html += controlSequence(match[1]);
		at = index + match[0].length;
	}
	return html + inline(unescapeSlack(raw.slice(at)));
}

/** A message's `text` as Slack shows it, as HTML to put inside an element. */
export function slackTextToHtml(text: string): string {
	const parts = text.split('```');
	return parts
		.map((part, i) => {
			// Every other part sits between two ``` fences: shown as it is, monospaced.
			if (i % 2 === 1 && i < parts.length - 1) return `<pre>${escapeHtml(unescapeSlack(part.replace(/^\n/, '')))}</pre>`;
			// A fence sits on a line of its own: the line break beside it is not a line of the message.
			const text = (i % 2 === 1 ? `\`\`\`${part}` : part).replace(i > 0 ? /^\n/ : /^$/, '').replace(i < parts.length - 2 ? /\n$/ : /^$/, '');
			if (text === '' && parts.length > 1) return '';
			return text
				.split('\n')
				.map((raw) => {
					const quote = /^(&gt;|>)\s?/.exec(raw);
					if (quote) return `<blockquote>${line(raw.slice(quote[0].length))}</blockquote>`;
					const bullet = /^\s*([•◦▪-])\s+/.exec(raw);
					if (bullet) return `<div class="bullet"><span>${escapeHtml(bullet[1])}</span><span>${line(raw.slice(bullet[0].length))}</span></div>`;
					return raw === '' ? '<div class="line">&nbsp;</div>' : `<div class="line">${line(raw)}</div>`;
				})
				.join('');
		})
		.join('');
}
