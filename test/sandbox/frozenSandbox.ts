import http from 'node:http';
import type { AddressInfo } from 'node:net';
import axios, { type AxiosInstance, type AxiosResponse } from 'axios';
import { DAILY_FROM_2030_SCHEDULE_BODY } from '../harness/fixtures';
import { useSandbox } from '../harness/sandbox';
import type { RateRecord, Sandbox } from '../../platform/sandbox';

/** What the sandbox's own tests share: one sandbox a file on a frozen clock, its clients, a receiver. */

/** The frozen clock's start: a Tuesday, five minutes before the queueing minute of 11:00. */
export const START = '2026-12-01T10:54:00.000Z';
export const HOUR = 3_600_000;
export const MINUTE = 60_000;

/** A schedule at 11:30 every day from the frozen clock's day, of rate shop 5. */
export const MORNING_SCHEDULE = { ...DAILY_FROM_2030_SCHEDULE_BODY, rateshopid: 5, hour: '11', startdate: '2026-12-01' };

export interface SandboxClients {
	sandbox: Sandbox;
	/** Signed in with the demo account's access token (Bearer). */
	api: AxiosInstance;
	/** Signed in with the demo account's airports API key. */
	airportsApi: AxiosInstance;
	/** No credentials: the /__sandbox/ control routes. */
	control: AxiosInstance;
}

/**
 * One sandbox for a test file on a frozen clock (time moves only when a test moves it), reset to
 * START with no schedules, webhooks, faults or log before each test.
 */
export function useFrozenSandbox(): SandboxClients {
	const sandbox = useSandbox({ speed: 0, clock: START });
	beforeEach(() => {
		sandbox.reset();
		sandbox.setClock(START);
	});
	return {
		sandbox,
		api: once(() => client(sandbox.baseUrl, `Bearer ${sandbox.credentials.accessToken}`)),
		airportsApi: once(() => client(sandbox.baseUrl, sandbox.credentials.apiKey)),
		control: once(() => client(sandbox.baseUrl)),
	};
}

/** A client that answers every status (tests check them) with `authorization` as it is given. */
export function client(baseURL: string, authorization?: string): AxiosInstance {
	return axios.create({ baseURL, validateStatus: () => true, headers: authorization ? { Authorization: authorization } : {} });
}

/** The service's error body (spec part 7) with this status, and a message matching `reason`. */
export function expectError(response: AxiosResponse, status: number, reason?: RegExp): void {
	expect(response.status).toBe(status);
	expect(response.data).toEqual({ error: true, status, message: expect.any(String) });
	if (reason) expect(response.data.message).toMatch(reason);
}

export interface Received {
	path: string;
	headers: http.IncomingHttpHeaders;
	body: unknown;
}

export interface Receiver {
	url: string;
	received: Received[];
	close(): Promise<void>;
}

/** A local webhook receiver that records every delivery and answers with `answer`. */
export async function startReceiver(answer: (path: string) => number = () => 200): Promise<Receiver> {
	const received: Received[] = [];
	const server = http.createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			received.push({ path: request.url ?? '', headers: request.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
			response.writeHead(answer(request.url ?? ''), { 'content-type': 'application/json' });
			response.end('{"ok":true}');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		received,
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}

/** The rate records a receiver got, whatever the records per POST, in arrival order. */
export function deliveredRecords(receiver: Receiver): RateRecord[] {
	return receiver.received.flatMap(({ body }) => [body].flat() as RateRecord[]);
}

export interface SubscribedSandbox {
	sandbox: Sandbox;
	/** No credentials, rooted at the control routes: `control.post('/run-shop', ...)`. */
	control: AxiosInstance;
	/** Subscribed as the account's webhook (no auth) and emptied before each test. */
	receiver: Receiver;
	/** Subscribes the receiver again, emptied: after a test has reset the sandbox. */
	subscribe(): Promise<void>;
}

/** useFrozenSandbox with a receiver of what its shops deliver: for the tests of the shop models. */
export function useSubscribedSandbox(): SubscribedSandbox {
	const { sandbox, api } = useFrozenSandbox();
	let started: Receiver | undefined;
	beforeAll(async () => {
		started = await startReceiver();
	});
	afterAll(async () => {
		await started?.close();
	});
	const receiver = new Proxy({} as Receiver, {
		get(_target, property) {
			if (!started) throw new Error('The receiver starts in beforeAll: use it inside a test or a hook');
			return Reflect.get(started, property, started) as unknown;
		},
	});
	const subscribe = async () => {
		receiver.received.length = 0;
		expect((await api.post('/webhook', { endpoint: receiver.url, authType: 'none' })).status).toBeLessThan(300);
	};
	beforeEach(subscribe);
	return { sandbox, control: once(() => client(`${sandbox.baseUrl}/__sandbox`)), receiver, subscribe };
}

/** The client `make` builds on first use, inside a test, once the sandbox has its port. */
function once(make: () => AxiosInstance): AxiosInstance {
	let made: AxiosInstance | undefined;
	return new Proxy({} as AxiosInstance, {
		get(_target, property) {
			made ??= make();
			const value: unknown = Reflect.get(made, property, made);
			return typeof value === 'function' ? value.bind(made) : value;
		},
	});
}
