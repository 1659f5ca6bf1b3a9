import { client, expectError, MORNING_SCHEDULE, useFrozenSandbox } from '../frozenSandbox';

const { sandbox, api } = useFrozenSandbox();

describe('POST /schedule and PUT /schedule/{scheduleid}', () => {
	it('stores the schedule and returns it with a new integer scheduleid', async () => {
		const first = await api.post('/schedule', MORNING_SCHEDULE);
		const second = await api.post('/schedule', { ...MORNING_SCHEDULE, status: 0, enddate: '2027-01-31' });
		expect(first.status).toBe(200);
		expect(first.data).toEqual({ scheduleid: expect.any(Number), ...MORNING_SCHEDULE, enddate: null });
		expect(second.data.scheduleid).toBe(first.data.scheduleid + 1);
		expect(second.data).toMatchObject({ status: 0, enddate: '2027-01-31' });
		expect(sandbox.schedules()).toHaveLength(2);
	});

	it('makes a schedule sent without status active', async () => {
		const withoutStatus: Partial<typeof MORNING_SCHEDULE> = { ...MORNING_SCHEDULE };
		delete withoutStatus.status;
		expect((await api.post('/schedule', withoutStatus)).data.status).toBe(1);
	});

	it('replaces the configuration on PUT, including the status, and returns it', async () => {
		const created = (await api.post('/schedule', MORNING_SCHEDULE)).data;
		const updated = await api.put(`/schedule/${created.scheduleid}`, { ...MORNING_SCHEDULE, schedulename: 'Evening', hour: '18,20', status: 0 });
		expect(updated.status).toBe(200);
		expect(updated.data).toMatchObject({ scheduleid: created.scheduleid, schedulename: 'Evening', hour: '18,20', status: 0 });
		expect(sandbox.schedules()[0]).toMatchObject({ schedulename: 'Evening', status: 0, nextRun: null });
	});

	it('answers 400 for a PUT on an unknown id or on another account’s schedule', async () => {
		expectError(await api.put('/schedule/4242', MORNING_SCHEDULE), 400, /unknown scheduleid 4242/);
		const created = (await api.post('/schedule', MORNING_SCHEDULE)).data;
		const other = client(sandbox.baseUrl, `Bearer ${sandbox.credentials.otherAccountToken}`);
		expectError(await other.put(`/schedule/${created.scheduleid}`, MORNING_SCHEDULE), 400, /unknown scheduleid/);
		expectError(await api.put('/schedule/abc', MORNING_SCHEDULE), 400, /scheduleid must be an int32/);
	});

	it.each([
		['required fields are missing', { schedulename: undefined, rateshopid: undefined }, /missing required fields: schedulename, rateshopid/],
		['rateshopid is a string', { rateshopid: '5' }, /rateshopid must be an integer/],
		['year has two digits', { year: '26' }, /year has an invalid item '26'/],
		['a year in the list has two digits', { year: '2026,27' }, /year has an invalid item '27'/],
		['month is 13', { month: '13' }, /month value 13 is out of range 1-12/],
		['month is a range', { month: '1-3' }, /month has an invalid item/],
		['dow is 7', { dow: '7' }, /dow value 7 is out of range 0-6/],
		['day is 0', { day: '0' }, /day value 0 is out of range 1-31/],
		['a day range runs backwards', { day: '25-20' }, /day range '25-20' runs backwards/],
		['hour is 24', { hour: '24' }, /hour value 24 is out of range 0-23/],
		['minute is 60', { minute: '60' }, /minute value 60/],
		['minute is *', { minute: '*' }, /minute must be a string holding one number/],
		['seconds is a number', { seconds: 5 }, /seconds must be a string/],
		['status is 2', { status: 2 }, /status must be at most 1/],
		['startdate is not a real date', { startdate: '2026-02-30' }, /startdate must be a real date/],
		['startdate is not YYYY-MM-DD', { startdate: '01/12/2026' }, /startdate must be a real date in the form YYYY-MM-DD/],
		['enddate is before startdate', { enddate: '2026-11-30' }, /enddate 2026-11-30 is before startdate 2026-12-01/],
		['a field is misspelt', { rateShopId: 5 }, /unknown field 'rateShopId'/],
	])('answers 400 naming the field when %s', async (_case, change, reason) => {
		expectError(await api.post('/schedule', { ...MORNING_SCHEDULE, ...change }), 400, reason);
	});

	it('accepts lists and day ranges in the pattern fields', async () => {
		const response = await api.post('/schedule', { ...MORNING_SCHEDULE, year: '2026,2027', month: '1,6,12', dow: '1,3,5', day: '1,15,20-25', hour: '*' });
		expect(response.status).toBe(200);
	});
});
