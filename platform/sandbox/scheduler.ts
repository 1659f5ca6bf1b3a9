import type { VirtualClock } from './clock';
import type { RunSummary, RunTrigger } from './rateShop';
import { firstQueueableRun, nextRunAtOrAfter, type SchedulePattern } from './scheduleFields';
import type { AccountId, Schedule } from './types';

interface StoredSchedule {
	schedule: Schedule;
	account: AccountId;
	pattern: SchedulePattern;
	/** Virtual time of the last create or update: the queueing rule counts from here. */
	savedAt: number;
	nextRun: number | null;
}

/** A schedule as the control route shows it: the service's record plus the sandbox's bookkeeping. */
export interface ScheduleView extends Schedule {
	account: AccountId;
	savedAt: string;
	nextRun: string | null;
}

export type ScheduleConfig = Omit<Schedule, 'scheduleid'>;

/** Starts the rate shop of a schedule; the scheduler only decides when. */
export type ShopRun = (shopId: number, trigger: RunTrigger) => Promise<RunSummary>;

/** Longest real wait between ticks, so clock changes are noticed promptly. */
const MAX_TICK_MS = 1000;

/**
 * Stores schedules and runs them on the virtual clock. Each schedule keeps its next run time,
 * and one timer sleeps until the earliest of them, so thousands of schedules cost nothing
 * between runs.
 */
export class Scheduler {
	private readonly items = new Map<number, StoredSchedule>();
	private nextId = 1;
	private timer: NodeJS.Timeout | null = null;
	private stopped = false;
	/** Runs and clock moves are serialised so runs always happen in time order. */
	private queue: Promise<unknown> = Promise.resolve();

	constructor(
		private readonly clock: VirtualClock,
		private readonly runShop: ShopRun,
	) {}

	create(account: AccountId, config: ScheduleConfig, pattern: SchedulePattern): Schedule {
		const scheduleid = this.nextId++;
		const stored: StoredSchedule = { schedule: { scheduleid, ...config }, account, pattern, savedAt: this.clock.now(), nextRun: null };
		stored.nextRun = this.computeNext(stored, stored.savedAt);
		this.items.set(scheduleid, stored);
		this.arm();
		return stored.schedule;
	}

	/** Replaces the configuration; undefined when the id is unknown to this account. */
	update(account: AccountId, scheduleid: number, config: ScheduleConfig, pattern: SchedulePattern): Schedule | undefined {
		const stored = this.items.get(scheduleid);
		if (!stored || stored.account !== account) return undefined;
		stored.schedule = { scheduleid, ...config };
		stored.pattern = pattern;
		stored.savedAt = this.clock.now();
		stored.nextRun = this.computeNext(stored, stored.savedAt);
		this.arm();
		return stored.schedule;
	}

	list(): ScheduleView[] {
		return [...this.items.values()].map((stored) => ({
			...stored.schedule,
			account: stored.account,
			savedAt: new Date(stored.savedAt).toISOString(),
			nextRun: stored.nextRun === null ? null : new Date(stored.nextRun).toISOString(),
		}));
	}

	/** Moves the virtual clock forward and performs every run that falls due, in order. */
	advance(ms: number): Promise<RunSummary[]> {
		if (!(ms >= 0)) return Promise.reject(new Error('advance needs a number of milliseconds >= 0'));
		return this.exclusive(async () => {
			const target = this.clock.now() + ms;
			this.clock.set(target);
			return this.catchUp(target);
		});
	}

	/** Jumps the clock without performing the runs in between; next runs count from the new time. */
	jump(ms: number): void {
		this.clock.set(ms);
		for (const stored of this.items.values()) stored.nextRun = this.computeNext(stored, ms);
		this.arm();
	}

	setSpeed(speed: number): void {
		this.clock.setSpeed(speed);
		this.arm();
	}

	clear(): void {
		this.items.clear();
		this.nextId = 1;
	}

	start(): void {
		this.stopped = false;
		this.arm();
	}

	stop(): Promise<unknown> {
		this.stopped = true;
		if (this.timer) clearTimeout(this.timer);
		this.timer = null;
		return this.queue;
	}

	private computeNext(stored: StoredSchedule, from: number): number | null {
		if (stored.schedule.status !== 1) return null;
		return nextRunAtOrAfter(stored.pattern, Math.max(from, firstQueueableRun(stored.savedAt)));
	}

	private earliest(): StoredSchedule | undefined {
		let best: StoredSchedule | undefined;
		for (const stored of this.items.values()) {
			if (stored.nextRun !== null && (best === undefined || stored.nextRun < (best.nextRun as number))) best = stored;
		}
		return best;
	}

	private async catchUp(until: number): Promise<RunSummary[]> {
		const summaries: RunSummary[] = [];
		for (let due = this.earliest(); due && (due.nextRun as number) <= until; due = this.earliest()) {
			const at = due.nextRun as number;
			due.nextRun = this.computeNext(due, at + 1000);
			summaries.push(await this.runShop(due.schedule.rateshopid, { account: due.account, scheduleId: due.schedule.scheduleid, at }));
		}
		return summaries;
	}

	private exclusive<T>(task: () => Promise<T>): Promise<T> {
		const result = this.queue.then(task);
		this.queue = result.catch(() => undefined);
		return result;
	}

	private arm(): void {
		if (this.timer) clearTimeout(this.timer);
		const due = this.stopped ? undefined : this.earliest();
		if (!due) {
			this.timer = null;
			return;
		}
		const wait = Math.min(this.clock.realDelayUntil(due.nextRun as number), MAX_TICK_MS);
		this.timer = setTimeout(() => {
			this.timer = null;
			void this.exclusive(() => this.catchUp(this.clock.now())).finally(() => this.arm());
		}, wait);
		this.timer.unref();
	}
}
