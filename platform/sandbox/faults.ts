import { ApiError, badRequest } from './api/errors';
import { createPrng, type Prng } from './prng';
import { ENDPOINT_KEYS, type EndpointFaults, type EndpointKey, type FaultSettings } from './types';

/** setFaults input: the documented shape, or endpoint keys at the top level as a shorthand. */
export type FaultInput = FaultSettings & Partial<Record<EndpointKey | '*', EndpointFaults>>;

const FAULT_KEYS = [...ENDPOINT_KEYS, '*'] as const;

function checkEndpointFaults(key: string, faults: unknown): EndpointFaults {
	if (faults === null || typeof faults !== 'object') throw badRequest(`faults for '${key}' must be an object`);
	const { p429, p500, pDrop, retryAfterSeconds, times, ...rest } = faults as EndpointFaults;
	const unknown = Object.keys(rest);
	if (unknown.length > 0) throw badRequest(`unknown fault setting '${unknown[0]}' for '${key}'`);
	for (const [name, p] of [['p429', p429], ['p500', p500], ['pDrop', pDrop]] as const) {
		if (p !== undefined && !(typeof p === 'number' && p >= 0 && p <= 1)) throw badRequest(`${key}.${name} must be a probability between 0 and 1`);
	}
	if (retryAfterSeconds !== undefined && !(Number.isInteger(retryAfterSeconds) && retryAfterSeconds >= 0)) throw badRequest(`${key}.retryAfterSeconds must be an integer >= 0`);
	if (times !== undefined && !(Number.isInteger(times) && times >= 0)) throw badRequest(`${key}.times must be an integer >= 0`);
	if ((p429 ?? 0) + (p500 ?? 0) + (pDrop ?? 0) > 1) throw badRequest(`${key}: p429 + p500 + pDrop must not pass 1`);
	return { p429, p500, pDrop, retryAfterSeconds, times };
}

export function normaliseFaults(input: unknown): FaultSettings {
	if (input === null || typeof input !== 'object' || Array.isArray(input)) throw badRequest('faults must be an object');
	const raw = input as Record<string, unknown>;
	const settings: FaultSettings = { endpoints: {} };
	for (const [key, value] of Object.entries(raw)) {
		if (value === undefined) continue;
		if (key === 'latencyMs' || key === 'rateLimitPerSecond' || key === 'seed') {
			if (!(typeof value === 'number' && Number.isInteger(value) && value >= 0)) throw badRequest(`${key} must be an integer >= 0`);
			settings[key] = value;
		} else if (key === 'endpoints') {
			if (value === null || typeof value !== 'object') throw badRequest('endpoints must be an object');
			for (const [endpoint, faults] of Object.entries(value)) {
				if (!(FAULT_KEYS as readonly string[]).includes(endpoint)) throw badRequest(`unknown endpoint key '${endpoint}'; use one of ${FAULT_KEYS.join(', ')}`);
				settings.endpoints![endpoint as EndpointKey] = checkEndpointFaults(endpoint, faults);
			}
		} else if ((FAULT_KEYS as readonly string[]).includes(key)) {
			settings.endpoints![key as EndpointKey] = checkEndpointFaults(key, value);
		} else {
			throw badRequest(`unknown fault setting '${key}'`);
		}
	}
	return settings;
}

/** The fault that serves a request and then closes its connection without an answer. */
export const DROP = 'drop';

/**
 * Injected failures for API routes (never for /__sandbox/). Random faults come from a seeded
 * PRNG, reseeded on every setFaults, so a test sees the same sequence each run.
 */
export class FaultInjector {
	private settings: FaultSettings = { endpoints: {} };
	private random: Prng = createPrng(1);
	private injected = new Map<string, number>();
	private windows = new Map<string, { start: number; count: number }>();

	set(input: FaultInput): FaultSettings {
		this.settings = normaliseFaults(input);
		this.random = createPrng(this.settings.seed ?? 1);
		this.injected.clear();
		this.windows.clear();
		return this.current();
	}

	reset(): void {
		this.set({});
	}

	current(): FaultSettings {
		return JSON.parse(JSON.stringify(this.settings)) as FaultSettings;
	}

	get latencyMs(): number {
		return this.settings.latencyMs ?? 0;
	}

	/** A fixed one-second window per credential; the answer says when the window reopens. */
	rateLimit(limiterKey: string | null): ApiError | null {
		const limit = this.settings.rateLimitPerSecond;
		if (!limit || limiterKey === null) return null;
		const now = Date.now();
		const window = this.windows.get(limiterKey);
		if (!window || now - window.start >= 1000) {
			this.windows.set(limiterKey, { start: now, count: 1 });
			return null;
		}
		window.count++;
		if (window.count <= limit) return null;
		const retryAfter = Math.max(1, Math.ceil((window.start + 1000 - now) / 1000));
		return new ApiError(429, `rate limit of ${limit} requests per second exceeded`, { 'retry-after': String(retryAfter) });
	}

	/**
	 * A random 429 or 500 for this endpoint, or DROP (serve it, then drop the connection), when its
	 * faults (or the '*' faults) say so.
	 */
	inject(endpoint: EndpointKey): ApiError | typeof DROP | null {
		const key = this.settings.endpoints?.[endpoint] ? endpoint : '*';
		const faults = this.settings.endpoints?.[key];
		if (!faults) return null;
		const used = this.injected.get(key) ?? 0;
		if (faults.times !== undefined && used >= faults.times) return null;
		const roll = this.random.next();
		const p429 = faults.p429 ?? 0;
		const p500 = faults.p500 ?? 0;
		const pDrop = faults.pDrop ?? 0;
		let fault: ApiError | typeof DROP | null = null;
		if (roll < p429) {
			fault = new ApiError(429, 'too many requests (injected fault)', { 'retry-after': String(faults.retryAfterSeconds ?? 1) });
		} else if (roll < p429 + p500) {
			fault = new ApiError(500, 'internal server error (injected fault)');
		} else if (roll < p429 + p500 + pDrop) {
			fault = DROP;
		}
		if (fault) this.injected.set(key, used + 1);
		return fault;
	}
}
