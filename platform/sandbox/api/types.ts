import type { VirtualClock } from '../clock';
import type { SandboxData } from '../data';
import type { Scheduler } from '../scheduler';
import type { AccountId, Variants } from '../types';
import type { WebhookStore } from '../webhooks';

/** What an endpoint handler may use. */
export interface ApiContext {
	data: SandboxData;
	clock: VirtualClock;
	scheduler: Scheduler;
	webhooks: WebhookStore;
	variants: Variants;
}

/** An authenticated API call. */
export interface ApiCall {
	account: AccountId;
	body: unknown;
	query: URLSearchParams;
	/** Path parameters captured by the route pattern, in order. */
	params: string[];
}

export interface ApiResult {
	status: number;
	body?: unknown;
	/** Pre-serialised body, for answers too large to stringify on every request. */
	json?: string;
}

export type ApiHandler = (call: ApiCall, context: ApiContext) => ApiResult;
