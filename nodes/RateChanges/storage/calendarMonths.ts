import { createHash } from 'crypto';

import type { PreviousFigures } from '../rules/calendar';

import { numberText, textNumber, type DayCell } from './monthCells';

/**
 * What Rate Calendar remembers of each date in the positions table (a `calendar` row per calendar
 * and month, positionMonths.ts): the figures the reader was last sent, so the next calendar's
 * arrows show what moved since. A cell keeps two generations, the figures sent last and the ones
 * sent before them, with the run that sent the last: a run started again the same way (n8n's
 * Retry of an execution that stopped after writing) compares with the generation before its own,
 * so its arrows are the ones the failed run would have sent.
 */

/** The figures of a date: my rate and the comp median, null when unknown. */
export type SentFigures = Pick<PreviousFigures, 'myRate' | 'compMedian'>;

export interface CalendarCell {
	/** The run that sent `sent` (runTag). */
	run: string;
	sent: SentFigures;
	/** What was sent before `sent`; null on a date's first calendar. */
	before: SentFigures | null;
}

/** `calendar|<name>|<my hotel>|<website, or lowest>|<comp set>|<nights>|<guests>|<month>` */
export function calendarMonthKey(parts: { name: string; myHotelCode: number; website: number | 'lowest'; compSet: 'all' | readonly number[]; los: number; guests: number; month: string }): string {
	const compSet = parts.compSet === 'all' ? 'all' : `set-${shortHash([...parts.compSet].sort((a, b) => a - b).join(','))}`;
	return ['calendar', encodeURIComponent(parts.name), parts.myHotelCode, parts.website, compSet, parts.los, parts.guests, parts.month].join('|');
}

function shortHash(text: string): string {
	return createHash('sha256').update(text).digest('hex').slice(0, 12);
}

/**
 * The run's tag: the workflow, the node and what started the run (a Schedule Trigger's item holds
 * the time it fired), as Digest names a digest, so n8n's Retry of an execution has its tag.
 */
export function runTag(workflowId: string, nodeName: string, startedWith: unknown): string {
	return shortHash(`${workflowId}|${nodeName}|${JSON.stringify(startedWith)}`);
}

/** `<myRate>/<compMedian>`, each empty when unknown. */
function figuresText(figures: SentFigures): string {
	return `${numberText(figures.myRate)}/${numberText(figures.compMedian)}`;
}

function textFigures(text: string): SentFigures {
	const [myRate = '', compMedian = ''] = text.split('/');
	return { myRate: textNumber(myRate), compMedian: textNumber(compMedian) };
}

/** `<run>~<sent>~<before>`: no space, `=` or `@`, as a packed cell's value must be (monthCells.ts). */
export function encodeCalendarCell(cell: CalendarCell): string {
	return [cell.run, figuresText(cell.sent), cell.before === null ? '' : figuresText(cell.before)].join('~');
}

/** A cell that does not read counts as none: the date's next calendar has no arrows. */
export function decodeCalendarCell(text: string): CalendarCell | undefined {
	const [run, sent, before] = text.split('~');
	if (!run || sent === undefined || before === undefined) return undefined;
	return { run, sent: textFigures(sent), before: before === '' ? null : textFigures(before) };
}

/**
 * What a calendar compares a date with: what was sent last, or, for a run started again the same
 * way by n8n's Retry, what was sent before that run's own calendar.
 */
export function baselineOf(cell: CalendarCell | undefined, tag: string, retry: boolean): SentFigures | null {
	if (!cell) return null;
	return retry && cell.run === tag ? cell.before : cell.sent;
}

/** The cell after this run sent `figures`: its generation on top, the baseline it compared with below. */
export function sentCell(previous: DayCell<string> | undefined, tag: string, retry: boolean, figures: SentFigures, sentAt: string): DayCell<string> {
	const cell = previous ? decodeCalendarCell(previous.value) : undefined;
	return { value: encodeCalendarCell({ run: tag, sent: figures, before: baselineOf(cell, tag, retry) }), dtCollected: sentAt };
}
