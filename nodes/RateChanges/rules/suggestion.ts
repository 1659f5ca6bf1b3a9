import { FieldError } from '../../shared/errors';

import { formatAmount, formatNumber, percentChange, plusPercent, round2, signedPercent, toCents } from './amounts';
import type { CalendarDay, Weekday } from './calendar';

/**
 * Suggested Rates: a rate for each date of the calendar, worked out by rules a person sets and
 * approved by a person before anything changes (as Cloudbeds PIE's rules in manual mode). Pure:
 * from the calendar's days; every amount in my currency, the calendar's.
 */

/** A percentage (−5: 5 % below) or an amount (−10: 10.00 below) added to the anchor. */
export type Adjustment = { percent: number } | { amount: number };

/**
 * Where a suggestion starts: the comp median, the comp lowest, or one competitor's rate (its
 * cheapest room on sale that date), plus or minus a percentage or an amount ("median − 5 %").
 * Without an anchor, a suggestion starts from my current rate, and only the uplifts move it.
 */
export type Anchor =
	| { basis: 'compMedian' | 'compLowest'; adjust?: Adjustment }
	| { basis: 'competitor'; hotelCode: number; adjust?: Adjustment };

/** From a threshold up (an impact score, a demand figure), this percentage is added (or, below 0, taken off). */
export interface UpliftBand {
	atLeast: number;
	percent: number;
}

/**
 * How a suggestion is rounded to a price point, always to the nearest one (a tie goes up):
 * - none: to the cent;
 * - whole: a whole amount (189.50 → 190);
 * - end99: ending in .99 (190.30 → 189.99, 190.49 → 190.99);
 * - end95: ending in .95 (190.30 → 189.95);
 * - end9: a whole amount ending in 9 (189 → 189, 190.30 → 189, 194 → 199).
 * The nearest, not the one below: always rounding down would take up to 9.99 off every rate
 * the rules worked out, a bias of its own; the bounds, not the rounding, say how far a rate may go.
 */
export type RoundingMode = 'none' | 'whole' | 'end99' | 'end95' | 'end9';

/** Every rule is optional; a rule left out does nothing (the two guards have defaults). */
export interface SuggestionRules {
	anchor?: Anchor;
	/**
	 * Bands of the impact score of the date's event (the calendar's highest-impact event, so only
	 * events the calendar marks count): the band with the highest threshold the score reaches
	 * applies, e.g. [{ atLeast: 70, percent: 15 }]. A date without an event gets none.
	 */
	eventUplift?: readonly UpliftBand[];
	/**
	 * Bands of my demand (Hotel Demand's relativeValue, 0–100): the band with the highest
	 * threshold the demand reaches applies. A band at 0 with a negative percentage lowers quiet
	 * dates: [{ atLeast: 0, percent: −5 }, { atLeast: 40, percent: 0 }, { atLeast: 80, percent: 10 }].
	 * A date without demand gets none.
	 */
	demandUplift?: readonly UpliftBand[];
	/** No suggestion below this (Cloudbeds PIE's Min Price Limit). */
	minRate?: number;
	/** No suggestion above this (PIE's Max Price Limit). */
	maxRate?: number;
	/**
	 * The most a suggestion may move from my current rate, in percent, up or down. Default 10
	 * (DEFAULT_MAX_CHANGE_PERCENT); null: no limit.
	 */
	maxChangePercent?: number | null;
	/** Default none: to the cent. */
	rounding?: RoundingMode;
	/** Dates with fewer competitors on sale get no suggestion. Default 3 (DEFAULT_MIN_COMPETITORS). */
	minCompetitors?: number;
}

/**
 * 10 %: a move of 10 % is what Infor's rate shopping calls a notable market change; one approval
 * moving a rate further than that is more likely a rule's mistake (a wrong anchor, a stale
 * competitor) than a decision, and the next calendar can take it further.
 */
export const DEFAULT_MAX_CHANGE_PERCENT = 10;

/**
 * 3: the fewest competitors whose median is a middle rate; with one it is that hotel's rate, with
 * two their mean, and one sold-out or mis-shopped competitor moves it all.
 */
export const DEFAULT_MIN_COMPETITORS = 3;

/** A rate is never suggested below one cent. */
const LOWEST_RATE = 0.01;

export type StepRule = 'current' | 'anchor' | 'eventUplift' | 'demandUplift' | 'maxChange' | 'minRate' | 'maxRate' | 'rounding';

/** One rule applied, in the order the rules run; `rate` is the rate after it. */
export interface SuggestionStep {
	rule: StepRule;
	rate: number;
	/** Its words in the reason. */
	text: string;
	/** The anchor's rate, before its adjustment. */
	base?: number;
	/** The anchor's basis, or the competitor's hotel code. */
	basis?: 'current' | 'compMedian' | 'compLowest' | 'competitor';
	hotelCode?: number;
	percent?: number;
	amount?: number;
	/** The event's name and score, or the demand figure, that picked the band. */
	eventName?: string;
	score?: number;
	demand?: number;
	/** The limit the rate was held to. */
	bound?: number;
	mode?: RoundingMode;
}

export type SkipReason = 'notShopped' | 'soldOut' | 'fewCompetitors' | 'noAnchor';

export interface Suggestion {
	date: string;
	weekday: Weekday;
	/** My rate that date; null when sold out or not shopped. */
	currentRate: number | null;
	/** null: no suggestion (see `skipped`). */
	suggestedRate: number | null;
	/** suggestedRate − currentRate. */
	change: number | null;
	changePercent: number | null;
	currency: string | null;
	/** The rules in order with their numbers, or why there is no suggestion. */
	reason: string;
	steps: SuggestionStep[];
	skipped: SkipReason | null;
}

const ROUNDING_WORDS: Record<Exclude<RoundingMode, 'none'>, string> = {
	whole: 'whole amount',
	end99: 'price ending in .99',
	end95: 'price ending in .95',
	end9: 'whole amount ending in 9',
};

/** The price points of a mode: every `step` cents from `offset` (189.99: step 100, offset 99). */
const PRICE_POINTS: Record<Exclude<RoundingMode, 'none'>, { step: number; offset: number }> = {
	whole: { step: 100, offset: 0 },
	end99: { step: 100, offset: 99 },
	end95: { step: 100, offset: 95 },
	end9: { step: 1000, offset: 900 },
};

/** The price point at or below `cents`; null when there is none above 0. */
function pointAtOrBelow(cents: number, mode: Exclude<RoundingMode, 'none'>): number | null {
	const { step, offset } = PRICE_POINTS[mode];
	const point = Math.floor((cents - offset) / step) * step + offset;
	return point > 0 ? point : null;
}

/** The price point at or above `cents`, and never below the lowest point above 0. */
function pointAtOrAbove(cents: number, mode: Exclude<RoundingMode, 'none'>): number {
	const { step, offset } = PRICE_POINTS[mode];
	const point = Math.ceil((cents - offset) / step) * step + offset;
	if (point > 0) return point;
	return offset > 0 ? offset : step;
}

/** The nearest price point of the mode; halfway between two, the higher. */
export function roundToPricePoint(value: number, mode: RoundingMode): number {
	if (mode === 'none') return round2(value);
	const cents = toCents(value);
	const below = pointAtOrBelow(cents, mode);
	const above = pointAtOrAbove(cents, mode);
	if (below === null) return above / 100;
	return (cents - below < above - cents ? below : above) / 100;
}

/** Whole cents by `toward` (Math.floor, Math.ceil), after taking floating point's hair off (173 × 1.1 is 190.30000000000001). */
function centsOf(value: number, toward: (cents: number) => number): number {
	return toward(Number((value * 100).toPrecision(12)));
}

export interface RateBounds {
	/** The lowest rate allowed, to the cent. */
	lowest: number;
	/** The highest rate allowed, to the cent. */
	highest: number;
}

/**
 * The rates a suggestion may take: within the most per suggestion of my current rate (cents
 * inward, so the limit is never passed by half a cent), and within the minimum and maximum rate.
 * The minimum and maximum are the hotel's own limits and win when the two disagree: a current rate
 * under the minimum goes to the minimum, however far that is.
 */
export function rateBounds(currentRate: number, rules: Pick<SuggestionRules, 'minRate' | 'maxRate' | 'maxChangePercent'>): RateBounds {
	const percent = rules.maxChangePercent === undefined ? DEFAULT_MAX_CHANGE_PERCENT : rules.maxChangePercent;
	let lowest = LOWEST_RATE;
	let highest = Infinity;
	if (percent !== null) {
		lowest = Math.max(LOWEST_RATE, centsOf(currentRate * (1 - percent / 100), Math.ceil) / 100);
		highest = centsOf(currentRate * (1 + percent / 100), Math.floor) / 100;
	}
	const minRate = rules.minRate ?? LOWEST_RATE;
	const maxRate = rules.maxRate ?? Infinity;
	if (highest < minRate) return { lowest: minRate, highest: minRate };
	if (lowest > maxRate) return { lowest: maxRate, highest: maxRate };
	return { lowest: Math.max(lowest, minRate), highest: Math.min(highest, maxRate) };
}

/**
 * Rounds inside the bounds: the nearest price point, or, when that is outside them, the nearest
 * one inside (down from the highest, up from the lowest); when no price point lies inside, the
 * rate stays unrounded. Rounding never breaks a bound.
 */
function roundWithin(rate: number, mode: Exclude<RoundingMode, 'none'>, bounds: RateBounds): { rate: number; text: string } | null {
	const words = ROUNDING_WORDS[mode];
	const nearest = roundToPricePoint(rate, mode);
	const lowestCents = toCents(bounds.lowest);
	const highestCents = bounds.highest === Infinity ? Infinity : toCents(bounds.highest);
	let point = toCents(nearest);
	let text = `rounded to ${formatAmount(nearest)}`;
	if (point > highestCents) {
		point = pointAtOrBelow(highestCents, mode) ?? -1;
		text = `rounded down to ${formatAmount(point / 100)}, the nearest ${words} at or below ${formatAmount(bounds.highest)}`;
	} else if (point < lowestCents) {
		point = pointAtOrAbove(lowestCents, mode);
		text = `rounded up to ${formatAmount(point / 100)}, the nearest ${words} at or above ${formatAmount(bounds.lowest)}`;
	}
	if (point < lowestCents || point > highestCents) {
		return { rate, text: `not rounded: no ${words} between ${formatAmount(bounds.lowest)} and ${formatAmount(bounds.highest)}` };
	}
	return point / 100 === rate ? null : { rate: point / 100, text };
}

function adjustmentText(adjust: Adjustment): string {
	const value = 'percent' in adjust ? adjust.percent : adjust.amount;
	const sign = value < 0 ? '−' : '+';
	return 'percent' in adjust ? `${sign} ${formatNumber(Math.abs(value))} %` : `${sign} ${formatAmount(Math.abs(value))}`;
}

function applyAdjustment(base: number, adjust: Adjustment | undefined): number {
	if (!adjust) return base;
	return 'percent' in adjust ? plusPercent(base, adjust.percent) : round2(base + adjust.amount);
}

function hotelLabel(hotelName: string, hotelCode: number): string {
	return `${hotelName || 'hotel'} (${hotelCode})`;
}

/** The anchor step, or why there is none that date. */
function anchorStep(day: CalendarDay, anchor: Anchor | undefined, currentRate: number): SuggestionStep | string {
	if (!anchor) return { rule: 'current', basis: 'current', base: currentRate, rate: currentRate, text: `my current rate ${formatAmount(currentRate)}` };
	let base: number | null;
	let label: string;
	if (anchor.basis === 'competitor') {
		const competitor = day.competitors.find((hotel) => hotel.hotelCode === anchor.hotelCode);
		const elsewhere = day.otherCurrency.find((hotel) => hotel.hotelCode === anchor.hotelCode);
		if (elsewhere) return `no suggestion: the anchor, ${hotelLabel(elsewhere.hotelName, elsewhere.hotelCode)}, is shopped in ${elsewhere.currency}, not ${day.myCurrency}`;
		if (!competitor) return `no suggestion: the anchor, hotel ${anchor.hotelCode}, was not shopped for this date`;
		if (competitor.rate === null) return `no suggestion: the anchor, ${hotelLabel(competitor.hotelName, competitor.hotelCode)}, is sold out`;
		base = competitor.rate;
		label = hotelLabel(competitor.hotelName, competitor.hotelCode);
	} else {
		base = anchor.basis === 'compMedian' ? day.compMedian : day.compLowest;
		label = anchor.basis === 'compMedian' ? 'comp median' : 'comp lowest';
		if (base === null) return `no suggestion: no ${label}, no competitor on sale`;
	}
	const rate = applyAdjustment(base, anchor.adjust);
	const step: SuggestionStep = {
		rule: 'anchor',
		basis: anchor.basis,
		base,
		rate,
		text: anchor.adjust ? `${label} ${formatAmount(base)} ${adjustmentText(anchor.adjust)} = ${formatAmount(rate)}` : `${label} ${formatAmount(base)}`,
	};
	if (anchor.basis === 'competitor') step.hotelCode = anchor.hotelCode;
	if (anchor.adjust) Object.assign(step, 'percent' in anchor.adjust ? { percent: anchor.adjust.percent } : { amount: anchor.adjust.amount });
	return step;
}

/** The band with the highest threshold `value` reaches; null for none. */
export function bandFor(bands: readonly UpliftBand[] | undefined, value: number | null): UpliftBand | null {
	if (!bands || value === null) return null;
	let best: UpliftBand | null = null;
	for (const band of bands) if (value >= band.atLeast && (best === null || band.atLeast > best.atLeast)) best = band;
	return best;
}

function skip(day: CalendarDay, skipped: SkipReason, reason: string): Suggestion {
	return { date: day.date, weekday: day.weekday, currentRate: day.myRate, suggestedRate: null, change: null, changePercent: null, currency: day.myCurrency, reason, steps: [], skipped };
}

function checkRules(rules: SuggestionRules): void {
	if (rules.minRate !== undefined && rules.maxRate !== undefined && rules.minRate > rules.maxRate) {
		throw new FieldError('Maximum Rate', rules.maxRate, `is below Minimum Rate (${rules.minRate})`);
	}
}

/**
 * One date's suggestion. The rules run in this order, each on the rate the one before left:
 * anchor (or my current rate), event uplift, demand uplift, the most per suggestion, the minimum
 * and maximum rate, rounding. Uplifts multiply (+15 % then +10 % is +26.5 %), each step to the
 * cent, so every number of the reason can be worked out by hand from the one before.
 *
 * Clamp, then round within the bounds: rounding first and clamping after would leave rates at a
 * bound off their price point (a maximum of 200.00 gives 200.00, not 199.99); clamping first and
 * rounding freely could cross a bound again (190.30, the most per suggestion, rounded to 190.99).
 */
export function suggestRate(day: CalendarDay, rules: SuggestionRules = {}): Suggestion {
	checkRules(rules);
	const skipped = withoutSuggestion(day, rules);
	if (skipped) return skipped;
	const currentRate = day.myRate as number;
	const anchor = anchorStep(day, rules.anchor, currentRate);
	if (typeof anchor === 'string') return skip(day, 'noAnchor', anchor);
	const steps: SuggestionStep[] = [anchor];
	const rateNow = () => steps[steps.length - 1].rate;
	steps.push(...uplifts(day, rules, rateNow()));
	steps.push(...held(currentRate, rules, rateNow()));
	const mode = rules.rounding ?? 'none';
	const rounded = mode === 'none' ? undefined : roundWithin(rateNow(), mode, rateBounds(currentRate, rules));
	if (rounded) steps.push({ rule: 'rounding', rate: rounded.rate, mode, text: rounded.text });
	const rate = rateNow();
	const change = round2(rate - currentRate);
	return {
		date: day.date,
		weekday: day.weekday,
		currentRate,
		suggestedRate: rate,
		change,
		changePercent: percentChange(currentRate, rate),
		currency: day.myCurrency,
		reason: steps.map((step) => step.text).join('; ') + (change === 0 ? '; no change' : ''),
		steps,
		skipped: null,
	};
}

/** A date that gets no suggestion, with why: I am sold out or not shopped, or too few competitors are on sale. */
function withoutSuggestion(day: CalendarDay, rules: SuggestionRules): Suggestion | undefined {
	if (day.mySoldOut) return skip(day, 'soldOut', 'no suggestion: my hotel is sold out');
	if (day.myRate === null) {
		const elsewhere = day.otherCurrency.length > 0 ? ' in the calendar currency' : '';
		return skip(day, 'notShopped', `no suggestion: my hotel was not shopped for this date${elsewhere}`);
	}
	const minCompetitors = rules.minCompetitors ?? DEFAULT_MIN_COMPETITORS;
	if (day.competitorsOnSale >= minCompetitors) return undefined;
	return skip(day, 'fewCompetitors', `no suggestion: ${day.competitorsOnSale} competitor${day.competitorsOnSale === 1 ? '' : 's'} on sale, fewer than the minimum of ${minCompetitors}`);
}

/** The event uplift, then the demand uplift, each on the rate before it. */
function uplifts(day: CalendarDay, rules: SuggestionRules, from: number): SuggestionStep[] {
	const steps: SuggestionStep[] = [];
	let rate = from;
	const eventBand = bandFor(rules.eventUplift, day.event?.score ?? null);
	if (day.event && eventBand && eventBand.percent !== 0) {
		rate = plusPercent(rate, eventBand.percent);
		steps.push({
			rule: 'eventUplift',
			rate,
			percent: eventBand.percent,
			eventName: day.event.name,
			score: day.event.score,
			text: `event '${day.event.name}' impact ${day.event.score}: ${signedPercent(eventBand.percent)} = ${formatAmount(rate)}`,
		});
	}
	const demandBand = bandFor(rules.demandUplift, day.demand);
	if (day.demand !== null && demandBand && demandBand.percent !== 0) {
		rate = plusPercent(rate, demandBand.percent);
		steps.push({ rule: 'demandUplift', rate, percent: demandBand.percent, demand: day.demand, text: `demand ${day.demand}: ${signedPercent(demandBand.percent)} = ${formatAmount(rate)}` });
	}
	return steps;
}

/** The bounds a rate never leaves: the most per suggestion, then the minimum and maximum rate (which win), then the lowest rate there is. */
function held(currentRate: number, rules: SuggestionRules, from: number): SuggestionStep[] {
	const steps: SuggestionStep[] = [];
	let rate = from;
	const percent = rules.maxChangePercent === undefined ? DEFAULT_MAX_CHANGE_PERCENT : rules.maxChangePercent;
	if (percent !== null) {
		const moveBounds = rateBounds(currentRate, { maxChangePercent: percent });
		const kept = Math.min(Math.max(rate, moveBounds.lowest), moveBounds.highest);
		if (kept !== rate) {
			rate = kept;
			steps.push({ rule: 'maxChange', rate, percent, bound: rate, text: `capped at the most per suggestion, ${formatNumber(percent)} %: ${formatAmount(rate)}` });
		}
	}
	if (rules.minRate !== undefined && rate < rules.minRate) {
		rate = rules.minRate;
		steps.push({ rule: 'minRate', rate, bound: rate, text: `raised to the minimum rate ${formatAmount(rate)}` });
	}
	if (rules.maxRate !== undefined && rate > rules.maxRate) {
		rate = rules.maxRate;
		steps.push({ rule: 'maxRate', rate, bound: rate, text: `lowered to the maximum rate ${formatAmount(rate)}` });
	}
	if (rate < LOWEST_RATE) {
		rate = LOWEST_RATE;
		steps.push({ rule: 'minRate', rate, bound: rate, text: `raised to ${formatAmount(rate)}, the lowest rate there is` });
	}
	return steps;
}

/** A suggestion for every date of the calendar, in its order. */
export function suggestRates(days: readonly CalendarDay[], rules: SuggestionRules = {}): Suggestion[] {
	checkRules(rules);
	return days.map((day) => suggestRate(day, rules));
}
