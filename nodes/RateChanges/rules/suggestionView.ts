import { formatAmount, signedAmount } from './amounts';
import type { WebsiteChoice } from './calendar';
import { escapeHtmlForSendAndWait as escapeHtml } from './html';
import type { Suggestion } from './suggestion';
import { websiteLabel } from './websites';

/**
 * Suggested Rates as an approval message: a table by date of the rates that would change and of
 * the dates without a suggestion, each with why; the dates whose suggestion is the current rate
 * counted under it.
 */

export interface SuggestionMeta {
	hotelName: string;
	hotelCode: number;
	/** The website the rates are of, or the lowest of all; left out, the headline names none. */
	website?: WebsiteChoice;
	/** Its name, when the operation knows it (Hotel Info's websitename). */
	websiteName?: string;
	los: number;
	guests: number;
	/** How many changes the text and html list; the rest are counted. Default 50, as Digest's Max Changes in Text. */
	maxListed?: number;
}

export interface SuggestionCounts {
	dates: number;
	/** Dates with a suggestion that differs from my current rate. */
	changes: number;
	up: number;
	down: number;
	/** Dates with a suggestion equal to my current rate. */
	unchanged: number;
	/** Dates without a suggestion (sold out, not shopped, too few competitors, no anchor). */
	skipped: number;
}

export interface SuggestionSummary {
	counts: SuggestionCounts;
	/** The changes, biggest move first. */
	changes: Suggestion[];
	text: string;
	html: string;
}

export const DEFAULT_MAX_LISTED = 50;

const isChange = (suggestion: Suggestion) => suggestion.change !== null && suggestion.change !== 0;

/** Biggest move first (by its percentage, up or down), then by date. */
function byBiggestMove(a: Suggestion, b: Suggestion): number {
	return Math.abs(b.changePercent ?? 0) - Math.abs(a.changePercent ?? 0) || (a.date < b.date ? -1 : a.date > b.date ? 1 : 0);
}

export function suggestionCounts(suggestions: readonly Suggestion[]): SuggestionCounts {
	const counts: SuggestionCounts = { dates: suggestions.length, changes: 0, up: 0, down: 0, unchanged: 0, skipped: 0 };
	for (const suggestion of suggestions) {
		if (suggestion.skipped !== null || suggestion.change === null) counts.skipped++;
		else if (suggestion.change === 0) counts.unchanged++;
		else {
			counts.changes++;
			if (suggestion.change > 0) counts.up++;
			else counts.down++;
		}
	}
	return counts;
}

function headline(counts: SuggestionCounts, meta: SuggestionMeta): string {
	const hotel = `${meta.hotelName || `Hotel ${meta.hotelCode}`} (${meta.hotelCode})`;
	const website = meta.website === undefined ? [] : [meta.website === 'lowest' ? 'lowest of all websites' : websiteLabel(meta.website, meta.websiteName)];
	const stay = `${meta.los} night${meta.los === 1 ? '' : 's'}, ${meta.guests} guest${meta.guests === 1 ? '' : 's'}`;
	const what =
		counts.changes === 0
			? 'no rate to change'
			: `${counts.changes} rate${counts.changes === 1 ? '' : 's'} to approve (${counts.up} up, ${counts.down} down)`;
	return `Suggested rates for ${[hotel, stay, ...website].join(', ')}: ${what}`;
}

function tailLine(counts: SuggestionCounts, more: number): string {
	return [
		...(more > 0 ? [`and ${more} more change${more === 1 ? '' : 's'}, smaller than those listed`] : []),
		`${counts.unchanged} date${counts.unchanged === 1 ? '' : 's'} unchanged (the suggestion is the current rate)`,
	].join('; ');
}

/** What the message shows of one date: a change to approve, or a date without a suggestion. */
interface Row {
	date: string;
	current: string;
	suggested: string;
	change: string;
	why: string;
	direction: 'up' | 'down' | 'none';
}

/**
 * "+10.0 %", "−5.0 %": a move to one decimal, whatever its size, so moves of one rule read alike
 * (a cap of 10 % rounded to .99 moves 9.99 % or 9.97 %, both "+10.0 %").
 */
function movePercent(value: number): string {
	return `${value > 0 ? '+' : value < 0 ? '−' : ''}${Math.abs(value).toFixed(1)} %`;
}

function rowOf(suggestion: Suggestion): Row {
	const date = `${suggestion.weekday} ${suggestion.date}`;
	if (suggestion.suggestedRate === null || suggestion.change === null) {
		const current = suggestion.skipped === 'soldOut' ? 'sold out' : suggestion.currentRate === null ? 'not shopped' : formatAmount(suggestion.currentRate);
		return { date, current, suggested: 'none', change: '', why: suggestion.reason.replace(/^no suggestion: /, ''), direction: 'none' };
	}
	const currency = suggestion.currency ? ` ${suggestion.currency}` : '';
	return {
		date,
		current: formatAmount(suggestion.currentRate ?? 0),
		suggested: `${formatAmount(suggestion.suggestedRate)}${currency}`,
		change: `${signedAmount(suggestion.change)} (${movePercent(suggestion.changePercent ?? 0)})`,
		why: suggestion.reason,
		direction: suggestion.change > 0 ? 'up' : 'down',
	};
}

const TH = 'text-align:left;padding:6px 6px 2px 6px;border-bottom:2px solid #dadce0;font-size:12px;color:#5f6368;';
const TD = 'text-align:left;padding:6px 6px 0 6px;vertical-align:top;white-space:nowrap;font-size:13px;';
const WHY = 'text-align:left;padding:0 6px 6px 6px;border-bottom:1px solid #dadce0;font-size:12px;color:#3c4043;';
const COLOURS = { up: '#137333', down: '#c5221f', none: '#5f6368' } as const;

/**
 * Four columns of figures and, under them, the date's reason across the table's width: n8n's Send
 * and Wait card is narrow, and a fifth column for the reason wrapped it a word a line.
 */
function htmlTable(rows: readonly Row[]): string {
	const header = ['Date', 'Current', 'Suggested', 'Change'].map((cell) => `<th style="${TH}">${cell}</th>`).join('');
	const body = rows.map((row) => {
		// A date without a suggestion in grey: it asks nothing of the approver.
		const figure = `${TD}color:${row.direction === 'none' ? COLOURS.none : '#202124'};`;
		const cells = [
			`<td style="${figure}">${escapeHtml(row.date)}</td>`,
			`<td style="${figure}">${escapeHtml(row.current)}</td>`,
			`<td style="${figure}">${row.direction === 'none' ? escapeHtml(row.suggested) : `<strong>${escapeHtml(row.suggested)}</strong>`}</td>`,
			`<td style="${TD}color:${COLOURS[row.direction]};">${escapeHtml(row.change)}</td>`,
		];
		return `<tr>${cells.join('')}</tr><tr><td colspan="4" style="${WHY}">${escapeHtml(row.why)}</td></tr>`;
	});
	return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="width:100%;border-collapse:collapse;"><tr>${header}</tr>${body.join('')}</table>`;
}

/** The table as text in a code block, its columns aligned; each date's reason on the line under it, where a long one may wrap. */
function textTable(rows: readonly Row[]): string {
	const columns: Array<{ title: string; of: (row: Row) => string; right?: boolean }> = [
		{ title: 'Date', of: (row) => row.date },
		{ title: 'Current', of: (row) => row.current, right: true },
		{ title: 'Suggested', of: (row) => row.suggested, right: true },
		{ title: 'Change', of: (row) => row.change },
	];
	const widths = columns.map((column) => Math.max(column.title.length, ...rows.map((row) => column.of(row).length)));
	const line = (cells: string[]) => cells.map((cell, index) => (columns[index].right ? cell.padStart(widths[index]) : cell.padEnd(widths[index]))).join('  ').trimEnd();
	return ['```', line(columns.map((column) => column.title)), ...rows.flatMap((row) => [line(columns.map((column) => column.of(row))), `  ${row.why}`]), '```'].join('\n');
}

const byDate = (a: Suggestion, b: Suggestion) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0);

/**
 * The approval message: a headline with the counts, then one table by date of the changes (the
 * biggest maxListed of them) and of the dates without a suggestion, each with why; the dates
 * whose suggestion is the current rate counted under it. The HTML is one line (n8n's Send and Wait
 * email keeps line breaks), its tables left-aligned inside Send and Wait's centred card; the text
 * is the same table in a code block for Slack or Teams.
 */
export function suggestionSummary(suggestions: readonly Suggestion[], meta: SuggestionMeta): SuggestionSummary {
	const counts = suggestionCounts(suggestions);
	const changes = suggestions.filter(isChange).sort(byBiggestMove);
	const listed = changes.slice(0, meta.maxListed ?? DEFAULT_MAX_LISTED);
	const more = changes.length - listed.length;
	const without = suggestions.filter((suggestion) => suggestion.skipped !== null || suggestion.change === null);
	const rows = [...listed, ...without].sort(byDate).map(rowOf);
	const title = headline(counts, meta);
	const tail = tailLine(counts, more);
	const text = [`*${title}*`, ...(rows.length > 0 ? [textTable(rows)] : []), tail].join('\n');
	const html = [
		`<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:600px;border-collapse:collapse;font-family:Arial,Helvetica,sans-serif;color:#202124;text-align:left;">`,
		`<tr><td style="padding:4px 0;text-align:left;font-size:16px;font-weight:bold;">${escapeHtml(title)}</td></tr>`,
		...(rows.length > 0 ? [`<tr><td style="padding:4px 0;">${htmlTable(rows)}</td></tr>`] : []),
		`<tr><td style="padding:4px 0;text-align:left;font-size:12px;color:#5f6368;">${escapeHtml(tail)}</td></tr>`,
		'</table>',
	].join('');
	return { counts, changes, text, html };
}
