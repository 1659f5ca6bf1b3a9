import { round2 } from './amounts';

/**
 * Where my hotel stands in its comp set for one stay-night (check-in day, nights, guests, and the
 * website when comparing on one website): pure, from the latest rate of every hotel.
 */

/** The latest rate of one hotel's room on one website, as the rates table (or an incoming record) has it. */
export interface HotelRoomRate {
	hotelCode: number;
	hotelName: string;
	websiteCode: number;
	roomType: string;
	currency: string;
	/** null or 0: sold out. */
	rate: number | null;
}

/** One hotel's offer for the stay-night: its cheapest room on sale, or sold out everywhere compared. */
export interface HotelOffer {
	hotelCode: number;
	hotelName: string;
	/** null: sold out. */
	rate: number | null;
	websiteCode: number;
	roomType: string;
	currency: string;
}

export type PositionName = 'cheapest' | 'inside' | 'mostExpensive' | 'alone' | 'soldOut' | 'notShopped';

export interface Position {
	myHotelCode: number;
	myRate: number | null;
	currency: string | null;
	/** The competitors on sale in my currency: their cheapest rate each. */
	lowest: number | null;
	median: number | null;
	highest: number | null;
	/** 1 = cheapest; hotels at the same rate share a rank. null when I have no rate. */
	rank: number | null;
	/** Hotels ranked: me and the competitors on sale in my currency. */
	rankedHotels: number;
	/** Competitors sold out for this stay-night, counted apart (not as a rate of 0). */
	soldOutCompetitors: number;
	/** Competitors not compared because their rate is in another currency than mine. */
	otherCurrency: Array<{ hotelCode: number; currency: string }>;
	cheapestCompetitor: HotelOffer | null;
	/** myRate − the cheapest competitor's rate: above 0, a competitor is below me. */
	gap: number | null;
	/** gap as a percentage of my rate. */
	gapPercent: number | null;
	position: PositionName;
	competitors: HotelOffer[];
}


const onSale = (rate: number | null): rate is number => rate !== null && rate > 0;

/** Each hotel's cheapest room on sale; a hotel with none on sale is sold out. Ties keep the lower website code. */
export function hotelOffers(rates: readonly HotelRoomRate[]): HotelOffer[] {
	const byHotel = new Map<number, HotelOffer>();
	for (const room of rates) {
		const offer: HotelOffer = { ...room, rate: onSale(room.rate) ? room.rate : null };
		const current = byHotel.get(room.hotelCode);
		if (!current || isBetter(offer, current)) byHotel.set(room.hotelCode, offer);
	}
	return [...byHotel.values()].sort((a, b) => a.hotelCode - b.hotelCode);
}

function isBetter(candidate: HotelOffer, current: HotelOffer): boolean {
	if (candidate.rate === null) return false;
	if (current.rate === null) return true;
	return candidate.rate < current.rate || (candidate.rate === current.rate && candidate.websiteCode < current.websiteCode);
}

export function median(sorted: readonly number[]): number | null {
	if (sorted.length === 0) return null;
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle] : round2((sorted[middle - 1] + sorted[middle]) / 2);
}

export function compSetPosition(myHotelCode: number, rates: readonly HotelRoomRate[]): Position {
	const offers = hotelOffers(rates);
	const mine = offers.find((offer) => offer.hotelCode === myHotelCode);
	const others = offers.filter((offer) => offer.hotelCode !== myHotelCode);
	const currency = mine?.currency ?? null;
	const otherCurrency = currency === null ? [] : others.filter((offer) => offer.currency !== currency).map(({ hotelCode, currency: theirs }) => ({ hotelCode, currency: theirs }));
	const comparable = others.filter((offer) => currency === null || offer.currency === currency);
	const competitors = comparable.filter((offer) => offer.rate !== null).sort((a, b) => (a.rate as number) - (b.rate as number) || a.hotelCode - b.hotelCode);
	const competitorRates = competitors.map((offer) => offer.rate as number);
	const cheapestCompetitor = competitors[0] ?? null;
	const myRate = mine?.rate ?? null;
	const base = {
		myHotelCode,
		myRate,
		currency,
		lowest: competitorRates[0] ?? null,
		median: median(competitorRates),
		highest: competitorRates[competitorRates.length - 1] ?? null,
		soldOutCompetitors: comparable.length - competitors.length,
		otherCurrency,
		cheapestCompetitor,
		competitors,
	};
	if (myRate === null) {
		return { ...base, rank: null, rankedHotels: competitors.length, gap: null, gapPercent: null, position: mine ? 'soldOut' : 'notShopped' };
	}
	const rank = 1 + competitorRates.filter((rate) => rate < myRate).length;
	const gap = cheapestCompetitor ? round2(myRate - (cheapestCompetitor.rate as number)) : null;
	let position: PositionName = 'inside';
	if (competitors.length === 0) position = 'alone';
	else if (rank === 1) position = 'cheapest';
	else if (myRate >= (base.highest as number)) position = 'mostExpensive';
	return {
		...base,
		rank,
		rankedHotels: competitors.length + 1,
		gap,
		gapPercent: gap === null ? null : round2((gap / myRate) * 100),
		position,
	};
}

export interface UndercutRule {
	minPercent: number;
	minAmount: number;
}

/** A competitor is below my rate by at least the rule's percentage and amount (a threshold of 0 always holds). */
export function isUndercut(position: Position, rule: UndercutRule): boolean {
	if (position.gap === null || position.gapPercent === null || position.gap <= 0) return false;
	return position.gapPercent >= rule.minPercent && position.gap >= rule.minAmount;
}
