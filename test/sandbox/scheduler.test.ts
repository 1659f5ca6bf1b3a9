import type { RateRecord } from '../../platform/sandbox';
import { HOUR, MINUTE, MORNING_SCHEDULE, startReceiver, useFrozenSandbox, type Receiver } from './frozenSandbox';

const { sandbox, api, control } = useFrozenSandbox();

describe('schedule queueing rule: queued at minute 55 of the previous hour (virtual clock)', () => {
	let receiver: Receiver;

	beforeAll(async () => {
		receiver = await startReceiver();
	});

	afterAll(async () => {
		await receiver.close();
	});

	beforeEach(async () => {
		receiver.received.length = 0;
		await api.post('/webhook', { endpoint: `${receiver.url}/rates`, authType: 'none' });
	});

	it('runs today at 11:30 a schedule created at 10:54', async () => {
		await api.post('/schedule', MORNING_SCHEDULE);
		expect(sandbox.schedules()[0].nextRun).toBe('2026-12-01T11:30:00.000Z');
		const runs = await sandbox.advanceClock(36 * MINUTE);
		expect(runs).toHaveLength(1);
		expect(runs[0]).toMatchObject({ collectedAt: '2026-12-01T11:30:00.000Z', shopId: 5, scheduleId: 1, records: 10 });
		expect(receiver.received).toHaveLength(10);
		expect((receiver.received[0].body as RateRecord).dtCollected).toBe('2026-12-01T11:30:00.000Z');
	});

	it('runs a schedule created at 10:56 first on the following day at 11:30', async () => {
		sandbox.setClock('2026-12-01T10:56:00.000Z');
		await api.post('/schedule', MORNING_SCHEDULE);
		expect(await sandbox.advanceClock(HOUR)).toEqual([]);
		const runs = await sandbox.advanceClock(24 * HOUR);
		expect(runs.map((run) => run.collectedAt)).toEqual(['2026-12-02T11:30:00.000Z']);
	});

	it('honours a schedule saved exactly at 10:55:00 for the 11:30 run', async () => {
		sandbox.setClock('2026-12-01T10:55:00.000Z');
		await api.post('/schedule', MORNING_SCHEDULE);
		expect(sandbox.schedules()[0].nextRun).toBe('2026-12-01T11:30:00.000Z');
	});

	it('counts an update as a new save: a PUT at 10:56 moves the first run to tomorrow', async () => {
		const { scheduleid } = (await api.post('/schedule', MORNING_SCHEDULE)).data;
		sandbox.setClock('2026-12-01T10:56:00.000Z');
		await api.put(`/schedule/${scheduleid}`, MORNING_SCHEDULE);
		expect(sandbox.schedules()[0].nextRun).toBe('2026-12-02T11:30:00.000Z');
	});

	it('runs an hourly schedule every hour from the first queueable hour', async () => {
		await api.post('/schedule', { ...MORNING_SCHEDULE, hour: '*', minute: '0' });
		const runs = await sandbox.advanceClock(3 * HOUR);
		expect(runs.map((run) => run.collectedAt)).toEqual(['2026-12-01T11:00:00.000Z', '2026-12-01T12:00:00.000Z', '2026-12-01T13:00:00.000Z']);
	});

	it('never runs inactive schedules, and stops after enddate', async () => {
		await api.post('/schedule', { ...MORNING_SCHEDULE, status: 0 });
		await api.post('/schedule', { ...MORNING_SCHEDULE, enddate: '2026-12-02' });
		const runs = await sandbox.advanceClock(4 * 24 * HOUR);
		expect(runs.map((run) => [run.scheduleId, run.collectedAt])).toEqual([
			[2, '2026-12-01T11:30:00.000Z'],
			[2, '2026-12-02T11:30:00.000Z'],
		]);
	});

	it('matches year, month, day ranges and day of week together (UTC)', async () => {
		// 2026-12-01 is a Tuesday: day 20-25 and dow 5 (Friday) leaves only Friday 2026-12-25.
		await api.post('/schedule', { ...MORNING_SCHEDULE, year: '2026', month: '12', day: '20-25', dow: '5' });
		expect(sandbox.schedules()[0].nextRun).toBe('2026-12-25T11:30:00.000Z');
	});

	it('skips the runs in between when the clock is set rather than advanced', async () => {
		await api.post('/schedule', MORNING_SCHEDULE);
		sandbox.setClock('2026-12-05T12:00:00.000Z');
		expect(sandbox.schedules()[0].nextRun).toBe('2026-12-06T11:30:00.000Z');
		expect(sandbox.runs()).toEqual([]);
	});

	it('exposes the clock on GET/PUT /__sandbox/clock; advanceMs performs due runs', async () => {
		await api.post('/schedule', MORNING_SCHEDULE);
		const advanced = await control.put('/__sandbox/clock', { advanceMs: 40 * MINUTE });
		expect(advanced.data).toMatchObject({ now: '2026-12-01T11:34:00.000Z', speed: 0 });
		expect(advanced.data.runs).toHaveLength(1);
		await control.put('/__sandbox/clock', { now: '2027-01-01T00:00:00Z' });
		expect((await control.get('/__sandbox/clock')).data.now).toBe('2027-01-01T00:00:00.000Z');
	});
});
