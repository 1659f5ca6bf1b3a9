import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { RequestLimiter } from '../shared/concurrency';

import { DataTables, type Row, type RowFilter } from './dataTables';
import type { ObservedItem } from './detectChanges';
import { parityOf, parityStates, type Parity, type Reference, type Tolerance } from './parity';
import { compSetPosition, isUndercut, type HotelRoomRate, type Position, type UndercutRule } from './position';
import { storedNumber, type Observation, type RateField } from './rateChanges';
import { changesTable, positionsTable, ratesTable } from './tables';

/**
 * Compare With My Hotel and Check Parity: where a hotel stands, read from the rates table that
 * Detect Changes keeps (the latest rate of every hotel, website and stay) together with the
 * incoming records, which are newer than the table when Detect Changes has not stored them yet.
 * Neither sends a request to the service.
 */

export interface StandingTables {
	ratesTable: string;
	changesTable: string;
	positionsTable: string;
}

export interface CompareSettings extends StandingTables {
	myHotelCode: number;
	sameWebsite: boolean;
	rateField: RateField;
	alertOn: 'undercut' | 'rankChanged' | 'always';
	undercut: UndercutRule;
}

export interface ParitySettings extends StandingTables {
	hotelCode: number;
	reference: Reference;
	tolerance: Tolerance;
	alertOn: 'losses' | 'stateChanges';
}

/** One output item, paired with the input items it came from. */
export interface StandingItem {
	json: IDataObject;
	itemIndexes: number[];
}

interface Group {
	key: string;
	filter: RowFilter;
	items: ObservedItem[];
}

/** The latest row of each stay: the table's, or an incoming record that is newer. */
function latestRows(rows: readonly Row[], items: readonly ObservedItem[]): Observation[] {
	const byStay = new Map<string, Observation>();
	for (const row of rows) {
		const stayKey = String(row.stayKey);
		if (byStay.has(stayKey)) continue;
		byStay.set(stayKey, {
			stayKey,
			hotelCode: storedNumber(row.hotelCode) ?? 0,
			hotelName: String(row.hotelName ?? ''),
			websiteCode: storedNumber(row.websiteCode) ?? 0,
			checkIn: String(row.checkIn ?? ''),
			los: storedNumber(row.los) ?? 0,
			guests: storedNumber(row.guests) ?? 0,
			roomType: String(row.roomType ?? ''),
			shopId: storedNumber(row.shopId),
			currency: String(row.currency ?? ''),
			onsiteRate: storedNumber(row.onsiteRate),
			netRate: storedNumber(row.netRate),
			totalRate: storedNumber(row.totalRate),
			dtCollected: String(row.dtCollected ?? ''),
		});
	}
	for (const { observation } of items) {
		const stored = byStay.get(observation.stayKey);
		if (!stored || observation.dtCollected > stored.dtCollected) byStay.set(observation.stayKey, observation);
	}
	return [...byStay.values()];
}

function eq(columnName: string, value: string | number): RowFilter['filters'][number] {
	return { columnName, condition: 'eq', value };
}

function groupBy(items: readonly ObservedItem[], keyOf: (observation: Observation) => { key: string; filter: RowFilter } | undefined): Group[] {
	const groups = new Map<string, Group>();
	for (const item of items) {
		const target = keyOf(item.observation);
		if (!target) continue;
		const group = groups.get(target.key) ?? { ...target, items: [] };
		group.items.push(item);
		groups.set(target.key, group);
	}
	return [...groups.values()];
}

interface Remembered {
	state: string;
	/** The collection time of the shop that last wrote the state. */
	dtCollected: string;
}

/** The remembered state of each key of one kind (my rank, the parity states). */
async function rememberedStates(tables: DataTables, tableId: string, kind: string, keys: readonly string[]): Promise<Map<string, Remembered>> {
	const states = new Map<string, Remembered>();
	for (let start = 0; start < keys.length; start += 50) {
		const filters = keys.slice(start, start + 50).map((key) => eq('positionKey', `${kind}|${key}`));
		for (const row of await tables.findRows(tableId, { type: 'or', filters })) {
			const key = String(row.positionKey).slice(kind.length + 1);
			if (!states.has(key)) states.set(key, { state: String(row.state ?? ''), dtCollected: String(row.dtCollected ?? '') });
		}
	}
	return states;
}

/**
 * Keeps a stay-night's (or stay's) state and says whether this execution is the first of its
 * shop to reach it, the one that may alert. A shop arrives in many deliveries, each its own
 * execution, so without this every execution touching a stay-night would alert again, and a
 * redelivery too. The first of a newer shop claims the row with a compare-and-set on the
 * remembered collection time (as Detect Changes does); later executions of the same shop only
 * bring the state up to date, with what they know more; an older shop changes nothing. Two
 * executions remembering a brand-new key at once may both insert it and both alert; the first row
 * counts from then on.
 */
async function remember(
	tables: DataTables,
	tableId: string,
	kind: string,
	key: string,
	previous: Remembered | undefined,
	state: string,
	dtCollected: string,
): Promise<boolean> {
	const positionKey = `${kind}|${key}`;
	if (previous === undefined) {
		await tables.insertRows(tableId, [{ positionKey, kind, state, dtCollected }]);
		return true;
	}
	if (dtCollected < previous.dtCollected) return false;
	const sameShop = dtCollected === previous.dtCollected;
	const claim = { type: 'and' as const, filters: [eq('positionKey', positionKey), eq('dtCollected', previous.dtCollected)] };
	const written = await tables.updateRows(tableId, claim, { state, dtCollected });
	return !sameShop && written.length > 0;
}

function newestCollected(items: readonly ObservedItem[]): string {
	return items.map(({ observation }) => observation.dtCollected).sort().at(-1) as string;
}

/** The three tables both operations read and write, created when missing. */
async function openTables(context: IExecuteFunctions, limiter: RequestLimiter, names: StandingTables) {
	const tables = new DataTables(context, limiter);
	const [ratesId, changesId, positionsId] = await Promise.all([
		tables.ensureTable(ratesTable(names.ratesTable)),
		tables.ensureTable(changesTable(names.changesTable)),
		tables.ensureTable(positionsTable(names.positionsTable)),
	]);
	return { tables, ratesId, changesId, positionsId };
}

function firstOf(items: readonly ObservedItem[]): Observation {
	return items[0].observation;
}

/** What Compare With My Hotel found for one stay-night: its output item and change rows are built from it. */
export interface CompareStanding {
	/** The first incoming record of the stay-night. */
	first: Observation;
	position: Position;
	previousRank: number | null;
	rankChanged: boolean;
	undercut: boolean;
	myName: string;
}

type CompareRule = Pick<CompareSettings, 'myHotelCode' | 'sameWebsite' | 'rateField'>;

/** The changes-table rows of a stay-night: its undercut, when `alertUndercut`, and its rank change. */
export function compareChangeRows(rule: CompareRule, standing: CompareStanding, alertUndercut: boolean): IDataObject[] {
	const { first, position, previousRank, rankChanged, myName } = standing;
	const base = {
		shopId: first.shopId,
		hotelCode: rule.myHotelCode,
		hotelName: myName,
		websiteCode: rule.sameWebsite ? first.websiteCode : null,
		checkIn: first.checkIn,
		los: first.los,
		guests: first.guests,
		roomType: '',
		currency: position.currency,
		rateField: rule.rateField,
		rate: position.myRate,
		dtCollected: first.dtCollected,
	};
	const competitor = position.cheapestCompetitor;
	return [
		...(alertUndercut && competitor
			? [{ ...base, changeType: 'undercut', comparedWith: `hotel ${competitor.hotelCode} ${competitor.hotelName}`.trim(), comparedRate: competitor.rate, change: position.gap, changePercent: position.gapPercent }]
			: []),
		...(rankChanged
			? [{ ...base, changeType: 'rankChanged', comparedWith: `rank ${previousRank ?? '-'} → ${position.rank ?? '-'} of ${position.rankedHotels}` }]
			: []),
	];
}

/** Compare With My Hotel's output item for a stay-night. */
export function compareItem(rule: CompareRule, standing: CompareStanding): IDataObject {
	const { first, position, previousRank, rankChanged, undercut, myName } = standing;
	const { competitors, ...summary } = position;
	return {
		...summary,
		myHotelName: myName,
		checkIn: first.checkIn,
		los: first.los,
		guests: first.guests,
		websiteCode: rule.sameWebsite ? first.websiteCode : null,
		previousRank,
		rankChanged,
		undercut,
		competitors: competitors as unknown as IDataObject[],
	};
}

/** The changes-table rows of a stay's parity: one for each website that loses. */
export function parityChangeRows(first: Observation, parity: Parity): IDataObject[] {
	return parity.websites
		.filter((website) => website.state === 'loss')
		.map((website) => ({
			shopId: first.shopId,
			hotelCode: first.hotelCode,
			hotelName: first.hotelName,
			websiteCode: website.websiteCode,
			checkIn: first.checkIn,
			los: first.los,
			guests: first.guests,
			roomType: first.roomType,
			currency: parity.currency,
			rateField: 'totalRate',
			changeType: 'parityLoss',
			rate: website.total,
			comparedWith: `website ${parity.referenceWebsite}`,
			comparedRate: parity.referenceTotal,
			change: website.difference,
			changePercent: website.differencePercent,
			severity: website.severity,
			dtCollected: first.dtCollected,
		}));
}

/** Check Parity's output item for a stay. */
export function parityItem(first: Observation, parity: Parity, stateChanged: boolean, previousStates: string | null): IDataObject {
	const { hotelCode, hotelName, checkIn, los, guests, roomType } = first;
	return { hotelCode, hotelName, checkIn, los, guests, roomType, ...(parity as unknown as IDataObject), stateChanged, previousStates };
}

export async function compareWithMyHotel(
	context: IExecuteFunctions,
	limiter: RequestLimiter,
	settings: CompareSettings,
	observed: readonly ObservedItem[],
): Promise<StandingItem[]> {
	const { tables, ratesId, changesId, positionsId } = await openTables(context, limiter, settings);
	const groups = groupBy(observed, ({ checkIn, los, guests, websiteCode }) => {
		const filters = [eq('checkIn', checkIn), eq('los', los), eq('guests', guests), ...(settings.sameWebsite ? [eq('websiteCode', websiteCode)] : [])];
		return { key: [settings.myHotelCode, settings.sameWebsite ? websiteCode : '*', checkIn, los, guests].join('|'), filter: { type: 'and', filters } };
	});
	const previousRanks = await rememberedStates(tables, positionsId, 'rank', groups.map((group) => group.key));
	const standings = await Promise.all(
		groups.map(async (group) => {
			const rows = latestRows(await tables.findRows(ratesId, group.filter), group.items);
			const rates: HotelRoomRate[] = rows.map((row) => ({
				hotelCode: row.hotelCode,
				hotelName: row.hotelName,
				websiteCode: row.websiteCode,
				roomType: row.roomType,
				currency: row.currency,
				rate: row[settings.rateField],
			}));
			const position = compSetPosition(settings.myHotelCode, rates);
			const previous = previousRanks.get(group.key);
			const previousRank = previous === undefined || previous.state === '' ? null : Number(previous.state);
			const myName = rows.find((row) => row.hotelCode === settings.myHotelCode)?.hotelName ?? '';
			const claimed = await remember(tables, positionsId, 'rank', group.key, previous, position.rank === null ? '' : String(position.rank), newestCollected(group.items));
			// Alerts come from the first execution of a shop to reach the stay-night (see remember).
			const rankChanged = claimed && previous !== undefined && position.rank !== previousRank;
			return { group, first: firstOf(group.items), position, previousRank, rankChanged, myName, claimed, undercut: isUndercut(position, settings.undercut) };
		}),
	);
	const alerting = standings.filter(({ position, rankChanged, undercut, claimed }) => {
		if (position.position === 'notShopped') return false;
		if (settings.alertOn === 'always') return true;
		return settings.alertOn === 'undercut' ? claimed && undercut : rankChanged;
	});
	await tables.insertRows(
		changesId,
		alerting.flatMap((standing) => compareChangeRows(settings, standing, standing.claimed && standing.undercut)),
	);
	return alerting.map((standing) => ({
		json: compareItem(settings, standing),
		itemIndexes: standing.group.items.map(({ itemIndex }) => itemIndex),
	}));
}

export async function checkParity(
	context: IExecuteFunctions,
	limiter: RequestLimiter,
	settings: ParitySettings,
	observed: readonly ObservedItem[],
): Promise<StandingItem[]> {
	const { tables, ratesId, changesId, positionsId } = await openTables(context, limiter, settings);
	// The same hotel, stay and room on every website.
	const groups = groupBy(observed, ({ hotelCode, checkIn, los, guests, roomType }) => {
		if (hotelCode !== settings.hotelCode) return undefined;
		const filters = [eq('hotelCode', hotelCode), eq('checkIn', checkIn), eq('los', los), eq('guests', guests), eq('roomType', roomType)];
		return { key: [hotelCode, checkIn, los, guests, roomType].join('|'), filter: { type: 'and', filters } };
	});
	const previousStates = await rememberedStates(tables, positionsId, 'parity', groups.map((group) => group.key));
	const results = await Promise.all(
		groups.map(async (group) => {
			const rows = latestRows(await tables.findRows(ratesId, group.filter), group.items);
			const parity = parityOf(
				rows.map((row) => ({ websiteCode: row.websiteCode, currency: row.currency, total: row.totalRate })),
				settings.reference,
				settings.tolerance,
			);
			const states = parityStates(parity);
			const previous = previousStates.get(group.key);
			const first = await remember(tables, positionsId, 'parity', group.key, previous, states, newestCollected(group.items));
			const stateChanged = first && (previous === undefined ? parity.losses > 0 : previous.state !== states);
			return { group, parity, stateChanged, first, previousStates: previous?.state ?? null };
		}),
	);
	const alerting = results.filter(({ parity, stateChanged, first }) => (settings.alertOn === 'losses' ? first && parity.losses > 0 : stateChanged));
	await tables.insertRows(
		changesId,
		alerting.flatMap(({ group, parity }) => parityChangeRows(firstOf(group.items), parity)),
	);
	return alerting.map(({ group, parity, stateChanged, previousStates: previous }) => ({
		json: parityItem(firstOf(group.items), parity, stateChanged, previous),
		itemIndexes: group.items.map(({ itemIndex }) => itemIndex),
	}));
}
