import { simpleParser, type AddressObject, type HeaderValue } from 'mailparser';

/**
 * Reads an email as an SMTP client hands it over, as far as a mail client shows it, with
 * Nodemailer's `mailparser`: the sender, recipients and subject (RFC 2047 encoded words decoded),
 * and the text and HTML parts, whatever their transfer encoding and charset, inside
 * multipart/alternative, mixed or related. Attachments are listed, not kept.
 */

export interface ParsedEmail {
	/** Header names in lower case; a header given twice keeps its first value. */
	headers: Record<string, string>;
	from: string;
	to: string[];
	cc: string[];
	subject: string;
	/** The Date header as sent, or '' when there is none. */
	date: string;
	text?: string;
	html?: string;
	attachments: Array<{ filename: string; contentType: string; size: number }>;
}

/** Each address as a mail client writes it, `Ana Müller <ana@hotel.example>`; a group's members in its place. */
function addressList(header: AddressObject | AddressObject[] | undefined): string[] {
	const mailboxes = [header ?? []].flat().flatMap((list) => list.value.flatMap((entry) => entry.group ?? [entry]));
	return mailboxes.map(({ name, address = '' }) => (name ? `${name} <${address}>` : address));
}

function isAddressObject(value: HeaderValue): value is AddressObject {
	return typeof value === 'object' && 'value' in value && Array.isArray(value.value);
}

/**
 * Each header's first value as text: decoded where mailparser decodes it (encoded words, address
 * lists), as sent (unfolded) where it parses it into something else (a date, a content type).
 */
function headerTexts(email: Awaited<ReturnType<typeof simpleParser>>): Record<string, string> {
	const headers: Record<string, string> = {};
	for (const { key, line } of email.headerLines) {
		if (key in headers) continue;
		const parsed = email.headers.get(key);
		const first = Array.isArray(parsed) ? parsed[0] : parsed;
		if (typeof first === 'string') headers[key] = first;
		else if (first !== undefined && isAddressObject(first)) headers[key] = addressList(first).join(', ');
		else headers[key] = line.slice(line.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' ').trim();
	}
	return headers;
}

/** An email as an SMTP client sent it, read as a mail client shows it. */
export async function parseEmail(raw: Buffer): Promise<ParsedEmail> {
	// An HTML-only message has no text made up from it (n8n's Send Email sends HTML only by default).
	const email = await simpleParser(raw, { skipHtmlToText: true });
	const headers = headerTexts(email);
	return {
		headers,
		from: addressList(email.from).join(', '),
		to: addressList(email.to),
		cc: addressList(email.cc),
		subject: email.subject ?? '',
		date: headers.date ?? '',
		...(email.text ? { text: email.text } : {}),
		...(email.html ? { html: email.html } : {}),
		attachments: email.attachments.map((attachment) => ({ filename: attachment.filename ?? '', contentType: attachment.contentType, size: attachment.size })),
	};
}
