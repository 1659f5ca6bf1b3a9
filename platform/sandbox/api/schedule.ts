import { parsePattern, type SchedulePattern } from '../scheduleFields';
import type { ScheduleConfig } from '../scheduler';
import { badRequest } from './errors';
import { calendarDate, integer, isPresent, rejectUnknownFields, requireBody, requiredString } from './fields';
import type { ApiHandler } from './types';

const REQUIRED = ['schedulename', 'rateshopid', 'year', 'month', 'dow', 'day', 'hour', 'minute', 'seconds', 'startdate'] as const;
/** `scheduleid` is tolerated so a schedule read back can be sent again; the path decides the id. */
const ALLOWED = [...REQUIRED, 'status', 'enddate', 'scheduleid'];

/**
 * Validates a schedule body. PUT uses the same rules as POST: the spec calls it "configuration
 * replaced", so the whole configuration is required on update too.
 */
export function parseSchedule(input: unknown): { config: ScheduleConfig; pattern: SchedulePattern } {
	const body = requireBody(input);
	rejectUnknownFields(body, ALLOWED);
	const missing = REQUIRED.filter((field) => !isPresent(body[field]));
	if (missing.length > 0) throw badRequest(`missing required field${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`);
	const schedulename = requiredString(body, 'schedulename');
	const rateshopid = integer(body.rateshopid, 'rateshopid', { min: 1 });
	// Status is optional; a new schedule without one is active.
	const status = isPresent(body.status) ? integer(body.status, 'status', { min: 0, max: 1 }) : 1;
	const startdate = calendarDate(body.startdate, 'startdate');
	const enddate = isPresent(body.enddate) ? calendarDate(body.enddate, 'enddate') : null;
	if (enddate !== null && enddate < startdate) throw badRequest(`enddate ${enddate} is before startdate ${startdate}`);
	const pattern = parsePattern({ ...body, startdate, enddate } as Parameters<typeof parsePattern>[0]);
	const config: ScheduleConfig = {
		schedulename,
		rateshopid,
		year: (body.year as string).trim(),
		month: (body.month as string).trim(),
		dow: (body.dow as string).trim(),
		day: (body.day as string).trim(),
		hour: (body.hour as string).trim(),
		minute: (body.minute as string).trim(),
		seconds: (body.seconds as string).trim(),
		status: status as 0 | 1,
		startdate,
		enddate,
	};
	return { config, pattern };
}

/** POST /schedule: stores the schedule and returns it with its new scheduleid. */
export const createSchedule: ApiHandler = (call, { scheduler }) => {
	const { config, pattern } = parseSchedule(call.body);
	return { status: 200, body: scheduler.create(call.account, config, pattern) };
};

/** PUT /schedule/{scheduleid}: unknown ids answer 400, since the spec lists no 404 here. */
export const updateSchedule: ApiHandler = (call, { scheduler }) => {
	const [rawId] = call.params;
	if (!/^\d+$/.test(rawId) || Number(rawId) > 2_147_483_647) throw badRequest(`scheduleid must be an int32 integer, got '${decodeURIComponent(rawId)}'`);
	const { config, pattern } = parseSchedule(call.body);
	const updated = scheduler.update(call.account, Number(rawId), config, pattern);
	if (!updated) throw badRequest(`unknown scheduleid ${rawId}`);
	return { status: 200, body: updated };
};
