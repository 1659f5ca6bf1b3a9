import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { credentialsFor, DAILY_FROM_2030_SCHEDULE, DAILY_FROM_2030_SCHEDULE_BODY, runNode, type RunNodeOptions, useSandbox } from '../harness';

const sandbox = useSandbox();

beforeEach(() => {
	sandbox.reset();
});

/**
 * Create or Update as a sheet drives it: each item is a row, and the Schedule ID and Last Sent
 * Fingerprint come from the row's columns, where the previous run wrote them back.
 */
const FROM_ROWS: INodeParameters = {
	...DAILY_FROM_2030_SCHEDULE,
	operation: 'upsert',
	name: '={{ $json.name }}',
	hours: '={{ $json.hours }}',
	status: '={{ $json.status }}',
	scheduleId: '={{ $json.scheduleid }}',
	lastFingerprint: '={{ $json.fingerprint }}',
};

async function runUpsert(rows: IDataObject[], extra: Partial<RunNodeOptions> = {}) {
	return await runNode({
		nodeType: 'travelPricingSchedule',
		parameters: FROM_ROWS,
		credentials: credentialsFor(sandbox),
		items: rows,
		...extra,
	});
}

/** The row as the next node writes it back: its own columns, plus the ID and fingerprint. */
function writtenBack(row: IDataObject, output: IDataObject): IDataObject {
	return { ...row, scheduleid: output.scheduleid, fingerprint: output.fingerprint };
}

function scheduleRequests() {
	return sandbox.requests({ endpoint: 'schedule' }).map((request) => `${request.method} ${request.path}`);
}

const MORNING = { name: 'Morning', hours: '6', status: 'active' };
const EVENING = { name: 'Evening', hours: '18', status: 'active' };

describe('a row without a Schedule ID is created', () => {
	it('POSTs the fields and puts out the stored schedule with its scheduleid, action "created" and a fingerprint', async () => {
		const result = await runUpsert([MORNING]);

		expect(result.error).toBeUndefined();
		expect(scheduleRequests()).toEqual(['POST /schedule']);
		expect(sandbox.requests({ endpoint: 'schedule' })[0].body).toEqual({ ...DAILY_FROM_2030_SCHEDULE_BODY, schedulename: 'Morning' });
		const [item] = result.items;
		expect(item.pairedItem).toEqual({ item: 0 });
		expect(item.json).toMatchObject({
			schedulename: 'Morning',
			scheduleid: sandbox.schedules()[0].scheduleid,
			action: 'created',
			fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
			nextRuns: expect.arrayContaining(['2030-01-01T06:30:00+00:00']),
		});
	});

	it('creates a row whose Schedule ID column is empty or null, as a sheet gives it', async () => {
		const result = await runUpsert([
			{ ...MORNING, scheduleid: '', fingerprint: '' },
			{ ...EVENING, scheduleid: null, fingerprint: null },
		]);
		expect(result.items.map((item) => item.json.action)).toEqual(['created', 'created']);
		expect(sandbox.schedules().map((schedule) => schedule.schedulename)).toEqual(['Morning', 'Evening']);
	});
});

describe('a row whose fields are the ones last sent sends nothing', () => {
	it('a second run of unchanged rows sends no request and puts out each schedule as "unchanged"', async () => {
		const first = await runUpsert([MORNING, EVENING]);
		const rows = [writtenBack(MORNING, first.items[0].json), writtenBack(EVENING, first.items[1].json)];
		sandbox.clearRequests();

		const second = await runUpsert(rows);

		expect(second.error).toBeUndefined();
		expect(sandbox.requests()).toEqual([]);
		expect(second.items.map((item) => item.json)).toEqual(
			first.items.map((item) =>
				expect.objectContaining({
					scheduleid: item.json.scheduleid,
					schedulename: item.json.schedulename,
					action: 'unchanged',
					fingerprint: item.json.fingerprint,
					nextRuns: item.json.nextRuns,
				}),
			),
		);
		expect(sandbox.schedules()).toHaveLength(2);
	});

	it('the fingerprint is of the fields sent, so the same fields written differently are unchanged too', async () => {
		const first = await runUpsert([{ ...MORNING, hours: '6' }]);
		sandbox.clearRequests();
		const second = await runUpsert([writtenBack({ ...MORNING, hours: ' 06 ', status: 1 }, first.items[0].json)]);
		expect(second.items[0].json.action).toBe('unchanged');
		expect(sandbox.requests()).toEqual([]);
	});
});

describe('a row with a Schedule ID whose fields changed is updated', () => {
	it('PUTs the whole configuration of exactly that schedule, with a new fingerprint', async () => {
		const first = await runUpsert([MORNING, EVENING]);
		const [morning, evening] = first.items.map((item) => item.json);
		sandbox.clearRequests();

		const second = await runUpsert([writtenBack({ ...MORNING, hours: '7' }, morning), writtenBack(EVENING, evening)]);

		expect(scheduleRequests()).toEqual([`PUT /schedule/${morning.scheduleid}`]);
		expect(sandbox.requests({ endpoint: 'schedule' })[0].body).toEqual({ ...DAILY_FROM_2030_SCHEDULE_BODY, schedulename: 'Morning', hour: '7' });
		expect(second.items.map((item) => [item.json.scheduleid, item.json.action])).toEqual([
			[morning.scheduleid, 'updated'],
			[evening.scheduleid, 'unchanged'],
		]);
		expect(second.items[0].json.fingerprint).not.toBe(morning.fingerprint);
		expect(sandbox.schedules().find((schedule) => schedule.scheduleid === morning.scheduleid)).toMatchObject({ hour: '7' });
	});

	it('a row switched to inactive sends status 0 and pauses its schedule', async () => {
		const first = await runUpsert([MORNING]);
		const [morning] = first.items.map((item) => item.json);
		sandbox.clearRequests();

		const second = await runUpsert([writtenBack({ ...MORNING, status: 'inactive' }, morning)]);

		const [request] = sandbox.requests({ endpoint: 'schedule' });
		expect(`${request.method} ${request.path}`).toBe(`PUT /schedule/${morning.scheduleid}`);
		expect(request.body).toMatchObject({ status: 0 });
		expect(second.items[0].json).toMatchObject({ action: 'updated', status: 0, nextRuns: [] });
		expect(sandbox.schedules()[0]).toMatchObject({ status: 0 });
	});

	it('an ID typed in without a fingerprint is updated: nothing says what the service holds', async () => {
		const first = await runUpsert([MORNING]);
		sandbox.clearRequests();
		await runUpsert([{ ...MORNING, scheduleid: first.items[0].json.scheduleid }]);
		expect(scheduleRequests()).toEqual([`PUT /schedule/${first.items[0].json.scheduleid}`]);
	});
});

describe('a row with invalid fields is an error item naming row and field; the others go on', () => {
	it('continues on failure: the bad row sends nothing, the rows around it are created', async () => {
		const result = await runUpsert([MORNING, { name: 'Broken', hours: '6,24', status: 'active' }, EVENING], { continueOnFail: true });

		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(result.items[1].json).toEqual({ error: 'Invalid Hours "6,24" in item 1: "24" is not an hour (0 to 23)' });
		expect(result.items.map((item) => item.json.action)).toEqual(['created', undefined, 'created']);
		expect(sandbox.schedules().map((schedule) => schedule.schedulename)).toEqual(['Morning', 'Evening']);
	});

	it('a Schedule ID that is not one is the row\'s error too', async () => {
		const result = await runUpsert([{ ...MORNING, scheduleid: 'abc' }, EVENING], { continueOnFail: true });
		expect(result.items[0].json).toEqual({ error: 'Invalid Schedule ID "abc" in item 0: must be a whole number of 1 or more' });
		expect(result.items[1].json.action).toBe('created');
		expect(scheduleRequests()).toEqual(['POST /schedule']);
	});
});

describe('nothing is created twice after a dropped connection', () => {
	it('a POST whose connection broke is not sent again: the row is an error item that says to check', async () => {
		sandbox.setFaults({ endpoints: { schedule: { pDrop: 1, times: 1 } } });

		const result = await runUpsert([MORNING, EVENING], { continueOnFail: true });

		expect(result.items[0].json.error).toBe('The connection broke after POST /schedule was sent: the request may have reached the service');
		expect(result.items[1].json.action).toBe('created');
		expect(scheduleRequests()).toEqual(['POST /schedule', 'POST /schedule']);
		expect(sandbox.requests({ endpoint: 'schedule' }).map((request) => request.dropped ?? false)).toEqual([true, false]);
	});

	it('a PUT whose connection broke is sent again: it replaces the whole configuration', async () => {
		const first = await runUpsert([MORNING]);
		sandbox.clearRequests();
		sandbox.setFaults({ endpoints: { schedule: { pDrop: 1, times: 1 } } });

		const second = await runUpsert([writtenBack({ ...MORNING, hours: '9' }, first.items[0].json)]);

		expect(second.error).toBeUndefined();
		expect(second.items[0].json.action).toBe('updated');
		expect(sandbox.requests({ endpoint: 'schedule' }).map((request) => request.dropped ?? false)).toEqual([true, false]);
		expect(sandbox.schedules()).toHaveLength(1);
	});
});
