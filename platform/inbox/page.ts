import type { EmailMessage, InboxMessage, SlackBlock, SlackMessage } from './messages';
import { escapeHtml, slackTextToHtml } from './slackText';

/**
 * The inbox's page: every message the demo's workflows sent, newest first, as the reader would
 * see it: a Slack message's text formatted as Slack shows it, an email's HTML in a sandboxed
 * frame (no scripts, and the page's Content-Security-Policy lets it load nothing from outside).
 * Nothing on it comes from the network but the page itself and its script.
 */

/** Shown, newest first; the store keeps more. */
const SHOWN = 200;

/** Served with the page: no script, style, font or image from anywhere else. */
export const PAGE_SECURITY_POLICY =
	"default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'; frame-src 'self'; base-uri 'none'; form-action 'none'";

export interface PageAddresses {
	/** `http://127.0.0.1:5680/slack/` */
	slackBase: string;
	/** `127.0.0.1:2525` */
	smtp: string;
}

function time(iso: string): string {
	return `<time datetime="${escapeHtml(iso)}">${escapeHtml(iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC'))}</time>`;
}

function plain(text: string): string {
	return escapeHtml(text).replace(/\n/g, '<br>');
}

function blockText(text: { type: string; text: string } | undefined): string {
	if (!text) return '';
	return text.type === 'mrkdwn' ? slackTextToHtml(text.text) : plain(text.text);
}

/** Slack's layout blocks that a webhook message uses most; any other is named, not drawn. */
function block(item: SlackBlock): string {
	switch (item.type) {
		case 'header':
			return `<div class="block-header">${blockText(item.text)}</div>`;
		case 'section':
			return [
				item.text ? `<div class="block-section">${blockText(item.text)}</div>` : '',
				item.fields?.length ? `<div class="block-fields">${item.fields.map((field) => `<div>${blockText(field)}</div>`).join('')}</div>` : '',
			].join('');
		case 'divider':
			return '<hr class="block-divider">';
		case 'context':
			return `<div class="block-context">${(item.elements ?? []).map((element) => (element.type === 'image' ? escapeHtml(element.alt_text ?? '') : blockText(element as { type: string; text: string }))).join(' ')}</div>`;
		default:
			return `<div class="block-other">[${escapeHtml(item.type)} block]</div>`;
	}
}

function slack(message: SlackMessage): string {
	const body = message.blocks?.length ? message.blocks.map(block).join('') : slackTextToHtml(message.text);
	return `<article class="message slack" id="message-${message.id}" data-kind="slack" data-channel="${escapeHtml(message.channel)}">
	<header><span class="where">Slack <strong>${escapeHtml(message.channel)}</strong></span>${time(message.receivedAt)}</header>
	<div class="slack-post"><div class="avatar" aria-hidden="true">TP</div><div><div class="app">Travel Pricing <span class="tag">APP</span></div><div class="slack-text">${body}</div></div></div>
	<details><summary>What the workflow posted</summary><pre>${escapeHtml(JSON.stringify(message.payload, null, 2))}</pre></details>
</article>`;
}

/** The email's HTML as its own document, links opening outside the frame. */
function emailDocument(html: string): string {
	const head = '<base target="_blank"><style>body{margin:12px;font-family:Arial,Helvetica,sans-serif;font-size:14px;color:#1d1c1d}</style>';
	return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (tag) => tag + head) : `<!doctype html><html><head>${head}</head><body>${html}</body></html>`;
}

function email(message: EmailMessage): string {
	const to = message.to.length > 0 ? message.to : message.envelope.to;
	const body =
		message.html !== undefined
			? `<iframe class="email-body" title="${escapeHtml(message.subject)}" sandbox="allow-same-origin allow-popups allow-popups-to-escape-sandbox" srcdoc="${escapeHtml(emailDocument(message.html))}"></iframe>`
			: `<pre class="email-text">${escapeHtml(message.text ?? '')}</pre>`;
	const attachments = message.attachments.length
		? `<div class="attachments">Attachments: ${message.attachments.map((attachment) => escapeHtml(`${attachment.filename || 'unnamed'} (${attachment.contentType}, ${attachment.size} bytes)`)).join(', ')}</div>`
		: '';
	return `<article class="message email" id="message-${message.id}" data-kind="email" data-to="${escapeHtml(to.join(', '))}">
	<header><span class="where">Email to <strong>${escapeHtml(to.join(', '))}</strong></span>${time(message.receivedAt)}</header>
	<div class="email-head"><div class="subject">${escapeHtml(message.subject || '(no subject)')}</div><div class="from">From ${escapeHtml(message.from || message.envelope.from)}${message.cc.length ? ` · Cc ${escapeHtml(message.cc.join(', '))}` : ''}</div></div>
	${body}${attachments}
	${message.html !== undefined && message.text !== undefined ? `<details><summary>Its plain-text part</summary><pre>${escapeHtml(message.text)}</pre></details>` : ''}
</article>`;
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;background:#f4f4f6;color:#1d1c1d;font:15px/1.45 -apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif}
.top{background:#3f0e40;color:#fff;padding:16px 24px}
.top h1{margin:0 0 4px;font-size:20px}
.top p{margin:0;color:#e8dde8;font-size:13px}
.top code{color:#fff}
.top button{float:right;background:transparent;border:1px solid #cbb;color:#fff;border-radius:4px;padding:4px 10px;cursor:pointer}
main{max-width:920px;margin:0 auto;padding:16px}
.empty{color:#616061;text-align:center;padding:48px 0}
.message{background:#fff;border:1px solid #ddd;border-radius:8px;margin:0 0 14px;padding:12px 16px}
.message>header{display:flex;justify-content:space-between;gap:12px;color:#616061;font-size:13px;margin-bottom:8px}
.message>header strong{color:#1d1c1d}
.slack-post{display:flex;gap:10px}
.avatar{flex:none;width:36px;height:36px;border-radius:6px;background:#e8912d;color:#fff;font-weight:700;display:flex;align-items:center;justify-content:center;font-size:13px}
.app{font-weight:900}
.tag{font-size:10px;font-weight:700;color:#616061;background:#e8e8e8;border-radius:3px;padding:1px 4px;vertical-align:middle}
.slack-text a{color:#1264a3;text-decoration:none}
.slack-text code{font:12px Menlo,Consolas,monospace;background:#f6f6f6;border:1px solid #e1e1e1;border-radius:3px;padding:1px 3px;color:#e01e5a}
.slack-text pre{font:12px Menlo,Consolas,monospace;background:#f8f8f8;border:1px solid #e1e1e1;border-radius:4px;padding:8px;white-space:pre-wrap}
.slack-text blockquote{margin:0;padding-left:10px;border-left:4px solid #ddd}
.bullet{display:flex;gap:8px;padding-left:4px}
.bullet>span:first-child{flex:none}
.mention{background:#e8f5fa;color:#1264a3;border-radius:3px;padding:0 2px}
.block-header{font-weight:900;font-size:17px;margin:4px 0}
.block-fields{display:grid;grid-template-columns:1fr 1fr;gap:4px 16px}
.block-context{color:#616061;font-size:12px}
.block-divider{border:0;border-top:1px solid #ddd}
.email-head{border-bottom:1px solid #eee;padding-bottom:8px;margin-bottom:8px}
.subject{font-size:17px;font-weight:700}
.from{color:#616061;font-size:13px}
.email-body{width:100%;min-height:120px;border:0;display:block}
.email-text{white-space:pre-wrap;font:13px Menlo,Consolas,monospace}
details{margin-top:8px;color:#616061;font-size:12px}
details pre{white-space:pre-wrap;word-break:break-word;background:#f8f8f8;padding:8px;border-radius:4px;color:#1d1c1d}
.attachments{color:#616061;font-size:12px;margin-top:6px}
`;

/** The whole page: its addresses, then the newest messages first; `lastId` (the store's, cleared or not) tells the script when to reload. */
export function inboxPage(messages: readonly InboxMessage[], addresses: PageAddresses, lastId: number): string {
	const shown = [...messages].reverse().slice(0, SHOWN);
	const list = shown.length
		? shown.map((message) => (message.kind === 'slack' ? slack(message) : email(message))).join('\n')
		: '<p class="empty">No messages yet. Publish an alert workflow of the demo and run a shop: its alerts show up here.</p>';
	return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Demo inbox (${messages.length}) · Travel Pricing</title>
<style>${STYLE}</style>
</head>
<body data-last="${lastId}">
<div class="top">
	<button type="button" id="clear">Clear</button>
	<h1>Demo inbox</h1>
	<p>What the demo's workflows send, newest first: Slack messages posted to <code>${escapeHtml(addresses.slackBase)}&lt;channel&gt;</code> and emails sent to the SMTP server at <code>${escapeHtml(addresses.smtp)}</code>. Nothing leaves this machine.</p>
</div>
<main>
${list}
</main>
<script src="/inbox.js"></script>
</body>
</html>`;
}

/** The page's script: fits each email's frame to its content, shows times in the reader's zone, reloads when a message arrives. */
export const PAGE_SCRIPT = `'use strict';
for (const frame of document.querySelectorAll('iframe.email-body')) {
	const fit = () => {
		try {
			// The body's own height and its margins: the frame's height would measure itself.
			const body = frame.contentDocument.body;
			const margins = parseFloat(getComputedStyle(body).marginTop) + parseFloat(getComputedStyle(body).marginBottom);
			frame.style.height = Math.ceil(body.getBoundingClientRect().height + margins) + 'px';
		} catch (error) {
			frame.style.height = '480px';
		}
	};
	frame.addEventListener('load', fit);
	fit();
}
for (const time of document.querySelectorAll('time[datetime]')) time.textContent = new Date(time.dateTime).toLocaleString();
document.getElementById('clear').addEventListener('click', async () => {
	await fetch('/api/messages', { method: 'DELETE' });
	location.reload();
});
setInterval(async () => {
	try {
		const { lastId } = await (await fetch('/api/count')).json();
		if (String(lastId) !== document.body.dataset.last) location.reload();
	} catch (error) {
		// The inbox stopped with npm start: keep the page as it is.
	}
}, 2000);
`;
