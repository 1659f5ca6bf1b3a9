/**
 * Reads an email as an SMTP client hands it over (RFC 5322 headers and a MIME body), as far as a
 * mail client shows it: the sender, recipients and subject (RFC 2047 encoded words decoded), and
 * the text and HTML parts, whatever their transfer encoding (quoted-printable, base64, 7bit or
 * 8bit) and charset, inside multipart/alternative, mixed or related. Attachments are listed, not
 * kept. Node built-ins only.
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

interface Part {
	headers: Record<string, string>;
	body: Buffer;
}

/** A header value's main word and its parameters: `text/html; charset="utf-8"`. */
export interface HeaderValue {
	value: string;
	params: Record<string, string>;
}

export function parseHeaderValue(header: string | undefined): HeaderValue {
	const [value = '', ...rest] = splitOutsideQuotes(header ?? '', ';');
	const params: Record<string, string> = {};
	for (const param of rest) {
		const at = param.indexOf('=');
		if (at < 0) continue;
		const name = param.slice(0, at).trim().toLowerCase();
		let text = param.slice(at + 1).trim();
		if (text.startsWith('"') && text.endsWith('"')) text = text.slice(1, -1).replace(/\\(.)/g, '$1');
		params[name] = text;
	}
	return { value: value.trim().toLowerCase(), params };
}

function splitOutsideQuotes(text: string, separator: string): string[] {
	const parts: string[] = [];
	let current = '';
	let quoted = false;
	for (let i = 0; i < text.length; i++) {
		const char = text[i];
		if (char === '\\' && quoted) {
			current += char + (text[i + 1] ?? '');
			i++;
			continue;
		}
		if (char === '"') quoted = !quoted;
		if (char === separator && !quoted) {
			parts.push(current);
			current = '';
		} else {
			current += char;
		}
	}
	parts.push(current);
	return parts;
}

/** Text in a charset a message names; what TextDecoder does not know is read as Latin-1. */
export function decodeCharset(bytes: Buffer, charset = 'utf-8'): string {
	try {
		return new TextDecoder(charset.trim().toLowerCase() || 'utf-8').decode(bytes);
	} catch {
		return bytes.toString('latin1');
	}
}

/** Quoted-printable (RFC 2045 6.7) to bytes: soft line breaks joined, =XX decoded. */
export function decodeQuotedPrintable(text: string): Buffer {
	const joined = text.replace(/=\r?\n/g, '');
	const bytes: number[] = [];
	for (let i = 0; i < joined.length; i++) {
		const char = joined[i];
		const hex = joined.slice(i + 1, i + 3);
		if (char === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
			bytes.push(parseInt(hex, 16));
			i += 2;
		} else {
			// Text read as Latin-1 holds one byte a character; anything else is written as UTF-8.
			const code = char.charCodeAt(0);
			bytes.push(...(code < 256 ? [code] : Buffer.from(char, 'utf8')));
		}
	}
	return Buffer.from(bytes);
}

/** RFC 2047 encoded words (`=?utf-8?Q?Rate_digest?=`, `=?UTF-8?B?…?=`) in a header, decoded; the space between two is dropped. */
export function decodeEncodedWords(header: string): string {
	const word = /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g;
	const joined = header.replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?[^?]+\?[BbQq]\?[^?]*\?=)/g, '$1');
	return joined.replace(word, (_match, charset: string, encoding: string, encoded: string) => {
		const bytes = encoding.toUpperCase() === 'B' ? Buffer.from(encoded, 'base64') : decodeQuotedPrintable(encoded.replace(/_/g, ' '));
		// RFC 2231 lets a charset carry a language: utf-8*en.
		return decodeCharset(bytes, charset.split('*')[0]);
	});
}

/** A header read as Latin-1 (one byte a character), as the UTF-8 it is when it is (SMTPUTF8 allows raw UTF-8 in headers). */
function headerText(latin1: string): string {
	if (!/[\x80-\xff]/.test(latin1)) return latin1;
	const bytes = Buffer.from(latin1, 'latin1');
	try {
		return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
	} catch {
		return latin1;
	}
}

/** Header lines unfolded (a line starting with a space or tab continues the one before). */
function parseHeaders(block: string): Record<string, string> {
	const headers: Record<string, string> = {};
	const unfolded = block.replace(/\r?\n[ \t]+/g, ' ');
	for (const line of unfolded.split(/\r?\n/)) {
		const at = line.indexOf(':');
		if (at <= 0) continue;
		const name = line.slice(0, at).trim().toLowerCase();
		if (!(name in headers)) headers[name] = headerText(line.slice(at + 1).trim());
	}
	return headers;
}

function splitPart(raw: Buffer): Part {
	const text = raw.toString('latin1');
	const match = /\r?\n\r?\n/.exec(text);
	if (!match) return { headers: parseHeaders(text), body: Buffer.alloc(0) };
	return { headers: parseHeaders(text.slice(0, match.index)), body: raw.subarray(match.index + match[0].length) };
}

function transferDecoded(part: Part): Buffer {
	const encoding = (part.headers['content-transfer-encoding'] ?? '7bit').trim().toLowerCase();
	if (encoding === 'base64') return Buffer.from(part.body.toString('latin1').replace(/[^A-Za-z0-9+/=]/g, ''), 'base64');
	if (encoding === 'quoted-printable') return decodeQuotedPrintable(part.body.toString('latin1'));
	return part.body;
}

/** The parts of a multipart body, between its `--boundary` lines (preamble and epilogue left out). */
function subparts(body: Buffer, boundary: string): Buffer[] {
	const text = body.toString('latin1');
	const delimiter = `--${boundary}`;
	const parts: Buffer[] = [];
	let start = -1;
	let at = 0;
	while (at <= text.length) {
		const next = text.indexOf(delimiter, at);
		if (next < 0) break;
		const lineStart = next === 0 || text[next - 1] === '\n';
		if (!lineStart) {
			at = next + delimiter.length;
			continue;
		}
		if (start >= 0) {
			// The line break before a delimiter belongs to the delimiter.
			const end = text[next - 2] === '\r' ? next - 2 : next - 1;
			parts.push(body.subarray(start, Math.max(start, end)));
		}
		const closing = text.startsWith('--', next + delimiter.length);
		if (closing) break;
		const lineEnd = text.indexOf('\n', next);
		if (lineEnd < 0) break;
		start = lineEnd + 1;
		at = start;
	}
	return parts;
}

function collect(part: Part, email: Pick<ParsedEmail, 'text' | 'html' | 'attachments'>): void {
	const type = parseHeaderValue(part.headers['content-type'] ?? 'text/plain; charset=us-ascii');
	const disposition = parseHeaderValue(part.headers['content-disposition']);
	if (type.value.startsWith('multipart/')) {
		const boundary = type.params.boundary;
		if (!boundary) return;
		for (const raw of subparts(part.body, boundary)) collect(splitPart(raw), email);
		return;
	}
	const body = transferDecoded(part);
	const filename = disposition.params.filename ?? type.params.name;
	const inline = disposition.value !== 'attachment' && filename === undefined;
	if (inline && type.value === 'text/plain' && email.text === undefined) {
		email.text = decodeCharset(body, type.params.charset);
		return;
	}
	if (inline && type.value === 'text/html' && email.html === undefined) {
		email.html = decodeCharset(body, type.params.charset);
		return;
	}
	email.attachments.push({ filename: decodeEncodedWords(filename ?? ''), contentType: type.value, size: body.length });
}

/** `"Revenue desk" <revenue@example.com>, b@example.com` → each address as written, names decoded. */
export function addressList(header: string | undefined): string[] {
	if (!header) return [];
	return splitOutsideQuotes(decodeEncodedWords(header), ',')
		.map((address) => address.trim())
		.filter((address) => address !== '');
}

/** An email as an SMTP client sent it, read as a mail client shows it. */
export function parseEmail(raw: Buffer): ParsedEmail {
	const message = splitPart(raw);
	const email: ParsedEmail = {
		headers: Object.fromEntries(Object.entries(message.headers).map(([name, value]) => [name, decodeEncodedWords(value)])),
		from: decodeEncodedWords(message.headers.from ?? ''),
		to: addressList(message.headers.to),
		cc: addressList(message.headers.cc),
		subject: decodeEncodedWords(message.headers.subject ?? ''),
		date: message.headers.date ?? '',
		attachments: [],
	};
	collect(message, email);
	return email;
}
