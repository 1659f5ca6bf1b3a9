import { milesBetween } from '../../platform/sandbox/api/eventFilters';
import type { SandboxData } from '../../platform/sandbox';

/**
 * What the "Event impact digest" example must find in the sandbox's data, given the fields of its
 * "Hotel and digest settings" node (latitude, longitude, radiusMiles, minimumImpactScore): the
 * events within the radius of the hotel (`near`, Event Impact's output) and those of them at or
 * above the minimum score that have not ended by `today` (`kept`, what the digest sums up; every
 * one of them with includePastEvents).
 */
export function digestEvents(
	data: SandboxData,
	settings: Record<string, unknown>,
	today = new Date().toISOString().slice(0, 10),
): { near: SandboxData['events']; kept: SandboxData['events'] } {
	const latitude = Number(settings.latitude);
	const longitude = Number(settings.longitude);
	const near = data.events.filter(
		(event) => milesBetween(latitude, longitude, Number(event.latitude), Number(event.longitude)) <= Number(settings.radiusMiles),
	);
	const upcoming = (event: SandboxData['events'][number]) => settings.includePastEvents === true || String(event.endDate || event.startDate).slice(0, 10) >= today;
	return { near, kept: near.filter((event) => event.impactScore >= Number(settings.minimumImpactScore) && upcoming(event)) };
}
