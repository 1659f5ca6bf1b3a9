import type { Airport, Hotel, ServiceEvent } from '../types';
import { buildAirports } from './airports';
import { DemandStore } from './demand';
import { buildEvents, CATEGORIES, type Category, type SeedEvent } from './events';
import { buildHotels, type SeedHotel } from './hotels';
import { ShopStore } from './shops';
import { ALL_WEBSITES } from './websites';

export const DEFAULT_SEED = 20260101;

/** The seeded data set; built once per sandbox, identical for the same seed. */
export interface SandboxData {
	seed: number;
	hotels: Hotel[];
	events: ServiceEvent[];
	categories: readonly Category[];
	airports: Airport[];
	demand: DemandStore;
	shops: ShopStore;
	websites: ReadonlyArray<{ websitecode: number; websitename: string; channeltype: string }>;
	/** Hotels with the extra facts rate records need, by hotel code. */
	hotelsByCode: Map<number, SeedHotel>;
	/** Events with the parsed values filters use, in id order. */
	seedEvents: SeedEvent[];
}

/** How much data to seed, and from which day; the defaults are the documented data set, larger ones serve the benchmarks. */
export interface DataSizes {
	/** The day events start from, epoch ms (default: today, UTC); the sandbox gives its clock's day. */
	firstDay?: number;
	/** Hotels with codes 100001 upwards (default 250). */
	hotelCount?: number;
	/** Events with ids 1 upwards (default 5,000). */
	eventCount?: number;
}

export function buildData(seed: number = DEFAULT_SEED, sizes: DataSizes = {}): SandboxData {
	const seedHotels = buildHotels(seed, sizes.hotelCount);
	const hotelsByCode = new Map(seedHotels.map((h) => [h.hotel.hotelcode, h]));
	const seedEvents = buildEvents(seed, sizes.eventCount, sizes.firstDay);
	return {
		seed,
		hotels: seedHotels.map((h) => h.hotel),
		events: seedEvents.map((e) => e.event),
		categories: CATEGORIES,
		airports: buildAirports(seed),
		demand: new DemandStore(seed, hotelsByCode, seedEvents),
		shops: new ShopStore(seed, seedHotels),
		websites: ALL_WEBSITES.map(({ websitecode, websitename, channeltype }) => ({ websitecode, websitename, channeltype })),
		hotelsByCode,
		seedEvents,
	};
}
