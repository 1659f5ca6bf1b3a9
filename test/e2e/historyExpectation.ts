import type { WorkflowSeed } from '../../platform/n8n';
import type { RateRecord, Sandbox } from '../../platform/sandbox';
import { datesBetween, expectedCalendar, type CalendarRules, type ExpectedDay } from './calendarExpectation';

/**
 * What Rate History (the "Weekly peak dates" example) must put out, worked out here from the
 * rate records the sandbox delivered, by the rules docs/nodes/rate-changes.md states, without the
 * node's own code: on each shop day (a UTC day) every stay stands at its latest record collected by
 * the end of that day, and the date's figures are then the calendar's (each hotel at its cheapest
 * room on sale, the comp median of the competitors on sale); a date's series runs over the days
 * looked back up to its arrival or the newest shop day, from the first day anything was known;
 * the peak dates are those with the highest comp median on their last day. The example's summary
 * (what its email is made of) leaves each date's series out: the same node with Output "Both", in a
 * workflow of its own (eachDateWorkflow), puts it out as well.
 */

export type HistoryRules = Pick<CalendarRules, 'myHotelCode' | 'los' | 'guests'> & { lookBackDays: number };

/** The figures of one shop day of a date's series. */
export type ExpectedPoint = Pick<ExpectedDay, 'myRate' | 'mySoldOut' | 'compLowest' | 'compMedian' | 'compHighest' | 'priceIndex' | 'competitorsOnSale' | 'competitorsSoldOut'> & {
	shopDay: string;
	/** Days before arrival: the stay date minus the shop day. */
	daysOut: number;
};

export interface ExpectedDateHistory {
	date: string;
	series: ExpectedPoint[];
	compMedianFrom: number | null;
	compMedianTo: number | null;
}

const dayOf = (time: string) => time.slice(0, 10);

/** Every stay as it stood at the end of the shop day: its latest record collected by then. */
export function recordsAsOf(records: readonly RateRecord[], shopDay: string): RateRecord[] {
	const latest = new Map<string, RateRecord>();
	for (const record of records) {
		if (dayOf(record.dtCollected) > shopDay) continue;
		const stay = [record.hotelCode, record.websiteCode, record.checkIn.slice(0, 10), record.los, record.guests, record.roomType].join('|');
		const before = latest.get(stay);
		if (!before || before.dtCollected < record.dtCollected) latest.set(stay, record);
	}
	return [...latest.values()];
}

function pointOf(sandbox: Sandbox, records: readonly RateRecord[], date: string, shopDay: string, rules: HistoryRules): ExpectedPoint {
	// Events and outliers are the calendar's alone: the rules only have to be whole.
	const [day] = expectedCalendar(sandbox, recordsAsOf(records, shopDay), [date], { ...rules, proximityMiles: 0, minImpactScore: 101 });
	const { myRate, mySoldOut, compLowest, compMedian, compHighest, priceIndex, competitorsOnSale, competitorsSoldOut } = day;
	const daysOut = (Date.parse(`${date}T00:00:00Z`) - Date.parse(`${shopDay}T00:00:00Z`)) / 86_400_000;
	return { shopDay, daysOut, myRate, mySoldOut, compLowest, compMedian, compHighest, priceIndex, competitorsOnSale, competitorsSoldOut };
}

/** Each date's series and its comp median's first and last figures, from the records delivered. */
export function expectedHistory(sandbox: Sandbox, delivered: readonly RateRecord[], dates: readonly string[], rules: HistoryRules): ExpectedDateHistory[] {
	const records = delivered.filter((record) => record.los === rules.los && record.guests === rules.guests && dates.includes(record.checkIn.slice(0, 10)));
	const newest = records.map((record) => dayOf(record.dtCollected)).sort().at(-1) as string;
	return dates.map((date) => {
		const last = date < newest ? date : newest;
		const lookedBack = new Date(Date.parse(`${last}T00:00:00Z`) - (rules.lookBackDays - 1) * 86_400_000).toISOString().slice(0, 10);
		const ofDate = records.filter((record) => record.checkIn.slice(0, 10) === date);
		const firstKnown = ofDate.map((record) => dayOf(record.dtCollected)).sort()[0];
		// From the later of the first day looked back and the first day anything of the date was known.
		const first = [lookedBack, firstKnown].sort()[1];
		const series = ofDate.length === 0 || last < first ? [] : datesBetween(first, last).map((shopDay) => pointOf(sandbox, ofDate, date, shopDay, rules));
		const medians = series.flatMap((point) => (point.compMedian === null ? [] : [point.compMedian]));
		return { date, series, compMedianFrom: medians[0] ?? null, compMedianTo: medians.at(-1) ?? null };
	});
}

/** The `count` dates whose comp median is highest on their last day (the earlier date first on a tie), in date order. */
export function expectedPeakDates(histories: readonly ExpectedDateHistory[], count: number): string[] {
	const ranked = histories
		.filter((history) => history.compMedianTo !== null)
		.sort((a, b) => (b.compMedianTo as number) - (a.compMedianTo as number) || (a.date < b.date ? -1 : 1));
	return ranked
		.slice(0, count)
		.map((history) => history.date)
		.sort();
}

/** An amount as a sentence writes it: thousands separated, cents only where there are some ("3,210", "3,210.5"). */
export function readable(value: number): string {
	return value.toLocaleString('en-US', { minimumFractionDigits: 0, maximumFractionDigits: 2 });
}

/** The node of the "Weekly peak dates" example, and the Manual Trigger a test starts a copy of it from. */
export const HISTORY_NODE = 'Peak dates history';

/**
 * The example's Rate History node, as set in the example, with Output "Both" (one item per date,
 * then the summary), alone after a Manual Trigger: what a user adds to a scratch workflow to see
 * each date's series.
 */
export function eachDateWorkflow(example: WorkflowSeed, id: string): WorkflowSeed {
	const history = example.nodes.find((node) => node.name === HISTORY_NODE) as Record<string, unknown> & { parameters: Record<string, unknown> };
	const start = { id: `${id}-start`, name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} };
	return {
		id,
		name: `${example.name} (each date)`,
		nodes: [start, { ...history, id: `${id}-history`, parameters: { ...history.parameters, calendarOutput: 'both' } }],
		connections: { Start: { main: [[{ node: HISTORY_NODE, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

type Json = Record<string, unknown>;

const POINT_FIELDS = ['shopDay', 'daysOut', 'myRate', 'mySoldOut', 'compLowest', 'compMedian', 'compHighest', 'priceIndex', 'competitorsOnSale', 'competitorsSoldOut'] as const;

/**
 * Checks Rate History's items (Output "Both": the dates, then the summary) against the records
 * the sandbox delivered: the peak dates chosen, each date's series shop day by shop day, the first
 * and last comp median and the line that states them, my moves; returns the summary and the
 * expected histories of the peak dates.
 */
export function expectHistoryOf(items: readonly Json[], expectedAll: readonly ExpectedDateHistory[], peaks: number): { summary: Json; expected: ExpectedDateHistory[] } {
	const summary = items.at(-1) as Json;
	const dates = items.slice(0, -1);
	const peakDates = expectedPeakDates(expectedAll, peaks);
	expect(dates.map((date) => date.date)).toEqual(peakDates);
	expect((summary.dates as Json[]).map((date) => date.date)).toEqual(peakDates);
	const expected = peakDates.map((date) => expectedAll.find((history) => history.date === date) as ExpectedDateHistory);
	const seriesOf = (item: Json) => (item.series as Json[]).map((point) => Object.fromEntries(POINT_FIELDS.map((field) => [field, point[field]])));
	expect(dates.map((item) => ({ date: item.date, days: seriesOf(item).map((point) => point.shopDay) }))).toEqual(expected.map((history) => ({ date: history.date, days: history.series.map((point) => point.shopDay) })));
	// Every shop day that differs, of every date at once: what a failure says.
	const differing = expected.flatMap((history, index) =>
		seriesOf(dates[index]).flatMap((point, day) => (POINT_FIELDS.every((field) => point[field] === history.series[day]?.[field]) ? [] : [{ date: history.date, put: point, recomputed: history.series[day] }])),
	);
	expect(differing).toEqual([]);
	for (const [index, history] of expected.entries()) {
		const item = dates[index];
		expect({ date: item.date, from: item.compMedianFrom, to: item.compMedianTo }).toEqual({ date: history.date, from: history.compMedianFrom, to: history.compMedianTo });
		const { compMedianFrom: from, compMedianTo: to } = history;
		if (from !== null && to !== null) expect(String(item.line)).toContain(from === to ? `steady at ${readable(to)}` : `${readable(from)} → ${readable(to)}`);
		expect({ date: item.date, moves: item.myMoves }).toEqual({ date: history.date, moves: myMoves(history.series) });
		const summaryDate = (summary.dates as Json[])[index];
		expect(summaryDate).toMatchObject({ date: history.date, compMedianFrom: from, compMedianTo: to, line: item.line, myRate: history.series.at(-1)?.myRate ?? null });
	}
	return { summary, expected };
}

/** The shop days my rate on sale differed from the one before it on sale (a sell-out is no move). */
function myMoves(series: readonly ExpectedPoint[]): Array<{ shopDay: string; daysOut: number; from: number; to: number }> {
	const moves: Array<{ shopDay: string; daysOut: number; from: number; to: number }> = [];
	let before: ExpectedPoint | undefined;
	for (const point of series) {
		if (point.myRate === null && !point.mySoldOut) continue;
		if (before?.myRate != null && point.myRate !== null && before.myRate !== point.myRate) moves.push({ shopDay: point.shopDay, daysOut: point.daysOut, from: before.myRate, to: point.myRate });
		before = point;
	}
	return moves;
}
