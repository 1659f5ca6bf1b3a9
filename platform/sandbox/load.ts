/**
 * How many API requests the sandbox is serving at once, and the most it has served at once since
 * the last reset: what a node's Concurrency must bound. A request counts from its arrival until
 * its answer is written (or its connection dropped).
 */
export class LoadMeter {
	private inFlight = 0;
	private maxInFlight = 0;

	begin(): void {
		this.inFlight++;
		this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
	}

	end(): void {
		this.inFlight--;
	}

	/** Starts a new measurement; requests still being served count in it. */
	reset(): void {
		this.maxInFlight = this.inFlight;
	}

	stats(): LoadStats {
		return { inFlight: this.inFlight, maxInFlight: this.maxInFlight };
	}
}

export interface LoadStats {
	/** API requests being served now. */
	inFlight: number;
	/** The most API requests served at once since the last reset. */
	maxInFlight: number;
}
