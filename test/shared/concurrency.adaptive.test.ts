import {
	ADAPTIVE_START,
	AdaptiveLimit,
	LATENCY_FACTOR,
	LATENCY_SLACK_MS,
	LATENCY_WINDOW,
	LEARNT_FOR_MS,
	LearntLimits,
	RequestLimiter,
	serviceOf,
	type Answer,
	type LimiterClock,
} from '../../nodes/shared/concurrency';

const OK: Answer = { status: 200 };
const THROTTLED: Answer = { status: 429, retryAfterMs: 1000 };

/** Sends one request and answers it at once, `latencyMs` after it left. */
function answer(limit: AdaptiveLimit, result: Answer = OK, latencyMs = 20): void {
	limit.answered(limit.sent(), result, latencyMs);
}

/** One round: as many requests as the limit lets out, all answered alike. */
function round(limit: AdaptiveLimit, result: Answer = OK, latencyMs = 20): void {
	const tickets = Array.from({ length: limit.limit }, () => limit.sent());
	for (const ticket of tickets) limit.answered(ticket, result, latencyMs);
}

describe('Adaptive starts low', () => {
	it(`starts with ${ADAPTIVE_START} in flight, or Concurrency when that is lower`, () => {
		expect(new AdaptiveLimit(50).limit).toBe(ADAPTIVE_START);
		expect(new AdaptiveLimit(2).limit).toBe(2);
		expect(new AdaptiveLimit(1).limit).toBe(1);
	});
});

describe('grows while the service answers well', () => {
	it('adds one per good answer until the first 429: the limit doubles each round', () => {
		const limit = new AdaptiveLimit(50);
		round(limit);
		expect(limit.limit).toBe(8);
		round(limit);
		expect(limit.limit).toBe(16);
	});

	it('after a 429, adds one per round of good answers', () => {
		const limit = new AdaptiveLimit(50);
		round(limit);
		answer(limit, THROTTLED);
		expect(limit.limit).toBe(4);
		round(limit);
		expect(limit.limit).toBe(5);
		round(limit);
		expect(limit.limit).toBe(6);
	});

	it('never passes Concurrency', () => {
		const limit = new AdaptiveLimit(12);
		for (let i = 0; i < 10; i++) round(limit);
		expect(limit.limit).toBe(12);
	});

	it('counts 4xx answers other than 429 as answers; 5xx answers change nothing', () => {
		const limit = new AdaptiveLimit(50);
		answer(limit, { status: 404 });
		expect(limit.limit).toBe(ADAPTIVE_START + 1);
		answer(limit, { status: 500 });
		answer(limit, { status: 503, retryAfterMs: 1000 });
		expect(limit.limit).toBe(ADAPTIVE_START + 1);
	});
});

describe('halves on a 429', () => {
	it('halves, once per round: a 429 to a request sent before the halving does not halve again', () => {
		const limit = new AdaptiveLimit(50);
		round(limit);
		round(limit);
		expect(limit.limit).toBe(16);
		const tickets = Array.from({ length: 16 }, () => limit.sent());
		for (const ticket of tickets) limit.answered(ticket, THROTTLED, 20);
		expect(limit.limit).toBe(8);
		answer(limit, THROTTLED);
		expect(limit.limit).toBe(4);
	});

	it('never goes below 1', () => {
		const limit = new AdaptiveLimit(50);
		for (let i = 0; i < 10; i++) answer(limit, THROTTLED);
		expect(limit.limit).toBe(1);
		answer(limit);
		expect(limit.limit).toBe(2);
	});
});

describe('holds while the latency rises', () => {
	const rising = 2 * (LATENCY_FACTOR * 20 + LATENCY_SLACK_MS);

	it(`holds when the mean of the last ${LATENCY_WINDOW} answers passes ${LATENCY_FACTOR}× the best plus ${LATENCY_SLACK_MS} ms`, () => {
		const limit = new AdaptiveLimit(50);
		answer(limit, OK, 20);
		expect(limit.limit).toBe(5);
		// The mean of 20 and 100 is 60 ms, past 2 × 20 + 10 = 50.
		answer(limit, OK, rising);
		expect(limit.limit).toBe(5);
		for (let i = 0; i < LATENCY_WINDOW; i++) answer(limit, OK, rising);
		expect(limit.limit).toBe(5);
	});

	it('stays within the rule for a latency below the threshold', () => {
		const limit = new AdaptiveLimit(50);
		answer(limit, OK, 20);
		answer(limit, OK, LATENCY_FACTOR * 20 + LATENCY_SLACK_MS);
		expect(limit.limit).toBe(6);
	});

	it('grows again, one per round, once the latency is back down', () => {
		const limit = new AdaptiveLimit(50);
		answer(limit, OK, 20);
		answer(limit, OK, rising);
		expect(limit.limit).toBe(5);
		// The mean is under the threshold again at once; the doubling is over: 1/5 per answer.
		for (let i = 0; i < 5; i++) answer(limit, OK, 20);
		expect(limit.limit).toBe(6);
	});
});

/** A clock that only moves when the limiter sleeps or a test says so. */
function fakeClock(): LimiterClock & { sleeps: number[]; advance(ms: number): void } {
	let now = 0;
	const sleeps: number[] = [];
	return {
		sleeps,
		now: () => now,
		advance(ms: number) {
			now += ms;
		},
		async sleep(ms: number) {
			sleeps.push(ms);
			await Promise.resolve();
			now += ms;
		},
	};
}

/** A send the test answers by hand. */
function pending() {
	const sends: Array<{ index: number; answer: (result: Answer) => void }> = [];
	const send = (index: number) => async () =>
		await new Promise<Answer>((resolve) => sends.push({ index, answer: resolve }));
	return { sends, send };
}

const flush = async () => {
	for (let i = 0; i < 10; i++) await Promise.resolve();
};

describe('the adaptive limiter', () => {
	it('lets out only the limit at first, then more as good answers come, first come first served', async () => {
		const limiter = new RequestLimiter(50, 'adaptive', fakeClock());
		const { sends, send } = pending();
		const results = Array.from({ length: 12 }, (_, index) => limiter.run(send(index), (answer) => answer));
		await flush();
		expect(sends.map(({ index }) => index)).toEqual([0, 1, 2, 3]);
		sends[0].answer(OK);
		await flush();
		// One answer in, the limit is 5: two more leave, in the order they asked.
		expect(sends.map(({ index }) => index)).toEqual([0, 1, 2, 3, 4, 5]);
		for (const { answer } of sends.slice(1)) answer(OK);
		await flush();
		expect(sends.map(({ index }) => index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
		for (const { answer } of sends.slice(6)) answer(OK);
		expect(await Promise.all(results)).toHaveLength(12);
	});

	it('after a 429 holds no slot for it, halves, and lets nothing out before its Retry-After', async () => {
		const clock = fakeClock();
		const limiter = new RequestLimiter(50, 'adaptive', clock);
		const { sends, send } = pending();
		const results = Array.from({ length: 6 }, (_, index) => limiter.run(send(index), (answer) => answer));
		await flush();
		expect(sends).toHaveLength(4);
		sends[0].answer(THROTTLED);
		await flush();
		// Halved to 2 with 3 still out: nothing more leaves.
		expect(limiter.limit).toBe(2);
		expect(sends).toHaveLength(4);
		sends[1].answer(OK);
		await flush();
		expect(sends).toHaveLength(4);
		// Two good answers make it 3 (1/2 each) with one out: two leave, after one shared pause of 1 s.
		sends[2].answer(OK);
		await flush();
		expect(limiter.limit).toBe(3);
		expect(sends.map(({ index }) => index)).toEqual([0, 1, 2, 3, 4, 5]);
		expect(clock.sleeps).toEqual([1000]);
		for (const { answer } of sends.slice(3)) answer(OK);
		expect(await Promise.all(results)).toHaveLength(6);
	});

	it('never has more than Concurrency in flight', async () => {
		const limiter = new RequestLimiter(3, 'adaptive', fakeClock());
		let inFlight = 0;
		let most = 0;
		const sendOne = async () =>
			await limiter.run(async () => {
				most = Math.max(most, ++inFlight);
				await new Promise((resolve) => setTimeout(resolve, 2));
				inFlight--;
				return OK;
			}, (answer) => answer);
		await Promise.all(Array.from({ length: 30 }, sendOne));
		expect(most).toBe(3);
	});

	it('gives the place back when a request fails, and the failure changes nothing', async () => {
		const limiter = new RequestLimiter(50, 'adaptive', fakeClock());
		await expect(limiter.run(async () => await Promise.reject(new Error('refused')))).rejects.toThrow('refused');
		expect(limiter.limit).toBe(ADAPTIVE_START);
		expect(await limiter.run(async () => await Promise.resolve('next'))).toBe('next');
	});
});

describe('the next execution for the same service starts where the last one left off', () => {
	const SERVICE = 'travelPricingApi:1';

	/** One execution: a limiter for SERVICE that sends `requests` one after another, answered alike. */
	async function execution(memory: LearntLimits, clock: LimiterClock, ceiling: number, requests: number, result: Answer = OK) {
		const limiter = new RequestLimiter(ceiling, 'adaptive', clock, { key: SERVICE, memory });
		const first = limiter.limit;
		for (let i = 0; i < requests; i++) await limiter.run(async () => await Promise.resolve(result), (answer) => answer);
		return { first, last: limiter.limit };
	}

	it(`the first starts at ${ADAPTIVE_START}; the next at the limit the first reached, still doubling`, async () => {
		const memory = new LearntLimits();
		const clock = fakeClock();
		expect(await execution(memory, clock, 50, 20)).toEqual({ first: ADAPTIVE_START, last: 24 });
		// Still doubling: each good answer adds one, up to the ceiling.
		expect(await execution(memory, clock, 50, 30)).toEqual({ first: 24, last: 50 });
		expect(await execution(memory, clock, 50, 1)).toEqual({ first: 50, last: 50 });
	});

	it('after a 429 the next starts at the halved limit and grows one per round', async () => {
		const memory = new LearntLimits();
		const clock = fakeClock();
		await execution(memory, clock, 50, 12);
		expect(await execution(memory, clock, 50, 1, THROTTLED)).toEqual({ first: 16, last: 8 });
		// 8 good answers add 1/8 each: one more in all.
		expect(await execution(memory, clock, 50, 8)).toEqual({ first: 8, last: 9 });
	});

	it('a node with a lower Concurrency lowers nothing; a higher one starts at what was learnt', async () => {
		const memory = new LearntLimits();
		const clock = fakeClock();
		await execution(memory, clock, 50, 46);
		expect(await execution(memory, clock, 10, 5)).toEqual({ first: 10, last: 10 });
		expect(await execution(memory, clock, 50, 0)).toEqual({ first: 50, last: 50 });
	});

	it(`forgets after ${LEARNT_FOR_MS / 60_000} minutes`, async () => {
		const memory = new LearntLimits();
		const clock = fakeClock();
		await execution(memory, clock, 50, 46);
		clock.advance(LEARNT_FOR_MS - 1);
		expect((await execution(memory, clock, 50, 0)).first).toBe(50);
		clock.advance(LEARNT_FOR_MS + 1);
		expect((await execution(memory, clock, 50, 0)).first).toBe(ADAPTIVE_START);
	});

	it('another service, or Fixed, learns nothing from it', async () => {
		const memory = new LearntLimits();
		const clock = fakeClock();
		await execution(memory, clock, 50, 46);
		expect(new RequestLimiter(50, 'adaptive', clock, { key: 'travelPricingApi:2', memory }).limit).toBe(ADAPTIVE_START);
		expect(new RequestLimiter(10, 'fixed', clock, { key: SERVICE, memory }).limit).toBe(10);
	});

	it("a service is the node's credentials by type and id, never their secrets", () => {
		const node = { credentials: { travelPricingApi: { id: '7', name: 'Production' } } };
		expect(serviceOf(node as never)).toBe('travelPricingApi:7');
		expect(serviceOf({ credentials: {} } as never)).toBeUndefined();
	});
});
