import type { IDataObject } from 'n8n-workflow';

import type { ReportedChange, ReportedType } from './alert';
import { percentChange, round2 } from './amounts';
import { escapeHtml } from './html';
import { websiteLabel } from './websites';

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
	return value === null ? 'sold out' : `${value.toFixed(2)} ${currency}`.trimEnd();
}

/** "+12.0 %", "−8.0 %" (a true minus sign). */
function signedPercent(percent: number): string {
	return `${percent > 0 ? '+' : percent < 0 ? '−' : ''}${Math.abs(percent).toFixed(1)} %`;
}

/**
 * The one sign convention of every signed percentage a digest shows: the alert's rate against the
 * one it is set beside (the previous rate, the reference website's), as a percentage of that one;
 * minus: the alert's rate is lower. An undercut is not signed: it is read as the trade reads it,
 * how far the competitor is below my rate as a share of mine (undercutPercent), said in words.
 */
export function differencePercent(change: ReportedChange): number | null {
	switch (change.changeType) {
		case 'up':
		case 'down':
			return change.changePercent;
		case 'parityLoss':
			return change.rate === null || change.comparedRate === null || change.comparedRate === 0 ? null : percentChange(change.comparedRate, change.rate);
		default:
			return null;
	}
}

/** How far the competitor is below my rate, as a percentage of my rate: 3081.66 against my 3921.38 is 21.4. */
export function undercutPercent(change: ReportedChange): number | null {
	if (change.changeType !== 'undercut' || change.rate === null || change.comparedRate === null || change.rate === 0) return null;
	return round2(((change.rate - change.comparedRate) / change.rate) * 100);
}

export const SIGN_NOTE = 'Percentages: each rate against the one before it or compared with it (the previous rate, the reference website); minus means lower.';

function percentText(change: ReportedChange): string {
	const below = undercutPercent(change);
	if (below !== null) return `${below.toFixed(1)} % below mine`;
	const percent = differencePercent(change);
	return percent === null ? '' : signedPercent(percent);
}

/** "100.00 → 112.00 EUR (+12.0 %)": the first rate, the second with the currency, and the second against the first. */
function fromTo(change: ReportedChange, first: number | null, second: number | null): string {
	const percent = percentText(change);
	return `${first === null ? 'sold out' : first.toFixed(2)} → ${amount(second, change.currency)}${percent ? ` (${percent})` : ''}`;
}

/** "100.00 → 112.00 EUR (+12.0 %)", "sold out (was 100.00 EUR)", "undercut: hotel 100067 Quay Inn 180.00 EUR, 10.0 % below mine (200.00 EUR)". */
export function describeMove(change: ReportedChange): string {
	switch (change.changeType) {
		case 'soldOut':
			return `sold out (was ${amount(change.previousRate, change.currency)})`;
		case 'backOnSale':
			return `back on sale at ${amount(change.rate, change.currency)}`;
		case 'firstSeen':
			return change.rate === null ? 'first seen, sold out' : `first seen at ${amount(change.rate, change.currency)}`;
		case 'undercut':
			return `undercut: ${change.comparedWith} ${amount(change.comparedRate, change.currency)}${undercutPercent(change) === null ? '' : `, ${percentText(change)}`} (${amount(change.rate, change.currency)})`;
		case 'rankChanged':
			return `${change.comparedWith}, at ${amount(change.rate, change.currency)}`;
		case 'parityLoss':
			return `parity loss${change.severity ? ` (${change.severity})` : ''}: ${change.comparedWith} ${fromTo(change, change.comparedRate, change.rate)}`;
		default:
			return fromTo(change, change.previousRate, change.rate);
	}
}

function hotelOf(change: ReportedChange): string {
	return `${change.hotelName || `Hotel ${change.hotelCode}`} (${change.hotelCode})`;
}

function websiteOf(change: ReportedChange): string {
	return change.websiteCode ? websiteLabel(change.websiteCode, change.websiteName) : 'all websites';
}

function stayLabel(change: ReportedChange, withHotel: boolean): string {
	const nights = `${change.los} night${change.los === 1 ? '' : 's'}`;
	return [...(withHotel ? [hotelOf(change)] : []), websiteOf(change), change.checkIn, nights, ...(change.roomType ? [change.roomType] : [])].join(', ');
}

function counts(changes: readonly ReportedChange[]): Record<ReportedType, number> {
	const result: Record<ReportedType, number> = { up: 0, down: 0, soldOut: 0, backOnSale: 0, firstSeen: 0, undercut: 0, rankChanged: 0, parityLoss: 0 };
	for (const change of changes) result[change.changeType] = (result[change.changeType] ?? 0) + 1;
	return result;
}

/** What happened, counted by kind in words: "2 rates up", "1 undercut", "3 parity losses". */
const KIND_WORDS: Record<ReportedType, [one: string, many: string]> = {
	up: ['rate up', 'rates up'],
	down: ['rate down', 'rates down'],
	soldOut: ['sold out', 'sold out'],
	backOnSale: ['back on sale', 'back on sale'],
	firstSeen: ['first seen', 'first seen'],
	undercut: ['undercut', 'undercuts'],
	rankChanged: ['change of rank', 'changes of rank'],
	parityLoss: ['parity loss', 'parity losses'],
};

/** "Rate shop 7: 4 undercuts, 1 parity loss". */
function summaryLine(title: string, changes: readonly ReportedChange[]): string {
	const byType = counts(changes);
	const parts = (Object.keys(LABELS) as ReportedType[]).filter((type) => byType[type] > 0).map((type) => `${byType[type]} ${KIND_WORDS[type][byType[type] === 1 ? 0 : 1]}`);
	return `${title}: ${parts.join(', ')}`;
}

function comparedCell(change: ReportedChange): string {
	switch (change.changeType) {
		case 'firstSeen':
		case 'backOnSale':
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

function html(title: string, changes: readonly ReportedChange[], listed: readonly ReportedChange[], withHotel: boolean): string {
	const header = [...(withHotel ? ['Hotel'] : []), 'Website', 'Check-in', 'Nights', 'Room', 'Alert', 'Before or compared with', 'Rate', 'Difference'];
	const rows = listed.map((change) =>
		[
			...(withHotel ? [hotelOf(change)] : []),
			change.websiteCode ? websiteLabel(change.websiteCode, change.websiteName) : 'all',
			change.checkIn,
			String(change.los),
			change.roomType,
			LABELS[change.changeType],
			comparedCell(change),
			amount(change.rate, change.currency),
			percentText(change),
		]
			.map((cell) => `<td>${escapeHtml(cell)}</td>`)
			.join(''),
	);
	const more = changes.length - listed.length;
	const signed = listed.some((change) => differencePercent(change) !== null);
	return [
		`<p><strong>${escapeHtml(summaryLine(title, changes))}</strong></p>`,
		'<table cellpadding="4" cellspacing="0" border="0">',
		`<tr>${header.map((cell) => `<th align="left">${cell}</th>`).join('')}</tr>`,
		...rows.map((row) => `<tr>${row}</tr>`),
		'</table>',
		...(more > 0 ? [`<p>and ${more} more</p>`] : []),
		...(signed ? [`<p><small>${escapeHtml(SIGN_NOTE)}</small></p>`] : []),
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
			// One hotel in the digest: named once, in the title, rather than on every row.
			const oneHotel = new Set(sorted.map((change) => change.hotelCode)).size === 1;
			const title = oneHotel && options.groupBy === 'shop' ? `${key.title}, ${hotelOf(sorted[0])}` : key.title;
			const signed = listed.some((change) => differencePercent(change) !== null);
			return {
				digestId: options.digestId,
				...key.fields,
				changeCount: sorted.length,
				...byType,
				collectedFrom: collected[0],
				collectedTo: collected[collected.length - 1],
				text: [
					`*${summaryLine(title, sorted)}*`,
					...listed.map((change) => `• ${stayLabel(change, !oneHotel)}: ${describeMove(change)}`),
					...(more > 0 ? [`and ${more} more`] : []),
					...(signed ? [SIGN_NOTE] : []),
				].join('\n'),
				html: html(title, sorted, listed, !oneHotel),
				changes: sorted as unknown as IDataObject[],
			};
		});
}
