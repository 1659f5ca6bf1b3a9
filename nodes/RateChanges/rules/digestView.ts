import type { IDataObject } from 'n8n-workflow';

import type { ReportedChange, ReportedType } from './alert';
import { escapeHtml } from './html';

/** One digest per shop, hotel, or hotel and day: what a Slack post, a Teams card or an email needs. */

export type DigestGroup = 'shop' | 'hotel' | 'hotelDay';

const LABELS: Record<ReportedType, string> = {
	up: 'up',
	down: 'down',
	soldOut: 'sold out',
	backOnSale: 'back on sale',
	firstSeen: 'first seen',
	undercut: 'undercut',
	rankChanged: 'rank changed',
	parityLoss: 'parity loss',
};

/**
 * Biggest first: sold out and back on sale count as a full (100 %) move, a first sighting and a
 * change of rank as none; an undercut or a parity loss by how far below it is. Ties keep hotel,
 * website and check-in order, so a digest reads the same every time.
 */
export function changeSize(change: ReportedChange): number {
	switch (change.changeType) {
		case 'soldOut':
		case 'backOnSale':
			return 100;
		case 'firstSeen':
		case 'rankChanged':
			return 0;
		default:
			return Math.abs(change.changePercent ?? 0);
	}
}

function byBiggest(a: ReportedChange, b: ReportedChange): number {
	return (
		changeSize(b) - changeSize(a) ||
		a.hotelCode - b.hotelCode ||
		(a.websiteCode ?? 0) - (b.websiteCode ?? 0) ||
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
		case 'undercut':
			return `undercut by ${change.comparedWith} at ${amount(change.comparedRate, change.currency)}, ${(change.changePercent ?? 0).toFixed(1)} % below your ${amount(change.rate, change.currency)}`;
		case 'rankChanged':
			return `${change.comparedWith}, at ${amount(change.rate, change.currency)}`;
		case 'parityLoss':
			return `parity loss: ${amount(change.rate, change.currency)}, ${Math.abs(change.changePercent ?? 0).toFixed(1)} % below ${change.comparedWith}'s ${amount(change.comparedRate, change.currency)} (${change.severity})`;
		default: {
			const sign = (change.change ?? 0) > 0 ? '+' : '';
			return `${amount(change.previousRate, change.currency)} → ${amount(change.rate, change.currency)} (${sign}${(change.changePercent ?? 0).toFixed(1)} %)`;
		}
	}
}

function stayLabel(change: ReportedChange): string {
	const nights = `${change.los} night${change.los === 1 ? '' : 's'}`;
	const room = change.roomType ? `, ${change.roomType}` : '';
	const website = change.websiteCode ? `, website ${change.websiteCode}` : ', all websites';
	return `${change.hotelName || `Hotel ${change.hotelCode}`} (${change.hotelCode})${website}, ${change.checkIn}, ${nights}${room}`;
}

function counts(changes: readonly ReportedChange[]): Record<ReportedType, number> {
	const result: Record<ReportedType, number> = { up: 0, down: 0, soldOut: 0, backOnSale: 0, firstSeen: 0, undercut: 0, rankChanged: 0, parityLoss: 0 };
	for (const change of changes) result[change.changeType] = (result[change.changeType] ?? 0) + 1;
	return result;
}

function summaryLine(title: string, changes: readonly ReportedChange[]): string {
	const byType = counts(changes);
	const parts = (Object.keys(LABELS) as ReportedType[]).filter((type) => byType[type] > 0).map((type) => `${byType[type]} ${LABELS[type]}`);
	return `${title}: ${changes.length} rate change${changes.length === 1 ? '' : 's'} (${parts.join(', ')})`;
}


function comparedCell(change: ReportedChange): string {
	switch (change.changeType) {
		case 'firstSeen':
			return '';
		case 'rankChanged':
			return change.comparedWith;
		case 'undercut':
		case 'parityLoss':
			return `${change.comparedWith}: ${amount(change.comparedRate, change.currency)}`;
		default:
			return amount(change.previousRate, change.currency);
	}
}

function html(title: string, changes: readonly ReportedChange[], listed: readonly ReportedChange[]): string {
	const header = ['Hotel', 'Website', 'Check-in', 'Nights', 'Room', 'Change', 'Previous or compared with', 'Now', 'Change %'];
	const rows = listed.map((change) =>
		[
			`${change.hotelName || `Hotel ${change.hotelCode}`} (${change.hotelCode})`,
			change.websiteCode ? String(change.websiteCode) : 'all',
			change.checkIn,
			String(change.los),
			change.roomType,
			LABELS[change.changeType],
			comparedCell(change),
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

interface DigestKey {
	key: string;
	order: Array<number | string>;
	title: string;
	fields: IDataObject;
}

function digestKey(change: ReportedChange, groupBy: DigestGroup): DigestKey {
	const hotel = `${change.hotelName || `Hotel ${change.hotelCode}`} (${change.hotelCode})`;
	switch (groupBy) {
		case 'hotel':
			return { key: String(change.hotelCode), order: [change.hotelCode], title: hotel, fields: { hotelCode: change.hotelCode, hotelName: change.hotelName } };
		case 'hotelDay':
			return {
				key: `${change.hotelCode}|${change.checkIn}`,
				order: [change.hotelCode, change.checkIn],
				title: `${hotel}, ${change.checkIn}`,
				fields: { hotelCode: change.hotelCode, hotelName: change.hotelName, checkIn: change.checkIn },
			};
		default:
			return {
				key: String(change.shopId ?? ''),
				order: [change.shopId ?? 0],
				title: change.shopId === null ? 'Rate shop' : `Rate shop ${change.shopId}`,
				fields: { shopId: change.shopId },
			};
	}
}

function byOrder(a: DigestKey, b: DigestKey): number {
	for (let index = 0; index < a.order.length; index++) {
		const [x, y] = [a.order[index], b.order[index]];
		const difference = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
		if (difference !== 0) return difference;
	}
	return 0;
}

/**
 * The digest items for the changes one digest reported: one per shop, hotel, or hotel and
 * check-in day, in that order, each with its changes biggest first.
 */
export function buildDigests(
	changes: readonly ReportedChange[],
	options: { digestId: string; groupBy: DigestGroup; maxListed: number },
): IDataObject[] {
	const groups = new Map<string, { key: DigestKey; changes: ReportedChange[] }>();
	for (const change of changes) {
		const key = digestKey(change, options.groupBy);
		const group = groups.get(key.key) ?? { key, changes: [] };
		group.changes.push(change);
		groups.set(key.key, group);
	}
	return [...groups.values()]
		.sort((a, b) => byOrder(a.key, b.key))
		.map(({ key, changes: grouped }) => {
			const sorted = [...grouped].sort(byBiggest);
			const listed = sorted.slice(0, options.maxListed);
			const more = sorted.length - listed.length;
			const byType = counts(sorted);
			const collected = sorted.map((change) => change.dtCollected).sort();
			return {
				digestId: options.digestId,
				...key.fields,
				changeCount: sorted.length,
				...byType,
				collectedFrom: collected[0],
				collectedTo: collected[collected.length - 1],
				text: [
					`*${summaryLine(key.title, sorted)}*`,
					...listed.map((change) => `• ${stayLabel(change)}: ${describeMove(change)}`),
					...(more > 0 ? [`and ${more} more`] : []),
				].join('\n'),
				html: html(key.title, sorted, listed),
				changes: sorted as unknown as IDataObject[],
			};
		});
}
