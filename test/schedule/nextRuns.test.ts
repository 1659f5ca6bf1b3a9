import { DateTime, IANAZone } from 'luxon';

import { nextRuns, wallTimeInstant } from '../../nodes/Schedule/nextRuns';
import type { ScheduleFields } from '../../nodes/Schedule/scheduleFields';
import { DAILY_FROM_2030_SCHEDULE_BODY } from '../harness/fixtures';

const BERLIN = 'Europe/Berlin';

/** Daily at 11:30:00 from 2025-01-01, no end: the baseline each test changes one thing in. */
const daily: ScheduleFields = { ...DAILY_FROM_2030_SCHEDULE_BODY, hour: '11', startdate: '2025-01-01' };

/** Epoch ms of a wall-clock time in Berlin. */
function at(isoLocal: string, zone = BERLIN): number {
	return DateTime.fromISO(isoLocal, { zone }).toMillis();
}

function runsOf(fields: Partial<ScheduleFields>, createdAt: string, count = 3, zone = BERLIN, horizonYears?: number) {
	return nextRuns({ ...daily, ...fields }, { createdAt: at(createdAt, zone), zone, count, horizonYears });
}

describe('Queueing rule: a run at T happens only if the schedule existed at minute 55 of the hour before', () => {
	it('created at 10:54 it runs at 11:30 the same day', () => {
		expect(runsOf({}, '2025-06-10T10:54:00').runs[0]).toBe('2025-06-10T11:30:00+02:00');
	});

	it('created at exactly 10:55:00 it still runs at 11:30 the same day', () => {
		expect(runsOf({}, '2025-06-10T10:55:00').runs[0]).toBe('2025-06-10T11:30:00+02:00');
	});

	it('created one second after 10:55 it first runs at 11:30 the next day', () => {
		expect(runsOf({}, '2025-06-10T10:55:01').runs[0]).toBe('2025-06-11T11:30:00+02:00');
	});

	it('created at 10:56 it first runs at 11:30 the next day', () => {
		expect(runsOf({}, '2025-06-10T10:56:00').runs).toEqual([
			'2025-06-11T11:30:00+02:00',
			'2025-06-12T11:30:00+02:00',
			'2025-06-13T11:30:00+02:00',
		]);
	});

	it('created inside the run hour (11:10, before 11:30) it waits for the next day', () => {
		expect(runsOf({}, '2025-06-10T11:10:00').runs[0]).toBe('2025-06-11T11:30:00+02:00');
	});

	it('an hourly schedule created at 10:56 skips 11:30 and starts at 12:30', () => {
		expect(runsOf({ hour: '*' }, '2025-06-10T10:56:00').runs).toEqual([
			'2025-06-10T12:30:00+02:00',
			'2025-06-10T13:30:00+02:00',
			'2025-06-10T14:30:00+02:00',
		]);
	});

	it('counts from the hour, not the run minute: created 11:54 for a 12:00:00 run, it runs', () => {
		expect(runsOf({ hour: '12', minute: '0' }, '2025-06-10T11:54:59').runs[0]).toBe('2025-06-10T12:00:00+02:00');
	});
});

describe('Days, months and years all filter (every field must match)', () => {
	it('runs only on the selected weekdays', () => {
		// 2025-06-10 is a Tuesday; 1 = Monday, 5 = Friday.
		expect(runsOf({ dow: '1,5' }, '2025-06-10T08:00:00').runs).toEqual([
			'2025-06-13T11:30:00+02:00',
			'2025-06-16T11:30:00+02:00',
			'2025-06-20T11:30:00+02:00',
		]);
	});

	it('treats 0 as Sunday', () => {
		expect(runsOf({ dow: '0' }, '2025-06-10T08:00:00', 1).runs).toEqual(['2025-06-15T11:30:00+02:00']);
	});

	it('requires day of month and weekday to match together (not either, as in cron)', () => {
		// Fridays the 13th: June 2025, then February and March 2026.
		expect(runsOf({ dow: '5', day: '13' }, '2025-06-10T08:00:00').runs).toEqual([
			'2025-06-13T11:30:00+02:00',
			'2026-02-13T11:30:00+01:00',
			'2026-03-13T11:30:00+01:00',
		]);
	});

	it('expands day ranges', () => {
		expect(runsOf({ day: '1,20-21' }, '2025-06-10T08:00:00').runs).toEqual([
			'2025-06-20T11:30:00+02:00',
			'2025-06-21T11:30:00+02:00',
			'2025-07-01T11:30:00+02:00',
		]);
	});

	it('runs at every listed hour, minute and second, in order', () => {
		expect(runsOf({ hour: '18,6', minute: '5', seconds: '30' }, '2025-06-10T08:00:00').runs).toEqual([
			'2025-06-10T18:05:30+02:00',
			'2025-06-11T06:05:30+02:00',
			'2025-06-11T18:05:30+02:00',
		]);
	});

	it('runs only in the listed years, jumping to a later one', () => {
		expect(runsOf({ year: '2027', month: '1', day: '1' }, '2025-06-10T08:00:00', 1).runs).toEqual([
			'2027-01-01T11:30:00+01:00',
		]);
	});

	it('uses the workflow timezone for the wall-clock time', () => {
		expect(runsOf({}, '2025-06-10T08:00:00', 1, 'America/New_York').runs).toEqual(['2025-06-10T11:30:00-04:00']);
	});
});

describe('Month ends: day 31 skips the months that have no 31st', () => {
	it('goes from 31 January to 31 March and 31 May', () => {
		expect(runsOf({ day: '31' }, '2025-01-15T08:00:00').runs).toEqual([
			'2025-01-31T11:30:00+01:00',
			'2025-03-31T11:30:00+02:00',
			'2025-05-31T11:30:00+02:00',
		]);
	});

	it('day 30 skips February only', () => {
		expect(runsOf({ day: '30' }, '2025-01-15T08:00:00').runs).toEqual([
			'2025-01-30T11:30:00+01:00',
			'2025-03-30T11:30:00+02:00',
			'2025-04-30T11:30:00+02:00',
		]);
	});
});

describe('Leap years: 29 February runs only in leap years', () => {
	it('runs on 29 February 2028, 2032 and 2036', () => {
		expect(runsOf({ month: '2', day: '29' }, '2025-06-10T08:00:00', 3, BERLIN, 12).runs).toEqual([
			'2028-02-29T11:30:00+01:00',
			'2032-02-29T11:30:00+01:00',
			'2036-02-29T11:30:00+01:00',
		]);
	});

	it('looks 10 years ahead by default, and says so when fewer runs fall within them', () => {
		expect(runsOf({ month: '2', day: '29' }, '2025-06-10T08:00:00')).toEqual({
			runs: ['2028-02-29T11:30:00+01:00', '2032-02-29T11:30:00+01:00'],
			outlook: 'fewer',
			note: 'Only 2 more runs within the 10 years this node looks ahead.',
		});
	});

	it('knows 2100 is not a leap year', () => {
		expect(runsOf({ month: '2', day: '29', year: '2096,2100,2104' }, '2095-06-10T08:00:00').runs).toEqual([
			'2096-02-29T11:30:00+01:00',
			'2104-02-29T11:30:00+01:00',
		]);
	});
});

describe('Daylight saving: a skipped wall time does not run, a repeated one runs once, at the first occurrence', () => {
	it('spring forward in Berlin (30 March 2025, 02:00 -> 03:00): no 02:30 run that day', () => {
		expect(runsOf({ hour: '2' }, '2025-03-28T12:00:00').runs).toEqual([
			'2025-03-29T02:30:00+01:00',
			'2025-03-31T02:30:00+02:00',
			'2025-04-01T02:30:00+02:00',
		]);
	});

	it('hourly on the spring-forward day has 23 runs', () => {
		const runs = runsOf({ hour: '*' }, '2025-03-29T12:00:00', 40).runs.filter((run) => run.startsWith('2025-03-30'));
		expect(runs).toHaveLength(23);
		expect(runs.some((run) => run.startsWith('2025-03-30T02:'))).toBe(false);
	});

	it('fall back in Berlin (26 October 2025, 03:00 -> 02:00): 02:30 runs once, in summer time', () => {
		expect(runsOf({ hour: '2' }, '2025-10-25T12:00:00').runs).toEqual([
			'2025-10-26T02:30:00+02:00',
			'2025-10-27T02:30:00+01:00',
			'2025-10-28T02:30:00+01:00',
		]);
	});

	it('hourly on the fall-back day runs once per wall-clock hour (24 runs, not 25)', () => {
		const runs = runsOf({ hour: '*' }, '2025-10-25T12:00:00', 50).runs.filter((run) => run.startsWith('2025-10-26'));
		expect(runs).toHaveLength(24);
	});

	it('finds the instant of a wall time: none in the gap, the first of two in the overlap', () => {
		const zone = IANAZone.create(BERLIN);
		expect(wallTimeInstant(zone, Date.UTC(2025, 2, 30, 2, 30))).toBeUndefined();
		expect(wallTimeInstant(zone, Date.UTC(2025, 9, 26, 2, 30))).toBe(Date.UTC(2025, 9, 26, 0, 30));
		expect(wallTimeInstant(zone, Date.UTC(2025, 5, 10, 11, 30))).toBe(Date.UTC(2025, 5, 10, 9, 30));
	});
});

describe('Start and end dates are inclusive days', () => {
	it('starts on the start date, not before', () => {
		expect(runsOf({ startdate: '2025-07-01' }, '2025-06-10T08:00:00', 1).runs).toEqual(['2025-07-01T11:30:00+02:00']);
	});

	it('runs on the end date and stops after it, saying how many runs are left', () => {
		expect(runsOf({ enddate: '2025-06-12' }, '2025-06-10T08:00:00', 5)).toEqual({
			runs: ['2025-06-10T11:30:00+02:00', '2025-06-11T11:30:00+02:00', '2025-06-12T11:30:00+02:00'],
			outlook: 'fewer',
			note: 'This schedule ends on 2025-06-12: only 3 more runs.',
		});
	});

	it('has no note when all the asked runs fall before the end date', () => {
		const result = runsOf({ enddate: '2025-06-12' }, '2025-06-10T08:00:00', 3);
		expect(result.outlook).toBe('runs');
		expect(result.note).toBeUndefined();
	});

	it('says when its last listed year leaves fewer runs', () => {
		expect(runsOf({ year: '2025', month: '12', day: '31' }, '2025-06-10T08:00:00', 3)).toEqual({
			runs: ['2025-12-31T11:30:00+01:00'],
			outlook: 'fewer',
			note: 'Its Years "2025" leave only 1 more run.',
		});
	});
});

describe('A schedule that can never run says why instead of listing nothing', () => {
	it('31 February', () => {
		expect(runsOf({ month: '2', day: '31' }, '2025-06-10T08:00:00')).toEqual({
			runs: [],
			outlook: 'never',
			note: 'This schedule can never run: Days of Month "31" never fall in February.',
		});
	});

	it('day 31 in months of 30 days', () => {
		expect(runsOf({ month: '4,6,9,11', day: '31' }, '2025-06-10T08:00:00').note).toBe(
			'This schedule can never run: Days of Month "31" never fall in April, June, September, November.',
		);
	});

	it('29 February in years that are not leap years', () => {
		expect(runsOf({ month: '2', day: '29', year: '2026,2027' }, '2025-06-10T08:00:00').note).toBe(
			'This schedule can never run: 29 February exists only in leap years, and none of the Years "2026,2027" is one.',
		);
	});

	it('years that are all in the past', () => {
		expect(runsOf({ year: '2016,2017' }, '2025-06-10T08:00:00').note).toBe(
			'This schedule can never run: its Years "2016,2017" are all in the past.',
		);
	});

	it('an end date that has passed', () => {
		expect(runsOf({ startdate: '2024-01-01', enddate: '2024-12-31' }, '2025-06-10T08:00:00').note).toBe(
			'This schedule can never run: its End Date 2024-12-31 has passed.',
		);
	});

	it('an end date before the first matching day', () => {
		// 2025-06-10 is a Tuesday; the schedule wants Mondays only and ends on Sunday the 15th.
		expect(runsOf({ dow: '1', enddate: '2025-06-15' }, '2025-06-10T08:00:00').note).toBe(
			'This schedule can never run: no run time still ahead falls between 2025-06-10 and its End Date 2025-06-15.',
		);
	});

	it('its only run is in the current hour, which the queueing rule moves past the end date', () => {
		expect(runsOf({ startdate: '2025-06-10', enddate: '2025-06-10' }, '2025-06-10T11:00:00').note).toBe(
			'This schedule can never run: no run time still ahead falls between 2025-06-10 and its End Date 2025-06-10 (a run is queued at minute 55 of the hour before, so one in the current hour waits for the next day).',
		);
	});

	it('a combination that does not occur within the horizon', () => {
		const result = nextRuns(
			{ ...daily, month: '2', day: '29', dow: '1' },
			{ createdAt: at('2025-06-10T08:00:00'), zone: BERLIN, count: 1, horizonYears: 2 },
		);
		expect(result).toEqual({
			runs: [],
			outlook: 'never',
			note: 'This schedule can never run: no run time falls within 2 years of 2025-06-10.',
		});
	});

	it('an inactive schedule does not run', () => {
		expect(runsOf({ status: 0 }, '2025-06-10T08:00:00')).toEqual({
			runs: [],
			outlook: 'inactive',
			note: 'This schedule is inactive, so it does not run. Set Status to Active to run it.',
		});
	});
});

describe('The search is bounded and quick', () => {
	it('gives up on an impossible schedule after scanning its 10-year horizon', () => {
		const result = runsOf({ month: '2', day: '29', dow: '3', year: '*' }, '2025-06-10T08:00:00', 5);
		// The first Wednesday 29 February after 2025 is in 2040: beyond 10 years from 2025-06-10.
		expect(result.runs).toEqual([]);
		expect(result.note).toContain('within 10 years of 2025-06-10');
	});

	it('lists 100 hourly runs', () => {
		const result = runsOf({ hour: '*' }, '2025-06-10T08:00:00', 100);
		expect(result.runs).toHaveLength(100);
		expect(result.runs[0]).toBe('2025-06-10T09:30:00+02:00');
		expect(result.runs[99]).toBe('2025-06-14T12:30:00+02:00');
	});
});
