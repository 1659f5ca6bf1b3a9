import { sleep, type IDataObject } from 'n8n-workflow';

/**
 * Deliveries gathered into one execution. The service posts one record a POST with many in flight
 * (spec part 6), and n8n starts one execution a request: the first delivery that reaches a trigger
 * with no gathering open starts one and waits; the deliveries that arrive meanwhile join it and
 * are answered only once the execution holding their records exists (or could not be created).
 * Kept in this n8n process's memory: each process (queue mode's webhook processes, multi-main)
 * gathers its own deliveries, and nothing of a gathering outlives the requests it holds.
 */

export interface GatherSettings {
	/** The longest a gathering stays open, from its first delivery. */
	maxWaitMs: number;
	/** A gathering holding this many records closes at once. */
	maxRecords: number;
}

/** How a gathering's execution went, as its first delivery's answer showed: each delivery that joined it is answered the same way. */
export type GatheringOutcome = { started: true } | { started: false; status: number };

export type Gathered =
	/** The delivery that opened the gathering: it closes it and hands its records to n8n. */
	| { role: 'first'; close: () => Promise<IDataObject[]>; settle: (outcome: GatheringOutcome) => void }
	/** A delivery that joined an open gathering: answered once its outcome is known. */
	| { role: 'joined'; outcome: Promise<GatheringOutcome> };

/** How often the first delivery looks whether its gathering is complete. */
const TICK_MS = 10;

/**
 * A gathering with fewer deliveries than the trigger's recent ones held waits at least this long
 * after the last one joined, and four times the usual gap between two deliveries on a busy n8n
 * (which takes its time over each request before the node sees it). The senders of a shop are
 * answered together and post their next records at once, so a longer pause means the shop (or its
 * burst) has ended.
 */
const QUIET_MS = 300;

/** How many of a trigger's last gatherings tell how many deliveries the service has in flight, and how far apart they arrive. */
const REMEMBERED = 8;

interface Gathering {
	/** Open while deliveries may join: closed once full, or when its first delivery hands it to n8n. */
	open: boolean;
	full: Promise<void>;
	fill: () => void;
	records: IDataObject[];
	deliveries: number;
	opened: number;
	lastJoin: number;
	outcome: Promise<GatheringOutcome>;
	settle: (outcome: GatheringOutcome) => void;
}

/** What a closed gathering tells the next ones: how many deliveries it held, and the mean time between two of them. */
interface GatheringSize {
	deliveries: number;
	gapMs: number;
}

const open = new Map<string, Gathering>();
const recentGatherings = new Map<string, GatheringSize[]>();

/** The delivery's records into the open gathering of its trigger (`key`), or into a new one it opens. */
export function gather(key: string, records: IDataObject[], settings: GatherSettings): Gathered {
	const joined = open.get(key);
	if (joined) {
		joined.records.push(...records);
		joined.deliveries++;
		joined.lastJoin = Date.now();
		if (joined.records.length >= settings.maxRecords) shut(key, joined);
		return { role: 'joined', outcome: joined.outcome };
	}
	let settle: (outcome: GatheringOutcome) => void = () => undefined;
	const outcome = new Promise<GatheringOutcome>((resolve) => (settle = resolve));
	let fill: () => void = () => undefined;
	const full = new Promise<void>((resolve) => (fill = resolve));
	const now = Date.now();
	const gathering: Gathering = { open: true, full, fill, records: [...records], deliveries: 1, opened: now, lastJoin: now, outcome, settle };
	open.set(key, gathering);
	if (gathering.records.length >= settings.maxRecords) shut(key, gathering);
	return {
		role: 'first',
		close: async () => await close(key, gathering, settings),
		settle: (result) => gathering.settle(result),
	};
}

async function close(key: string, gathering: Gathering, settings: GatherSettings): Promise<IDataObject[]> {
	const recent = recentGatherings.get(key) ?? [];
	// A trigger that has not gathered yet waits for the quiet; one that has knows how many to expect.
	const expected = recent.length > 0 ? Math.max(...recent.map(({ deliveries }) => deliveries)) : Number.POSITIVE_INFINITY;
	const gapMs = Math.max(0, ...recent.map((gathered) => gathered.gapMs));
	const quietMs = Math.max(QUIET_MS, 4 * gapMs);
	// Once as many as expected are here, a pause of twice the usual gap says the senders in flight all are.
	const settledMs = Math.max(TICK_MS, 2 * gapMs);
	while (gathering.open) {
		await Promise.race([sleep(TICK_MS), gathering.full]);
		const now = Date.now();
		const silentMs = now - gathering.lastJoin;
		if (!gathering.open || now - gathering.opened >= settings.maxWaitMs) break;
		if (silentMs >= quietMs || (gathering.deliveries >= expected && silentMs >= settledMs)) break;
	}
	// Shut before n8n is handed the records: a delivery from now on opens the next gathering.
	shut(key, gathering);
	const gathered = { deliveries: gathering.deliveries, gapMs: gathering.deliveries > 1 ? (gathering.lastJoin - gathering.opened) / (gathering.deliveries - 1) : 0 };
	recentGatherings.set(key, [...recent, gathered].slice(-REMEMBERED));
	return gathering.records;
}

function shut(key: string, gathering: Gathering): void {
	gathering.open = false;
	if (open.get(key) === gathering) open.delete(key);
	gathering.fill();
}

/**
 * The outcome of a gathering, read off its first delivery's answer, which n8n sends once it has
 * created the execution ("on received"), or with an error status when it could not. An answer that
 * never went out (the connection closed first) counts as not started: the deliveries that joined
 * are then sent again, and a record may come twice, never not at all.
 */
export function outcomeOfAnswer(response: { statusCode: number; once(event: 'finish' | 'close', listener: () => void): unknown }, settle: (outcome: GatheringOutcome) => void): void {
	let settled = false;
	const once = (outcome: GatheringOutcome) => {
		if (settled) return;
		settled = true;
		settle(outcome);
	};
	response.once('finish', () => once(response.statusCode < 300 ? { started: true } : { started: false, status: response.statusCode }));
	response.once('close', () => once({ started: false, status: 503 }));
}
