/**
 * Seeded pseudo-random numbers. Every generated value in the sandbox comes from here,
 * so two sandboxes built with the same seed serve byte-identical data.
 */
export interface Prng {
	/** Uniform float in [0, 1). */
	next(): number;
	/** Integer in [min, max], both inclusive. */
	int(min: number, max: number): number;
	/** Float in [min, max) rounded to `decimals`. */
	float(min: number, max: number, decimals: number): number;
	pick<T>(items: readonly T[]): T;
	chance(probability: number): boolean;
	/** `count` distinct items, in a random order. */
	sample<T>(items: readonly T[], count: number): T[];
}

/** mulberry32: tiny, fast and good enough for test data. */
export function createPrng(seed: number): Prng {
	let state = seed >>> 0;
	const next = (): number => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
	return {
		next,
		int,
		float: (min, max, decimals) => Number((min + next() * (max - min)).toFixed(decimals)),
		pick: (items) => items[Math.floor(next() * items.length)],
		chance: (probability) => next() < probability,
		sample: (items, count) => {
			const pool = [...items];
			for (let i = pool.length - 1; i > 0; i--) {
				const j = Math.floor(next() * (i + 1));
				[pool[i], pool[j]] = [pool[j], pool[i]];
			}
			return pool.slice(0, Math.min(count, pool.length));
		},
	};
}

/** Derives an independent seed from a base seed and a key, so each data set has its own stream. */
export function deriveSeed(seed: number, ...keys: Array<string | number>): number {
	let hash = (seed ^ 0x811c9dc5) >>> 0;
	for (const char of keys.join('|')) {
		hash ^= char.charCodeAt(0);
		hash = Math.imul(hash, 0x01000193) >>> 0;
	}
	return hash;
}
