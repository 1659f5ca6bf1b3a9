import { formatAmount, signedPercent } from './amounts';
import type { WebsiteChoice } from './calendar';
import type { BookingCurve, CurveBucket } from './bookingCurve';
import { readableAmount, type DateHistory, type HistoryPoint } from './history';
import { emailTable, escapeHtml } from './html';
import { websiteLabel } from './websites';

/**
 * Rate History as a message: charts built of table cells for email (no images, no <style>: what
 * Gmail, Outlook and phone mail apps all draw), and the same in words for Slack (mrkdwn) and plain
 * text.
 */

export interface HistoryMeta {
	hotelName: string;
	hotelCode: number;
	website: WebsiteChoice;
	websiteName?: string;
	los: number;
	guests: number;
	/** The Look Back of a history (0 for a curve). */
	lookBackDays: number;
}

export interface HistoryCounts {
	dates: number;
	/** Dates with at least one shop day in the series. */
	withHistory: number;
	compMedianUp: number;
	compMedianDown: number;
	/** My moves over every date. */
	myMoves: number;
	/** Dates I am sold out on their last shop day. */
	mySoldOut: number;
}

/** How many dates the texts list, one line each: as Rate Calendar's, three months. */
export const TEXT_DATES = 92;

/** The most shop days a date's chart draws, the newest: two bars a day of a month fit a 375 px phone. */
export const CHART_DAYS = 30;

/**
 * The most dates the email charts; the later ones get their line. Gmail cuts an email off past
 * 102 KB, and a chart of 30 shop days is about 8 KB: eight keep it under that with room for long
 * lines (historyView.test.ts measures it). Only Peak Dates picks which eight.
 */
export const CHART_DATES = 8;

const MINE = '#1a73e8';
const MEDIAN = '#9aa0a6';
const SOLD_OUT = '#c5221f';
const CHART_HEIGHT = 72;
const MUTED = 'color:#5f6368;';

export function historyCounts(histories: readonly DateHistory[]): HistoryCounts {
	const counts: HistoryCounts = { dates: histories.length, withHistory: 0, compMedianUp: 0, compMedianDown: 0, myMoves: 0, mySoldOut: 0 };
	for (const history of histories) {
		if (history.series.length > 0) counts.withHistory++;
		if ((history.compMedianChangePercent ?? 0) > 0) counts.compMedianUp++;
		if ((history.compMedianChangePercent ?? 0) < 0) counts.compMedianDown++;
		counts.myMoves += history.myMoves.length;
		if (history.series.at(-1)?.mySoldOut) counts.mySoldOut++;
	}
	return counts;
}

function websiteOf(meta: HistoryMeta): string {
	return meta.website === 'lowest' ? 'lowest rate of all websites' : websiteLabel(meta.website, meta.websiteName);
}

function stayLabel(meta: HistoryMeta): string {
	return `${meta.los} night${meta.los === 1 ? '' : 's'}, ${meta.guests} guest${meta.guests === 1 ? '' : 's'}`;
}

function hotelOf(meta: HistoryMeta): string {
	return `${meta.hotelName || `Hotel ${meta.hotelCode}`} (${meta.hotelCode})`;
}

function span(dates: readonly string[]): string {
	if (dates.length === 0) return 'no dates';
	return dates[0] === dates[dates.length - 1] ? dates[0] : `${dates[0]} to ${dates[dates.length - 1]}`;
}

function historySubtitle(histories: readonly DateHistory[], meta: HistoryMeta): string {
	const currency = histories.find((history) => history.currency !== null)?.currency;
	const days = `the last ${meta.lookBackDays} shop day${meta.lookBackDays === 1 ? '' : 's'} before arrival`;
	return [websiteOf(meta), stayLabel(meta), span(histories.map((history) => history.date)), days, ...(currency ? [currency] : [])].join(', ');
}

function countsLine(counts: HistoryCounts): string {
	return (
		`${counts.dates} date${counts.dates === 1 ? '' : 's'}, ${counts.withHistory} with history: comp median up on ${counts.compMedianUp}, down on ${counts.compMedianDown}; ` +
		`you moved ${counts.myMoves} time${counts.myMoves === 1 ? '' : 's'}, sold out on ${counts.mySoldOut}`
	);
}

function leftOut(histories: readonly DateHistory[], maxDates: number): string[] {
	const left = histories.slice(maxDates);
	return left.length > 0 ? [`${left.length} later date${left.length === 1 ? '' : 's'} (${span(left.map((history) => history.date))}) left out here; each date's item has them`] : [];
}

/** The history in plain text: a title, the counts, then each date's line. */
export function historyText(histories: readonly DateHistory[], meta: HistoryMeta, maxDates: number = TEXT_DATES): string {
	return [
		`Rate history: ${hotelOf(meta)}: ${historySubtitle(histories, meta)}`,
		countsLine(historyCounts(histories)),
		...histories.slice(0, maxDates).map((history) => `- ${history.weekday} ${history.date}: ${history.line}`),
		...leftOut(histories, maxDates),
	].join('\n');
}

/** Slack's mrkdwn: only its own three characters are escaped (&, <, >), as Slack asks. */
function slackEscape(text: string): string {
	return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The history for Slack: a bold title, the counts, then each date in bold with its line. */
export function historySlackText(histories: readonly DateHistory[], meta: HistoryMeta, maxDates: number = TEXT_DATES): string {
	return [
		`*Rate history: ${slackEscape(hotelOf(meta))}*`,
		slackEscape(historySubtitle(histories, meta)),
		countsLine(historyCounts(histories)),
		...histories.slice(0, maxDates).map((history) => `• *${history.weekday} ${history.date}*: ${slackEscape(history.line)}`),
		...leftOut(histories, maxDates),
	].join('\n');
}

/**
 * One bar of a chart: an empty cell of its height and colour, in a table at the bottom of the
 * chart's row (attributes, not styles: Outlook's Word engine honours height and bgcolor on a cell,
 * and an empty cell has no line height to grow by). Kept short: a chart has 60 of them.
 */
function bar(height: number, colour: string): string {
	return height <= 0 ? '<td></td>' : `<td><table width="100%" cellpadding="0" cellspacing="0"><tr><td height="${height}" bgcolor="${colour}"></td></tr></table></td>`;
}

/** The chart's scale: from a little under the lowest amount, so that a move of a few percent shows. */
function scaleOf(points: readonly HistoryPoint[]): { base: number; top: number } {
	const amounts = points.flatMap((point) => [point.myRate, point.compMedian]).filter((value): value is number => value !== null);
	const [low, high] = [Math.min(...amounts), Math.max(...amounts)];
	const base = Math.max(0, low - Math.max((high - low) * 0.25, low * 0.05));
	return { base, top: high };
}

/**
 * A date's chart: two bars a shop day, mine (blue, a red stub when sold out) and the comp median
 * (grey), from the oldest shop day on the left to the newest on the right.
 */
function chart(history: DateHistory): string {
	const points = history.series.slice(-CHART_DAYS);
	if (!points.some((point) => point.myRate !== null || point.compMedian !== null)) return '';
	const { base, top } = scaleOf(points);
	const height = (value: number | null) => (value === null ? 0 : Math.max(2, Math.round(((value - base) / Math.max(top - base, 1)) * CHART_HEIGHT)));
	const cells = points.flatMap((point) => [point.mySoldOut ? bar(4, SOLD_OUT) : bar(height(point.myRate), MINE), bar(height(point.compMedian), MEDIAN)]);
	const [first, last] = [points[0], points[points.length - 1]];
	return [
		// cellspacing 1: a pixel between bars; valign on the row: every bar stands on the bottom.
		`<table role="presentation" width="100%" cellpadding="0" cellspacing="1" border="0" style="width:100%;table-layout:fixed;border-bottom:1px solid #dadce0;">`,
		`<tr valign="bottom" style="height:${CHART_HEIGHT}px;">${cells.join('')}</tr>`,
		'</table>',
		`<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="width:100%;font-size:11px;${MUTED}"><tr>`,
		`<td align="left">${first.daysOut} days out</td><td align="right">${last.daysOut === 0 ? 'arrival' : `${last.daysOut} day${last.daysOut === 1 ? '' : 's'} out`}</td>`,
		'</tr></table>',
	].join('');
}

function amountCell(value: number | null, soldOut = false): string {
	if (soldOut) return '<span style="color:#c5221f;font-weight:bold;">Sold out</span>';
	return value === null ? '&mdash;' : escapeHtml(formatAmount(value));
}

/** The most moves of mine the figures under a chart give: the biggest, in shop-day order. */
export const FIGURE_MOVES = 5;

/** The shop days worth a figure: the first, the day I sold out or came back, my biggest moves, the last. */
function keyPoints(history: DateHistory): HistoryPoint[] {
	const biggest = [...history.myMoves].sort((a, b) => Math.abs(b.to - b.from) - Math.abs(a.to - a.from) || b.daysOut - a.daysOut).slice(0, FIGURE_MOVES);
	const moved = new Set(biggest.map((move) => move.shopDay));
	const { series } = history;
	return series.filter((point, index) => index === 0 || index === series.length - 1 || moved.has(point.shopDay) || (index > 0 && point.mySoldOut !== series[index - 1].mySoldOut));
}

const FIGURE = 'padding:2px 4px;font-size:12px;border-top:1px solid #dadce0;';

function figures(history: DateHistory): string {
	const rows = keyPoints(history).map(
		(point) =>
			`<tr><td style="${FIGURE}">${point.daysOut}</td><td style="${FIGURE}">${amountCell(point.myRate, point.mySoldOut)}</td>` +
			`<td style="${FIGURE}">${amountCell(point.compMedian)}</td><td style="${FIGURE}${MUTED}">${point.compLowest === null ? '&mdash;' : `${escapeHtml(formatAmount(point.compLowest))}&ndash;${escapeHtml(formatAmount(point.compHighest as number))}`}</td></tr>`,
	);
	if (rows.length === 0) return '';
	const head = ['Days out', 'You', 'Median', 'Low&ndash;high'].map((label) => `<td style="padding:2px 4px;font-size:11px;${MUTED}">${label}</td>`).join('');
	return [`<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="width:100%;border-collapse:collapse;">`, `<tr>${head}</tr>`, ...rows, '</table>'].join('');
}

function dateBlock(history: DateHistory): string {
	return (
		`<div style="font-size:15px;font-weight:bold;padding-top:8px;">${escapeHtml(`${history.weekday} ${history.date}`)}</div>` +
		`<div style="font-size:13px;padding-bottom:4px;">${escapeHtml(history.line)}</div>${chart(history)}${figures(history)}`
	);
}

function swatch(colour: string, label: string): string {
	return `<span style="display:inline-block;width:10px;height:10px;background-color:${colour};margin:0 4px 0 8px;"></span>${escapeHtml(label)}`;
}

/**
 * The history as an email: a title, the counts, and for each date its line, its chart (a bar of
 * mine and one of the comp median each shop day) and the figures of the first day, each day I
 * moved and the last. Tables and inline styles only; every value escaped.
 */
export function historyHtml(histories: readonly DateHistory[], meta: HistoryMeta): string {
	return emailTable([
		`<div style="font-size:18px;font-weight:bold;">${escapeHtml(`Rate history: ${hotelOf(meta)}`)}</div>` +
			`<div style="font-size:13px;${MUTED}">${escapeHtml(historySubtitle(histories, meta))}</div>`,
		`<div style="font-size:13px;">${escapeHtml(countsLine(historyCounts(histories)))}</div>`,
		`<div style="font-size:12px;${MUTED}">${swatch(MINE, 'you')}${swatch(SOLD_OUT, 'you sold out')}${swatch(MEDIAN, 'comp median')}; each shop day, oldest on the left, up to the last ${CHART_DAYS}${histories.length > CHART_DATES ? `; the first ${CHART_DATES} dates charted` : ''}.</div>`,
		...histories.slice(0, CHART_DATES).map(dateBlock),
		...laterDates(histories.slice(CHART_DATES)),
	]);
}

/** The dates past the charted ones, each with its line. */
function laterDates(histories: readonly DateHistory[]): string[] {
	if (histories.length === 0) return [];
	const lines = histories.map((history) => `<strong>${escapeHtml(`${history.weekday} ${history.date}`)}</strong>: ${escapeHtml(history.line)}`);
	return [`<div style="font-size:13px;padding-top:8px;"><div style="font-size:15px;font-weight:bold;">${histories.length} more date${histories.length === 1 ? '' : 's'}</div>${lines.join('<br>')}</div>`];
}

function curveSubtitle(curve: BookingCurve, meta: HistoryMeta): string {
	const dates = curve.stays.map((stay) => stay.date);
	return [websiteOf(meta), stayLabel(meta), `stays ${span(dates)} (${dates.length} date${dates.length === 1 ? '' : 's'})`, ...(curve.currency ? [curve.currency] : [])].join(', ');
}

function bucketText(bucket: CurveBucket, currency: string | null): string {
	const index = bucket.myIndex === null ? 'no index' : `index ${bucket.myIndex.toFixed(1)}`;
	const median = bucket.compMedian === null ? 'no comp median' : `comp median ${readableAmount(bucket.compMedian)}${currency ? ` ${currency}` : ''}`;
	const move = bucket.compMedianChangePercent === null ? '' : ` (${signedPercent(Math.round(bucket.compMedianChangePercent))})`;
	return `${bucket.label} days out: ${index}, ${median}${move}, ${bucket.stays} stay${bucket.stays === 1 ? '' : 's'}`;
}

export function curveText(curve: BookingCurve, meta: HistoryMeta): string {
	return [`Booking window: ${hotelOf(meta)}: ${curveSubtitle(curve, meta)}`, curve.line, ...curve.buckets.map((bucket) => `- ${bucketText(bucket, curve.currency)}`)].join('\n');
}

export function curveSlackText(curve: BookingCurve, meta: HistoryMeta): string {
	return [
		`*Booking window: ${slackEscape(hotelOf(meta))}*`,
		slackEscape(curveSubtitle(curve, meta)),
		slackEscape(curve.line),
		...curve.buckets.map((bucket) => `• ${slackEscape(bucketText(bucket, curve.currency))}`),
	].join('\n');
}

/** Index colours as the calendar's bands: under 95 cheaper (blue), over 105 dearer (orange), on par grey. */
function indexColour(index: number): string {
	if (index < 95) return '#4285f4';
	if (index > 105) return '#e8710a';
	return '#9aa0a6';
}

/** The index bar: 150 fills the cell, and a line marks 100 (the comp median). */
function indexBar(index: number | null): string {
	if (index === null) return `<span style="${MUTED}">no index</span>`;
	const width = Math.max(1, Math.min(100, Math.round((index / 150) * 100)));
	return (
		`<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="width:100%;border-collapse:collapse;table-layout:fixed;"><tr>` +
		`<td width="${width}%" height="14" bgcolor="${indexColour(index)}" style="width:${width}%;height:14px;background-color:${indexColour(index)};font-size:0;line-height:0;">&nbsp;</td>` +
		(width < 100 ? `<td style="font-size:0;line-height:0;">&nbsp;</td>` : '') +
		`</tr></table>`
	);
}

const CURVE_CELL = 'padding:6px 4px;font-size:12px;border-top:1px solid #dadce0;vertical-align:middle;';

/**
 * The curve as an email: one row per bucket of days before arrival, farthest first, each with my
 * index as a bar (the comp median is 100, two thirds across), its figure, and the comp median with
 * how it moved from the bucket before.
 */
export function curveHtml(curve: BookingCurve, meta: HistoryMeta): string {
	const rows = curve.buckets.map((bucket) => {
		const median = bucket.compMedian === null ? '&mdash;' : escapeHtml(readableAmount(bucket.compMedian));
		const move = bucket.compMedianChangePercent === null ? '' : `<div style="font-size:11px;${MUTED}">${escapeHtml(signedPercent(Math.round(bucket.compMedianChangePercent)))}</div>`;
		return (
			`<tr><td width="22%" style="${CURVE_CELL}font-weight:bold;">${escapeHtml(bucket.label)}</td><td width="42%" style="${CURVE_CELL}">${indexBar(bucket.myIndex)}</td>` +
			`<td width="14%" style="${CURVE_CELL}">${bucket.myIndex === null ? '' : escapeHtml(bucket.myIndex.toFixed(1))}</td><td width="22%" style="${CURVE_CELL}">${median}${move}</td></tr>`
		);
	});
	const head = ['Days out', 'Your index', '', `Median${curve.currency ? ` ${escapeHtml(curve.currency)}` : ''}`].map((label) => `<td style="padding:2px 4px;font-size:11px;${MUTED}">${label}</td>`).join('');
	return emailTable([
		`<div style="font-size:18px;font-weight:bold;">${escapeHtml(`Booking window: ${hotelOf(meta)}`)}</div><div style="font-size:13px;${MUTED}">${escapeHtml(curveSubtitle(curve, meta))}</div>`,
		`<div style="font-size:13px;">${escapeHtml(curve.line)}</div>`,
		[`<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="width:100%;border-collapse:collapse;table-layout:fixed;">`, `<tr>${head}</tr>`, ...rows, '</table>'].join(''),
		`<div style="font-size:12px;${MUTED}">Your index: your rate as a percentage of the comp median (100: at the median), each stay's mean over its shop days in the bucket, then the mean over the stays; ${swatch('#4285f4', 'under 95')}${swatch('#9aa0a6', '95 to 105')}${swatch('#e8710a', 'over 105')}. The median's move: from the bucket before, over the stays with both.</div>`,
	]);
}
