import { percentChange, round2, signedPercent } from './amounts';
import type { Weekday } from './calendar';
import { buildHistory, type DateHistory, type HistorySettings, type StayHistory } from './history';

/**
 * The booking-window curve of a period's stays: my index against the comp median by days before
 * arrival, in buckets, from each stay's history series (history.ts). Pure.
 */

/** A stretch of days before arrival, both ends included. */
export interface CurveBucketSpan {
	label: string;
	fromDays: number;
	toDays: number;
}

/**
 * The booking window in the stretches revenue managers read it in: the last week, the week before,
 * the rest of the month, the second month and the third (90 days: how far ahead most stays are booked).
 */
export const CURVE_BUCKETS: readonly CurveBucketSpan[] = [
	{ label: '61–90', fromDays: 61, toDays: 90 },
	{ label: '31–60', fromDays: 31, toDays: 60 },
	{ label: '15–30', fromDays: 15, toDays: 30 },
	{ label: '8–14', fromDays: 8, toDays: 14 },
	{ label: '0–7', fromDays: 0, toDays: 7 },
];

/** The farthest a curve looks back from arrival. */
export const CURVE_DAYS = 90;

/** One stay's figures in one bucket: the means of its shop days there. */
export interface StayBucket {
	label: string;
	myIndex: number | null;
	compMedian: number | null;
}

export interface StayCurve {
	date: string;
	weekday: Weekday;
	buckets: StayBucket[];
}

export interface CurveBucket extends CurveBucketSpan {
	/** The stays with an index in the bucket. */
	stays: number;
	/** My index averaged over those stays (each stay's mean over its shop days in the bucket), to 2 decimals. */
	myIndex: number | null;
	/** The comp median averaged the same way, over the stays with one. */
	compMedian: number | null;
	/** How the comp median moved from the bucket before (farther out), averaged over the stays with a median in both; null for the first. */
	compMedianChangePercent: number | null;
}

export interface BookingCurve {
	currency: string | null;
	buckets: CurveBucket[];
	stays: StayCurve[];
	line: string;
}

const mean = (values: readonly number[]): number | null => (values.length === 0 ? null : round2(values.reduce((sum, value) => sum + value, 0) / values.length));

function stayCurve(history: DateHistory): StayCurve {
	const buckets = CURVE_BUCKETS.map(({ label, fromDays, toDays }) => {
		const points = history.series.filter((point) => point.daysOut >= fromDays && point.daysOut <= toDays);
		return {
			label,
			myIndex: mean(points.flatMap((point) => (point.priceIndex === null ? [] : [point.priceIndex]))),
			compMedian: mean(points.flatMap((point) => (point.compMedian === null ? [] : [point.compMedian]))),
		};
	});
	return { date: history.date, weekday: history.weekday, buckets };
}

function curveLine(buckets: readonly CurveBucket[], stays: number): string {
	const indexed = buckets.filter((bucket) => bucket.myIndex !== null);
	if (indexed.length === 0) return `no index in the booking window of ${stays} stay date${stays === 1 ? '' : 's'}`;
	const index = indexed.map((bucket) => `${(bucket.myIndex as number).toFixed(0)} at ${bucket.label}`).join(', ');
	const moves = buckets.filter((bucket) => bucket.compMedianChangePercent !== null).map((bucket) => `${signedPercent(Math.round(bucket.compMedianChangePercent as number))} to ${bucket.label}`);
	return `your index by days before arrival: ${index}${moves.length > 0 ? `; comp median ${moves.join(', ')}` : ''}`;
}

/**
 * The booking-window curve of the stay dates: each stay's series over the 90 days before its
 * arrival (as far as the history goes, and to the newest shop day for a stay ahead), in buckets of days before
 * arrival; each bucket's figures the mean over the stays of each stay's mean, so a stay shopped
 * more often weighs no more than another.
 */
export function buildCurve(stays: readonly StayHistory[], settings: Omit<HistorySettings, 'lookBackDays'>): BookingCurve {
	const histories = buildHistory(stays, { ...settings, lookBackDays: CURVE_DAYS + 1 });
	const curves = histories.map(stayCurve);
	const buckets = CURVE_BUCKETS.map((span, index) => {
		const figures = curves.map((curve) => curve.buckets[index]);
		const pairs = index === 0 ? [] : curves.flatMap((curve) => {
			const [before, now] = [curve.buckets[index - 1].compMedian, curve.buckets[index].compMedian];
			return before === null || now === null ? [] : [percentChange(before, now)];
		});
		const indexes = figures.flatMap((figure) => (figure.myIndex === null ? [] : [figure.myIndex]));
		return {
			...span,
			stays: indexes.length,
			myIndex: mean(indexes),
			compMedian: mean(figures.flatMap((figure) => (figure.compMedian === null ? [] : [figure.compMedian]))),
			compMedianChangePercent: index === 0 ? null : mean(pairs),
		};
	});
	return { currency: histories[0]?.currency ?? null, buckets, stays: curves, line: curveLine(buckets, curves.length) };
}
