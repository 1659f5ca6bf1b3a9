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

/** The remembered state of each key of one kind (my rank, the parity states). */
async function rememberedStates(tables: DataTables, tableId: string, kind: string, keys: readonly string[]): Promise<Map<string, string>> {
	const states = new Map<string, string>();
	for (let start = 0; start < keys.length; start += 50) {
		const filters = keys.slice(start, start + 50).map((key) => eq('positionKey', `${kind}|${key}`));
		for (const row of await tables.findRows(tableId, { type: 'or', filters })) {
			const key = String(row.positionKey);
			if (!states.has(key)) states.set(key, String(row.state ?? ''));
		}
	}
	return states;
}

/**
 * Writes the state over the remembered one, or inserts it the first time (an update, then an
 * insert: n8n's upsert would need one more API key scope). Two executions remembering a new key at
 * once may both insert it; the first row counts, as in the rates table.
 */
async function remember(tables: DataTables, tableId: string, kind: string, key: string, state: string, dtCollected: string): Promise<void> {
	const positionKey = `${kind}|${key}`;
	const updated = await tables.updateRows(tableId, { type: 'and', filters: [eq('positionKey', positionKey)] }, { state, dtCollected });
	if (updated.length === 0) await tables.insertRows(tableId, [{ positionKey, kind, state, dtCollected }]);
}

function newestCollected(items: readonly ObservedItem[]): string {
	return items.map(({ observation }) => observation.dtCollected).sort().at(-1) as string;
}

function firstOf(items: readonly ObservedItem[]): Observation {
	return items[0].observation;
}

export async function compareWithMyHotel(
	context: IExecuteFunctions,
	limiter: RequestLimiter,
	settings: CompareSettings,
	observed: readonly ObservedItem[],
): Promise<StandingItem[]> {
	const tables = new DataTables(context, limiter);
	const [ratesId, changesId, positionsId] = await Promise.all([
		tables.ensureTable(ratesTable(settings.ratesTable)),
		tables.ensureTable(changesTable(settings.changesTable)),
		tables.ensureTable(positionsTable(settings.positionsTable)),
	]);
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
			const previous = previousRanks.get(`rank|${group.key}`);
			const previousRank = previous === undefined || previous === '' ? null : Number(previous);
			const rankChanged = previous !== undefined && position.rank !== previousRank;
			const myName = rows.find((row) => row.hotelCode === settings.myHotelCode)?.hotelName ?? '';
			await remember(tables, positionsId, 'rank', group.key, position.rank === null ? '' : String(position.rank), newestCollected(group.items));
			return { group, position, previousRank, rankChanged, myName, undercut: isUndercut(position, settings.undercut) };
		}),
	);
	const alerting = standings.filter(({ position, rankChanged, undercut }) => {
		if (position.position === 'notShopped') return false;
		if (settings.alertOn === 'always') return true;
		return settings.alertOn === 'undercut' ? undercut : rankChanged;
	});
	await tables.insertRows(
		changesId,
		alerting.flatMap(({ group, position, previousRank, rankChanged, myName, undercut }) => {
			const { checkIn, los, guests, shopId, dtCollected } = firstOf(group.items);
			const base = {
				shopId,
				hotelCode: settings.myHotelCode,
				hotelName: myName,
				websiteCode: settings.sameWebsite ? firstOf(group.items).websiteCode : null,
				checkIn,
				los,
				guests,
				roomType: '',
				currency: position.currency,
				rateField: settings.rateField,
				rate: position.myRate,
				dtCollected,
			};
			const competitor = position.cheapestCompetitor;
			return [
				...(undercut && competitor
					? [{ ...base, changeType: 'undercut', comparedWith: `hotel ${competitor.hotelCode} ${competitor.hotelName}`.trim(), comparedRate: competitor.rate, change: position.gap, changePercent: position.gapPercent }]
					: []),
				...(rankChanged
					? [{ ...base, changeType: 'rankChanged', comparedWith: `rank ${previousRank ?? '-'} → ${position.rank ?? '-'} of ${position.rankedHotels}` }]
					: []),
			];
		}),
	);
	return alerting.map(({ group, position, previousRank, rankChanged, undercut, myName }) => {
		const { checkIn, los, guests, websiteCode } = firstOf(group.items);
		const { competitors, ...summary } = position as Position;
		return {
			json: {
				...summary,
				myHotelName: myName,
				checkIn,
				los,
				guests,
				websiteCode: settings.sameWebsite ? websiteCode : null,
				previousRank,
				rankChanged,
				undercut,
				competitors: competitors as unknown as IDataObject[],
			},
			itemIndexes: group.items.map(({ itemIndex }) => itemIndex),
		};
	});
}

export async function checkParity(
	context: IExecuteFunctions,
	limiter: RequestLimiter,
	settings: ParitySettings,
	observed: readonly ObservedItem[],
): Promise<StandingItem[]> {
	const tables = new DataTables(context, limiter);
	const [ratesId, changesId, positionsId] = await Promise.all([
		tables.ensureTable(ratesTable(settings.ratesTable)),
		tables.ensureTable(changesTable(settings.changesTable)),
		tables.ensureTable(positionsTable(settings.positionsTable)),
	]);
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
			const previous = previousStates.get(`parity|${group.key}`);
			const stateChanged = previous === undefined ? parity.losses > 0 : previous !== states;
			await remember(tables, positionsId, 'parity', group.key, states, newestCollected(group.items));
			return { group, parity, stateChanged, previousStates: previous ?? null };
		}),
	);
	const alerting = results.filter(({ parity, stateChanged }) => (settings.alertOn === 'losses' ? parity.losses > 0 : stateChanged));
	await tables.insertRows(
		changesId,
		alerting.flatMap(({ group, parity }) => {
			const { hotelCode, hotelName, checkIn, los, guests, roomType, shopId, dtCollected } = firstOf(group.items);
			return parity.websites
				.filter((website) => website.state === 'loss')
				.map((website) => ({
					shopId,
					hotelCode,
					hotelName,
					websiteCode: website.websiteCode,
					checkIn,
					los,
					guests,
					roomType,
					currency: parity.currency,
					rateField: 'totalRate',
					changeType: 'parityLoss',
					rate: website.total,
					comparedWith: `website ${parity.referenceWebsite}`,
					comparedRate: parity.referenceTotal,
					change: website.difference,
					changePercent: website.differencePercent,
					severity: website.severity,
					dtCollected,
				}));
		}),
	);
	return alerting.map(({ group, parity, stateChanged, previousStates: previous }) => {
		const { hotelCode, hotelName, checkIn, los, guests, roomType } = firstOf(group.items);
		return {
			json: { hotelCode, hotelName, checkIn, los, guests, roomType, ...(parity as Parity as unknown as IDataObject), stateChanged, previousStates: previous },
			itemIndexes: group.items.map(({ itemIndex }) => itemIndex),
		};
	});
}
