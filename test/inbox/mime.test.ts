import fs from 'node:fs';
import path from 'node:path';
import { decodeEncodedWords, decodeQuotedPrintable, parseEmail } from '../../platform/inbox/mime';

/** Messages as nodemailer (n8n's Send Email node) writes them, built with its MailComposer. */
function fixture(name: string): Buffer {
	return fs.readFileSync(path.join(__dirname, 'fixtures', name));
}

describe('headers', () => {
	it('decodes RFC 2047 encoded words, Q and B, joining adjacent ones', () => {
		expect(decodeEncodedWords('=?UTF-8?Q?Undercut_and_parity=3A_Hilton_?=\t=?UTF-8?Q?Riverside_=E2=80=94_3?=')).toBe('Undercut and parity: Hilton Riverside — 3');
		expect(decodeEncodedWords('=?UTF-8?B?5p2x5Lqs44Gu5paZ6YeR?=')).toBe('東京の料金');
		expect(decodeEncodedWords('=?iso-8859-1?Q?caf=E9?= ok')).toBe('café ok');
		expect(decodeEncodedWords('plain text')).toBe('plain text');
	});

	it('reads sender, recipients (names decoded), cc, subject and date', () => {
		const email = parseEmail(fixture('text-and-html.eml'));
		expect(email).toMatchObject({
			from: 'Revenue desk <desk@hotel.example>',
			to: ['a@hotel.example', 'Ana Müller <ana@hotel.example>'],
			cc: ['gm@hotel.example'],
			subject: 'Digest: 8 rate changes ✓',
			date: 'Tue, 01 Dec 2026 08:00:00 +0000',
		});
	});

	it('reads raw UTF-8 in a header, as SMTPUTF8 allows', () => {
		expect(parseEmail(Buffer.from('Subject: Café — ok\r\n\r\nbody', 'utf8')).subject).toBe('Café — ok');
	});
});

describe('bodies', () => {
	it('decodes quoted-printable: soft line breaks joined, =XX bytes read as UTF-8', () => {
		expect(decodeQuotedPrintable('caf=C3=A9 =E2=80=94 a long=\r\nline =3D ok').toString('utf8')).toBe('café — a longline = ok');
	});

	it('takes an HTML-only message (n8n’s Send Email default), quoted-printable', () => {
		const email = parseEmail(fixture('html-only.eml'));
		expect(email.subject).toBe('Undercut and parity: Hilton Cape Town Riverside — 3 alerts');
		expect(email.text).toBeUndefined();
		expect(email.html).toContain('<p><strong>Hilton Cape Town Riverside (100085): 3 rate changes (2 undercut, 1 parity loss)</strong></p>');
		expect(email.html).toContain('<td style="padding:4px 8px;border:1px solid #ddd">2026-12-03</td>');
		expect(email.html).toContain('Prices in £ — “quoted” &amp; naïve café');
	});

	it('takes both parts of a multipart/alternative message', () => {
		const email = parseEmail(fixture('text-and-html.eml'));
		expect(email.text).toBe('Rate shop 1: 8 rate changes\n• one\n• two — £158');
		expect(email.html).toBe('<p>Rate shop 1: <b>8</b> rate changes — £158</p>');
	});

	it('decodes base64 parts and a base64 subject', () => {
		const email = parseEmail(fixture('base64.eml'));
		expect(email).toMatchObject({ subject: '東京の料金', text: '東京ホテルの料金が変わりました。', html: '<p>東京ホテルの料金が<b>変わりました</b>。</p>' });
	});

	it('lists an attachment without keeping it, and keeps the text beside it', () => {
		const email = parseEmail(fixture('attachment.eml'));
		expect(email.text).toBe('See the file.');
		expect(email.attachments).toEqual([{ filename: 'rates.csv', contentType: 'text/csv', size: 25 }]);
	});

	it('reads a message without MIME headers as plain text, line endings as sent', () => {
		expect(parseEmail(Buffer.from('From: a@b\nSubject: hi\n\nline 1\nline 2')).text).toBe('line 1\nline 2');
	});
});
