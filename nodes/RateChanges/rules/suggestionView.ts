import { formatAmount, signedAmount, signedPercent } from './amounts';
import { emailTable, escapeHtml } from './html';
import type { Suggestion } from './suggestion';

/** Suggested Rates as an approval message: the dates whose rate would change, biggest moves first. */

export interface SuggestionMeta {
	hotelName: string;
	hotelCode: number;
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
	const stay = `${meta.los} night${meta.los === 1 ? '' : 's'}, ${meta.guests} guest${meta.guests === 1 ? '' : 's'}`;
	const what =
		counts.changes === 0
			? 'no rate to change'
			: `${counts.changes} rate${counts.changes === 1 ? '' : 's'} to approve (${counts.up} up, ${counts.down} down)`;
	return `Suggested rates for ${hotel}, ${stay}: ${what}`;
}

function tailLine(counts: SuggestionCounts): string {
	return `${counts.unchanged} date${counts.unchanged === 1 ? '' : 's'} unchanged, ${counts.skipped} without a suggestion`;
}

/** "173.00 → 189.99 EUR (+16.99, +9.82 %)". */
function move(suggestion: Suggestion): string {
	const currency = suggestion.currency ? ` ${suggestion.currency}` : '';
	return `${formatAmount(suggestion.currentRate ?? 0)} → ${formatAmount(suggestion.suggestedRate ?? 0)}${currency} (${signedAmount(suggestion.change ?? 0)}, ${signedPercent(suggestion.changePercent ?? 0)})`;
}

const TH = 'text-align:left;padding:6px;border-bottom:2px solid #dadce0;font-size:12px;color:#5f6368;';
const TD = 'padding:6px;border-bottom:1px solid #dadce0;font-size:13px;vertical-align:top;';

function changesTable(listed: readonly Suggestion[]): string {
	const header = ['Date', 'Current', 'Suggested', 'Change', 'Why'].map((cell) => `<td style="${TH}">${cell}</td>`).join('');
	const rows = listed.map((suggestion) => {
		const colour = (suggestion.change ?? 0) > 0 ? '#137333' : '#c5221f';
		const cells = [
			`<td style="${TD}white-space:nowrap;">${escapeHtml(`${suggestion.weekday} ${suggestion.date}`)}</td>`,
			`<td style="${TD}white-space:nowrap;">${escapeHtml(formatAmount(suggestion.currentRate ?? 0))}</td>`,
			`<td style="${TD}white-space:nowrap;"><strong>${escapeHtml(`${formatAmount(suggestion.suggestedRate ?? 0)} ${suggestion.currency ?? ''}`.trimEnd())}</strong></td>`,
			`<td style="${TD}white-space:nowrap;color:${colour};">${escapeHtml(signedPercent(suggestion.changePercent ?? 0))}</td>`,
			`<td style="${TD}font-size:12px;color:#3c4043;">${escapeHtml(suggestion.reason)}</td>`,
		];
		return `<tr>${cells.join('')}</tr>`;
	});
	return [
		`<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="width:100%;border-collapse:collapse;">`,
		`<tr>${header}</tr>`,
		...rows,
		'</table>',
	].join('\n');
}

/**
 * The approval message: a headline with the counts, then each date whose suggestion differs
 * from my current rate, biggest move first, with its reason; up to maxListed, the rest counted.
 */
export function suggestionSummary(suggestions: readonly Suggestion[], meta: SuggestionMeta): SuggestionSummary {
	const counts = suggestionCounts(suggestions);
	const changes = suggestions.filter(isChange).sort(byBiggestMove);
	const listed = changes.slice(0, meta.maxListed ?? DEFAULT_MAX_LISTED);
	const more = changes.length - listed.length;
	const text = [
		`*${headline(counts, meta)}*`,
		...listed.map((suggestion) => `• ${suggestion.weekday} ${suggestion.date}: ${move(suggestion)}: ${suggestion.reason}`),
		...(more > 0 ? [`and ${more} more`] : []),
		tailLine(counts),
	].join('\n');
	const html = emailTable([
		`<div style="font-size:16px;font-weight:bold;">${escapeHtml(headline(counts, meta))}</div>`,
		...(listed.length > 0 ? [changesTable(listed)] : []),
		...(more > 0 ? [`<div style="font-size:13px;">and ${more} more</div>`] : []),
		`<div style="font-size:12px;color:#5f6368;">${escapeHtml(tailLine(counts))}</div>`,
	]);
	return { counts, changes, text, html };
}
