import type { IDataObject, INodeParameters, INodeType } from 'n8n-workflow';

import { credentialsFor, DAILY_FROM_2030_SCHEDULE, DAILY_FROM_2030_SCHEDULE_BODY, loadPackage, runNode, type RunNodeOptions, useSandbox } from '../harness';

const sandbox = useSandbox();

beforeEach(() => {
	sandbox.reset();
});


async function runSchedule(parameters: INodeParameters, extra: Partial<RunNodeOptions> = {}) {
	return await runNode({
		nodeType: 'travelPricingSchedule',
		parameters: { ...DAILY_FROM_2030_SCHEDULE, ...parameters },
		credentials: credentialsFor(sandbox),
		...extra,
	});
}

function scheduleRequests() {
	return sandbox.requests({ endpoint: 'schedule' });
}

describe('Create stores the schedule and returns it with its next runs', () => {
	it('sends the fields in the spec string form and outputs the stored schedule with scheduleid', async () => {
		const result = await runSchedule({ monthsMode: 'selected', months: [1, 7], daysOfWeekMode: 'selected', daysOfWeek: [1, 3, 5] });

		expect(result.error).toBeUndefined();
		const requests = scheduleRequests();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'POST', path: '/schedule', status: 200 });
		expect(requests[0].body).toEqual({ ...DAILY_FROM_2030_SCHEDULE_BODY, month: '1,7', dow: '1,3,5' });

		const [item] = result.items;
		expect(item.pairedItem).toEqual({ item: 0 });
		expect(item.json.scheduleid).toEqual(expect.any(Number));
		expect(item.json).toMatchObject({ schedulename: 'Paris daily', month: '1,7', dow: '1,3,5' });
		// 1 January 2030 is a Tuesday: the first Monday, Wednesday and Friday follow it.
		expect(item.json.nextRuns).toEqual([
			'2030-01-02T06:30:00+00:00',
			'2030-01-04T06:30:00+00:00',
			'2030-01-07T06:30:00+00:00',
			'2030-01-09T06:30:00+00:00',
			'2030-01-11T06:30:00+00:00',
		]);
		expect(item.json).not.toHaveProperty('nextRunsNote');

		const stored = sandbox.schedules().find((schedule) => schedule.scheduleid === item.json.scheduleid);
		expect(stored).toMatchObject({ schedulename: 'Paris daily', rateshopid: 42, month: '1,7', dow: '1,3,5', hour: '6' });
	});

	it('agrees with the service on the first run (the sandbox computes it in UTC)', async () => {
		const result = await runSchedule({ daysOfMonth: '15', hours: '9,21' });
		const stored = sandbox.schedules().find((schedule) => schedule.scheduleid === result.items[0].json.scheduleid);
		expect(stored?.nextRun).toBe('2030-01-15T09:30:00.000Z');
		expect((result.items[0].json.nextRuns as string[])[0]).toBe('2030-01-15T09:30:00+00:00');
	});

	it('lists the runs in the workflow timezone, as many as asked for', async () => {
		const result = await runSchedule({ options: { nextRunsToShow: 2 } }, { timezone: 'Europe/Berlin' });
		expect(result.items[0].json.nextRuns).toEqual(['2030-01-01T06:30:00+01:00', '2030-01-02T06:30:00+01:00']);
	});

	it('sends the end date when one is given', async () => {
		const result = await runSchedule({ endDate: '2030-01-02T00:00:00' });
		expect(scheduleRequests()[0].body).toMatchObject({ enddate: '2030-01-02' });
		expect(result.items[0].json).toMatchObject({
			enddate: '2030-01-02',
			nextRuns: ['2030-01-01T06:30:00+00:00', '2030-01-02T06:30:00+00:00'],
			nextRunsNote: 'This schedule ends on 2030-01-02: only 2 more runs.',
		});
	});

	it('stores a schedule that can never run, but says so in the item and in a hint', async () => {
		const result = await runSchedule({ monthsMode: 'selected', months: [2], daysOfMonth: '30,31' });
		expect(scheduleRequests()).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({
			nextRuns: [],
			nextRunsNote: 'This schedule can never run: Days of Month "30,31" never fall in February.',
		});
		const hints = result.run.data.resultData.runData['Node under test'][0].hints ?? [];
		expect(hints.map((hint) => hint.message)).toEqual([
			'Item 0: This schedule can never run: Days of Month "30,31" never fall in February.',
		]);
	});
});

describe('Update replaces the configuration of an existing schedule', () => {
	it('sends the whole configuration to PUT /schedule/{id} and outputs the replaced schedule', async () => {
		const created = await runSchedule({});
		const scheduleid = created.items[0].json.scheduleid as number;
		sandbox.clearRequests();

		const result = await runSchedule({ operation: 'update', scheduleId: scheduleid, name: 'Paris evening', hours: '18', status: 0 });

		expect(result.error).toBeUndefined();
		const [request] = scheduleRequests();
		expect(request).toMatchObject({ method: 'PUT', path: `/schedule/${scheduleid}`, status: 200 });
		expect(request.body).toMatchObject({ schedulename: 'Paris evening', hour: '18', status: 0, startdate: '2030-01-01' });
		// An inactive schedule is a choice, not a mistake: a note, but no warning hint.
		expect(result.run.data.resultData.runData['Node under test'][0].hints ?? []).toEqual([]);
		expect(result.items[0].json).toMatchObject({
			scheduleid,
			schedulename: 'Paris evening',
			hour: '18',
			status: 0,
			nextRuns: [],
			nextRunsNote: 'This schedule is inactive, so it does not run. Set Status to Active to run it.',
		});
		const stored = sandbox.schedules().find((schedule) => schedule.scheduleid === scheduleid);
		expect(stored).toMatchObject({ schedulename: 'Paris evening', hour: '18', status: 0 });
	});

	it('reports the service\'s 400 for a schedule ID it does not know', async () => {
		const result = await runSchedule({ operation: 'update', scheduleId: '987654' });
		expect(result.error?.message).toBe('The service rejected the request: unknown scheduleid 987654');
		expect(result.items).toEqual([]);
	});
});

describe('a 500 is retried only where sending again is harmless (docs/api-assumptions.md, row 26)', () => {
	it('Update sends the configuration again after a 500: it replaces the whole schedule', async () => {
		const created = await runSchedule({});
		const scheduleid = created.items[0].json.scheduleid as number;
		sandbox.clearRequests();
		sandbox.setFaults({ endpoints: { schedule: { p500: 1, times: 1 } } });

		const result = await runSchedule({ operation: 'update', scheduleId: String(scheduleid), hours: '18', options: { maxRetryWaitSeconds: 5 } });

		expect(result.error).toBeUndefined();
		expect(scheduleRequests().map((request) => `${request.method} ${request.status}`)).toEqual(['PUT 500', 'PUT 200']);
		expect(sandbox.schedules().find((schedule) => schedule.scheduleid === scheduleid)).toMatchObject({ hour: '18' });
	});

	it('Create is not sent again after a 500: the schedule may have been stored', async () => {
		sandbox.setFaults({ endpoints: { schedule: { p500: 1, times: 1 } } });

		const result = await runSchedule({ options: { maxRetryWaitSeconds: 5 } });

		expect(result.error?.message).toContain('500');
		expect(scheduleRequests().map((request) => `${request.method} ${request.status}`)).toEqual(['POST 500']);
	});
});

describe('Preview lists the next runs from the fields alone, without any request', () => {
	it('outputs the body it would send and the next runs, and sends nothing', async () => {
		const result = await runSchedule({ operation: 'preview', hours: '6,18', options: { nextRunsToShow: 3 } }, { credentials: undefined });

		expect(result.error).toBeUndefined();
		expect(sandbox.requests()).toEqual([]);
		expect(result.items).toEqual([
			{
				json: {
					...DAILY_FROM_2030_SCHEDULE_BODY,
					hour: '6,18',
					nextRuns: ['2030-01-01T06:30:00+00:00', '2030-01-01T18:30:00+00:00', '2030-01-02T06:30:00+00:00'],
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	it('says when the schedule can never run', async () => {
		const result = await runSchedule({ operation: 'preview', years: '2031', monthsMode: 'selected', months: [2], daysOfMonth: '29' });
		expect(result.items[0].json).toMatchObject({
			nextRuns: [],
			nextRunsNote: 'This schedule can never run: 29 February exists only in leap years, and none of the Years "2031" is one.',
		});
	});
});

describe('Bad input is reported with field, value and item, and nothing is sent', () => {
	it.each<[string, INodeParameters, string]>([
		// n8n itself stops a workflow whose required field is left empty; an expression can still produce nothing.
		['an empty name from an expression', { name: '={{ "  " }}' }, 'Invalid Name "  " in item 0: is required'],
		['a rate shop ID of 0', { rateShopId: 0 }, 'Invalid Rate Shop ID "0" in item 0: must be a whole number of 1 or more'],
		['no rate shop ID from an expression', { rateShopId: '={{ $json.shop }}' }, 'Invalid Rate Shop ID (empty) in item 0: is required'],
		['a rate shop ID that is not a whole number', { rateShopId: '42a' }, 'Invalid Rate Shop ID "42a" in item 0: must be a whole number of 1 or more'],
		['a two-digit year', { years: '2030,31' }, 'Invalid Years "2030,31" in item 0: "31" is not a four-digit year (1970 to 9999)'],
		['no month selected', { monthsMode: 'selected', months: [] }, 'Invalid Months "[]" in item 0: choose at least one, or set it to All'],
		['month 13 from an expression', { monthsMode: 'selected', months: '={{ "1,13" }}' }, 'Invalid Months "1,13" in item 0: "13" is not a month (1 January to 12 December, or a name such as March)'],
		['weekday 7', { daysOfWeekMode: 'selected', daysOfWeek: '=7' }, 'Invalid Days of Week "7" in item 0: "7" is not a day of the week (1 Monday to 6 Saturday, 0 Sunday, or a name such as Monday or Mon)'],
		['day 32', { daysOfMonth: '1,32' }, 'Invalid Days of Month "1,32" in item 0: "32" is not a day of the month (1 to 31)'],
		['a backwards range', { daysOfMonth: '25-20' }, 'Invalid Days of Month "25-20" in item 0: the range "25-20" runs backwards; write it as 20-25'],
		['a malformed list', { daysOfMonth: '1,x' }, 'Invalid Days of Month "1,x" in item 0: "x" is not a day of the month (1 to 31)'],
		['hour 24', { hours: '6,24' }, 'Invalid Hours "6,24" in item 0: "24" is not an hour (0 to 23)'],
		['minute 60', { minute: 60 }, 'Invalid Minute "60" in item 0: must be a whole number from 0 to 59'],
		['second 60', { second: 60 }, 'Invalid Second "60" in item 0: must be a whole number from 0 to 59'],
		['a start date that does not exist', { startDate: '2030-02-30' }, 'Invalid Start Date "2030-02-30" in item 0: this date does not exist: February 2030 has 28 days'],
		['a start date in another form', { startDate: '01/02/2030' }, 'Invalid Start Date "01/02/2030" in item 0: must be a date in the form YYYY-MM-DD, for example 2026-03-01'],
		['no start date from an expression', { startDate: '={{ $json.start }}' }, 'Invalid Start Date (empty) in item 0: is required'],
		['an end date before the start date', { endDate: '2029-12-31' }, 'Invalid End Date "2029-12-31" in item 0: is before the Start Date 2030-01-01'],
		['a schedule ID of 0 on update', { operation: 'update', scheduleId: 0 }, 'Invalid Schedule ID "0" in item 0: must be a whole number of 1 or more'],
		['no schedule ID from an expression on update', { operation: 'update', scheduleId: '={{ $json.id }}' }, 'Invalid Schedule ID (empty) in item 0: is required'],
		['a schedule ID past the int32 path parameter', { operation: 'update', scheduleId: '2147483648' }, 'Invalid Schedule ID "2147483648" in item 0: must be at most 2147483647'],
		['0 next runs to show', { options: { nextRunsToShow: 0 } }, 'Invalid Next Runs to Show "0" in item 0: must be a whole number from 1 to 100'],
	])('%s', async (_, parameters, message) => {
		const result = await runSchedule(parameters);
		expect(result.error?.message).toBe(message);
		expect(sandbox.requests()).toEqual([]);
	});

	it.each([
		['Rate Shop ID', 'rateShopId', {}],
		['Schedule ID', 'scheduleId', { operation: 'update' }],
	])('%s starts empty, so n8n itself asks for it before the run (a default of 0 ran and failed)', async (_, name, parameters) => {
		const { description } = (await loadPackage()).getNode('travelPricingSchedule').type as INodeType;
		const field = description.properties.find((property) => property.name === name);
		expect(field).toMatchObject({ type: 'string', default: '', required: true, placeholder: expect.stringMatching(/^e\.g\. \d+$/) });

		await expect(runSchedule({ ...parameters, [name]: field?.default })).rejects.toThrow('The workflow has issues');
		expect(sandbox.requests()).toEqual([]);
	});

	it('names the item that is wrong, and sends none of the good ones before it', async () => {
		const result = await runSchedule(
			{ hours: '={{ $json.hours }}' },
			{ items: [{ hours: '6' }, { hours: '7' }, { hours: '6,25' }] },
		);
		expect(result.error?.message).toBe('Invalid Hours "6,25" in item 2: "25" is not an hour (0 to 23)');
		expect(result.error?.description).toContain('Nothing was sent to the service for this item.');
		expect(sandbox.requests()).toEqual([]);
	});
});

describe('Service errors reach the user', () => {
	it('401: an expired account', async () => {
		const credentials = credentialsFor(sandbox);
		credentials.travelPricingApi = { ...credentials.travelPricingApi, accessToken: sandbox.credentials.expiredToken };
		const result = await runSchedule({}, { credentials });
		expect(result.error?.message).toBe('Authentication failed');
		expect(sandbox.schedules()).toEqual([]);
	});

	it('429: retried within the options, then reported', async () => {
		// Retry-After 0 still costs half a second of Max Retry Wait per retry.
		sandbox.setFaults({ endpoints: { schedule: { p429: 1, retryAfterSeconds: 0 } } });
		const result = await runSchedule({ options: { maxRetryWaitSeconds: 1 } });
		expect(result.error?.message).toBe('The service kept answering 429 Too Many Requests (3 attempts over 1.0 s)');
		expect(scheduleRequests().map((request) => request.status)).toEqual([429, 429, 429]);
		expect(sandbox.schedules()).toEqual([]);
	});

	it('429 once: the retry stores the schedule', async () => {
		sandbox.setFaults({ endpoints: { schedule: { p429: 1, retryAfterSeconds: 0, times: 1 } } });
		const result = await runSchedule({});
		expect(result.error).toBeUndefined();
		expect(scheduleRequests().map((request) => request.status)).toEqual([429, 200]);
		expect(sandbox.schedules()).toHaveLength(1);
	});
});

describe('Continue on fail: bad items become error items and the others go on', () => {
	it('keeps every item in order, paired with its input', async () => {
		const result = await runSchedule(
			{ name: '={{ $json.name }}', hours: '={{ $json.hours }}', operation: 'create' },
			{
				continueOnFail: true,
				items: [
					{ name: 'Morning', hours: '6' },
					{ name: 'Broken', hours: '6,24' },
					{ name: 'Evening', hours: '18' },
				],
			},
		);

		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(result.items[0].json).toMatchObject({ schedulename: 'Morning', hour: '6' });
		expect(result.items[1].json).toEqual({ error: 'Invalid Hours "6,24" in item 1: "24" is not an hour (0 to 23)' });
		expect(result.items[2].json).toMatchObject({ schedulename: 'Evening', hour: '18' });
		expect(sandbox.schedules().map((schedule) => schedule.schedulename)).toEqual(['Morning', 'Evening']);
	});

	it('turns a service error for one item into its error item', async () => {
		const created = await runSchedule({});
		const scheduleid = created.items[0].json.scheduleid as number;
		const result = await runSchedule(
			{ operation: 'update', scheduleId: '={{ $json.id }}' },
			{ continueOnFail: true, items: [{ id: 987654 }, { id: scheduleid }] },
		);
		expect(result.items[0].json).toEqual({ error: 'The service rejected the request: unknown scheduleid 987654' });
		expect(result.items[1].json).toMatchObject({ scheduleid });
	});
});

describe('Many items with expressions', () => {
	it('creates 50 schedules from 50 rows, each with its own values', async () => {
		const rows: IDataObject[] = Array.from({ length: 50 }, (_, row) => ({
			name: `Hotel ${row}`,
			shop: 1000 + row,
			months: row % 2 === 0 ? '1,3,5' : [2, 4],
			weekdays: 'Mon,Wed,Fri',
			hours: `${row % 24}`,
			start: `2030-0${(row % 9) + 1}-01`,
		}));
		const result = await runSchedule(
			{
				name: '={{ $json.name }}',
				rateShopId: '={{ $json.shop }}',
				monthsMode: 'selected',
				months: '={{ $json.months }}',
				daysOfWeekMode: 'selected',
				daysOfWeek: '={{ $json.weekdays }}',
				hours: '={{ $json.hours }}',
				startDate: '={{ $json.start }}',
				options: { nextRunsToShow: 1 },
			},
			{ items: rows },
		);

		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(50);
		const bodies = scheduleRequests().map((request) => request.body as IDataObject);
		expect(bodies).toHaveLength(50);
		rows.forEach((row, index) => {
			expect(bodies[index]).toMatchObject({
				schedulename: row.name,
				rateshopid: row.shop,
				month: index % 2 === 0 ? '1,3,5' : '2,4',
				dow: '1,3,5',
				hour: row.hours,
				startdate: row.start,
			});
			expect(result.items[index].pairedItem).toEqual({ item: index });
			expect(result.items[index].json.nextRuns).toHaveLength(1);
		});
		expect(new Set(result.items.map((item) => item.json.scheduleid)).size).toBe(50);
	});
});
