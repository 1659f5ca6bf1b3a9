import { createPrng, deriveSeed } from '../prng';
import { buildHotel, FIRST_HOTEL_CODE, type SeedHotel } from './hotels';
import type { SeedEvent } from './events';
import type { DemandValueRow as DemandRow, HotelDemandResponse as DemandResult } from '../../../nodes/shared/demand';

/**
 * Results of hotel demand shops (GET /hoteldemanddata/{demandId}).
 * The spec writes date members as `nn/nn/yyyy` without saying which part is the day,
 * so the catalogue deliberately contains every case a consumer must cope with.
 */
export type DateOrder = 'day-first' | 'month-first' | 'ambiguous';

export interface DemandShopInfo {
	demandId: number;
	dateOrder: DateOrder;
	hotelCount: number;
	dateCount: number;
	description: string;
	/** Set when one hotel is left out of one value table on purpose. */
	missing?: { table: DemandTable; hotelCode: number };
}

export type DemandTable = 'Absolute_Value.json' | 'Events_registered.json' | 'Relative_Values.json';

export type { DemandValueRow as DemandRow, DemandEventRecord, HotelDemandResponse as DemandResult } from '../../../nodes/shared/demand';

interface DemandShopPlan extends DemandShopInfo {
	/** Real calendar days (UTC, `YYYY-MM-DD`) the shop covers, in order. */
	days: () => string[];
	/** How a day is written as a member name: both readings are `nn/nn/yyyy`. */
	writeAs: 'day-first' | 'month-first';
}

const DAY_MS = 86_400_000;

function consecutiveDays(first: string, count: number): string[] {
	const start = Date.parse(`${first}T00:00:00Z`);
	return Array.from({ length: count }, (_, i) => new Date(start + i * DAY_MS).toISOString().slice(0, 10));
}

/**
 * Dates whose day and month are both <= 12 and which form a run of consecutive days under
 * neither reading, so nothing in the data decides the order.
 */
function undecidableDays(seed: number, year: number, count: number): string[] {
	const random = createPrng(deriveSeed(seed, 'ambiguous-days'));
	const pairs: Array<[number, number]> = [];
	for (let month = 1; month <= 12; month++) for (let day = 1; day <= 12; day++) if (day !== month) pairs.push([month, day]);
	return random
		.sample(pairs, count)
		.map(([month, day]) => `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`)
		.sort();
}

function writeDate(day: string, order: 'day-first' | 'month-first'): string {
	const [year, month, dayOfMonth] = day.split('-');
	return order === 'day-first' ? `${dayOfMonth}/${month}/${year}` : `${month}/${dayOfMonth}/${year}`;
}

function plans(seed: number): DemandShopPlan[] {
	return [
		{ demandId: 1001, dateOrder: 'day-first', writeAs: 'day-first', hotelCount: 100, dateCount: 90, description: 'dd/mm/yyyy, 90 consecutive days from 2026-12-01 (days above 12 decide the order)', days: () => consecutiveDays('2026-12-01', 90) },
		{ demandId: 1002, dateOrder: 'month-first', writeAs: 'month-first', hotelCount: 100, dateCount: 90, description: 'mm/dd/yyyy, 90 consecutive days from 2026-12-01', days: () => consecutiveDays('2026-12-01', 90) },
		{ demandId: 1003, dateOrder: 'ambiguous', writeAs: 'month-first', hotelCount: 100, dateCount: 90, description: '90 sparse 2027 dates, every part <= 12, consecutive under neither reading', days: () => undecidableDays(seed, 2027, 90) },
		{ demandId: 1004, dateOrder: 'ambiguous', writeAs: 'day-first', hotelCount: 100, dateCount: 1, description: 'one date, 05/05/2026', days: () => ['2026-05-05'] },
		{ demandId: 1005, dateOrder: 'month-first', writeAs: 'month-first', hotelCount: 100, dateCount: 90, description: 'mm/dd/yyyy, 90 days from 2027-03-01; hotel 100043 is missing from Relative_Values.json', days: () => consecutiveDays('2027-03-01', 90), missing: { table: 'Relative_Values.json', hotelCode: 100043 } },
		{ demandId: 1006, dateOrder: 'day-first', writeAs: 'day-first', hotelCount: 1000, dateCount: 365, description: 'large: 1,000 hotels x 365 days of 2027, dd/mm/yyyy; built on first request, then cached', days: () => consecutiveDays('2027-01-01', 365) },
	];
}

function buildResult(seed: number, plan: DemandShopPlan, hotelsByCode: Map<number, SeedHotel>, events: SeedEvent[]): DemandResult {
	const random = createPrng(deriveSeed(seed, 'demand', plan.demandId));
	const days = plan.days();
	const names = days.map((day) => writeDate(day, plan.writeAs));
	const weekend = days.map((day) => [5, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay()));
	const absolute: DemandRow[] = [];
	const registered: DemandRow[] = [];
	const relative: DemandRow[] = [];
	for (let i = 0; i < plan.hotelCount; i++) {
		const code = FIRST_HOTEL_CODE + i;
		const seedHotel = hotelsByCode.get(code) ?? buildHotel(seed, code);
		const capacity = random.int(80, 600);
		const head = { HotelCode: code, HotelName: seedHotel.hotel.hotelname };
		const absoluteRow: DemandRow = { ...head };
		const registeredRow: DemandRow = { ...head };
		const relativeRow: DemandRow = { ...head };
		names.forEach((name, d) => {
			const eventsThatDay = random.chance(0.35) ? random.int(1, 12) : 0;
			const occupancy = Math.min(1, 0.45 + (weekend[d] ? 0.2 : 0) + eventsThatDay * 0.03 + random.next() * 0.25);
			absoluteRow[name] = Math.round(capacity * occupancy);
			registeredRow[name] = eventsThatDay;
			relativeRow[name] = Math.round(occupancy * 100);
		});
		const isMissing = (table: DemandTable): boolean => plan.missing?.table === table && plan.missing.hotelCode === code;
		if (!isMissing('Absolute_Value.json')) absolute.push(absoluteRow);
		if (!isMissing('Events_registered.json')) registered.push(registeredRow);
		if (!isMissing('Relative_Values.json')) relative.push(relativeRow);
	}
	const wanted = new Set(days);
	const records = events
		.filter((seedEvent) => wanted.has(seedEvent.startDay))
		.slice(0, 500)
		.map(({ event, startDay, lat, lng }) => ({
			id: event.id,
			eventName: event.eventName,
			venue: event.venue,
			category: event.category,
			city: event.city,
			date: writeDate(startDay, plan.writeAs),
			Estimated_Attendees: event.estimatedAttendees,
			latitude: lat,
			longitude: lng,
		}));
	return {
		'Absolute_Value.json': absolute,
		'Events_registered.json': registered,
		'Relative_Values.json': relative,
		'Event_records.json': records,
	};
}

/** The demand catalogue; results are built on first request and cached with their JSON text. */
export class DemandStore {
	readonly catalog: DemandShopInfo[];
	private readonly plans: Map<number, DemandShopPlan>;
	private readonly cache = new Map<number, { result: DemandResult; json: string }>();

	constructor(
		private readonly seed: number,
		private readonly hotelsByCode: Map<number, SeedHotel>,
		private readonly events: SeedEvent[],
	) {
		const all = plans(seed);
		this.plans = new Map(all.map((plan) => [plan.demandId, plan]));
		this.catalog = all.map((plan) => ({
			demandId: plan.demandId,
			dateOrder: plan.dateOrder,
			hotelCount: plan.hotelCount,
			dateCount: plan.dateCount,
			description: plan.description,
			...(plan.missing ? { missing: plan.missing } : {}),
		}));
	}

	has(demandId: number): boolean {
		return this.plans.has(demandId);
	}

	result(demandId: number): DemandResult | undefined {
		return this.cached(demandId)?.result;
	}

	/** Serialised once: the large shop is ~20 MB of JSON and is asked for repeatedly by the benchmark. */
	json(demandId: number): string | undefined {
		return this.cached(demandId)?.json;
	}

	private cached(demandId: number): { result: DemandResult; json: string } | undefined {
		const plan = this.plans.get(demandId);
		if (!plan) return undefined;
		let entry = this.cache.get(demandId);
		if (!entry) {
			const result = buildResult(this.seed, plan, this.hotelsByCode, this.events);
			entry = { result, json: JSON.stringify(result) };
			this.cache.set(demandId, entry);
		}
		return entry;
	}
}
