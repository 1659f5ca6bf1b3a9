/**
 * The sandbox's virtual clock. It starts at real "now" and runs at `speed` times real time,
 * so a demo can watch schedules fire quickly and tests can set or advance time exactly.
 */
export class VirtualClock {
	private virtualAnchor: number;
	private realAnchor: number;

	constructor(
		private speedFactor = 1,
		start: number = Date.now(),
	) {
		if (!(speedFactor >= 0)) throw new Error('clock speed must be a number >= 0');
		this.virtualAnchor = start;
		this.realAnchor = Date.now();
	}

	now(): number {
		return this.virtualAnchor + (Date.now() - this.realAnchor) * this.speedFactor;
	}

	get speed(): number {
		return this.speedFactor;
	}

	set(ms: number): void {
		this.virtualAnchor = ms;
		this.realAnchor = Date.now();
	}

	setSpeed(speed: number): void {
		if (!(speed >= 0)) throw new Error('clock speed must be a number >= 0');
		this.set(this.now());
		this.speedFactor = speed;
	}

	/** Real milliseconds until the virtual clock reaches `virtualMs` (Infinity when frozen). */
	realDelayUntil(virtualMs: number): number {
		const remaining = virtualMs - this.now();
		if (remaining <= 0) return 0;
		return this.speedFactor === 0 ? Infinity : remaining / this.speedFactor;
	}
}
