import { expectError, MORNING_SCHEDULE, useFrozenSandbox } from './frozenSandbox';

const { sandbox, api, airportsApi, control } = useFrozenSandbox();

describe('faults', () => {
	afterEach(() => sandbox.resetFaults());

	it('answers 429 with Retry-After when p429 fires, and stops after `times`', async () => {
		sandbox.setFaults({ endpoints: { hotelinfo: { p429: 1, retryAfterSeconds: 3, times: 1 } } });
		const limited = await api.post('/hotelinfo', { hotelcode: 100001 });
		expectError(limited, 429);
		expect(limited.headers['retry-after']).toBe('3');
		expect((await api.post('/hotelinfo', { hotelcode: 100001 })).status).toBe(200);
	});

	it('answers 500 when p500 fires; "*" covers every endpoint; endpoint keys work at the top level too', async () => {
		sandbox.setFaults({ '*': { p500: 1 } });
		expectError(await api.post('/eventimpact/', {}), 500);
		expectError(await airportsApi.get('/api/v1/references/airports'), 500);
		await control.put('/__sandbox/faults', { eventimpact: { p500: 0 } });
		expect((await api.post('/eventimpact/', {})).status).toBe(200);
		expect((await control.get('/__sandbox/faults')).data).toEqual({ endpoints: { eventimpact: { p500: 0 } } });
	});

	it('repeats the same fault sequence for the same seed', async () => {
		const sequence = async (): Promise<number[]> => {
			sandbox.setFaults({ seed: 7, endpoints: { airports: { p500: 0.5 } } });
			const statuses: number[] = [];
			for (let i = 0; i < 12; i++) statuses.push((await airportsApi.get('/api/v1/references/airports?size=1')).status);
			return statuses;
		};
		const first = await sequence();
		expect(first).toContain(500);
		expect(first).toContain(200);
		expect(await sequence()).toEqual(first);
	});

	it('adds latencyMs before answering', async () => {
		sandbox.setFaults({ latencyMs: 150 });
		const started = Date.now();
		await api.post('/hotelinfo', { hotelcode: 100001 });
		expect(Date.now() - started).toBeGreaterThanOrEqual(145);
	});

	it('rate limits each credential per one-second window with 429 and Retry-After', async () => {
		sandbox.setFaults({ rateLimitPerSecond: 3 });
		const statuses = await Promise.all(Array.from({ length: 5 }, () => api.post('/hotelinfo', { hotelcode: 100001 })));
		expect(statuses.map((response) => response.status).sort()).toEqual([200, 200, 200, 429, 429]);
		expect(statuses.find((response) => response.status === 429)?.headers['retry-after']).toBe('1');
		// Another credential has its own window.
		expect((await airportsApi.get('/api/v1/references/airports')).status).toBe(200);
	});

	it('never applies to /__sandbox/ routes', async () => {
		sandbox.setFaults({ '*': { p500: 1 }, rateLimitPerSecond: 1 });
		for (let i = 0; i < 3; i++) expect((await control.get('/__sandbox/health')).status).toBe(200);
	});

	it('pDrop serves the request, then drops the connection without an answer', async () => {
		await control.put('/__sandbox/faults', { schedule: { pDrop: 1, times: 1 } });
		const dropped = await api.post('/schedule', MORNING_SCHEDULE).then(
			() => 'answered',
			(error: { code?: string }) => error.code,
		);
		expect(dropped).toBe('ECONNRESET');
		// The schedule was stored all the same: the caller cannot tell whether it was.
		expect(sandbox.schedules()).toHaveLength(1);
		expect(sandbox.requests({ endpoint: 'schedule' })).toEqual([expect.objectContaining({ status: 200, dropped: true })]);
		expect((await api.post('/schedule', MORNING_SCHEDULE)).status).toBe(200);
		expect(sandbox.schedules()).toHaveLength(2);
	});

	it('refuses unknown fault settings', async () => {
		expectError(await control.put('/__sandbox/faults', { hotelinfo: { pDrop: 0.6, p500: 0.6 } }), 400, /must not pass 1/);
		expectError(await control.put('/__sandbox/faults', { hotelinfo: { p429: 2 } }), 400, /probability/);
		expectError(await control.put('/__sandbox/faults', { everything: {} }), 400, /unknown fault setting/);
	});
});
