import type { AccountId, WebhookRegistration } from './types';

export interface StoredWebhook {
	webhookId: number;
	account: AccountId;
	registration: WebhookRegistration;
	createdAt: string;
}

/** A registration as the sandbox reports it: what was sent, plus who sent it and when. */
export type WebhookView = WebhookRegistration & { webhookId: number; account: AccountId; createdAt: string };

/**
 * Webhook registrations by account. The spec does not say how a webhook is tied to a shop,
 * so every run of any shop of an account is delivered to every webhook of that account.
 * Registering the same endpoint again replaces the earlier registration (setup is "one-time",
 * and repeating it must not double deliveries).
 */
export class WebhookStore {
	private items: StoredWebhook[] = [];
	private nextId = 1;

	register(account: AccountId, registration: WebhookRegistration, at: string): StoredWebhook {
		const existing = this.items.find((item) => item.account === account && item.registration.endpoint === registration.endpoint);
		if (existing) {
			existing.registration = registration;
			existing.createdAt = at;
			return existing;
		}
		const stored = { webhookId: this.nextId++, account, registration, createdAt: at };
		this.items.push(stored);
		return stored;
	}

	forAccount(account: AccountId): StoredWebhook[] {
		return this.items.filter((item) => item.account === account);
	}

	all(): WebhookView[] {
		return this.items.map(({ webhookId, account, registration, createdAt }) => ({ ...registration, webhookId, account, createdAt }));
	}

	clear(): void {
		this.items = [];
		this.nextId = 1;
	}
}
