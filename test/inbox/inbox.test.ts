import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { startInbox, type Inbox } from '../../platform/inbox';

let inbox: Inbox;

beforeAll(async () => {
	inbox = await startInbox();
});

afterAll(async () => {
	await inbox.close();
});

beforeEach(() => inbox.clear());

/** An SMTP client's side of a conversation: sends each line, and collects every reply until the server's last one. */
async function smtpConversation(lines: string[]): Promise<string[]> {
	const socket = net.connect(inbox.smtp.port, inbox.smtp.host);
	const replies: string[] = [];
	let buffer = '';
	const next = (): Promise<string[]> =>
		new Promise((resolve) => {
			const read = (chunk: Buffer) => {
				buffer += chunk.toString('utf8');
				const complete = buffer.split('\r\n');
				buffer = complete.pop() ?? '';
				replies.push(...complete);
				// A reply's last line has a space after its code; "250-" lines go on.
				if (complete.some((reply) => /^\d{3}( |$)/.test(reply))) {
					socket.off('data', read);
					resolve(complete);
				}
			};
			socket.on('data', read);
		});
	await next();
	for (const line of lines) {
		const answer = next();
		socket.write(`${line}\r\n`);
		await answer;
	}
	socket.destroy();
	return replies;
}

describe('Slack-style incoming webhooks', () => {
	it('takes {text} posted to /slack/<channel> and answers ok, as Slack does', async () => {
		const response = await fetch(inbox.slackUrl('rate-alerts'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: '*Rate alert*', rate: { hotelCode: 100154 } }) });
		expect({ status: response.status, body: await response.text() }).toEqual({ status: 200, body: 'ok' });
		expect(inbox.slackMessages('rate-alerts')).toEqual([
			expect.objectContaining({ kind: 'slack', channel: '#rate-alerts', text: '*Rate alert*', payload: { text: '*Rate alert*', rate: { hotelCode: 100154 } } }),
		]);
	});

	it('takes blocks, and a form field payload', async () => {
		const blocks = [{ type: 'section', text: { type: 'mrkdwn', text: '*Digest*' } }];
		await fetch(inbox.slackUrl('digest'), { method: 'POST', body: JSON.stringify({ blocks }) });
		await fetch(inbox.slackUrl('digest'), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ payload: JSON.stringify({ text: 'form' }) }) });
		expect(inbox.slackMessages('digest').map((message) => message.blocks ?? message.text)).toEqual([blocks, 'form']);
	});

	it.each([
		['not JSON', 'nope', 'invalid_payload'],
		['neither text nor blocks', JSON.stringify({ attachments: [] }), 'no_text'],
	])('answers 400 for %s, keeping nothing', async (_case, body, reason) => {
		const response = await fetch(inbox.slackUrl('x'), { method: 'POST', body });
		expect({ status: response.status, body: await response.text() }).toEqual({ status: 400, body: reason });
		expect(inbox.messages()).toEqual([]);
	});
});

describe('the SMTP server', () => {
	const message = fs.readFileSync(path.join(__dirname, 'fixtures', 'html-only.eml'), 'utf8').replace(/\r?\n/g, '\r\n');

	it('takes a message through EHLO, AUTH, MAIL FROM, RCPT TO and DATA, and reads it as a mail client would', async () => {
		const replies = await smtpConversation([
			'EHLO n8n.local',
			`AUTH PLAIN ${Buffer.from('\0any\0thing').toString('base64')}`,
			'MAIL FROM:<alerts@travel-pricing.demo> SIZE=1324',
			'RCPT TO:<revenue@hotel.example>',
			'RCPT TO:<gm@hotel.example>',
			'DATA',
			`${message}\r\n.`,
			'QUIT',
		]);
		expect(replies.map((reply) => reply.slice(0, 3))).toEqual(['220', '250', '250', '250', '250', '250', '235', '250', '250', '250', '354', '250', '221']);
		expect(replies).toContain('250-AUTH PLAIN LOGIN');
		expect(replies.some((reply) => /STARTTLS/.test(reply))).toBe(false);
		const [email] = inbox.emails();
		expect(email).toMatchObject({
			kind: 'email',
			envelope: { from: 'alerts@travel-pricing.demo', to: ['revenue@hotel.example', 'gm@hotel.example'] },
			to: ['revenue@hotel.example'],
			subject: 'Undercut and parity: Hilton Cape Town Riverside — 3 alerts',
		});
		expect(email.html).toContain('Prices in £');
	});

	it('undoes dot-stuffing, takes AUTH LOGIN and refuses commands out of order', async () => {
		const replies = await smtpConversation([
			'HELO n8n.local',
			'RCPT TO:<early@hotel.example>',
			'AUTH LOGIN',
			Buffer.from('user').toString('base64'),
			Buffer.from('secret').toString('base64'),
			'MAIL FROM:<a@b.example>',
			'DATA',
			'RCPT TO:<c@d.example>',
			'DATA',
			'Subject: dots\r\n\r\n..a line that began with a dot\r\n.',
			'QUIT',
		]);
		expect(replies.map((reply) => reply.slice(0, 3))).toEqual(['220', '250', '503', '334', '334', '235', '250', '503', '250', '354', '250', '221']);
		expect(inbox.emails()[0]).toMatchObject({ subject: 'dots', text: '.a line that began with a dot\r\n' });
	});
});

describe('the page', () => {
	async function page(): Promise<{ status: number; policy: string | null; html: string }> {
		const response = await fetch(inbox.url);
		return { status: response.status, policy: response.headers.get('content-security-policy'), html: await response.text() };
	}

	it('shows each message as its reader sees it, newest first, and loads nothing from elsewhere', async () => {
		await fetch(inbox.slackUrl('rate-changes'), { method: 'POST', body: JSON.stringify({ text: '*Rate shop 1: 2 rate changes*\n• <b>Hotel</b> & co: +11.5 %' }) });
		await smtpConversation(['EHLO x', 'MAIL FROM:<a@b.example>', 'RCPT TO:<revenue@hotel.example>', 'DATA', 'Subject: Undercuts\r\nContent-Type: text/html\r\n\r\n<p onclick="x()">Your <b>table</b></p>\r\n.', 'QUIT']);
		const { status, policy, html } = await page();
		expect(status).toBe(200);
		expect(policy).toContain("default-src 'none'");
		expect(policy).toContain("img-src data:");
		expect(html.indexOf('Email to <strong>revenue@hotel.example</strong>')).toBeLessThan(html.indexOf('Slack <strong>#rate-changes</strong>'));
		expect(html).toContain('<strong>Rate shop 1: 2 rate changes</strong>');
		expect(html).toContain('&lt;b&gt;Hotel&lt;/b&gt; &amp; co: +11.5 %');
		expect(html).toContain('<div class="subject">Undercuts</div>');
		// The email's HTML goes into a frame that runs no script, escaped into its srcdoc.
		expect(html).toMatch(/<iframe class="email-body" title="Undercuts" sandbox="allow-same-origin allow-popups allow-popups-to-escape-sandbox" srcdoc="[^"]*&lt;p onclick=&quot;x\(\)&quot;&gt;Your &lt;b&gt;table/);
		expect(html).not.toMatch(/(src|href)="https?:\/\/(?!127\.0\.0\.1)/);
	});

	it('empties with DELETE /api/messages, and says where messages come from when there are none', async () => {
		await fetch(inbox.slackUrl('x'), { method: 'POST', body: JSON.stringify({ text: 'one' }) });
		expect((await (await fetch(`${inbox.url}/api/messages`)).json()) as unknown[]).toHaveLength(1);
		await fetch(`${inbox.url}/api/messages`, { method: 'DELETE' });
		const { html } = await page();
		expect(html).toContain('No messages yet.');
		expect(html).toContain(`${inbox.url}/slack/&lt;channel&gt;`);
		expect(html).toContain(`127.0.0.1:${inbox.smtp.port}`);
	});
});
