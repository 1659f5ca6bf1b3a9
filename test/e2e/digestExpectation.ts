import { milesBetween } from '../../platform/sandbox/api/eventFilters';
import type { SandboxData } from '../../platform/sandbox';

/**
 * What the "Event impact digest" example must find in the sandbox's data, given the fields of its
 * "Hotel and digest settings" node (latitude, longitude, radiusMiles, minimumImpactScore): the
 * events within the radius of the hotel (`near`, Event Impact's output) and those of them at or
 * above the minimum score (`kept`, what the digest sums up).
 */
export function digestEvents(data: SandboxData, settings: Record<string, unknown>): { near: SandboxData['events']; kept: SandboxData['events'] } {
	const latitude = Number(settings.latitude);
	const longitude = Number(settings.longitude);
	const near = data.events.filter(
		(event) => milesBetween(latitude, longitude, Number(event.latitude), Number(event.longitude)) <= Number(settings.radiusMiles),
	);
	return { near, kept: near.filter((event) => event.impactScore >= Number(settings.minimumImpactScore)) };
}
