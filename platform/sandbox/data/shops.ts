import { createPrng, deriveSeed, type Prng } from '../prng';
import type { AccountId, ShopConfig } from '../types';
import type { SeedHotel } from './hotels';

/** Shops 1..99 belong to the demo account, 900..909 to the other account; any other id is unknown. */
export const DEMO_SHOP_IDS = { first: 1, last: 99 } as const;
export const OTHER_SHOP_IDS = { first: 900, last: 909 } as const;

/**
 * A shop as the sandbox stores it. The spec shows only the update body, so `config` holds
 * exactly those fields; `hotelCodes` says which hotels a run of this shop collects rates for.
 */
export interface ShopRecord {
	shopId: number;
	account: AccountId;
	config: ShopConfig;
	hotelCodes: number[];
	updatedAt: string | null;
}

const AIRPORT_MARKETS = ['JFK', 'LAX', 'ORD', 'LHR', 'CDG', 'FRA', 'AMS', 'MAD', 'DXB', 'SIN', 'SYD', 'MIA'];

/** A shop's seeded configuration; it collects rates in `currency`, its hotels' city's. */
function seedConfig(seed: number, shopId: number, currency: string): Omit<ShopRecord, 'account' | 'updatedAt'> {
	const random = createPrng(deriveSeed(seed, 'shop', shopId));
	const pickup = random.pick(AIRPORT_MARKETS);
	return {
		shopId,
		config: {
			shopName: `Shop ${shopId} – ${pickup}`,
			markets: [{ pickupLocation: pickup, dropLocation: random.chance(0.8) ? pickup : random.pick(AIRPORT_MARKETS) }],
			websiteCode: random.sample([1, 2, 3, 4, 5, 10, 11, 12], random.int(2, 4)).sort((a, b) => a - b),
			cob: random.pick(['US', 'GB', 'DE', 'FR', 'ES']),
			lor: random.int(1, 7),
			currency: drawnAndKept(random, currency),
			horizon: random.pick([7, 14, 30, 60, 90]),
			horizonDow: [0, 1, 2, 3, 4, 5, 6],
			pickupTime: '10:00',
			dropTime: '10:00',
		},
		hotelCodes: [],
	};
}

/**
 * The currency a shop collects in is its city's (Cape Town's shop in ZAR). A draw once chose it
 * from USD, EUR and GBP; it is still made, so that every shop keeps the horizon and times it had.
 */
function drawnAndKept(random: Prng, currency: string): string {
	random.next();
	return currency;
}

/** Live shop records; `reset` restores the seeded configuration in place so held references stay valid. */
export class ShopStore {
	readonly shops: ShopRecord[] = [];
	private readonly byId = new Map<number, ShopRecord>();
	private readonly seededCurrency = new Map<number, string>();

	constructor(
		private readonly seed: number,
		hotels: SeedHotel[],
	) {
		const random = createPrng(deriveSeed(seed, 'shop-hotels'));
		const add = (shopId: number, account: AccountId): void => {
			// A shop watches a compset: a handful of hotels in one city, priced in its currency.
			const anchor = random.pick(hotels);
			const sameCity = hotels.filter((h) => h.hotel.city === anchor.hotel.city);
			const record: ShopRecord = { ...seedConfig(seed, shopId, anchor.cityInfo.currency), account, updatedAt: null };
			record.hotelCodes = random.sample(sameCity, random.int(3, 8)).map((h) => h.hotel.hotelcode).sort((a, b) => a - b);
			this.seededCurrency.set(shopId, anchor.cityInfo.currency);
			this.shops.push(record);
			this.byId.set(shopId, record);
		};
		for (let id = DEMO_SHOP_IDS.first; id <= DEMO_SHOP_IDS.last; id++) add(id, 'demo');
		for (let id = OTHER_SHOP_IDS.first; id <= OTHER_SHOP_IDS.last; id++) add(id, 'other');
	}

	get(shopId: number): ShopRecord | undefined {
		return this.byId.get(shopId);
	}

	update(shopId: number, config: ShopConfig, at: string): void {
		const record = this.byId.get(shopId);
		if (!record) return;
		record.config = config;
		record.updatedAt = at;
	}

	reset(): void {
		for (const record of this.shops) {
			record.config = seedConfig(this.seed, record.shopId, this.seededCurrency.get(record.shopId) as string).config;
			record.updatedAt = null;
		}
	}
}
