import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { startDataTablesApi, type DataTablesApi, type DataTablesApiOptions } from '../../platform/dataTables';
import { runNode, type NodeRunResult, type RunNodeOptions } from '../harness';
import { rateRecord } from '../rate-trigger/fixtures';

/**
 * Rate Changes in n8n's engine against the in-process stand-in for n8n's Data Tables API
 * (platform/dataTables), as the other nodes run against the service sandbox: shops of known
 * stays, the node's runs in the modes n8n starts them in, and what came out.
 */

export async function startStandIn(options: DataTablesApiOptions = {}): Promise<DataTablesApi> {
	return await startDataTablesApi({ settleMs: 100, ...options });
}

/** A fresh stand-in for each test of the file, handed to `use`, and closed once its requests have settled. */
export function useStandIn(use: (api: DataTablesApi) => void, options: DataTablesApiOptions = {}): void {
	let api: DataTablesApi | undefined;
	beforeEach(async () => {
		api = await startStandIn(options);
		use(api);
	});
	afterEach(async () => {
		await api?.settled();
		await api?.close();
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

export function chunks<T>(values: readonly T[], size: number): T[][] {
	const result: T[][] = [];
	for (let start = 0; start < values.length; start += size) result.push(values.slice(start, start + size) as T[]);
	return result;
}

export interface RateChangesRun extends Omit<RunNodeOptions, 'nodeType' | 'credentials' | 'items' | 'parameters'> {
	parameters?: INodeParameters;
}

export const RATE_CHANGES_WORKFLOW = 'rate-changes-workflow';

export async function runRateChanges(api: DataTablesApi, parameters: INodeParameters, items: IDataObject[], options: RateChangesRun = {}): Promise<NodeRunResult> {
	return await runNode({
		nodeType: 'travelPricingRateChanges',
		parameters,
		items,
		credentials: { travelPricingN8nApi: { baseUrl: api.baseUrl, apiKey: api.apiKey } },
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

export const DETECT: INodeParameters = { operation: 'detectChanges', options: {} };
export const DIGEST: INodeParameters = { operation: 'digest', options: {} };
