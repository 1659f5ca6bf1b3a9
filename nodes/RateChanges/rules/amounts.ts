/**
 * Amounts to the cent and percentages as every rule of Rate Changes writes them: the one helper, so
 * a figure rounds the same way in every step and every message.
 */

/**
 * To 2 decimals, halves away from zero, as a person rounds. A product in floating point can land a
 * hair under a half (172.90 × 1.15 is 198.83499999999998), and Math.round would then round down;
 * reading the hundredfold value to 12 significant digits first takes that hair away, far below
 * any cent of a hotel rate.
 */
export function round2(value: number): number {
	const hundredfold = Number((Math.abs(value) * 100).toPrecision(12));
	const rounded = Math.round(hundredfold) / 100;
	return value < 0 ? -rounded : rounded;
}

/** The value to the cent as whole cents, for arithmetic on price points without floating point. */
export function toCents(value: number): number {
	return Math.round(Number((value * 100).toPrecision(12)));
}

/** value × (1 + percent / 100), to the cent. */
export function plusPercent(value: number, percent: number): number {
	return round2(value * (1 + percent / 100));
}

/** How far `to` is from `from`, as a percentage of `from`, to 2 decimals. */
export function percentChange(from: number, to: number): number {
	return round2(((to - from) / from) * 100);
}

/** "182.00"; a negative amount with a true minus sign, as the signed forms below. */
export function formatAmount(value: number): string {
	const rounded = round2(value);
	return rounded < 0 ? `−${(-rounded).toFixed(2)}` : rounded.toFixed(2);
}

/** "15", "2.5", "0.25": a percentage as typed, without trailing zeros. */
export function formatNumber(value: number): string {
	return String(round2(value));
}

/** "+15 %", "−5 %" (a true minus sign), "0 %". */
export function signedPercent(value: number): string {
	return `${value > 0 ? '+' : value < 0 ? '−' : ''}${formatNumber(Math.abs(value))} %`;
}

/** "+10.00", "−2.50", "0.00". */
export function signedAmount(value: number): string {
	return `${value > 0 ? '+' : value < 0 ? '−' : ''}${formatAmount(Math.abs(value))}`;
}
