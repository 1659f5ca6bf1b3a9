import type { SandboxData } from './data';
import { buildHotel } from './data/hotels';
import { ALL_WEBSITES, type Website } from './data/websites';
import { hotelNight, hotelPremiums, hotelTax, MARKET_SHAPE, markup, nightLevel, priceFactorFor, websiteDiscount, type MarketScope, type MarketShop } from './marketShop';
import { createPrng, deriveSeed, type Prng } from './prng';
import type { RateRecord } from './types';

/** What one run of a rate shop collects. */
export interface RatePlan {
	shopId: number;
	/** Sequence number of the run inside this sandbox; part of every record's identity. */
	runNo: number;
	collectedAt: number;
	/**
	 * The time whose next day is the first check-in (default collectedAt): a run collected days ago
	 * (`daysAgo`) holds the stays of a run collected now, as a shop that looked further ahead then did.
	 */
	staysAsOf?: number;
	count: number;
	hotelCodes: number[];
	websiteCodes: number[];
	los: number;
	currency: string;
	horizon: number;
	pos: number;
	/** A comp-set shop: one room per hotel and night on every website, at rates laid out by construction. */
	market?: MarketShop;
}

/** What a record's rate fields are made of. */
interface Pricing {
	roomIndex: number;
	soldOut: boolean;
	rate: Pick<RateRecord, 'onsiteRate' | 'taxAmount' | 'netRate'>;
	taxIncluded: boolean;
	currency: string;
}

/** Where a record sits in its run. */
interface RecordSlot {
	starRating: string;
	hotelCode: number;
	websiteCode: number;
	checkIn: number;
	dayOffset: number;
	guests: number;
}

const DAY_MS = 86_400_000;
/** Units of a currency to the US dollar: a rate band in USD is priced in each city's own currency. */
export const USD_RATE: Record<string, number> = {
	USD: 1, EUR: 0.92, GBP: 0.79, CAD: 1.37, AUD: 1.52, JPY: 151, CHF: 0.88, INR: 83.2, AED: 3.67, SGD: 1.35,
	MXN: 18.5, CZK: 23.2, TRY: 34, HKD: 7.8, THB: 35.5, BRL: 5.4, ARS: 950, ZAR: 18.2,
};
const NIGHTLY_USD_BY_STARS: Record<string, [number, number]> = { '2': [70, 110], '3': [100, 170], '4': [150, 280], '5': [260, 600] };
const ROOMS = [
	{ type: 'Standard Queen Room', description: 'Queen bed, 22 m², city view', amenities: 'Free WiFi, Air conditioning, Flat-screen TV' },
	{ type: 'Standard King Room', description: 'King bed, 25 m², courtyard view', amenities: 'Free WiFi, Air conditioning, Coffee machine' },
	{ type: 'Deluxe Double Room', description: 'Two double beds, 30 m², high floor', amenities: 'Free WiFi, Minibar, Rain shower, Work desk' },
	{ type: 'Junior Suite', description: 'King bed and sofa, 42 m², separate lounge', amenities: 'Free WiFi, Minibar, Bathtub, Lounge access' },
	{ type: 'Executive Suite', description: 'King bed, 60 m², panoramic view', amenities: 'Free WiFi, Butler service, Bathtub, Lounge access, Espresso machine' },
];
const ON_SALE_NOTES = ['', 'Only a few rooms left at this price', 'Includes city tax'];
const MEAL_PLANS = ['Room only', 'Breakfast included', 'Half board'];
const RATE_PLANS = ['Non-refundable', 'Free cancellation', 'Member rate', 'Advance purchase'];
const PROMOS = ['', '', '', 'Getaway Deal', 'Limited-time Deal', 'Mobile-only price'];
const PAYMENT_TYPES = ['Pay at property', 'Prepaid', 'Pay later'];

/** What a record says when the website has no room for the stay: no rate, status 204. */
export const SOLD_OUT = {
	onsiteRate: 0,
	netRate: 0,
	taxAmount: 0,
	isLAR: false,
	roomAvailable: 'No',
	roomLeft: '0',
	promo: '',
	otherInformation: 'Sold out for the selected dates',
	statusCode: 204,
} as const satisfies Partial<RateRecord>;

/** The sandbox's own record identity; `n` counts from 1 within the run. */
export function recordIdFor(shopId: number, runNo: number, n: number): string {
	return `shop${shopId}-run${runNo}-rec${n}`;
}

/** The tax and net rate of an onsite rate: the tax is a share of it, and comes off the net rate only when included. */
export function priced(onsiteRate: number, taxShare: number, taxIncluded: boolean): Pick<RateRecord, 'onsiteRate' | 'taxAmount' | 'netRate'> {
	const taxAmount = Number((onsiteRate * taxShare).toFixed(2));
	return { onsiteRate, taxAmount, netRate: Number((taxIncluded ? onsiteRate - taxAmount : onsiteRate).toFixed(2)) };
}

/** A nightly rate from the hotel's star band, `draw` (0..1) placing it inside the band. */
function nightlyRate(starRating: string, roomIndex: number, checkIn: number, currency: string, draw: number): number {
	return Number((bandRate(starRating, roomIndex, currency, draw) * (isWeekend(checkIn) ? 1.15 : 1)).toFixed(2));
}

/** A rate from the star band in the currency, `draw` (0..1) placing it inside the band, any night. */
function bandRate(starRating: string, roomIndex: number, currency: string, draw: number): number {
	const [low, high] = NIGHTLY_USD_BY_STARS[starRating] ?? [90, 200];
	return (low + draw * (high - low)) * (1 + roomIndex * 0.25) * (USD_RATE[currency.toUpperCase()] ?? 1);
}

/** Friday and Saturday check-ins. */
function isWeekend(checkIn: number): boolean {
	return [5, 6].includes(new Date(checkIn).getUTCDay());
}

/** A sold-out record's stay on sale again: a fresh rate for its hotel, room and night, rooms left, a promo. */
export function onSaleAgain(record: RateRecord, random: Prng): Partial<RateRecord> {
	const roomIndex = Math.max(0, ROOMS.findIndex((room) => room.type === record.roomType));
	// htlRating carries the hotel's star rating (see buildRateRecords), so the rate stays in its band.
	const onsiteRate = nightlyRate(String(record.otherRatings.htlRating), roomIndex, Date.parse(record.checkIn), record.currency, random.next());
	return {
		...priced(onsiteRate, random.float(0.08, 0.16, 3), record.taxStatus === 1),
		isLAR: roomIndex === 0,
		roomAvailable: 'Yes',
		roomLeft: String(random.int(1, 12)),
		promo: random.pick(PROMOS),
		otherInformation: random.pick(ON_SALE_NOTES),
		statusCode: 200,
	};
}

function ratingText(rating: number): string {
	if (rating >= 9) return 'Wonderful';
	if (rating >= 8) return 'Very good';
	if (rating >= 7) return 'Good';
	return 'Pleasant';
}

function websiteFor(code: number): Website {
	return ALL_WEBSITES.find((site) => site.websitecode === code) ?? { websitecode: code, websitename: `Website ${code}`, channeltype: 'OTA', urlFor: (slug) => `https://website-${code}.example.com/hotel/${slug}` };
}

function isoDay(ms: number): string {
	return new Date(ms).toISOString().slice(0, 10);
}

/** The hotels, websites and check-in days a plan's records can cover. */
export function planScope(plan: RatePlan): MarketScope {
	const horizon = Math.max(1, plan.horizon);
	const staysDay = staysDayOf(plan);
	return {
		hotelCodes: [...new Set(plan.hotelCodes)],
		websiteCodes: [...new Set(plan.websiteCodes)],
		horizon,
		firstDay: isoDay(staysDay + DAY_MS),
		lastDay: isoDay(staysDay + horizon * DAY_MS),
	};
}

/** The start of the day the plan's check-ins count from (check-in day 1 is the day after). */
function staysDayOf(plan: RatePlan): number {
	return Math.floor((plan.staysAsOf ?? plan.collectedAt) / DAY_MS) * DAY_MS;
}

/** Today's record: a room, sold out or not, a rate in the hotel's band, a tax mode, all drawn for the record alone. */
function drawnPricing(random: Prng, slot: RecordSlot, currency: string): Pricing {
	const roomIndex = random.int(0, ROOMS.length - 1);
	const soldOut = random.chance(0.05);
	const nightly = nightlyRate(slot.starRating, roomIndex, slot.checkIn, currency, random.next());
	const taxIncluded = random.chance(0.5);
	// Drawn for sold-out records too: skipping it would move every later draw of those records.
	const taxShare = random.float(0.08, 0.16, 3);
	return { roomIndex, soldOut, rate: soldOut ? SOLD_OUT : priced(nightly, taxShare, taxIncluded), taxIncluded, currency };
}

/** A comp-set shop's layout for one run: its hotels' premiums and the star band its level comes from. */
interface MarketLayout {
	market: MarketShop;
	premiums: Map<number, number>;
	starRating: string;
}

function marketLayout(market: MarketShop, hotels: ReadonlyArray<{ hotel: { hotelcode: number; starrating: string } }>): MarketLayout {
	const stars = hotels.map(({ hotel }) => hotel).sort((a, b) => a.starrating.localeCompare(b.starrating));
	const mine = stars.find((hotel) => hotel.hotelcode === market.myHotelCode);
	return {
		market,
		premiums: hotelPremiums(market, hotels.map(({ hotel }) => hotel.hotelcode)),
		// The comp set is priced as hotels of my hotel's class, or of the middle one's.
		starRating: (mine ?? stars[Math.floor((stars.length - 1) / 2)]).starrating,
	};
}

/**
 * A market record: the hotel's first room at the comp set's level for the night (the middle of
 * its star band, weekends a little dearer), times the night's move, the hotel's premium and its
 * own move or promotion that night, plus the website's markup (and its discount, on the odd
 * night), in whole cents; then moved by the matching `prices` factors (0 sells it out).
 */
function marketPricing({ market, premiums, starRating }: MarketLayout, slot: RecordSlot, currency: string, everyRoomOnSale: boolean): Pricing {
	const day = isoDay(slot.checkIn);
	const usual = bandRate(starRating, 0, currency, 0.5) * (1 + (isWeekend(slot.checkIn) ? MARKET_SHAPE.weekend : 0)) * (1 + MARKET_SHAPE.perExtraGuest * (slot.guests - 2));
	const level = usual * nightLevel(market, slot.dayOffset, day);
	const night = hotelNight(market, slot.hotelCode, slot.dayOffset, slot.guests);
	const hotelRate = level * (1 + (premiums.get(slot.hotelCode) ?? 0)) * night.factor;
	const listed = Number((hotelRate * (1 + markup(market, slot.hotelCode, slot.websiteCode)) * websiteDiscount(market, slot.hotelCode, slot.websiteCode, slot.dayOffset)).toFixed(2));
	const factor = priceFactorFor(market, { hotelCode: slot.hotelCode, websiteCode: slot.websiteCode, dayOffset: slot.dayOffset, checkIn: day });
	const { taxIncluded, taxShare } = hotelTax(market, slot.hotelCode);
	const soldOut = !everyRoomOnSale && (night.soldOut || factor === 0);
	// A small factor still leaves a rate: only 0 means sold out.
	const onsiteRate = Math.max(0.01, Number((listed * (factor || 1)).toFixed(2)));
	return { roomIndex: 0, soldOut, rate: soldOut ? SOLD_OUT : priced(onsiteRate, taxShare, taxIncluded), taxIncluded, currency: market.currencies[slot.hotelCode] ?? currency };
}

/**
 * Builds `plan.count` records. Record i covers hotel × website pair (i mod pairs) and check-in
 * day 1 + floor(i / pairs) (within the horizon), so counts map to a predictable spread of rates.
 * Once pairs × horizon records have used every pair and day, the next ones are for one guest
 * more (3, then 4…), so every record of a run is a stay of its own: hotel, website, check-in,
 * los, guests and room type never repeat together. A market plan prices every record by its
 * layout, and draws the rest from the market seed, so the same seed gives the same records;
 * with `everyRoomOnSale`, its sold-out records at the rate they would have (what a repeat brings
 * back on sale).
 */
export function buildRateRecords(data: SandboxData, plan: RatePlan, { everyRoomOnSale = false } = {}): RateRecord[] {
	// A code listed twice would make the same pair twice and repeat its stays.
	const hotels = [...new Set(plan.hotelCodes)].map((code) => data.hotelsByCode.get(code) ?? buildHotel(data.seed, code));
	const sites = [...new Set(plan.websiteCodes)].map(websiteFor);
	const pairs = hotels.flatMap((hotel) => sites.map((site) => ({ hotel, site })));
	const horizon = Math.max(1, plan.horizon);
	const staysDay = staysDayOf(plan);
	const layout = plan.market ? marketLayout(plan.market, hotels) : undefined;
	return Array.from({ length: plan.count }, (_, i) => {
		const { hotel: seedHotel, site } = pairs[i % pairs.length];
		const { hotel, cityInfo } = seedHotel;
		const random = createPrng(layout ? deriveSeed(data.seed, 'market-rate', layout.market.seed, plan.shopId, i) : deriveSeed(data.seed, 'rate', plan.shopId, plan.runNo, i));
		const dayOffset = (Math.floor(i / pairs.length) % horizon) + 1;
		const guests = 2 + Math.floor(i / (pairs.length * horizon));
		const checkIn = staysDay + dayOffset * DAY_MS;
		const checkOut = checkIn + plan.los * DAY_MS;
		const slot: RecordSlot = { starRating: hotel.starrating, hotelCode: hotel.hotelcode, websiteCode: site.websitecode, checkIn, dayOffset, guests };
		const { roomIndex, soldOut, rate, taxIncluded, currency } = layout ? marketPricing(layout, slot, plan.currency, everyRoomOnSale) : drawnPricing(random, slot, plan.currency);
		const { onsiteRate, taxAmount, netRate } = rate;
		const room = ROOMS[roomIndex];
		const discount = random.chance(0.3) ? random.pick([5, 10, 12, 15, 20]) : 0;
		const reviewRating = random.float(6.5, 9.8, 1);
		return {
			recordId: recordIdFor(plan.shopId, plan.runNo, i + 1),
			shopId: plan.shopId,
			dtCollected: new Date(plan.collectedAt).toISOString(),
			websiteCode: site.websitecode,
			checkIn: new Date(checkIn).toISOString(),
			checkOut: new Date(checkOut).toISOString(),
			los: plan.los,
			pos: plan.pos,
			guests,
			hotelId: seedHotel.hotelId,
			hotelCode: hotel.hotelcode,
			hotelName: hotel.hotelname,
			sourceUrl: `${site.urlFor(seedHotel.slug, cityInfo.countryCode)}?checkin=${isoDay(checkIn)}&los=${plan.los}`,
			address: hotel.address,
			city: hotel.city,
			state: hotel.state,
			country: hotel.country,
			latitude: hotel.lat.toFixed(6),
			longitude: hotel.long.toFixed(6),
			currency,
			isLAR: soldOut ? SOLD_OUT.isLAR : roomIndex === 0,
			propertyType: 'Hotel',
			roomType: room.type,
			roomDescription: room.description,
			roomAmenities: room.amenities,
			mapLink: `https://maps.google.com/?q=${hotel.lat.toFixed(6)},${hotel.long.toFixed(6)}`,
			roomAvailable: soldOut ? SOLD_OUT.roomAvailable : 'Yes',
			roomLeft: soldOut ? SOLD_OUT.roomLeft : String(random.int(1, 12)),
			reviewRating,
			reviewsCount: random.int(40, 9000),
			taxAmount,
			taxType: taxIncluded ? 'Included' : 'Excluded',
			taxStatus: taxIncluded ? 1 : 0,
			mealPlan: random.pick(MEAL_PLANS),
			ratePlan: random.pick(RATE_PLANS),
			locationRating: random.float(6.0, 9.9, 1),
			promo: soldOut ? SOLD_OUT.promo : random.pick(PROMOS),
			ratingText: ratingText(reviewRating),
			onsiteRate,
			netRate,
			discount,
			occupancy: guests,
			paymentType: random.pick(PAYMENT_TYPES),
			rankingListingCount: random.int(50, 1500),
			navigationPage: random.int(1, 10),
			newArrival: random.chance(0.05) ? 'Yes' : 'No',
			distanceHotel: random.float(0.1, 12, 2),
			otherInformation: soldOut ? SOLD_OUT.otherInformation : random.pick(ON_SALE_NOTES),
			statusCode: soldOut ? SOLD_OUT.statusCode : 200,
			otherRatings: { htlRating: Number(hotel.starrating), aptRating: random.float(0, 5, 1), dotsRating: random.float(0, 5, 1) },
			ratingFlags: { preferredPartner: random.chance(0.3), preferredPlus: random.chance(0.1) },
		};
	});
}
