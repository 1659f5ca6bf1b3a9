/** Cents, not floating-point noise: 120.1 − 100 is 20.1, not 20.099999999999994. */
export function round2(value: number): number {
	return Math.round(value * 100) / 100;
}
