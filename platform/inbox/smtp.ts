import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * The inbox's SMTP server, on Nodemailer's `smtp-server`: it takes every message it is given and
 * keeps it, for n8n's Send Email node (nodemailer) or any other SMTP client. AUTH PLAIN and LOGIN
 * take any user and password, and a client that sends none gets through too: the inbox has no
 * accounts. No TLS: STARTTLS is not offered, so a client sends in plain text on loopback. No
 * relaying: nothing leaves this machine.
 */

export interface SmtpEnvelope {
	/** MAIL FROM's address; '' for a bounce's empty sender `<>`. */
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

/**
 * Starts the SMTP server on 127.0.0.1 (a free port when `port` is 0). The client hears 250 after
 * DATA once `onMessage` has kept the message, so whoever sent it finds it in the inbox.
 */
export async function startSmtpServer(port: number, onMessage: (envelope: SmtpEnvelope, raw: Buffer) => Promise<void>): Promise<SmtpServer> {
	const server = new SMTPServer({
		name: HOST_NAME,
		banner: 'travel-pricing demo inbox',
		size: MAX_MESSAGE_BYTES,
		rejectOversized: true,
		authMethods: ['PLAIN', 'LOGIN'],
		authOptional: true,
		disabledCommands: ['STARTTLS'],
		// Loopback only: no reverse DNS for the client, and a close that does not wait for idle clients.
		disableReverseLookup: true,
		closeTimeout: 1,
		logger: false,
		onAuth: (auth, _session, callback) => callback(null, { user: auth.username ?? 'demo' }),
		onData: (stream, session, callback) => {
			const chunks: Buffer[] = [];
			stream.on('data', (chunk: Buffer) => {
				if (!stream.sizeExceeded) chunks.push(chunk);
			});
			stream.on('end', () => {
				if (stream.sizeExceeded) return callback();
				const { mailFrom, rcptTo } = session.envelope;
				const envelope = { from: mailFrom ? mailFrom.address : '', to: rcptTo.map((recipient) => recipient.address) };
				onMessage(envelope, Buffer.concat(chunks)).then(() => callback(), callback);
			});
		},
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => {
			server.off('error', reject);
			resolve();
		});
	});
	// A client that drops its connection mid-conversation is no reason to stop the inbox.
	server.on('error', () => undefined);
	return {
		host: '127.0.0.1',
		port: (server.server.address() as AddressInfo).port,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
