import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { authError, identify, type AuthOutcome } from './api/auth';
import { readJsonBody } from './api/body';
import { ApiError } from './api/errors';
import { matchRoute } from './api/routes';
import type { ApiContext } from './api/types';
import { CONTROL_PREFIX, handleControl, type ControlTarget } from './control/routes';
import { DROP, type FaultInjector } from './faults';
import type { LoadMeter } from './load';
import { sendJson } from './http';
import type { RequestLog } from './requestLog';
import type { EndpointKey } from './types';

export interface ServerParts {
	context: ApiContext;
	faults: FaultInjector;
	log: RequestLog;
	load: LoadMeter;
	control: ControlTarget;
}

type BodyOutcome = { value: unknown } | { error: ApiError };

async function readBody(request: IncomingMessage): Promise<BodyOutcome> {
	try {
		return { value: await readJsonBody(request) };
	} catch (error) {
		return { error: error instanceof ApiError ? error : new ApiError(400, 'could not read request body') };
	}
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** An API answer plus what the request log records about it. */
interface ApiAnswer {
	status: number;
	body?: unknown;
	json?: string;
	headers?: Record<string, string>;
	logBody: unknown;
	auth: AuthOutcome | null;
	endpoint: EndpointKey | null;
	/** Served, but the connection is closed instead of answered (the pDrop fault). */
	dropped?: boolean;
}

/**
 * Answers one API request, in the order a real gateway would: route, latency, authentication,
 * rate limit, injected faults, body, endpoint. A drop fault lets the request take effect and
 * marks the answer to be dropped.
 */
async function answerApi(parts: ServerParts, request: IncomingMessage, url: URL): Promise<ApiAnswer> {
	const method = request.method ?? 'GET';
	const bodyOutcome = await readBody(request);
	const logBody = 'value' in bodyOutcome ? bodyOutcome.value : undefined;
	let auth: AuthOutcome | null = null;
	let endpoint: EndpointKey | null = null;
	let dropped = false;
	const fail = (error: ApiError): ApiAnswer => ({ status: error.status, body: error.body, headers: error.headers, logBody, auth, endpoint, dropped });
	const match = matchRoute(method, url.pathname);
	if (parts.faults.latencyMs > 0) await sleep(parts.faults.latencyMs);
	if (match === null) return fail(new ApiError(404, `no endpoint ${method} ${url.pathname}`));
	if ('allowed' in match) return fail(new ApiError(405, `method ${method} is not allowed on ${url.pathname}`, { allow: match.allowed.join(', ') }));
	const { route, params } = match;
	endpoint = route.endpoint;
	auth = identify(request.headers.authorization, route.auth);
	if (auth.account === null) return fail(authError(auth, route.auth));
	const fault = parts.faults.rateLimit(auth.limiterKey) ?? parts.faults.inject(route.endpoint);
	if (fault === DROP) dropped = true;
	else if (fault) return fail(fault);
	if ('error' in bodyOutcome) return fail(bodyOutcome.error);
	try {
		const result = route.handler({ account: auth.account, body: bodyOutcome.value, query: url.searchParams, params }, parts.context);
		return { ...result, logBody, auth, endpoint, dropped };
	} catch (error) {
		if (error instanceof ApiError) return fail(error);
		return fail(new ApiError(500, `internal server error: ${(error as Error).message}`));
	}
}

async function answerControl(parts: ServerParts, request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
	const bodyOutcome = await readBody(request);
	try {
		if ('error' in bodyOutcome) throw bodyOutcome.error;
		const answer = await handleControl(parts.control, request.method ?? 'GET', url.pathname, url.searchParams, bodyOutcome.value);
		if (answer === null) throw new ApiError(404, `no control route ${request.method} ${url.pathname}`);
		sendJson(response, answer.status, answer.body);
	} catch (error) {
		const apiError = error instanceof ApiError ? error : new ApiError(500, (error as Error).message);
		sendJson(response, apiError.status, apiError.body, apiError.headers);
	}
}

export function createListener(parts: ServerParts): RequestListener {
	return (request, response) => {
		const url = new URL(request.url ?? '/', 'http://sandbox.local');
		if (url.pathname === CONTROL_PREFIX || url.pathname.startsWith(`${CONTROL_PREFIX}/`)) {
			void answerControl(parts, request, response, url);
			return;
		}
		const startedAt = Date.now();
		parts.load.begin();
		void answerApi(parts, request, url).then((answer) => {
			parts.log.add({
				at: new Date(startedAt).toISOString(),
				method: request.method ?? 'GET',
				path: url.pathname,
				query: Object.fromEntries(url.searchParams),
				body: answer.logBody,
				status: answer.status,
				account: answer.auth?.account ?? null,
				credential: answer.auth?.kind ?? (request.headers.authorization ? 'invalid' : 'missing'),
				endpoint: answer.endpoint,
				durationMs: Date.now() - startedAt,
				...(answer.dropped ? { dropped: true } : {}),
			});
			if (answer.dropped) request.socket.destroy();
			else sendJson(response, answer.status, answer.body, answer.headers, answer.json);
			// Counted out once the answer is written: the caller cannot have it any earlier.
			parts.load.end();
		});
	};
}
