import type { IDataObject } from 'n8n-workflow';

import type { ChangeType } from './rateChanges';
import type { ReportedChange } from './tables';

/** One digest per shop (or hotel): what a Slack post, a Teams card or an email needs. */

export type DigestGroup = 'shop' | 'hotel';

const LABELS: Record<ChangeType, string> = {
	up: 'up',
	down: 'down',
	soldOut: 'sold out',
	backOnSale: 'back on sale',
	firstSeen: 'first seen',
};

/**
 * Biggest first: sold out and back on sale count as a full (100 %) move, a first sighting as
 * none; ties keep hotel, website and check-in order, so a digest reads the same every time.
 */
export function changeSize(change: ReportedChange): number {
	switch (change.changeType) {
		case 'soldOut':
		case 'backOnSale':
			return 100;
		case 'firstSeen':
			return 0;
		default:
			return Math.abs(change.changePercent ?? 0);
	}
}

function byBiggest(a: ReportedChange, b: ReportedChange): number {
	return (
		changeSize(b) - changeSize(a) ||
		a.hotelCode - b.hotelCode ||
		a.websiteCode - b.websiteCode ||
		a.checkIn.localeCompare(b.checkIn) ||
		a.roomType.localeCompare(b.roomType) ||
		a.los - b.los ||
		a.guests - b.guests
	);
}

function amount(value: number | null, currency: string): string {
	return value === null ? 'sold out' : `${value.toFixed(2)} ${currency}`;
}

/** "+12.50 USD (+8.3 %)", "sold out", "back on sale at 140.00 USD". */
export function describeMove(change: ReportedChange): string {
	switch (change.changeType) {
		case 'soldOut':
			return `sold out (was ${amount(change.previousRate, change.currency)})`;
		case 'backOnSale':
			return `back on sale at ${amount(change.rate, change.currency)}`;
		case 'firstSeen':
			return change.rate === null ? 'first seen, sold out' : `first seen at ${amount(change.rate, change.currency)}`;
		default: {
			const sign = (change.change ?? 0) > 0 ? '+' : '';
			return `${amount(change.previousRate, change.currency)} → ${amount(change.rate, change.currency)} (${sign}${(change.changePercent ?? 0).toFixed(1)} %)`;
		}
	}
}

function stayLabel(change: ReportedChange): string {
	const nights = `${change.los} night${change.los === 1 ? '' : 's'}`;
	const room = change.roomType ? `, ${change.roomType}` : '';
	return `${change.hotelName || `Hotel ${change.hotelCode}`} (${change.hotelCode}), website ${change.websiteCode}, ${change.checkIn}, ${nights}${room}`;
}

function counts(changes: readonly ReportedChange[]): Record<ChangeType, number> {
	const result: Record<ChangeType, number> = { up: 0, down: 0, soldOut: 0, backOnSale: 0, firstSeen: 0 };
	for (const change of changes) result[change.changeType] = (result[change.changeType] ?? 0) + 1;
	return result;
}

function summaryLine(title: string, changes: readonly ReportedChange[]): string {
	const byType = counts(changes);
	const parts = (Object.keys(LABELS) as ChangeType[]).filter((type) => byType[type] > 0).map((type) => `${byType[type]} ${LABELS[type]}`);
	return `${title}: ${changes.length} rate change${changes.length === 1 ? '' : 's'} (${parts.join(', ')})`;
}

const escapeHtml = (text: string) =>
	text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] as string);

function html(title: string, changes: readonly ReportedChange[], listed: readonly ReportedChange[]): string {
	const header = ['Hotel', 'Website', 'Check-in', 'Nights', 'Room', 'Change', 'Previous', 'Now', 'Change %'];
	const rows = listed.map((change) =>
		[
			`${change.hotelName || `Hotel ${change.hotelCode}`} (${change.hotelCode})`,
			String(change.websiteCode),
			change.checkIn,
			String(change.los),
			change.roomType,
			LABELS[change.changeType],
			change.changeType === 'firstSeen' ? '' : amount(change.previousRate, change.currency),
			amount(change.rate, change.currency),
			change.changePercent === null ? '' : `${change.changePercent.toFixed(1)} %`,
		]
			.map((cell) => `<td>${escapeHtml(cell)}</td>`)
			.join(''),
	);
	const more = changes.length - listed.length;
	return [
		`<p><strong>${escapeHtml(summaryLine(title, changes))}</strong></p>`,
		'<table>',
		`<tr>${header.map((cell) => `<th>${cell}</th>`).join('')}</tr>`,
		...rows.map((row) => `<tr>${row}</tr>`),
		'</table>',
		...(more > 0 ? [`<p>and ${more} more</p>`] : []),
	].join('\n');
}

/**
 * The digest items for the changes one digest reported: one per shop or hotel, in shop (or
 * hotel) order, each with its changes biggest first.
 */
export function buildDigests(
	changes: readonly ReportedChange[],
	options: { digestId: string; groupBy: DigestGroup; maxListed: number },
): IDataObject[] {
	const groups = new Map<string, ReportedChange[]>();
	for (const change of changes) {
		const key = options.groupBy === 'hotel' ? String(change.hotelCode) : String(change.shopId ?? '');
		groups.set(key, [...(groups.get(key) ?? []), change]);
	}
	const keys = [...groups.keys()].sort((a, b) => Number(a) - Number(b) || a.localeCompare(b));
	return keys.map((key) => {
		const sorted = [...(groups.get(key) as ReportedChange[])].sort(byBiggest);
		const first = sorted[0];
		const title =
			options.groupBy === 'hotel'
				? `${first.hotelName || `Hotel ${first.hotelCode}`} (${first.hotelCode})`
				: first.shopId === null
					? 'Rate shop'
					: `Rate shop ${first.shopId}`;
		const listed = sorted.slice(0, options.maxListed);
		const more = sorted.length - listed.length;
		const byType = counts(sorted);
		const collected = sorted.map((change) => change.dtCollected).sort();
		return {
			digestId: options.digestId,
			...(options.groupBy === 'hotel' ? { hotelCode: first.hotelCode, hotelName: first.hotelName } : { shopId: first.shopId }),
			changeCount: sorted.length,
			up: byType.up,
			down: byType.down,
			soldOut: byType.soldOut,
			backOnSale: byType.backOnSale,
			firstSeen: byType.firstSeen,
			collectedFrom: collected[0],
			collectedTo: collected[collected.length - 1],
			text: [
				`*${summaryLine(title, sorted)}*`,
				...listed.map((change) => `• ${stayLabel(change)}: ${describeMove(change)}`),
				...(more > 0 ? [`and ${more} more`] : []),
			].join('\n'),
			html: html(title, sorted, listed),
			changes: sorted as unknown as IDataObject[],
		};
	});
}
