import { createHash } from 'crypto';

import type { ScheduleFields } from './scheduleFields';

/**
 * What Create or Update last sent, in one short text the workflow keeps beside the Schedule ID:
 * sha256 of the fields the request body carries, as [name, value] pairs sorted by name, so the
 * order the body happens to list them in does not count. The service has no list endpoint and
 * answers no "changed since", so this is the only record of the configuration the service holds;
 * the row's own columns say what is wanted, not what was sent (docs/nodes/schedule.md).
 */
export function scheduleFingerprint(fields: ScheduleFields): string {
	const entries = Object.entries(fields)
		.filter(([, value]) => value !== undefined)
		.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
	return createHash('sha256').update(JSON.stringify(entries)).digest('hex');
}
