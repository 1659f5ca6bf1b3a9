import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import { startDataTablesApi, type DataTablesApi, type DataTablesApiOptions } from '../../platform/dataTables';
import { runNode, type NodeRunResult, type RunNodeOptions } from '../../platform/engine';

import { rateRecord } from './rateRecords';

/**
 * Rate Changes in n8n's engine against the in-process stand-in for n8n's Data Tables API
 * (platform/dataTables), as the other nodes run against the service sandbox: shops of known
 * stays, the node's runs in the modes n8n starts them in, and what came out.
 */

async function startStandIn(options: DataTablesApiOptions = {}): Promise<DataTablesApi> {
	return await startDataTablesApi({ settleMs: 100, ...options });
}

/** A stand-in of its own for `use`, closed once its requests have settled, whatever `use` does. */
export async function withStandIn<T>(use: (api: DataTablesApi) => Promise<T>, options: DataTablesApiOptions = {}): Promise<T> {
	const api = await startStandIn(options);
	try {
		return await use(api);
	} finally {
		await api.settled();
		await api.close();
	}
}

/**
 * A fresh stand-in for each test of the file, closed once its requests have settled. What it returns
 * stands for the running one, so tests write `api.rows(...)` as usual (as `useSandbox` does).
 */
export function useStandIn(options: DataTablesApiOptions = {}): DataTablesApi {
	let running: DataTablesApi | undefined;
	beforeEach(async () => {
		running = await startStandIn(options);
	});
	afterEach(async () => {
		await running?.settled();
		await running?.close();
		running = undefined;
	});
	return new Proxy({} as DataTablesApi, {
		get(_target, property) {
			if (!running) throw new Error('The stand-in starts in beforeEach: use it inside a test or a hook');
			const value: unknown = Reflect.get(running, property, running);
			return typeof value === 'function' ? value.bind(running) : value;
		},
	});
}

/** One stay of a shop: a hotel on a website, a check-in day, one room type. */
export interface StaySpec {
	hotelCode: number;
	hotelName?: string;
	websiteCode: number;
	checkIn: string;
	roomType?: string;
	los?: number;
	guests?: number;
	currency?: string;
}

/** Stays of `hotels` × `websites` × `days` check-in days from `from`. */
export function staysOf(hotels: readonly number[], websites: readonly number[], from: string, days: number, roomTypes: readonly string[] = ['Double']): StaySpec[] {
	const start = Date.parse(`${from}T00:00:00Z`);
	return hotels.flatMap((hotelCode) =>
		websites.flatMap((websiteCode) =>
			roomTypes.flatMap((roomType) =>
				Array.from({ length: days }, (_, day) => ({
					hotelCode,
					hotelName: `Hotel ${hotelCode}`,
					websiteCode,
					roomType,
					checkIn: new Date(start + day * 86_400_000).toISOString().slice(0, 10),
				})),
			),
		),
	);
}

/** The records of one shop of the stays, collected at `dtCollected`, each at the rate `rateOf` gives (0: sold out). */
export function shopOf(stays: readonly StaySpec[], dtCollected: string, rateOf: (stay: StaySpec, index: number) => number, shopId = 7): IDataObject[] {
	return stays.map((stay, index) =>
		rateRecord({
			shopId,
			dtCollected,
			hotelCode: stay.hotelCode,
			hotelName: stay.hotelName ?? `Hotel ${stay.hotelCode}`,
			websiteCode: stay.websiteCode,
			checkIn: `${stay.checkIn}T00:00:00Z`,
			los: stay.los ?? 1,
			guests: stay.guests ?? 2,
			roomType: stay.roomType ?? 'Double',
			currency: stay.currency ?? 'EUR',
			onsiteRate: rateOf(stay, index),
			netRate: Math.round(rateOf(stay, index) * 90) / 100,
			taxStatus: 1,
		}) as IDataObject,
	);
}

/** A rate every stay keeps from shop to shop: 100 to 199 by its place in the list. */
export function baseRate(_: StaySpec, index: number): number {
	return 100 + ((index * 37) % 100);
}

/** A second shop of the stays: every 5th stay 20 % dearer, every 7th 5 % cheaper (no alert), every 11th sold out. */
export function secondRate(stay: StaySpec, index: number): number {
	const rate = baseRate(stay, index);
	if (index % 11 === 0) return 0;
	if (index % 5 === 0) return Math.round(rate * 120) / 100;
	return index % 7 === 0 ? Math.round(rate * 95) / 100 : rate;
}

/** The alerts (as changeText gives them) that secondRate's shop after baseRate's must give at the defaults: moves of 10 % or more, sold out, back on sale. */
export function secondShopAlerts(stays: readonly StaySpec[]): string[] {
	return shopAlerts(stays, baseRate, secondRate);
}

/** The alerts (as changeText gives them) that the shop at `after`'s rates gives after the one at `before`'s, at the defaults. */
export function shopAlerts(stays: readonly StaySpec[], before: (stay: StaySpec, index: number) => number, after: (stay: StaySpec, index: number) => number): string[] {
	return stays
		.flatMap((stay, index) => {
			const [was, now] = [before(stay, index), after(stay, index)];
			const prefix = [stay.hotelCode, stay.websiteCode, stay.checkIn, stay.roomType ?? 'Double'];
			if (was === 0 && now === 0) return [];
			if (now === 0) return [[...prefix, 'soldOut', was, null].join('|')];
			if (was === 0) return [[...prefix, 'backOnSale', null, now].join('|')];
			if (Math.abs(now - was) / was < 0.1) return [];
			return [[...prefix, now > was ? 'up' : 'down', was, now].join('|')];
		})
		.sort();
}

export function chunks<T>(values: readonly T[], size: number): T[][] {
	const result: T[][] = [];
	for (let start = 0; start < values.length; start += size) result.push(values.slice(start, start + size) as T[]);
	return result;
}

export interface RateChangesRun extends Omit<RunNodeOptions, 'nodeType' | 'credentials' | 'items' | 'parameters'> {
	parameters?: INodeParameters;
}

export const RATE_CHANGES_WORKFLOW = 'rate-changes-workflow';

/**
 * One saved credential per stand-in n8n: n8n stores in it when its key passed the credential's
 * scope check (its preAuthentication), so only the first run with it sends the check's probes.
 * Kept by address and key, not by the object: useStandIn's one object stands for a new stand-in
 * in each test, each with a key of its own.
 */
const savedCredentials = new Map<string, ICredentialDataDecryptedObject>();

function savedCredential(api: DataTablesApi): ICredentialDataDecryptedObject {
	const id = `${api.baseUrl} ${api.apiKey}`;
	const credential = savedCredentials.get(id) ?? { baseUrl: api.baseUrl, apiKey: api.apiKey };
	savedCredentials.set(id, credential);
	return credential;
}

export async function runRateChanges(api: DataTablesApi, parameters: INodeParameters, items: IDataObject[], options: RateChangesRun = {}): Promise<NodeRunResult> {
	return await runNode({
		nodeType: 'travelPricingRateChanges',
		parameters,
		items,
		credentials: { travelPricingN8nApi: savedCredential(api) },
		mode: 'trigger',
		// Every run is the same saved workflow's node, taking the deliveries one after another (a test may name another).
		workflowId: RATE_CHANGES_WORKFLOW,
		...options,
	});
}

/** What an alert item of Detect Changes says, as one text to compare sets of alerts by. */
export function changeText(json: IDataObject): string {
	return [json.hotelCode, json.websiteCode, String(json.checkIn).slice(0, 10), json.roomType, json.changeType, json.previousRate, json.rate].join('|');
}

/** A change of a digest, as the same text. */
export function digestChangeText(change: IDataObject): string {
	return [change.hotelCode, change.websiteCode, change.checkIn, change.roomType, change.changeType, change.previousRate, change.rate].join('|');
}

/** Detect Changes over `records`, `perDelivery` a delivery, all at once: the alerts, as changeText gives them. */
export async function detectInDeliveries(api: DataTablesApi, records: IDataObject[], perDelivery: number): Promise<string[]> {
	const results = await Promise.all(chunks(records, perDelivery).map(async (batch) => await runRateChanges(api, DETECT, batch)));
	for (const result of results) expect(result.error).toBeUndefined();
	return results.flatMap((result) => result.items.map((item) => changeText(item.json)));
}

export const DETECT: INodeParameters = { operation: 'detectChanges', options: {} };
export const DIGEST: INodeParameters = { operation: 'digest', options: {} };
