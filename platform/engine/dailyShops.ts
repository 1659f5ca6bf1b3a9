import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { startDataTablesApi, type ApiVersion, type DataTablesApi } from '../dataTables';
import { runPool } from '../sandbox/delivery';
import { createPrng, deriveSeed } from '../sandbox/prng';
import { runNode, type NodeRunResult } from './engine';

/**
 * Daily shops of one set of stays through Rate Changes (Detect Changes, then the morning Digest) in
 * n8n's engine against the Data Tables stand-in, for as many days as asked, with the size n8n would
 * measure for each of the node's tables after every day (the stand-in's model of SQLite's dbstat
 * or of Postgres' relation sizes). The engine test of bounded state and the "Rate Changes over a
 * year" benchmark both run it; docs/nodes/rate-changes-reference.md ("Size") quotes its figures.
 *
 * The change model: every day a share of the stays (11.7 % by default, what issue #28 measured)
 * moves by 5 to 30 %, up or down, never within 0.2 of 10 % so that the default threshold leaves no
 * doubt which moves alert; the rest come back at the rate they had. Each day the window moves on
 * one check-in day: yesterday's first day has passed, and one new day comes in, seen for the first
 * time (no alert: Include First Seen is off by default).
 */

export interface StaySet {
	hotels: number;
	websites: number;
	roomTypes: number;
	/** Check-in days shopped ahead of each day: the window. */
	windowDays: number;
}

/** The one-hotel set of issue #28: a hotel and nine competitors, 5 websites, 2 room types, a year ahead: 36,500 stays. */
export const ONE_HOTEL_SET: StaySet = { hotels: 10, websites: 5, roomTypes: 2, windowDays: 365 };

export function staysIn(set: StaySet): number {
	return set.hotels * set.websites * set.roomTypes * set.windowDays;
}

export interface DailyShopsOptions {
	set: StaySet;
	days: number;
	version?: ApiVersion;
	database?: 'sqlite' | 'postgres';
	/** Detect Changes' Change At Least (%): 0 alerts on any move; the node's default (10) when not given. */
	minChangePercent?: number;
	/** The share of stays whose rate moves each day. */
	movedShare?: number;
	/** Records per delivery: each delivery is one execution, as the Rate Record Trigger starts them. */
	perDelivery?: number;
	/** Deliveries whose executions run at once. */
	atOnce?: number;
	/**
	 * Deliver every record that must alert alone, one execution each, as a service posting one record
	 * per delivery would (the others still in deliveries of `perDelivery`, where they write the same
	 * rows and no changes entry): the changes table as one-record deliveries leave it.
	 */
	alertsAlone?: boolean;
	/** Each record collected at its own second over the shop's first `spreadSeconds` (0: one time per shop, as the sandbox does). */
	spreadSeconds?: number;
	/** Keep Changes (Days); the node's default (14) when not given. */
	keepChangesDays?: number;
	/** Keep History (Days); the node's default (90) when not given. */
	keepHistoryDays?: number;
	/** Postgres: vacuum every table after each day's shop and digest, as autovacuum would by then. */
	vacuumDaily?: boolean;
	/** The first day's shop, `YYYY-MM-DD`; its first check-in is the day after. */
	firstDay?: string;
	/** Called after each day, with the stand-in as it is then. */
	onDay?: (sample: DaySample, api: DataTablesApi) => void;
}

export type TableRole = 'rates' | 'changes' | 'history';

export interface DaySample {
	day: number;
	date: string;
	records: number;
	executions: number;
	/** The alerts the change model expects of this day's shop, and what the executions put out. */
	expectedAlerts: number;
	alerts: number;
	/** Alerts expected and not put out, put out and not expected, and put out twice. */
	missing: number;
	unexpected: number;
	twice: number;
	/** The changes the morning digest listed (the day's alerts, once). */
	digested: number;
	/** The size n8n would measure once the day's shop is in, before the digest: the day's peak. */
	shopBytes: Record<TableRole, number>;
	/** The size n8n would measure after the digest (and on Postgres the day's vacuum), and the rows, per table. */
	bytes: Record<TableRole, number>;
	rows: Record<TableRole, number>;
	/** Every data table together, as n8n's limits route would give it now. */
	totalBytes: number;
	/** On n8n without table sizes in its API (2.8): what the node estimated for its tables at the day's clean-up. */
	estimateBytes?: number;
	elapsedMs: number;
}

/** The node's tables at their default names; the history table sits beside the rates table (`<Rates Table>_history`). */
export const TABLES: Record<TableRole, string> = { rates: 'travel_pricing_rates', changes: 'travel_pricing_rate_changes', history: 'travel_pricing_rates_history' };

const HOTEL_NAMES = [
	'Hilton Cape Town Riverside',
	'Radisson Blu Waterfront',
	'The Table Bay Hotel',
	'Southern Sun Cullinan',
	'Protea Hotel by Marriott Sea Point',
	'Cape Grace',
	'The Westin Cape Town',
	'Hyatt Regency Cape Town',
	'President Hotel',
	'Pepperclub Hotel',
];
const ROOM_TYPES = ['Standard King Room', 'Deluxe Double Room', 'Junior Suite'];
const FIRST_HOTEL = 100081;
const DAY_MS = 86_400_000;

interface Stay {
	key: string;
	hotelCode: number;
	websiteCode: number;
	roomType: string;
	checkIn: string;
	base: number;
}

interface StayRate {
	onsiteRate: number;
	taxAmount: number;
}

const round2 = (value: number): number => Math.round(value * 100) / 100;

function dayAfter(day: string, days: number): string {
	return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The stays a shop on `day` collects: every hotel, website and room for the window's check-in days. */
function staysOn(set: StaySet, day: string): Stay[] {
	const stays: Stay[] = [];
	for (let hotel = 0; hotel < set.hotels; hotel++) {
		const hotelCode = FIRST_HOTEL + hotel;
		const hotelBase = 110 + createPrng(deriveSeed(28, hotelCode)).int(0, 260);
		for (let websiteCode = 1; websiteCode <= set.websites; websiteCode++) {
			for (let room = 0; room < set.roomTypes; room++) {
				for (let ahead = 1; ahead <= set.windowDays; ahead++) {
					const checkIn = dayAfter(day, ahead);
					const roomType = ROOM_TYPES[room % ROOM_TYPES.length] + (room >= ROOM_TYPES.length ? ` ${room}` : '');
					const weekend = [5, 6].includes(new Date(`${checkIn}T00:00:00Z`).getUTCDay()) ? 1.18 : 1;
					const base = round2(hotelBase * (1 + room * 0.35) * (1 - websiteCode * 0.012) * weekend);
					stays.push({ key: `${hotelCode}|${websiteCode}|${checkIn}|${roomType}`, hotelCode, websiteCode, roomType, checkIn, base });
				}
			}
		}
	}
	return stays;
}

/** Websites that show the tax apart (taxStatus 0): their total differs from the onsite rate. */
const taxApart = (websiteCode: number): boolean => websiteCode % 3 === 0;

function recordOf(stay: Stay, rate: StayRate, dtCollected: string): IDataObject {
	const hotelIndex = stay.hotelCode - FIRST_HOTEL;
	const name = HOTEL_NAMES[hotelIndex % HOTEL_NAMES.length] + (hotelIndex >= HOTEL_NAMES.length ? ` ${Math.floor(hotelIndex / HOTEL_NAMES.length) + 1}` : '');
	return {
		shopId: 7,
		dtCollected,
		hotelCode: stay.hotelCode,
		hotelName: name,
		websiteCode: stay.websiteCode,
		checkIn: `${stay.checkIn}T00:00:00Z`,
		los: 1,
		guests: 2,
		roomType: stay.roomType,
		currency: 'ZAR',
		onsiteRate: rate.onsiteRate,
		netRate: round2(rate.onsiteRate / 1.15),
		taxAmount: rate.taxAmount,
		taxStatus: taxApart(stay.websiteCode) ? 0 : 1,
		latitude: `${(-33.9 - hotelIndex * 0.0013).toFixed(4)}`,
		longitude: `${(18.42 + hotelIndex * 0.0017).toFixed(4)}`,
	};
}

/** How far a moved stay's rate moves today: 5 to 30 %, never within 0.2 of 10 %, up or down (down when it stands far above its base). */
function moveOf(stay: Stay, day: string, current: number): number {
	const prng = createPrng(deriveSeed(28, stay.key, day, 'move'));
	let percent = prng.float(5, 30, 1);
	if (Math.abs(percent - 10) < 0.2) percent = 10.5;
	const up = current > stay.base * 1.6 ? false : current < stay.base * 0.6 ? true : prng.chance(0.5);
	return up ? percent : -percent;
}

/** The alert a move makes, as Detect Changes' output item says it: `stay|previous→rate`. */
export function alertText(alert: Readonly<Record<string, unknown>>): string {
	return `${String(alert.hotelCode)}|${String(alert.websiteCode)}|${String(alert.checkIn).slice(0, 10)}|${String(alert.roomType)}|${String(alert.previousRate)}→${String(alert.rate)}`;
}

/** How the alerts put out differ from those expected: expected and not put out, put out and not expected, put out more than once. */
export function alertTally(alerted: readonly string[], expected: ReadonlySet<string>): { missing: number; unexpected: number; twice: number } {
	const once = new Set(alerted);
	return {
		missing: [...expected].filter((alert) => !once.has(alert)).length,
		unexpected: [...once].filter((alert) => !expected.has(alert)).length,
		twice: alerted.length - once.size,
	};
}

export interface ShopSeriesOptions {
	/** Detect Changes' Change At Least (%), which decides which moves alert: 0 any move, 10 (the default) moves of 10 % or more. */
	minChangePercent?: number;
	movedShare?: number;
	spreadSeconds?: number;
	/** The first day's shop, `YYYY-MM-DD`; its first check-in is the day after. */
	firstDay?: string;
}

/**
 * A record with every field of spec part 6, as the service posts it (the Rate Record Trigger
 * refuses a record without one); the shops hold only what Rate Changes reads.
 */
export function asDelivered(record: IDataObject, index: number): IDataObject {
	const checkOut = new Date(Date.parse(String(record.checkIn)) + DAY_MS).toISOString().replace('.000Z', 'Z');
	return {
		...record,
		recordId: `${String(record.dtCollected).slice(0, 10)}-${index + 1}`,
		checkOut,
		pos: 1,
		hotelId: Number(record.hotelCode) - 100000,
		sourceUrl: `https://ota.example/hotel/${String(record.hotelCode)}`,
		address: '1 Beach Road',
		city: 'Cape Town',
		state: 'Western Cape',
		country: 'South Africa',
		isLAR: true,
		propertyType: 'Hotel',
		roomDescription: `${String(record.roomType)}, city view`,
		roomAmenities: 'WiFi, Air conditioning',
		mapLink: `https://maps.example/?q=${String(record.latitude)},${String(record.longitude)}`,
		roomAvailable: 'yes',
		roomLeft: '3',
		reviewRating: 8.6,
		reviewsCount: 1240,
		taxType: record.taxStatus === 0 ? 'Excluded' : 'Included',
		mealPlan: 'Room only',
		ratePlan: 'Free cancellation',
		locationRating: 9,
		promo: '',
		ratingText: 'Excellent',
		discount: 0,
		occupancy: 2,
		paymentType: 'Pay at property',
		rankingListingCount: 310,
		navigationPage: 1,
		newArrival: 'no',
		distanceHotel: 0.8,
		otherInformation: '',
		statusCode: 200,
		otherRatings: { htlRating: 4.5, aptRating: 0, dotsRating: 4 },
		ratingFlags: { preferredPartner: true, preferredPlus: false },
	};
}

/** One day's shop: its records, which of them must alert, and those alerts. */
export interface DayShop {
	date: string;
	records: Array<{ record: IDataObject; alerts: boolean }>;
	expected: Set<string>;
}

/** The shops of a set of stays day after day, by the change model above; `next()` gives each day's in turn. */
export class ShopSeries {
	private readonly rates = new Map<string, StayRate>();

	private day = 0;

	constructor(
		readonly set: StaySet,
		private readonly options: ShopSeriesOptions = {},
	) {}

	next(): DayShop {
		const { movedShare = 0.117, spreadSeconds = 0, minChangePercent = 10 } = this.options;
		const date = dayAfter(this.options.firstDay ?? '2027-01-01', this.day++);
		const stays = staysOn(this.set, date);
		const expected = new Set<string>();
		const records = stays.map((stay, index) => {
			const dtCollected = new Date(Date.parse(`${date}T06:00:00Z`) + (spreadSeconds > 0 ? Math.floor((index / stays.length) * spreadSeconds) * 1000 : 0)).toISOString();
			const previous = this.rates.get(stay.key);
			let rate: StayRate = previous ?? { onsiteRate: stay.base, taxAmount: taxApart(stay.websiteCode) ? round2(stay.base * 0.12) : 0 };
			let alerts = false;
			if (previous && createPrng(deriveSeed(28, stay.key, date)).chance(movedShare)) {
				const percent = moveOf(stay, date, previous.onsiteRate);
				const onsiteRate = round2(previous.onsiteRate * (1 + percent / 100));
				rate = { onsiteRate, taxAmount: taxApart(stay.websiteCode) ? round2(onsiteRate * 0.12) : 0 };
				alerts = onsiteRate !== previous.onsiteRate && Math.abs(percent) >= minChangePercent;
				if (alerts) expected.add(alertText({ ...stay, previousRate: previous.onsiteRate, rate: onsiteRate }));
			}
			this.rates.set(stay.key, rate);
			return { record: recordOf(stay, rate, dtCollected), alerts };
		});
		// Stays whose check-in has come are shopped no more.
		for (const key of [...this.rates.keys()]) if (key.split('|')[2] <= date) this.rates.delete(key);
		return { date, records, expected };
	}
}

/** `values` in runs of `size`, in order: a shop's deliveries. */
export function chunked<T>(values: readonly T[], size: number): T[][] {
	const result: T[][] = [];
	for (let start = 0; start < values.length; start += size) result.push(values.slice(start, start + size) as T[]);
	return result;
}

/** The stand-in's figure for one of the node's tables; 0 before the node has made it. */
function tableBytes(api: DataTablesApi, name: string): number {
	return api.tables().some((table) => table.name === name) ? api.sizeBytes(name) : 0;
}

function roleBytes(api: DataTablesApi): Record<TableRole, number> {
	return { rates: tableBytes(api, TABLES.rates), changes: tableBytes(api, TABLES.changes), history: tableBytes(api, TABLES.history) };
}

function tableRows(api: DataTablesApi, name: string): number {
	return api.tables().find((table) => table.name === name)?.rowCount ?? 0;
}

/** The estimate the node keeps on its housekeeping row where n8n lists no sizes (2.8). */
function nodeEstimate(api: DataTablesApi): number | undefined {
	const meta = tableRows(api, TABLES.changes) > 0 ? api.rows(TABLES.changes).find((row) => row.entry === 'housekeeping') : undefined;
	if (typeof meta?.alerts !== 'string') return undefined;
	const sizes = (JSON.parse(meta.alerts) as { sizes?: Record<string, number> }).sizes ?? {};
	return Object.values(sizes).reduce((sum, bytes) => sum + bytes, 0);
}

export async function runDailyShops(options: DailyShopsOptions): Promise<DaySample[]> {
	const { set, days, minChangePercent, movedShare = 0.117, perDelivery = 500, atOnce = 2, alertsAlone = false, spreadSeconds = 0 } = options;
	const database = options.database ?? 'sqlite';
	const vacuumDaily = options.vacuumDaily ?? database === 'postgres';
	const api = await startDataTablesApi({ version: options.version ?? '2.41.1', database, maxSizeBytes: 2 ** 40, settleMs: 5 });
	const credentials = { travelPricingN8nApi: { baseUrl: api.baseUrl, apiKey: api.apiKey } };
	const detectOptions: INodeParameters = {
		...(options.keepChangesDays === undefined ? {} : { keepChangesDays: options.keepChangesDays }),
		...(options.keepHistoryDays === undefined ? {} : { keepHistoryDays: options.keepHistoryDays }),
	};
	const detectRule: INodeParameters = minChangePercent === undefined ? {} : { minChangePercent };
	// Numbered as n8n numbers executions: the node's tokens, kept in its rows, are as long as in n8n's.
	let executionIds = 0;
	const run = async (parameters: INodeParameters, items: IDataObject[], workflowId: string): Promise<NodeRunResult> => {
		const result = await runNode({ nodeType: 'travelPricingRateChanges', parameters, items, credentials, mode: 'trigger', workflowId, credentialId: 'daily-shops', executionId: String(++executionIds) });
		if (result.error) throw new Error(`Rate Changes failed: ${result.error.message}`);
		return result;
	};
	const series = new ShopSeries(set, { minChangePercent, movedShare, spreadSeconds, firstDay: options.firstDay });
	const samples: DaySample[] = [];
	try {
		for (let day = 0; day < days; day++) {
			const started = Date.now();
			const { date, records, expected } = series.next();
			const deliveries = alertsAlone
				? [...records.filter((entry) => entry.alerts).map((entry) => [entry.record]), ...chunked(records.filter((entry) => !entry.alerts).map((entry) => entry.record), perDelivery)]
				: chunked(records.map((entry) => entry.record), perDelivery);
			const results = await runPool(
				deliveries.map((delivery) => async () => await run({ operation: 'detectChanges', ...detectRule, options: detectOptions }, delivery, 'daily-shops-detect')),
				atOnce,
			);
			await api.settled();
			const shopBytes = roleBytes(api);
			const alerted = results.flatMap((result) => result.items.map(({ json }) => alertText(json)));
			const digest = await run({ operation: 'digest', options: {} }, [{ timestamp: `${date}T07:00:00.000Z` }], 'daily-shops-digest');
			const digested = digest.items.reduce((sum, item) => sum + Number(item.json.changeCount ?? 0), 0);
			await api.settled();
			if (vacuumDaily) api.vacuum();
			const sample: DaySample = {
				day: day + 1,
				date,
				records: records.length,
				executions: deliveries.length + 1,
				expectedAlerts: expected.size,
				alerts: alerted.length,
				...alertTally(alerted, expected),
				digested,
				shopBytes,
				bytes: roleBytes(api),
				rows: { rates: tableRows(api, TABLES.rates), changes: tableRows(api, TABLES.changes), history: tableRows(api, TABLES.history) },
				totalBytes: api.limits().totalBytes,
				estimateBytes: nodeEstimate(api),
				elapsedMs: Date.now() - started,
			};
			samples.push(sample);
			options.onDay?.(sample, api);
		}
	} finally {
		await api.settled();
		await api.close();
	}
	return samples;
}
