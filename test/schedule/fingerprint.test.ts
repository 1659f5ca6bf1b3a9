import { createHash } from 'crypto';

import { DAILY_FROM_2030_SCHEDULE_BODY } from '../harness/fixtures';
import { scheduleFingerprint } from '../../nodes/Schedule/fingerprint';
import type { ScheduleFields } from '../../nodes/Schedule/scheduleFields';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('the fingerprint is sha256 of the fields sent, sorted by name (docs/nodes/schedule.md)', () => {
	it('hashes the JSON of the [name, value] pairs in name order, not the body as sent', () => {
		const fields: ScheduleFields = { ...DAILY_FROM_2030_SCHEDULE_BODY };
		const sortedPairs = Object.entries(fields).sort(([a], [b]) => (a < b ? -1 : 1));
		expect(scheduleFingerprint(fields)).toBe(sha256(JSON.stringify(sortedPairs)));
		expect(scheduleFingerprint(fields)).not.toBe(sha256(JSON.stringify(fields)));
	});

	it('is the same whatever order the fields come in', () => {
		const fields: ScheduleFields = { ...DAILY_FROM_2030_SCHEDULE_BODY };
		const reversed = Object.fromEntries(Object.entries(fields).reverse()) as unknown as ScheduleFields;
		expect(scheduleFingerprint(reversed)).toBe(scheduleFingerprint(fields));
	});

	it('leaves out an End Date that is not sent', () => {
		const fields: ScheduleFields = { ...DAILY_FROM_2030_SCHEDULE_BODY };
		expect(scheduleFingerprint({ ...fields, enddate: undefined })).toBe(scheduleFingerprint(fields));
		expect(scheduleFingerprint({ ...fields, enddate: '2030-12-31' })).not.toBe(scheduleFingerprint(fields));
	});
});
