import { randomBytes } from 'crypto';

import type { IDataObject, IExecuteFunctions, NodeApiError } from 'n8n-workflow';

import type { ReportedChange, ReportedType } from '../rules/alert';
import { storedNumber } from '../rules/observation';

import { allOf, eq, type DataTables, type Row, type RowCondition, type TableHandle } from './dataTables';
import { packedTimes, unpackedTimes } from './monthCells';
import { stayMonthKey } from './stayMonths';

/**
 * The changes table: what each execution alerted, written before the rows it alerted on move on,
 * so that no alert is ever lost between two writes, and confirmed after, so that no alert is put
 * out twice (docs/nodes/rate-changes-reference.md, "Exactly once").
 *
 * One row (an entry) per round of writes of one execution, its alerts packed in `alerts`:
 * - written `tentative`, with the alerts its writes will make if they get in;
 * - then the month rows are written, each naming the entry's token in `writers` (monthRows.ts);
 * - then `confirmed` with the alerts of the rows that got in, by a compare-and-set on its state:
 *   whoever confirms an entry puts its alerts out, so they come out once.
 * An entry left tentative (its execution died, or lost n8n's answer for good) is resolved by the
 * next execution that finds it old enough, or by a retry of the same records at once: its alerts
 * count for exactly the month rows whose `writers` still name its token; the rest never happened.
 * Digest claims confirmed entries with a compare-and-set on an empty `digestId`, then packs what it
 * claimed into rows of its own (`reported`), each naming the entries it holds, and removes those:
 * an entry of one alert (a delivery of one record) takes a row of several hundred bytes, an alert
 * in a digest's row a few dozen (docs/nodes/rate-changes-reference.md, "Size").
 */

/**
 * What a row of the changes table is: an entry whose alerts are being written (`tentative`), an
 * entry whose alerts came out (`confirmed`), a digest's row (`reported`), or a row of the daily
 * clean-up (`meta`, housekeeping.ts), which reuses the table's columns: `entry` `housekeeping` (or
 * `housekeeping|<table id>` for a month table's), `collectedTo` the day last cleaned, `alerts` what
 * Digest reports of the clean-ups.
 */
export type EntryState = 'tentative' | 'confirmed' | 'reported' | 'meta';

/** An alert and the month row it belongs to (the row whose write made it). */
export interface JournalAlert extends ReportedChange {
	block: string;
}

export interface Entry {
	id: number;
	token: string;
	state: EntryState;
	operation: string;
	/** The id of the data table whose month rows the alerts belong to. */
	monthTable: string;
	alerts: JournalAlert[];
	createdAt: string;
	resolvedBy: string;
	digestId: string | null;
	/** A digest's row: the ids of the entries whose alerts it holds. */
	replaces: number[];
}

/** An entry younger than this whose execution may still be running is left to it. */
export const ORPHAN_AFTER_MS = 10 * 60_000;

/** The most alerts one digest row holds: its text stays well under n8n's request body limit. */
export const ALERTS_PER_DIGEST_ROW = 5_000;

/** A token for one round of writes of one execution: its execution id, so a row tells who wrote it, and a random part. */
export function newToken(context: IExecuteFunctions): string {
	return `${context.getExecutionId() ?? 'x'}.${randomBytes(6).toString('base64url')}`;
}

export class Journal {
	constructor(
		readonly api: DataTables,
		readonly table: TableHandle,
	) {}

	/** Writes the alerts a round's writes to the month rows of `monthTable` will make, before any of them is made. */
	async begin(token: string, operation: string, monthTable: TableHandle, alerts: readonly JournalAlert[]): Promise<void> {
		const row = { entry: token, state: 'tentative', operation, monthTable: monthTable.id, ...packed(alerts) };
		await this.api.insertRows(this.table, [row], async () => (await this.find(token)) !== undefined);
	}

	/**
	 * Confirms the entry with the alerts whose rows got in: true when this execution confirmed it,
	 * and so puts them out; false when another execution resolved it first (this one ran so long
	 * that its entry was taken for an orphan), which then put them out or left them to the digest.
	 * An entry with no alert left goes.
	 */
	async confirm(token: string, alerts: readonly JournalAlert[], resolvedBy = token): Promise<boolean> {
		const tentative = allOf(eq('entry', token), eq('state', 'tentative'));
		if (alerts.length === 0) {
			// Left behind, the entry does no harm: none of its rows names it, so whoever resolves it
			// finds nothing happened and removes it. Failing here would cost the alerts of the
			// entries this execution confirmed before it.
			await this.api.deleteRows(this.table, tentative).catch(() => undefined);
			return true;
		}
		let answer: { rows: Row[]; uncertain: boolean };
		try {
			answer = await this.api.updateRows(this.table, tentative, { state: 'confirmed', resolvedBy, ...packed(alerts) });
		} catch (error) {
			// No attempt got an answer that counts (lost, or a 500, each time), yet the first may have
			// confirmed it: the entry tells, and then this execution puts its alerts out.
			if ((await this.find(token).catch(() => undefined))?.resolvedBy === resolvedBy) return true;
			throw error as NodeApiError;
		}
		if (answer.rows.length > 0) return true;
		return answer.uncertain && (await this.find(token))?.resolvedBy === resolvedBy;
	}

	async find(token: string): Promise<Entry | undefined> {
		const [row] = await this.api.readRows(this.table, allOf(eq('entry', token)));
		return row ? entryOf(row) : undefined;
	}

	/** Entries still tentative: those of executions running now, and orphans. */
	async tentative(): Promise<Entry[]> {
		return (await this.api.readRows(this.table, allOf(eq('state', 'tentative')))).map(entryOf);
	}

	/**
	 * Claims every confirmed entry no digest has reported: n8n runs the filter and the change as
	 * one, so two digests at once never claim the same entry. A claim whose answer was lost is
	 * found again by its digest ID.
	 */
	async claim(digestId: string, reportedAt: string): Promise<Entry[]> {
		const unreported = allOf(eq('state', 'confirmed'), eq('digestId', null));
		const { rows, uncertain } = await this.api.updateRows(this.table, unreported, { digestId, reportedAt });
		return uncertain ? await this.reported(digestId) : rows.map(entryOf);
	}

	/** Every confirmed entry no digest has reported, left as it is (a preview). */
	async unreported(): Promise<Entry[]> {
		return (await this.api.readRows(this.table, allOf(eq('state', 'confirmed'), eq('digestId', null)))).map(entryOf);
	}

	/** What a digest reported: its rows, and the entries it claimed that no row of it holds yet. */
	async reported(digestId: string): Promise<Entry[]> {
		const entries = (await this.api.readRows(this.table, allOf(eq('digestId', digestId)))).map(entryOf);
		const packed = new Set(entries.flatMap((entry) => entry.replaces));
		return entries.filter((entry) => !packed.has(entry.id));
	}

	/**
	 * Packs a digest's claimed entries into rows of the digest, then removes them. Each row names the
	 * entries it holds, so whatever stops this half way (before the rows are in, or before the
	 * entries are gone), `reported` reads every alert once; a retry packs what is still unpacked.
	 */
	async pack(digestId: string, reportedAt: string, entries: readonly Entry[]): Promise<void> {
		const claimed = entries.filter((entry) => entry.state === 'confirmed' && entry.digestId === digestId);
		const rows: IDataObject[] = [];
		for (let start = 0; start < claimed.length; ) {
			let end = start;
			let alerts = 0;
			while (end < claimed.length && (end === start || alerts + claimed[end].alerts.length <= ALERTS_PER_DIGEST_ROW)) alerts += claimed[end++].alerts.length;
			const part = claimed.slice(start, end);
			rows.push({
				entry: `${digestId}.${part[0].id}`,
				state: 'reported',
				operation: 'digest',
				monthTable: [...new Set(part.map((entry) => entry.monthTable))].join(' '),
				...packed(
					part.flatMap((entry) => entry.alerts),
					part.map((entry) => entry.id),
				),
				digestId,
				reportedAt,
			});
			start = end;
		}
		if (rows.length === 0) return;
		await this.api.insertRows(this.table, rows, async (batch) => (await this.find(String(batch[0].entry))) !== undefined);
		await this.remove(claimed);
	}

	/** Removes entries and digest rows whose newest alert was collected before `cutoff` (Keep Changes). */
	async forgetBefore(cutoff: string): Promise<void> {
		const collectedBefore: RowCondition = { columnName: 'collectedTo', condition: 'lt', value: cutoff };
		await Promise.all((['confirmed', 'reported'] as const).map(async (state) => await this.api.deleteRows(this.table, allOf(collectedBefore, eq('state', state)))));
	}

	/** Removes the rows of these entries (orphans with nothing left to report). */
	async remove(entries: readonly Entry[]): Promise<void> {
		await this.api.deleteIds(this.table, entries.map((entry) => entry.id));
	}
}

/** The columns an entry writes for its alerts. */
function packed(alerts: readonly JournalAlert[], replaces: readonly number[] = []): IDataObject {
	return {
		alertCount: alerts.length,
		alerts: packAlerts(alerts, replaces),
		collectedTo: alerts.map((alert) => alert.dtCollected).sort().at(-1) ?? null,
	};
}

export function entryOf(row: Row): Entry {
	const { alerts, replaces } = unpackEntry(row.alerts);
	return {
		id: row.id,
		token: String(row.entry ?? ''),
		state: String(row.state ?? '') as EntryState,
		operation: String(row.operation ?? ''),
		monthTable: String(row.monthTable ?? ''),
		alerts,
		createdAt: String(row.createdAt ?? ''),
		resolvedBy: String(row.resolvedBy ?? ''),
		digestId: row.digestId === null || row.digestId === undefined || row.digestId === '' ? null : String(row.digestId),
		replaces,
	};
}

/**
 * The packed alerts: `{"t": [times], "g": [groups]}` (times as monthCells.ts packs them: the
 * first in full, the others as seconds from it), and in a digest's row `"r": [ids]`, the
 * entries it holds. A group holds what its alerts share (the month row, left out where it is the
 * stay month the other fields name; hotel, website, its name as `o` where known (rows written
 * before names were kept have none), stay, currency, shop, compared rate); each alert is a list:
 * `[day, changeType, previousRate, rate, change, changePercent, previousCollected, dtCollected,
 * comparedWith, comparedRate, severity]`, times as indexes into `t`, trailing empty values left out.
 */
interface PackedGroup {
	b?: string;
	k: number;
	n: string;
	w: number | null;
	/** The website's name, where known (left out of rows written before names were kept). */
	o?: string;
	m: string;
	l: number;
	u: number;
	r: string;
	c: string;
	s: number | null;
	f: string;
	a: unknown[][];
}

export function packAlerts(alerts: readonly JournalAlert[], replaces: readonly number[] = []): string {
	const times = new Map<string, number>();
	const time = (value: string | null) => {
		if (value === null) return null;
		if (!times.has(value)) times.set(value, times.size);
		return times.get(value) as number;
	};
	const groups = new Map<string, PackedGroup>();
	for (const alert of alerts) {
		const month = alert.checkIn.slice(0, 7);
		const shared = [alert.block, alert.hotelCode, alert.hotelName, alert.websiteCode, alert.websiteName ?? '', month, alert.los, alert.guests, alert.roomType, alert.currency, alert.shopId, alert.rateField];
		const key = JSON.stringify(shared);
		const group = groups.get(key) ?? {
			...(alert.websiteCode !== null && alert.block === stayMonthKey({ ...alert, websiteCode: alert.websiteCode, month }) ? {} : { b: alert.block }),
			k: alert.hotelCode,
			n: alert.hotelName,
			w: alert.websiteCode,
			...(alert.websiteName ? { o: alert.websiteName } : {}),
			m: month,
			l: alert.los,
			u: alert.guests,
			r: alert.roomType,
			c: alert.currency,
			s: alert.shopId,
			f: alert.rateField,
			a: [],
		};
		const fields: unknown[] = [
			Number(alert.checkIn.slice(8, 10)),
			alert.changeType,
			alert.previousRate,
			alert.rate,
			alert.change,
			alert.changePercent,
			time(alert.previousCollected),
			time(alert.dtCollected),
			alert.comparedWith,
			alert.comparedRate,
			alert.severity,
		];
		while (fields.length > 0 && (fields[fields.length - 1] === null || fields[fields.length - 1] === '')) fields.pop();
		group.a.push(fields);
		groups.set(key, group);
	}
	return JSON.stringify({ t: packedTimes([...times.keys()]), g: [...groups.values()], ...(replaces.length > 0 ? { r: replaces } : {}) });
}

export function unpackAlerts(text: unknown): JournalAlert[] {
	return unpackEntry(text).alerts;
}

function unpackEntry(text: unknown): { alerts: JournalAlert[]; replaces: number[] } {
	if (typeof text !== 'string' || text === '') return { alerts: [], replaces: [] };
	const { t: packed = [], g: groups = [], r: replaces = [] } = JSON.parse(text) as { t?: Array<string | number>; g?: PackedGroup[]; r?: number[] };
	const times = unpackedTimes(packed);
	const alerts = groups.flatMap((group) =>
		group.a.map((fields) => {
			const at = (index: number) => (fields[index] === undefined ? null : fields[index]);
			const timeAt = (index: number) => (typeof fields[index] === 'number' ? times[fields[index] as number] : null);
			return {
				block: group.b ?? stayMonthKey({ hotelCode: group.k, websiteCode: group.w ?? 0, month: group.m, los: group.l, guests: group.u, roomType: group.r }),
				shopId: group.s,
				hotelCode: group.k,
				hotelName: group.n,
				websiteCode: group.w,
				websiteName: group.o ?? '',
				checkIn: `${group.m}-${String(fields[0]).padStart(2, '0')}`,
				los: group.l,
				guests: group.u,
				roomType: group.r,
				currency: group.c,
				rateField: group.f,
				changeType: String(fields[1]) as ReportedType,
				previousRate: storedNumber(at(2)),
				rate: storedNumber(at(3)),
				change: storedNumber(at(4)),
				changePercent: storedNumber(at(5)),
				previousCollected: timeAt(6),
				dtCollected: timeAt(7) ?? '',
				comparedWith: String(at(8) ?? ''),
				comparedRate: storedNumber(at(9)),
				severity: String(at(10) ?? ''),
			};
		}),
	);
	return { alerts, replaces };
}
