import type { Operation } from './operations';

/**
 * Faults a test injects into single requests, chosen by rules (failNext) or a plan function.
 *
 * - lostAfterCommit: the request is applied, then its connection is destroyed without an answer
 *   (the client sees "socket hang up" / ECONNRESET, and cannot know the write happened).
 * - error500AfterCommit: applied, then answered 500 "Internal server error".
 * - error500BeforeCommit: not applied, answered 500.
 * - refused: not applied; the client's attempt ends in a real ECONNREFUSED (server.ts: a 307 to a
 *   port nothing listens on, which clients that follow redirects, as n8n's do, connect to).
 * - latency: the request waits `ms` before it is handled (other requests go on meanwhile).
 * - sizeLimit: not applied, answered n8n's size limit refusal (400).
 */
export type FaultKind = 'lostAfterCommit' | 'error500AfterCommit' | 'error500BeforeCommit' | 'refused' | 'latency' | 'sizeLimit';

export type Fault = FaultKind | { kind: 'latency'; ms: number } | { kind: Exclude<FaultKind, 'latency'> };

export const DEFAULT_LATENCY_MS = 1_000;

/** What a fault rule or plan sees of a request. */
export interface RequestInfo {
	/** 0 for the first request the stand-in got, counting every one. */
	index: number;
	method: string;
	/** The path without the query, as sent (/api/v1/data-tables/…). */
	path: string;
	query: Record<string, string>;
	body: unknown;
	/** Undefined for paths that are not an operation (404, 405, the limits route). */
	operation?: Operation;
	/** The name of the table the path names, when it exists. */
	tableName?: string;
}

export interface FaultMatch {
	operation?: Operation | Operation[];
	method?: string;
	/** The whole path, or a pattern it must match. */
	path?: string | RegExp;
	tableName?: string;
	/** Only the nth matching request on (1 = the first one after the rule was added). */
	nth?: number;
	where?: (request: RequestInfo) => boolean;
}

export interface FaultRule {
	match?: FaultMatch;
	fault: Fault;
	/** How many matching requests in a row get the fault (default 1). */
	times?: number;
}

export type FaultPlan = (request: RequestInfo, index: number) => Fault | undefined;

export interface ResolvedFault {
	kind: FaultKind;
	ms: number;
}

export function resolveFault(fault: Fault): ResolvedFault {
	if (typeof fault === 'string') return { kind: fault, ms: fault === 'latency' ? DEFAULT_LATENCY_MS : 0 };
	return { kind: fault.kind, ms: fault.kind === 'latency' ? fault.ms : 0 };
}

function matches(match: FaultMatch | undefined, request: RequestInfo): boolean {
	if (!match) return true;
	const operations = match.operation === undefined ? undefined : [match.operation].flat();
	if (operations && (!request.operation || !operations.includes(request.operation))) return false;
	if (match.method && match.method.toUpperCase() !== request.method) return false;
	if (typeof match.path === 'string' && match.path !== request.path) return false;
	if (match.path instanceof RegExp && !match.path.test(request.path)) return false;
	if (match.tableName !== undefined && match.tableName !== request.tableName) return false;
	return match.where ? match.where(request) : true;
}

interface ActiveRule {
	rule: FaultRule;
	/** Matching requests seen so far. */
	seen: number;
	/** Faults given so far. */
	given: number;
}

/** The rules added with failNext and the plan, asked in that order for every request. */
export class FaultBook {
	private rules: ActiveRule[] = [];

	private plan: FaultPlan | undefined;

	add(rule: FaultRule): void {
		this.rules.push({ rule, seen: 0, given: 0 });
	}

	setPlan(plan: FaultPlan | undefined): void {
		this.plan = plan;
	}

	clear(): void {
		this.rules = [];
		this.plan = undefined;
	}

	/** The fault this request gets, if any; a rule is used up after `times` faults. */
	faultFor(request: RequestInfo): ResolvedFault | undefined {
		for (const active of this.rules) {
			if (!matches(active.rule.match, request)) continue;
			active.seen++;
			if (active.seen < (active.rule.match?.nth ?? 1)) continue;
			active.given++;
			if (active.given >= (active.rule.times ?? 1)) this.rules = this.rules.filter((other) => other !== active);
			return resolveFault(active.rule.fault);
		}
		const planned = this.plan?.(request, request.index);
		return planned === undefined ? undefined : resolveFault(planned);
	}

	/** Rules not used up yet. */
	pending(): FaultRule[] {
		return this.rules.map((active) => active.rule);
	}
}
