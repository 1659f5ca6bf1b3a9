import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MessageStore, type EmailMessage, type InboxMessage, type SlackMessage } from './messages';
import { parseEmail } from './mime';
import { inboxPage, PAGE_SCRIPT, PAGE_SECURITY_POLICY } from './page';
import { startSmtpServer, type SmtpServer } from './smtp';

export type { EmailMessage, InboxMessage, SlackBlock, SlackMessage } from './messages';
export { parseEmail, type ParsedEmail } from './mime';
export { slackTextToHtml } from './slackText';

/**
 * The demo's inbox (`npm start` runs it beside the sandbox; tests start their own): where the
 * example workflows' alerts and digests arrive, and a page that shows them as their reader would.
 *
 * - Slack: `POST /slack/<channel>` takes what a Slack incoming webhook takes (JSON `{ text,
 *   blocks? }`, or a form field `payload` holding it) and answers as Slack does (`ok`, or 400
 *   `invalid_payload` / `no_text`).
 * - Email: an SMTP server (smtp.ts, on Nodemailer's smtp-server) that n8n's Send Email node reaches
 *   with an SMTP credential; each message read by mime.ts (on Nodemailer's mailparser).
 * - `GET /`: the page; `GET /api/messages`: every message kept, oldest first, as JSON;
 *   `DELETE /api/messages` empties the inbox.
 *
 * Loopback only, no accounts: nothing a workflow sends leaves this machine.
 */

export interface InboxOptions {
	/** The page and the Slack webhooks (0, the default: a free port). */
	port?: number;
	/** The SMTP server (0, the default: a free port). */
	smtpPort?: number;
}

export interface Inbox {
	/** The page, `http://127.0.0.1:PORT`. */
	url: string;
	port: number;
	/** Where to post a Slack message for `channel` (no #): `http://127.0.0.1:PORT/slack/<channel>`. */
	slackUrl(channel: string): string;
	smtp: { host: string; port: number };
	/** Every message kept, oldest first. */
	messages(): InboxMessage[];
	slackMessages(channel?: string): SlackMessage[];
	emails(): EmailMessage[];
	clear(): void;
	close(): Promise<void>;
}

const MAX_BODY_BYTES = 5 * 1024 * 1024;

function answer(response: http.ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}): void {
	response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers });
	response.end(body);
}

/** A Slack webhook body: JSON, or `payload=<json>` as a form (Slack takes both). */
function slackPayload(request: http.IncomingMessage, body: string): Record<string, unknown> | undefined {
	try {
		const text = /application\/x-www-form-urlencoded/i.test(request.headers['content-type'] ?? '') ? (new URLSearchParams(body).get('payload') ?? '') : body;
		const payload = JSON.parse(text) as unknown;
		return payload !== null && typeof payload === 'object' && !Array.isArray(payload) ? (payload as Record<string, unknown>) : undefined;
	} catch {
		return undefined;
	}
}

function readBody(request: http.IncomingMessage): Promise<string | undefined> {
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		let size = 0;
		request.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size <= MAX_BODY_BYTES) chunks.push(chunk);
		});
		request.on('end', () => resolve(size <= MAX_BODY_BYTES ? Buffer.concat(chunks).toString('utf8') : undefined));
		request.on('error', () => resolve(undefined));
	});
}

export async function startInbox(options: InboxOptions = {}): Promise<Inbox> {
	const store = new MessageStore();
	const smtp: SmtpServer = await startSmtpServer(options.smtpPort ?? 0, async (envelope, raw) => {
		store.addEmail(envelope, await parseEmail(raw), raw.length);
	});
	let base = '';

	const server = http.createServer((request, response) => {
		void (async () => {
			const url = new URL(request.url ?? '/', 'http://inbox');
			const route = `${request.method} ${url.pathname.replace(/\/+$/, '') || '/'}`;
			const slack = /^POST \/slack\/([^/]+)$/.exec(route);
			if (slack) {
				const body = await readBody(request);
				if (body === undefined) return answer(response, 413, 'text/plain', 'request_too_large');
				const payload = slackPayload(request, body);
				if (!payload) return answer(response, 400, 'text/plain', 'invalid_payload');
				const hasBlocks = Array.isArray(payload.blocks) && payload.blocks.length > 0;
				if ((typeof payload.text !== 'string' || payload.text === '') && !hasBlocks) return answer(response, 400, 'text/plain', 'no_text');
				store.addSlack(decodeURIComponent(slack[1]), payload);
				return answer(response, 200, 'text/plain', 'ok');
			}
			switch (route) {
				case 'GET /':
					return answer(response, 200, 'text/html; charset=utf-8', inboxPage(store.all(), { slackBase: `${base}/slack/`, smtp: `${smtp.host}:${smtp.port}` }, store.lastId()), {
						'content-security-policy': PAGE_SECURITY_POLICY,
					});
				case 'GET /inbox.js':
					return answer(response, 200, 'text/javascript; charset=utf-8', PAGE_SCRIPT);
				case 'GET /api/messages':
					return answer(response, 200, 'application/json', JSON.stringify(store.all()));
				case 'DELETE /api/messages':
					store.clear();
					return answer(response, 200, 'application/json', '{"cleared":true}');
				case 'GET /api/count':
					return answer(response, 200, 'application/json', JSON.stringify({ count: store.all().length, lastId: store.lastId() }));
				case 'GET /favicon.ico':
					return answer(response, 204, 'text/plain', '');
				default:
					return answer(response, 404, 'text/plain', `Not found. Post Slack messages to ${base}/slack/<channel>; the inbox is at ${base}/`);
			}
		})();
	});
	try {
		await new Promise<void>((resolve, reject) => {
			server.once('error', reject);
			server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
		});
	} catch (error) {
		await smtp.close();
		throw error;
	}
	const { port } = server.address() as AddressInfo;
	base = `http://127.0.0.1:${port}`;
	return {
		url: base,
		port,
		slackUrl: (channel) => `${base}/slack/${encodeURIComponent(channel)}`,
		smtp: { host: smtp.host, port: smtp.port },
		messages: () => store.all(),
		slackMessages: (channel) => store.all().filter((message): message is SlackMessage => message.kind === 'slack' && (channel === undefined || message.channel === `#${channel}`)),
		emails: () => store.all().filter((message): message is EmailMessage => message.kind === 'email'),
		clear: () => store.clear(),
		close: async () => {
			await new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			});
			await smtp.close();
		},
	};
}
