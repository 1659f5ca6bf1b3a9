import type { RateRecord, Sandbox } from '../../platform/sandbox';

/**
 * What the "Morning rate calendar" and "Suggested rates for approval" examples must put out,
 * worked out here from the rate records the sandbox delivered and the events it holds, by the
 * rules as docs/nodes/rate-changes.md states them, without the node's own code: each hotel at its
 * cheapest room on sale on any website, the comp median, my index and band, the date's
 * highest-impact event near my hotel, the outliers; then the example's suggestion rules, reason
 * by reason.
 */

export interface ExpectedEvent {
	name: string;
	score: number;
	attendees: number | null;
}

export interface ExpectedDay {
	date: string;
	myRate: number | null;
	mySoldOut: boolean;
	compLowest: number | null;
	compMedian: number | null;
	compHighest: number | null;
	myRank: number | null;
	rankedHotels: number;
	priceIndex: number | null;
	band: 'cheaper' | 'onPar' | 'dearer' | null;
	competitorsSoldOut: number;
	competitorsOnSale: number;
	event: ExpectedEvent | null;
	outlier: { kind: string; reason: string } | null;
}

/** To the cent, halves away from zero, without floating point's hair (104.50 × 1.08 is 112.86000000000001). */
export function cent(value: number): number {
	return Math.round(Number((value * 100).toPrecision(12))) / 100;
}

const amount = (value: number) => value.toFixed(2);

function milesBetween(lat1: number, lng1: number, lat2: number, lng2: number): number {
	const rad = (degrees: number) => (degrees * Math.PI) / 180;
	const h = Math.sin(rad(lat2 - lat1) / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lng2 - lng1) / 2) ** 2;
	return 2 * 3958.8 * Math.asin(Math.sqrt(h));
}

/** Every date from `from` to `to`. */
export function datesBetween(from: string, to: string): string[] {
	const dates: string[] = [];
	for (let day = Date.parse(`${from}T00:00:00Z`); day <= Date.parse(`${to}T00:00:00Z`); day += 86_400_000) dates.push(new Date(day).toISOString().slice(0, 10));
	return dates;
}

export interface CalendarRules {
	myHotelCode: number;
	los: number;
	guests: number;
	proximityMiles: number;
	minImpactScore: number;
}

/** The events of a date near a point: score at least the minimum, not postponed or cancelled; the highest score first, then the most attendees, then by name. */
function eventOf(sandbox: Sandbox, date: string, place: { lat: number; lng: number }, rules: CalendarRules): ExpectedEvent | null {
	const near = sandbox.data.seedEvents.filter(
		(seed) =>
			seed.startDay <= date &&
			seed.endDay >= date &&
			seed.event.impactScore >= rules.minImpactScore &&
			!['Postponed', 'Cancelled'].includes(seed.event.eventStatus) &&
			milesBetween(place.lat, place.lng, seed.lat, seed.lng) <= rules.proximityMiles,
	);
	near.sort((a, b) => b.event.impactScore - a.event.impactScore || b.event.estimatedAttendees - a.event.estimatedAttendees || (a.event.eventName < b.event.eventName ? -1 : 1));
	const best = near[0]?.event;
	return best ? { name: best.eventName, score: best.impactScore, attendees: best.estimatedAttendees } : null;
}

/** The figures of each date, from the records the rates table holds (the newest of each stay). */
export function expectedCalendar(sandbox: Sandbox, records: readonly RateRecord[], dates: readonly string[], rules: CalendarRules): ExpectedDay[] {
	const stays = records.filter((record) => record.los === rules.los && record.guests === rules.guests);
	const mine = stays.find((record) => record.hotelCode === rules.myHotelCode);
	const place = { lat: Number(mine?.latitude), lng: Number(mine?.longitude) };
	return dates.map((date) => {
		const ofDate = stays.filter((record) => record.checkIn.slice(0, 10) === date);
		const hotels = [...new Set(ofDate.map((record) => record.hotelCode))];
		const cheapest = new Map(
			hotels.map((hotelCode) => {
				const onSale = ofDate.filter((record) => record.hotelCode === hotelCode && record.onsiteRate > 0).map((record) => record.onsiteRate);
				return [hotelCode, onSale.length > 0 ? Math.min(...onSale) : null] as const;
			}),
		);
		const myRate = cheapest.get(rules.myHotelCode) ?? null;
		const competitors = hotels.filter((hotelCode) => hotelCode !== rules.myHotelCode).map((hotelCode) => cheapest.get(hotelCode) ?? null);
		const onSale = competitors.filter((rate): rate is number => rate !== null).sort((a, b) => a - b);
		const middle = Math.floor(onSale.length / 2);
		const compMedian = onSale.length === 0 ? null : onSale.length % 2 ? onSale[middle] : cent((onSale[middle - 1] + onSale[middle]) / 2);
		const priceIndex = myRate === null || compMedian === null ? null : cent((myRate / compMedian) * 100);
		const band = priceIndex === null ? null : priceIndex < 95 ? 'cheaper' : priceIndex > 105 ? 'dearer' : 'onPar';
		const event = eventOf(sandbox, date, place, rules);
		const busy = event !== null && event.score >= 70;
		const where = myRate === null || compMedian === null || priceIndex === null ? '' : `my rate ${amount(myRate)} ${mine?.currency} is at index ${amount(priceIndex)} of the comp median ${amount(compMedian)}`;
		// The demo has no demand shop: a date is busy by its event, never quiet; any other date 20 % or more from the median is far.
		const distance = priceIndex === null ? 0 : cent(Math.abs(priceIndex - 100));
		const outlier =
			priceIndex === null || where === ''
				? null
				: busy && priceIndex <= 100
					? { kind: 'underpricedBusyDay', reason: `event '${event.name}' impact ${event.score}; ${where}` }
					: distance >= 20
						? { kind: 'farFromMedian', reason: `${where}, ${amount(distance)} % ${priceIndex < 100 ? 'below' : 'above'} it (20 % or more is far)` }
						: null;
		return {
			date,
			myRate,
			mySoldOut: cheapest.has(rules.myHotelCode) && myRate === null,
			compLowest: onSale[0] ?? null,
			compMedian,
			compHighest: onSale.at(-1) ?? null,
			myRank: myRate === null ? null : 1 + onSale.filter((rate) => rate < myRate).length,
			rankedHotels: onSale.length + (myRate === null ? 0 : 1),
			priceIndex,
			band,
			competitorsSoldOut: competitors.length - onSale.length,
			competitorsOnSale: onSale.length,
			event,
			outlier,
		};
	});
}

export interface ExpectedSuggestion {
	date: string;
	currentRate: number | null;
	suggestedRate: number | null;
	change: number | null;
	changePercent: number | null;
	reason: string;
}

/** The price point ending in .99 nearest `cents` (a tie goes up), in cents. */
function nearest99(cents: number): number {
	const below = Math.floor((cents - 99) / 100) * 100 + 99;
	const above = Math.ceil((cents - 99) / 100) * 100 + 99;
	return cents - below < above - cents ? below : above;
}

/**
 * The example's rules ("Suggest rates"): the comp median − 5 %; +15 % on a date whose event has an
 * impact of 70 or more; at most 10 % from my rate, to the cent inward; rounded to the nearest
 * price ending in .99 inside those bounds. No suggestion when I am sold out or not shopped, or
 * fewer than 3 competitors are on sale.
 */
export function expectedSuggestions(days: readonly ExpectedDay[]): ExpectedSuggestion[] {
	return days.map((day) => {
		const none = (reason: string): ExpectedSuggestion => ({ date: day.date, currentRate: day.myRate, suggestedRate: null, change: null, changePercent: null, reason });
		if (day.mySoldOut) return none('no suggestion: my hotel is sold out');
		if (day.myRate === null) return none('no suggestion: my hotel was not shopped for this date');
		if (day.competitorsOnSale < 3) return none(`no suggestion: ${day.competitorsOnSale} competitor${day.competitorsOnSale === 1 ? '' : 's'} on sale, fewer than the minimum of 3`);
		const current = day.myRate;
		const median = day.compMedian as number;
		let rate = cent(median * 0.95);
		const words = [`comp median ${amount(median)} − 5 % = ${amount(rate)}`];
		if (day.event && day.event.score >= 70) {
			rate = cent(rate * 1.15);
			words.push(`event '${day.event.name}' impact ${day.event.score}: +15 % = ${amount(rate)}`);
		}
		const lowest = Math.ceil(Number((current * 0.9 * 100).toPrecision(12)));
		const highest = Math.floor(Number((current * 1.1 * 100).toPrecision(12)));
		const cents = Math.round(rate * 100);
		const held = Math.min(Math.max(cents, lowest), highest);
		if (held !== cents) {
			rate = held / 100;
			words.push(`capped at the most per suggestion, 10 %: ${amount(rate)}`);
		}
		let point = nearest99(Math.round(rate * 100));
		let text = `rounded to ${amount(point / 100)}`;
		if (point > highest) {
			point = Math.floor((highest - 99) / 100) * 100 + 99;
			text = `rounded down to ${amount(point / 100)}, the nearest price ending in .99 at or below ${amount(highest / 100)}`;
		} else if (point < lowest) {
			point = Math.ceil((lowest - 99) / 100) * 100 + 99;
			text = `rounded up to ${amount(point / 100)}, the nearest price ending in .99 at or above ${amount(lowest / 100)}`;
		}
		if (point !== Math.round(rate * 100)) {
			rate = point / 100;
			words.push(text);
		}
		const change = cent(rate - current);
		return {
			date: day.date,
			currentRate: current,
			suggestedRate: rate,
			change,
			changePercent: cent(((rate - current) / current) * 100),
			reason: words.join('; ') + (change === 0 ? '; no change' : ''),
		};
	});
}
