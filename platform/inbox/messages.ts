import type { ParsedEmail } from './mime';
import type { SmtpEnvelope } from './smtp';

/** What the inbox keeps of each message it was sent. */

interface Received {
	/** 1, 2, 3… in the order the inbox took them. */
	id: number;
	receivedAt: string;
}

/** A Slack block, as far as the inbox shows it (header, section, divider, context). */
export interface SlackBlock {
	type: string;
	text?: { type: string; text: string };
	fields?: Array<{ type: string; text: string }>;
	elements?: Array<{ type: string; text?: string; alt_text?: string }>;
}

/** A message posted to a Slack-style incoming webhook, `/slack/<channel>`. */
export interface SlackMessage extends Received {
	kind: 'slack';
	/** The channel the URL names, with its #. */
	channel: string;
	text: string;
	blocks?: SlackBlock[];
	/** The whole JSON body as posted (a workflow may send more than Slack reads). */
	payload: Record<string, unknown>;
}

/** A message handed to the SMTP server. */
export interface EmailMessage extends Received, Omit<ParsedEmail, 'headers'> {
	kind: 'email';
	envelope: SmtpEnvelope;
	headers: Record<string, string>;
	size: number;
}

export type InboxMessage = SlackMessage | EmailMessage;

/** Newest kept when the inbox passes this many; a demo never needs more. */
const KEPT = 1_000;

export class MessageStore {
	private readonly kept: InboxMessage[] = [];
	private nextId = 1;

	addSlack(channel: string, payload: Record<string, unknown>): SlackMessage {
		const message: SlackMessage = {
			...this.stamp(),
			kind: 'slack',
			channel: `#${channel}`,
			text: typeof payload.text === 'string' ? payload.text : '',
			...(Array.isArray(payload.blocks) ? { blocks: payload.blocks as SlackBlock[] } : {}),
			payload,
		};
		return this.keep(message);
	}

	addEmail(envelope: SmtpEnvelope, email: ParsedEmail, size: number): EmailMessage {
		return this.keep({ ...this.stamp(), kind: 'email', envelope, ...email, size });
	}

	/** Oldest first. */
	all(): InboxMessage[] {
		return [...this.kept];
	}

	lastId(): number {
		return this.nextId - 1;
	}

	clear(): void {
		this.kept.length = 0;
	}

	private stamp(): Received {
		return { id: this.nextId++, receivedAt: new Date().toISOString() };
	}

	private keep<T extends InboxMessage>(message: T): T {
		this.kept.push(message);
		if (this.kept.length > KEPT) this.kept.splice(0, this.kept.length - KEPT);
		return message;
	}
}
