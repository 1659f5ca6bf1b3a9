import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { startInbox, type EmailMessage, type Inbox } from '../../platform/inbox';

let inbox: Inbox;

beforeAll(async () => {
	inbox = await startInbox();
});

afterAll(async () => {
	await inbox.close();
});

beforeEach(() => inbox.clear());

/**
 * An SMTP client's side of a conversation: sends each line and waits for the server's answer (an
 * answer's last line has a space after its code; "250-" lines go on). Gives the code of each
 * answer, the greeting's first, and every line the server sent.
 */
async function smtpConversation(lines: string[]): Promise<{ codes: string[]; replies: string[] }> {
	const socket = net.connect(inbox.smtp.port, inbox.smtp.host);
	const codes: string[] = [];
	const replies: string[] = [];
	let buffer = '';
	const next = (): Promise<void> =>
		new Promise((resolve) => {
			const read = (chunk: Buffer) => {
				buffer += chunk.toString('utf8');
				const complete = buffer.split('\r\n');
				buffer = complete.pop() ?? '';
				replies.push(...complete);
				const last = complete.find((reply) => /^\d{3}( |$)/.test(reply));
				if (last !== undefined) {
					socket.off('data', read);
					codes.push(last.slice(0, 3));
					resolve();
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
	return { codes, replies };
}

/** What a mail client sends for one message: CRLF line ends, a line that begins with a dot doubled. */
function dataOf(message: string): string {
	return `${message.replace(/\r?\n/g, '\r\n').replace(/^\./gm, '..')}\r\n.`;
}

function fixture(name: string): string {
	return fs.readFileSync(path.join(__dirname, 'fixtures', name), 'utf8');
}

/** Sends one message (an .eml file as nodemailer writes it, or its text) and gives what the inbox made of it. */
async function deliver(message: string): Promise<EmailMessage> {
	const before = inbox.emails().length;
	const { codes } = await smtpConversation(['EHLO n8n.local', 'MAIL FROM:<alerts@travel-pricing.demo>', 'RCPT TO:<revenue@hotel.example>', 'DATA', dataOf(message), 'QUIT']);
	expect(codes).toEqual(['220', '250', '250', '250', '354', '250', '221']);
	expect(inbox.emails()).toHaveLength(before + 1);
	return inbox.emails()[before];
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
	it('takes a message through EHLO, AUTH PLAIN, MAIL FROM, RCPT TO and DATA, any user and password, no STARTTLS', async () => {
		const { codes, replies } = await smtpConversation([
			'EHLO n8n.local',
			`AUTH PLAIN ${Buffer.from('\0any\0thing').toString('base64')}`,
			'MAIL FROM:<alerts@travel-pricing.demo> SIZE=1324',
			'RCPT TO:<revenue@hotel.example>',
			'RCPT TO:<gm@hotel.example>',
			'DATA',
			dataOf(fixture('html-only.eml')),
			'QUIT',
		]);
		expect(codes).toEqual(['220', '250', '235', '250', '250', '250', '354', '250', '221']);
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

	it('undoes dot-stuffing, takes AUTH LOGIN and a bounce\'s empty sender, and refuses commands out of order', async () => {
		const { codes } = await smtpConversation([
			'HELO n8n.local',
			'RCPT TO:<early@hotel.example>',
			'AUTH LOGIN',
			Buffer.from('user').toString('base64'),
			Buffer.from('secret').toString('base64'),
			'MAIL FROM:<>',
			'DATA',
			'RCPT TO:<c@d.example>',
			'DATA',
			dataOf('Subject: dots\n\n.a line that began with a dot'),
			'QUIT',
		]);
		expect(codes).toEqual(['220', '250', '503', '334', '334', '235', '250', '503', '250', '354', '250', '221']);
		expect(inbox.emails()[0]).toMatchObject({ envelope: { from: '', to: ['c@d.example'] }, subject: 'dots', text: '.a line that began with a dot\n' });
	});
});

describe('an email, as a mail client shows it', () => {
	it('decodes RFC 2047 subjects, Q and B, an encoded word split over folded lines joined', async () => {
		expect((await deliver(fixture('html-only.eml'))).subject).toBe('Undercut and parity: Hilton Cape Town Riverside — 3 alerts');
		expect((await deliver(fixture('base64.eml'))).subject).toBe('東京の料金');
		expect((await deliver('Subject: =?iso-8859-1?Q?caf=E9?= ok\n\nbody')).subject).toBe('café ok');
	});

	it('reads sender, recipients (names decoded), cc and date, and shows them on the page', async () => {
		const email = await deliver(fixture('text-and-html.eml'));
		expect(email).toMatchObject({
			from: 'Revenue desk <desk@hotel.example>',
			to: ['a@hotel.example', 'Ana Müller <ana@hotel.example>'],
			cc: ['gm@hotel.example'],
			subject: 'Digest: 8 rate changes ✓',
			date: 'Tue, 01 Dec 2026 08:00:00 +0000',
		});
		expect(email.headers).toMatchObject({ subject: 'Digest: 8 rate changes ✓', to: 'a@hotel.example, Ana Müller <ana@hotel.example>', 'message-id': '<fixture-2@travel-pricing.demo>' });
		const page = await (await fetch(inbox.url)).text();
		expect(page).toContain('<div class="subject">Digest: 8 rate changes ✓</div><div class="from">From Revenue desk &lt;desk@hotel.example&gt; · Cc gm@hotel.example</div>');
		expect(page).toContain('data-to="a@hotel.example, Ana Müller &lt;ana@hotel.example&gt;"');
	});

	it('lists the members of an address group as recipients', async () => {
		expect((await deliver('To: Revenue team: a@hotel.example, Ana <ana@hotel.example>;\nSubject: group\n\nbody')).to).toEqual(['a@hotel.example', 'Ana <ana@hotel.example>']);
	});

	it('reads raw UTF-8 in a header, as SMTPUTF8 allows', async () => {
		expect((await deliver('Subject: Café — ok\n\nbody')).subject).toBe('Café — ok');
	});

	it('takes an HTML-only message (n8n’s Send Email default), quoted-printable, with no text made up', async () => {
		const email = await deliver(fixture('html-only.eml'));
		expect(email.text).toBeUndefined();
		expect(email.html).toContain('<p><strong>Rate shop 1, Hilton Cape Town Riverside (100085): 2 undercuts, 1 parity loss</strong></p>');
		expect(email.html).toContain('<td style="padding:4px 8px;border:1px solid #ddd">2026-12-03</td>');
		expect(email.html).toContain('Prices in £ — “quoted” &amp; naïve café');
	});

	it('decodes a quoted-printable text: soft line breaks joined, =XX bytes read as UTF-8, with no HTML made up', async () => {
		const email = await deliver('Subject: qp\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\ncaf=C3=A9 =E2=80=94 a long=\nline =3D ok');
		expect(email.text).toBe('café — a longline = ok\n');
		expect(email.html).toBeUndefined();
	});

	it('takes both parts of a multipart/alternative message', async () => {
		const email = await deliver(fixture('text-and-html.eml'));
		expect(email.text).toBe('Rate shop 1: 8 rate changes\n• one\n• two — £158');
		expect(email.html).toBe('<p>Rate shop 1: <b>8</b> rate changes — £158</p>');
	});

	it('shows the text and the HTML part of multipart/mixed one after the other, as a mail client does', async () => {
		const email = await deliver(['Subject: mixed', 'Content-Type: multipart/mixed; boundary="b"', '', '--b', 'Content-Type: text/plain', '', 'Plain part', '--b', 'Content-Type: text/html', '', '<p>HTML part</p>', '--b--'].join('\n'));
		expect(email.html).toBe('<p>Plain part</p><br/>\n<p>HTML part</p>');
	});

	it('decodes base64 parts and a base64 subject', async () => {
		const email = await deliver(fixture('base64.eml'));
		expect(email).toMatchObject({ subject: '東京の料金', text: '東京ホテルの料金が変わりました。', html: '<p>東京ホテルの料金が<b>変わりました</b>。</p>' });
	});

	it('lists an attachment without keeping it, and keeps the text beside it', async () => {
		const email = await deliver(fixture('attachment.eml'));
		expect(email.text).toBe('See the file.');
		expect(email.attachments).toEqual([{ filename: 'rates.csv', contentType: 'text/csv', size: 25 }]);
	});

	it('reads a message without MIME headers as plain text', async () => {
		expect((await deliver('From: a@b\nSubject: hi\n\nline 1\nline 2')).text).toBe('line 1\nline 2\n');
	});
});

describe('the page', () => {
	async function page(): Promise<{ status: number; policy: string | null; html: string }> {
		const response = await fetch(inbox.url);
		return { status: response.status, policy: response.headers.get('content-security-policy'), html: await response.text() };
	}

	it('shows each message as its reader sees it, newest first, and loads nothing from elsewhere', async () => {
		await fetch(inbox.slackUrl('rate-changes'), { method: 'POST', body: JSON.stringify({ text: '*Rate shop 1: 2 rate changes*\n• <b>Hotel</b> & co: +11.5 %' }) });
		await deliver('Subject: Undercuts\nContent-Type: text/html\n\n<p onclick="x()">Your <b>table</b></p>');
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
