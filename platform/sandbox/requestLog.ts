import type { AccountId, CredentialKind, EndpointKey } from './types';

/**
 * One API request as the sandbox saw it. Authorization values are never kept: `account` and
 * `credential` say who called and with which kind of credential.
 */
export interface LoggedRequest {
	seq: number;
	/** Real time the request arrived (ISO). */
	at: string;
	method: string;
	path: string;
	query: Record<string, string>;
	body: unknown;
	status: number;
	account: AccountId | null;
	credential: CredentialKind;
	/** Endpoint key (as used by faults), null for unknown paths. */
	endpoint: EndpointKey | null;
	durationMs: number;
	/** The pDrop fault: served, then the connection was closed without the answer. */
	dropped?: true;
}

export interface RequestFilter {
	/** Exact path (trailing slash ignored) or a parent path: '/schedule' matches '/schedule/7'. */
	path?: string;
	method?: string;
	endpoint?: EndpointKey;
	account?: AccountId;
}

/** Keeps the newest entries only, so long benchmarks do not grow memory without bound. */
const MAX_ENTRIES = 20_000;

function trimSlash(path: string): string {
	return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

export function matchesFilter(entry: LoggedRequest, filter: RequestFilter): boolean {
	if (filter.method && entry.method !== filter.method.toUpperCase()) return false;
	if (filter.endpoint && entry.endpoint !== filter.endpoint) return false;
	if (filter.account && entry.account !== filter.account) return false;
	if (filter.path) {
		const wanted = trimSlash(filter.path);
		const actual = trimSlash(entry.path);
		if (actual !== wanted && !actual.startsWith(`${wanted}/`)) return false;
	}
	return true;
}

export class RequestLog {
	private entries: LoggedRequest[] = [];
	private seq = 0;

	add(entry: Omit<LoggedRequest, 'seq'>): void {
		this.entries.push({ seq: ++this.seq, ...entry });
		if (this.entries.length > MAX_ENTRIES) this.entries.splice(0, this.entries.length - MAX_ENTRIES);
	}

	list(filter: RequestFilter = {}): LoggedRequest[] {
		return this.entries.filter((entry) => matchesFilter(entry, filter));
	}

	clear(): void {
		this.entries = [];
	}
}
