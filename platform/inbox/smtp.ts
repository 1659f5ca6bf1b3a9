import net from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A minimal SMTP server (RFC 5321) that takes every message it is given and keeps it: enough for
 * n8n's Send Email node (nodemailer) and any other SMTP client. EHLO/HELO, AUTH PLAIN and LOGIN
 * (any user and password), MAIL FROM, RCPT TO, DATA (dot-stuffing undone), RSET, NOOP, QUIT.
 * No TLS (STARTTLS is not offered, so a client sends in plain text on loopback), no relaying:
 * nothing leaves this machine.
 */

export interface SmtpEnvelope {
	from: string;
	to: string[];
}

export interface SmtpServer {
	host: string;
	port: number;
	close(): Promise<void>;
}

/** What one message may weigh; a bigger one is refused with 552. */
const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
const HOST_NAME = 'inbox.travel-pricing.demo';

/** `<a@example.com> SIZE=123` → `a@example.com`; `<>` (a bounce's empty sender) → ''. */
function pathOf(argument: string): string | undefined {
	const match = /^\s*<([^>]*)>/.exec(argument) ?? /^\s*(\S+)/.exec(argument);
	return match ? match[1] : undefined;
}

type Auth = { step: 'plain' } | { step: 'loginUser' } | { step: 'loginPassword' };

/**
 * One client's conversation: commands a line at a time, then the message's lines until the lone
 * dot. Answers as RFC 5321 says; a command out of order gets 503, an unknown one 502.
 */
class SmtpSession {
	private buffer = Buffer.alloc(0);
	private envelope: SmtpEnvelope | undefined;
	private data: Buffer[] | undefined;
	private dataSize = 0;
	private auth: Auth | undefined;

	constructor(
		private readonly socket: net.Socket,
		private readonly onMessage: (envelope: SmtpEnvelope, raw: Buffer) => void,
	) {
		socket.on('data', (chunk: Buffer) => this.receive(chunk));
		socket.on('error', () => socket.destroy());
		this.reply(`220 ${HOST_NAME} ESMTP travel-pricing demo inbox`);
	}

	private reply(line: string): void {
		if (!this.socket.destroyed) this.socket.write(`${line}\r\n`);
	}

	private receive(chunk: Buffer): void {
		this.buffer = Buffer.concat([this.buffer, chunk]);
		for (let end = this.buffer.indexOf('\n'); end >= 0; end = this.buffer.indexOf('\n')) {
			const line = this.buffer.subarray(0, end > 0 && this.buffer[end - 1] === 0x0d ? end - 1 : end);
			this.buffer = this.buffer.subarray(end + 1);
			if (this.data) this.dataLine(line);
			else this.command(line.toString('utf8'));
			if (this.socket.destroyed) return;
		}
	}

	private dataLine(line: Buffer): void {
		const data = this.data as Buffer[];
		if (line.length === 1 && line[0] === 0x2e) {
			this.data = undefined;
			const envelope = this.envelope as SmtpEnvelope;
			this.envelope = undefined;
			if (this.dataSize > MAX_MESSAGE_BYTES) {
				this.reply('552 5.3.4 Message too big');
				return;
			}
			this.onMessage(envelope, Buffer.concat(data));
			this.reply(`250 2.0.0 OK: queued as ${Date.now().toString(36)}`);
			return;
		}
		// A line the client began with a dot was sent with one more (RFC 5321 4.5.2).
		const unstuffed = line[0] === 0x2e ? line.subarray(1) : line;
		this.dataSize += unstuffed.length + 2;
		if (this.dataSize <= MAX_MESSAGE_BYTES) data.push(unstuffed, Buffer.from('\r\n'));
	}

	private command(line: string): void {
		if (this.auth) {
			this.authLine(line);
			return;
		}
		const [verb = '', ...rest] = line.trim().split(' ');
		const argument = rest.join(' ');
		switch (verb.toUpperCase()) {
			case 'EHLO':
				this.envelope = undefined;
				this.reply(`250-${HOST_NAME} greets ${argument || 'you'}`);
				this.reply('250-8BITMIME');
				this.reply('250-SMTPUTF8');
				this.reply('250-AUTH PLAIN LOGIN');
				this.reply(`250 SIZE ${MAX_MESSAGE_BYTES}`);
				return;
			case 'HELO':
				this.envelope = undefined;
				this.reply(`250 ${HOST_NAME}`);
				return;
			case 'AUTH':
				this.startAuth(argument);
				return;
			case 'MAIL': {
				const from = /^FROM:/i.test(argument) ? pathOf(argument.slice(5)) : undefined;
				if (from === undefined) return this.reply('501 5.5.4 Syntax: MAIL FROM:<address>');
				this.envelope = { from, to: [] };
				return this.reply('250 2.1.0 OK');
			}
			case 'RCPT': {
				if (!this.envelope) return this.reply('503 5.5.1 MAIL FROM first');
				const to = /^TO:/i.test(argument) ? pathOf(argument.slice(3)) : undefined;
				if (!to) return this.reply('501 5.5.4 Syntax: RCPT TO:<address>');
				this.envelope.to.push(to);
				return this.reply('250 2.1.5 OK');
			}
			case 'DATA':
				if (!this.envelope || this.envelope.to.length === 0) return this.reply('503 5.5.1 RCPT TO first');
				this.data = [];
				this.dataSize = 0;
				return this.reply('354 End data with <CR><LF>.<CR><LF>');
			case 'RSET':
				this.envelope = undefined;
				return this.reply('250 2.0.0 OK');
			case 'NOOP':
				return this.reply('250 2.0.0 OK');
			case 'VRFY':
				return this.reply('252 2.5.2 Cannot verify, but will take the message');
			case 'QUIT':
				this.reply(`221 2.0.0 ${HOST_NAME} closing`);
				this.socket.end();
				return;
			default:
				return this.reply('502 5.5.2 Command not implemented');
		}
	}

	/** Any user and password are taken: the inbox has no accounts, and a client that insists on AUTH still gets through. */
	private startAuth(argument: string): void {
		const [mechanism = '', initial] = argument.split(' ');
		switch (mechanism.toUpperCase()) {
			case 'PLAIN':
				if (initial) return this.reply('235 2.7.0 Authentication successful');
				this.auth = { step: 'plain' };
				return this.reply('334 ');
			case 'LOGIN':
				this.auth = { step: initial ? 'loginPassword' : 'loginUser' };
				// The LOGIN mechanism's prompts, "Username:" and "Password:", in base64.
				return this.reply(initial ? '334 UGFzc3dvcmQ6' : '334 VXNlcm5hbWU6');
			default:
				return this.reply('504 5.5.4 Unrecognized authentication type');
		}
	}

	private authLine(line: string): void {
		const auth = this.auth as Auth;
		if (line.trim() === '*') {
			this.auth = undefined;
			return this.reply('501 5.0.0 Authentication cancelled');
		}
		if (auth.step === 'loginUser') {
			this.auth = { step: 'loginPassword' };
			return this.reply('334 UGFzc3dvcmQ6');
		}
		this.auth = undefined;
		this.reply('235 2.7.0 Authentication successful');
	}
}

/** Starts the SMTP server on 127.0.0.1 (a free port when `port` is 0). */
export async function startSmtpServer(port: number, onMessage: (envelope: SmtpEnvelope, raw: Buffer) => void): Promise<SmtpServer> {
	const sockets = new Set<net.Socket>();
	const server = net.createServer((socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
		new SmtpSession(socket, onMessage);
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => resolve());
	});
	return {
		host: '127.0.0.1',
		port: (server.address() as AddressInfo).port,
		close: () =>
			new Promise<void>((resolve) => {
				for (const socket of sockets) socket.destroy();
				server.close(() => resolve());
			}),
	};
}
