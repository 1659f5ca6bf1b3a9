import { createPrng, deriveSeed, type Prng } from '../prng';
import type { Hotel, Source } from '../types';
import { CITIES, jitterAround, STREET_NAMES, type City } from './cities';
import { BRAND_WEBSITES, WEBSITES } from './websites';

export const FIRST_HOTEL_CODE = 100001;
export const HOTEL_COUNT = 250;

const BRANDS = ['Marriott', 'Hilton', 'Holiday Inn', 'Novotel', 'Hyatt Regency', 'Radisson Blu'] as const;
const INDEPENDENT_PREFIXES = ['Grand', 'Royal', 'The', 'Park', 'City', 'Harbour', 'Imperial', 'Boutique', 'Central', 'Golden'];
const INDEPENDENT_SUFFIXES = ['Plaza', 'Palace', 'Suites', 'Inn', 'Residences', 'Tower', 'House', 'Lodge', 'Resort', 'Hotel & Spa'];
const QUARTERS = ['Downtown', 'Airport', 'Riverside', 'Old Town', 'Central', 'Waterfront', 'Midtown', 'Convention Center'];

/** Everything rate records and demand tables need about a hotel, beyond its public record. */
export interface SeedHotel {
	hotel: Hotel;
	cityInfo: City;
	/** Internal id of the hotel in the collection system (rate record `hotelId`). */
	hotelId: number;
	slug: string;
}

function slugify(text: string): string {
	return text
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/(^-|-$)/g, '');
}

function hotelName(random: Prng, city: City): { name: string; brandIndex: number | null } {
	if (random.chance(0.55)) {
		const brandIndex = random.int(0, BRANDS.length - 1);
		return { name: `${BRANDS[brandIndex]} ${city.name} ${random.pick(QUARTERS)}`, brandIndex };
	}
	return { name: `${random.pick(INDEPENDENT_PREFIXES)} ${city.name} ${random.pick(INDEPENDENT_SUFFIXES)}`, brandIndex: null };
}

function sourcesFor(random: Prng, slug: string, city: City, brandIndex: number | null): Source[] {
	// A hotel has 2 to 8 sources; chains always list their own brand.com site.
	const count = random.int(2, 8);
	const brand = brandIndex === null ? [] : [BRAND_WEBSITES[brandIndex]];
	const others = random.sample(WEBSITES, count - brand.length);
	return [...brand, ...others]
		.sort((a, b) => a.websitecode - b.websitecode)
		.map((site) => ({
			websitecode: site.websitecode,
			websitename: site.websitename,
			url: site.urlFor(slug, city.countryCode),
			channeltype: site.channeltype,
			snapshotavailable: random.chance(0.7),
		}));
}

/** Builds one hotel; used for the seeded 250 and for the extra hotels of the large demand shop. */
export function buildHotel(seed: number, hotelcode: number): SeedHotel {
	const random = createPrng(deriveSeed(seed, 'hotel', hotelcode));
	const city = random.pick(CITIES);
	const { name, brandIndex } = hotelName(random, city);
	const slug = `${slugify(name)}-${hotelcode}`;
	const point = jitterAround(city, 6, random.next);
	const hotel: Hotel = {
		hotelcode,
		hotelname: name,
		address: `${random.int(1, 980)} ${random.pick(STREET_NAMES)}`,
		city: city.name,
		state: city.state,
		zip: `${city.zipPrefix}${random.int(10, 99)}`,
		country: city.country,
		// Chain hotels sit in the 3-5 star band; independents span 2-5.
		starrating: String(brandIndex === null ? random.pick([2, 3, 3, 4, 4, 5]) : random.pick([3, 4, 4, 5])),
		lat: point.lat,
		long: point.lng,
		sources: sourcesFor(random, slug, city, brandIndex),
	};
	return { hotel, cityInfo: city, hotelId: 500000 + (hotelcode - FIRST_HOTEL_CODE) * 7 + 3, slug };
}

/** The seeded hotels, codes 100001 upwards; the benchmarks ask for more than the default 250. */
export function buildHotels(seed: number, count: number = HOTEL_COUNT): SeedHotel[] {
	return Array.from({ length: count }, (_, i) => buildHotel(seed, FIRST_HOTEL_CODE + i));
}
