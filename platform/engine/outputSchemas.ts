import fs from 'node:fs';
import path from 'node:path';
import axios from 'axios';
import type { IDataObject } from 'n8n-workflow';
import { CHANGE_TYPES } from '../../nodes/RateChanges/rules/observation';
import { startDataTablesApi, type DataTablesApi } from '../dataTables';
import { startSandbox, type RunShopOptions, type Sandbox } from '../sandbox';
import { credentialsFor } from './credentials';
import { runNode } from './engine';
import { DAILY_FROM_2030_SCHEDULE, VALID_SHOP_UPDATE } from './parameters';

/**
 * The output schemas n8n's editor shows for a node that has not run yet (its "schema preview":
 * the fields of the next items, ready to drag into an expression). n8n reads them from
 * `<node folder>/__schema__/v<version>[/<operation>].json`, as its own nodes ship them. Each is
 * inferred from what the node really puts out against the sandbox, so `npm run schemas` writes
 * them and test/package/outputSchemas.engine.test.ts fails when a node's output changes shape
 * and its schema was not written again.
 */

export interface JsonSchema {
	type: 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';
	properties?: Record<string, JsonSchema>;
	items?: JsonSchema;
}

const NODES_DIR = path.resolve(__dirname, '..', '..', 'nodes');

/** The JSON Schema of a list of values: each object's fields merged, in the order first seen. */
export function inferSchema(values: unknown[]): JsonSchema {
	const present = values.filter((value) => value !== null && value !== undefined);
	const sample = present[0];
	if (sample === undefined) return { type: 'null' };
	if (Array.isArray(sample)) {
		const elements = present.filter(Array.isArray).flat();
		return elements.length > 0 ? { type: 'array', items: inferSchema(elements) } : { type: 'array' };
	}
	if (typeof sample === 'object') {
		const objects = present.filter((value): value is Record<string, unknown> => typeof value === 'object' && !Array.isArray(value));
		const keys = [...new Set(objects.flatMap((object) => Object.keys(object)))];
		return {
			type: 'object',
			properties: Object.fromEntries(keys.map((key) => [key, inferSchema(objects.map((object) => object[key]))])),
		};
	}
	if (typeof sample === 'number') return { type: 'number' };
	if (typeof sample === 'boolean') return { type: 'boolean' };
	return { type: 'string' };
}

interface SchemaCase {
	/** Under nodes/: the file n8n reads for this node (and operation). */
	file: string;
	output(sandbox: Sandbox): Promise<IDataObject[]>;
}

/** A node's output at one version, its newest unless given: each version has its own schema file. */
async function nodeOutput(sandbox: Sandbox, nodeType: string, parameters: IDataObject, items: IDataObject[] = [{}], typeVersion?: number): Promise<IDataObject[]> {
	const result = await runNode({ nodeType, parameters: parameters as never, items, credentials: credentialsFor(sandbox), typeVersion });
	if (result.error) throw new Error(`${nodeType} failed: ${result.error.message}`);
	return result.items.map((item) => item.json);
}

/** Registers a receiver on port 9 (discard): it refuses each delivery, and the sandbox still keeps what it posted. */
async function registerDiscardWebhook(sandbox: Sandbox): Promise<void> {
	await axios.post(
		`${sandbox.baseUrl}/webhook`,
		{ endpoint: 'http://127.0.0.1:9/rate-records', authType: 'none' },
		{ headers: { Authorization: `Bearer ${sandbox.credentials.accessToken}` } },
	);
}

/** The records of one rate shop run as one receiver got them, in record order, and the run's id. */
export async function shopRun(sandbox: Sandbox, options: RunShopOptions): Promise<{ runId: number; records: IDataObject[] }> {
	// The discard receiver refuses every delivery: the sender posts each once, without its retries.
	const { runId } = await sandbox.runShop({ retries: 0, ...options });
	const deliveries = sandbox.deliveries().filter((delivery) => delivery.runId === runId);
	const receiver = Math.min(...deliveries.map((delivery) => delivery.webhookId));
	const records = deliveries
		.filter((delivery) => delivery.webhookId === receiver)
		.sort((a, b) => a.seq - b.seq)
		.flatMap((delivery) => (Array.isArray(delivery.body) ? delivery.body : [delivery.body]));
	return { runId, records: records as unknown as IDataObject[] };
}

/** The records the sandbox posts for a rate shop: what the Rate Record Trigger passes on as items. */
async function postedRecords(sandbox: Sandbox): Promise<IDataObject[]> {
	await registerDiscardWebhook(sandbox);
	return (await shopRun(sandbox, { shopId: 1, records: 20, perDelivery: 20 })).records;
}

/** Rate Changes' items, run in the engine against the stand-in for n8n's Data Tables API, one execution per shop run. */
async function rateChangesOutput(api: DataTablesApi, runs: readonly IDataObject[][], parameters: IDataObject): Promise<IDataObject[]> {
	const output: IDataObject[] = [];
	for (const records of runs) {
		const result = await runNode({
			nodeType: 'travelPricingRateChanges',
			parameters: parameters as never,
			items: records,
			credentials: { travelPricingN8nApi: { baseUrl: api.baseUrl, apiKey: api.apiKey } },
			mode: 'trigger',
		});
		if (result.error) throw new Error(`Rate Changes failed: ${result.error.message}`);
		output.push(...result.items.map((item) => item.json));
	}
	return output;
}

async function withStandIn<T>(use: (api: DataTablesApi) => Promise<T>): Promise<T> {
	const api = await startDataTablesApi();
	try {
		return await use(api);
	} finally {
		await api.settled();
		await api.close();
	}
}

/**
 * Three runs of one shop: its first run, a repeat with rates moved and stays sold out, and a
 * repeat with those back on sale; every change alerts (Include First Seen, any move).
 */
async function changeRuns(sandbox: Sandbox): Promise<IDataObject[][]> {
	await registerDiscardWebhook(sandbox);
	const first = await shopRun(sandbox, { shopId: 1, records: 20, perDelivery: 20 });
	const moved = await shopRun(sandbox, { repeatRun: first.runId, perDelivery: 20, changes: { changed: 0.5, soldOut: 0.3 } });
	const back = await shopRun(sandbox, { repeatRun: moved.runId, perDelivery: 20, changes: { backOnSale: 1 } });
	return [first.records, moved.records, back.records];
}

const EVERY_CHANGE = { operation: 'detectChanges', includeFirstSeen: true, minChangePercent: 0, options: {} };

async function detectedChanges(api: DataTablesApi, sandbox: Sandbox): Promise<IDataObject[]> {
	const output = await rateChangesOutput(api, await changeRuns(sandbox), EVERY_CHANGE);
	// A field is typed by its values that are not null: a change type missing here would leave the
	// fields only it fills (rate when sold out, change when up or down) out of the schema.
	const missing = CHANGE_TYPES.filter((type) => !output.some((item) => item.changeType === type));
	if (missing.length > 0) throw new Error(`The sandbox's runs gave no ${missing.join(', ')} change`);
	return output;
}

/** The fields a schema types only as null: nothing put out filled them, so their type is unknown. */
function unfilledFields(schema: JsonSchema, at = ''): string[] {
	if (schema.type === 'null') return [at || '(the items)'];
	if (schema.items) return unfilledFields(schema.items, `${at}[]`);
	return Object.entries(schema.properties ?? {}).flatMap(([key, field]) => unfilledFields(field, at ? `${at}.${key}` : key));
}

/** Output whose every field some item fills, or an error naming those none does. */
function filled(label: string, output: IDataObject[]): IDataObject[] {
	const unfilled = unfilledFields(inferSchema(output));
	if (unfilled.length > 0) throw new Error(`${label}: the sandbox's runs filled no ${unfilled.join(', ')}`);
	return output;
}

/** Shop 5's hotels (mine first) on websites 2, 5 and 12; its records are in USD. */
const MARKET_SHOP = 5;

/**
 * Two shops of a comp-set (the sandbox's market, one seed: the same stays twice, the second
 * collected 7 hours later, a run of its own) over three check-in days, read as the node reads records: the same room of
 * each hotel on every website, so parity has something to compare. Laid out so that every field
 * of both operations is filled, whatever the day's layout: my hotel (3 stars, 100–170 USD a
 * night) at three times its rates is above every competitor (4 stars at most 280 and a 3 % markup,
 * and weekends alike), then at half of them below every one, so each stay-night is undercut,
 * then changes rank; hotel B is 15 % down on website 2 tomorrow, hotel C sold out the day after,
 * the last hotel sells in EUR (not compared); website 5 sells my room 8 % below website 2
 * tomorrow (a loss beyond any 0–3 % markup) and website 12 has it sold out the day after.
 */
async function marketRuns(sandbox: Sandbox): Promise<{ myHotelCode: number; runs: IDataObject[][] }> {
	const [myHotelCode, hotelB, hotelC, otherCurrencyHotel] = sandbox.data.shops.get(MARKET_SHOP)?.hotelCodes ?? [];
	await registerDiscardWebhook(sandbox);
	const runs: IDataObject[][] = [];
	for (const myFactor of [3, 0.5]) {
		const { records } = await shopRun(sandbox, {
			shopId: MARKET_SHOP,
			records: 4 * 3 * 3,
			perDelivery: 36,
			market: {
				seed: 4,
				prices: [
					{ hotelCode: myHotelCode, factor: myFactor },
					{ hotelCode: hotelB, websiteCode: 2, checkIn: 1, factor: 0.85 },
					{ hotelCode: hotelC, checkIn: 2, factor: 0 },
					{ hotelCode: myHotelCode, websiteCode: 5, checkIn: 1, factor: 0.92 },
					{ hotelCode: myHotelCode, websiteCode: 12, checkIn: 2, factor: 0 },
				],
				currencies: { [otherCurrencyHotel]: 'EUR' },
			},
		});
		// The second shop a run of its own (Rate Changes tells runs apart by 6 hours): collected 7 hours later, the same check-in days.
		runs.push(runs.length === 0 ? records : records.map((record) => ({ ...record, dtCollected: new Date(Date.parse(String(record.dtCollected)) + 7 * 3_600_000).toISOString() })));
	}
	return { myHotelCode, runs };
}

/** Compare With My Hotel as a position feed (Alert On: Always), on the same website and across all, over both runs. */
async function comparedWithMyHotel(sandbox: Sandbox): Promise<IDataObject[]> {
	const { myHotelCode, runs } = await marketRuns(sandbox);
	const output: IDataObject[] = [];
	for (const compareOn of ['sameWebsite', 'allWebsites']) {
		const parameters = { operation: 'compareWithMyHotel', myHotelCode: String(myHotelCode), compareOn, compareAlertOn: 'always', options: {} };
		output.push(...(await withStandIn(async (api) => await rateChangesOutput(api, runs, parameters))));
	}
	return output;
}

function parityParameters(myHotelCode: number): IDataObject {
	return { operation: 'checkParity', parityHotelCode: String(myHotelCode), reference: 'website', referenceWebsiteCode: '2', parityAlertOn: 'losses', options: {} };
}

/** Check Parity of my hotel against website 2 with the default tolerance (1 %), alerting on losses, over both runs. */
async function checkedParity(sandbox: Sandbox): Promise<IDataObject[]> {
	const { myHotelCode, runs } = await marketRuns(sandbox);
	return await withStandIn(async (api) => await rateChangesOutput(api, runs, parityParameters(myHotelCode)));
}

/**
 * Digests of every kind of change: Detect Changes' rate moves, Compare With My Hotel's undercuts
 * and rank changes, Check Parity's losses, in one changes table. Every grouping (Group By is no
 * part of the path n8n reads the schema from), as previews, so each lists all of them.
 */
async function digests(sandbox: Sandbox): Promise<IDataObject[]> {
	const { myHotelCode, runs } = await marketRuns(sandbox);
	return await withStandIn(async (api) => {
		await detectedChanges(api, sandbox);
		for (const compareAlertOn of ['undercut', 'rankChanged']) {
			await rateChangesOutput(api, runs, { operation: 'compareWithMyHotel', myHotelCode: String(myHotelCode), compareAlertOn, undercutPercent: 0, positionsTable: `positions_${compareAlertOn}`, options: {} });
		}
		await rateChangesOutput(api, runs, parityParameters(myHotelCode));
		const output = (
			await Promise.all(
				(['shop', 'hotel', 'hotelDay'] as const).map(
					async (groupBy) => await rateChangesOutput(api, [[{}]], { operation: 'digest', groupBy, markReported: 'never', options: {} }),
				),
			)
		).flat();
		const types = new Set(output.flatMap((item) => (item.changes as IDataObject[]).map((change) => change.changeType)));
		const missing = ['undercut', 'rankChanged', 'parityLoss'].filter((type) => !types.has(type));
		if (missing.length > 0) throw new Error(`The sandbox's runs gave no ${missing.join(', ')} change`);
		return filled('Digest', output);
	});
}

/** My hotel in shop 5's comp set, in demand shop 1001 (hotels 100001 to 100100, December 2026 to February 2027). */
const CALENDAR_HOTEL = 100019;
const DECEMBER = { fromDate: '2026-12-02', toDate: '2026-12-31' };

/**
 * Rate Calendar or Suggest Rates over December 2026, with events and demand, as the morning after
 * two shops: a comp-set shop of shop 5 (30 nights) around my hotel, sold out on the 3rd, 30 % dearer
 * on the 5th, an event of impact 85 on the 6th and 7th, one competitor in EUR; then the same stays
 * a day later with 30 % of the rates moved. The calendar runs after each shop, so the second has
 * arrows; both outputs (each date and the summary). On a sandbox of its own whose clock stands at
 * 1 December 2026, so the demand shop covers the window whatever day the schemas are written.
 */
async function calendarOutput(parameters: IDataObject): Promise<IDataObject[]> {
	const sandbox = await startSandbox({ port: 0, speed: 0, clock: '2026-12-01T06:00:00Z' });
	try {
		await registerDiscardWebhook(sandbox);
		const [, hotelB, , otherCurrencyHotel] = sandbox.data.shops.get(MARKET_SHOP)?.hotelCodes ?? [];
		const first = await shopRun(sandbox, {
			shopId: MARKET_SHOP,
			records: 4 * 3 * 30,
			perDelivery: 360,
			market: {
				seed: 4,
				myHotelCode: CALENDAR_HOTEL,
				prices: [
					{ hotelCode: CALENDAR_HOTEL, checkIn: 2, factor: 0 },
					{ hotelCode: CALENDAR_HOTEL, checkIn: 4, factor: 1.3 },
					{ hotelCode: hotelB, checkIn: 8, factor: 0 },
				],
				currencies: { [otherCurrencyHotel]: 'EUR' },
				events: [{ checkIn: 5, nights: 2, impactScore: 85 }],
			},
		});
		const second = await shopRun(sandbox, { repeatRun: first.runId, perDelivery: 360, changes: { seed: 3, changed: 0.3 } });
		return await withStandIn(async (api) => {
			const credentials = { ...credentialsFor(sandbox), travelPricingN8nApi: { baseUrl: api.baseUrl, apiKey: api.apiKey } };
			const nights = sandbox.data.shops.get(MARKET_SHOP)?.config.lor;
			const calendar = { myHotelCode: String(CALENDAR_HOTEL), nights, window: 'range', ...DECEMBER, serviceData: ['events', 'demand'], demandShopId: '1001', calendarOutput: 'both', ...parameters };
			const output: IDataObject[] = [];
			for (const [morning, shop] of [first, second].entries()) {
				await rateChangesOutput(api, [shop.records], { operation: 'detectChanges', options: {} });
				const result = await runNode({ nodeType: 'travelPricingRateChanges', parameters: calendar as never, items: [{ morning }], credentials, mode: 'trigger' });
				if (result.error) throw new Error(`Rate Changes failed: ${result.error.message}`);
				output.push(...result.items.map((item) => item.json));
			}
			return filled(String(parameters.operation), output);
		});
	} finally {
		await sandbox.close();
	}
}

/**
 * Rate History of the first ten days of December 2026, each date and the summary, after seven daily
 * shops of shop 5's comp set around my hotel (its 30 nights from 25 November; sold out on 3 December
 * from the first, 30 % of the rates moved each day after).
 */
async function historyOutput(): Promise<IDataObject[]> {
	const sandbox = await startSandbox({ port: 0, speed: 0, clock: '2026-11-24T06:00:00Z' });
	try {
		await registerDiscardWebhook(sandbox);
		const shops = [await shopRun(sandbox, { shopId: MARKET_SHOP, records: 4 * 3 * 30, perDelivery: 360, market: { seed: 4, myHotelCode: CALENDAR_HOTEL, prices: [{ hotelCode: CALENDAR_HOTEL, checkIn: 9, factor: 0 }] } })];
		for (let day = 1; day < 7; day++) {
			sandbox.setClock(Date.parse('2026-11-24T06:00:00Z') + day * 86_400_000);
			shops.push(await shopRun(sandbox, { repeatRun: shops[shops.length - 1].runId, perDelivery: 360, changes: { seed: day, changed: 0.3 } }));
		}
		return await withStandIn(async (api) => {
			for (const shop of shops) await rateChangesOutput(api, [shop.records], { operation: 'detectChanges', options: {} });
			const nights = sandbox.data.shops.get(MARKET_SHOP)?.config.lor;
			const parameters = { operation: 'rateHistory', myHotelCode: String(CALENDAR_HOTEL), nights, window: 'range', fromDate: '2026-12-01', toDate: '2026-12-10', calendarOutput: 'both', options: {} };
			return filled('Rate History', await rateChangesOutput(api, [[{}]], parameters));
		});
	} finally {
		await sandbox.close();
	}
}

const SUGGESTION_RULES = {
	operation: 'suggestRates',
	anchor: 'compMedian',
	adjustBy: 'percent',
	adjustment: -5,
	eventUplift: { bands: [{ atLeast: 70, percent: 15 }] },
	demandUplift: { bands: [{ atLeast: 60, percent: 5 }] },
	maxRate: 400,
	rounding: 'end99',
	// Two competitors in USD: the fourth hotel sells in EUR.
	options: { minCompetitors: 2 },
};

/** Rate Changes' schema cases, one per operation. */
function rateChangesCases(): SchemaCase[] {
	const folder = 'RateChanges/__schema__/v1.0.0';
	return [
		// The record with its change, as Detect Changes puts out an alert.
		{ file: `${folder}/detectChanges.json`, output: async (sandbox: Sandbox) => await withStandIn(async (api) => await detectedChanges(api, sandbox)) },
		{ file: `${folder}/compareWithMyHotel.json`, output: async (sandbox: Sandbox) => filled('Compare With My Hotel', await comparedWithMyHotel(sandbox)) },
		{ file: `${folder}/checkParity.json`, output: async (sandbox: Sandbox) => filled('Check Parity', await checkedParity(sandbox)) },
		{ file: `${folder}/digest.json`, output: async (sandbox: Sandbox) => await digests(sandbox) },
		{ file: `${folder}/rateCalendar.json`, output: async () => await calendarOutput({ operation: 'rateCalendar', options: {} }) },
		{ file: `${folder}/suggestRates.json`, output: async () => await calendarOutput(SUGGESTION_RULES) },
		{ file: `${folder}/rateHistory.json`, output: async () => await historyOutput() },
	];
}

export const OUTPUT_SCHEMA_CASES: SchemaCase[] = [
	{
		file: 'HotelInfo/__schema__/v1.0.0.json',
		output: async (sandbox) => await nodeOutput(sandbox, 'travelPricingHotelInfo', { hotelCode: '={{ $json.code }}', options: {} }, sandbox.data.hotels.slice(0, 5).map((hotel) => ({ code: hotel.hotelcode })), 1),
	},
	{
		// Simplify on, its default from version 1.1.
		file: 'HotelInfo/__schema__/v1.1.0.json',
		output: async (sandbox) => await nodeOutput(sandbox, 'travelPricingHotelInfo', { hotelCode: '={{ $json.code }}', options: {} }, sandbox.data.hotels.slice(0, 5).map((hotel) => ({ code: hotel.hotelcode })), 1.1),
	},
	{
		file: 'Schedule/__schema__/v1.0.0/create.json',
		output: async (sandbox) => await nodeOutput(sandbox, 'travelPricingSchedule', { ...DAILY_FROM_2030_SCHEDULE, options: {} }),
	},
	{
		file: 'Schedule/__schema__/v1.0.0/update.json',
		output: async (sandbox) => {
			const [created] = await nodeOutput(sandbox, 'travelPricingSchedule', { ...DAILY_FROM_2030_SCHEDULE, options: {} });
			return await nodeOutput(sandbox, 'travelPricingSchedule', { ...DAILY_FROM_2030_SCHEDULE, operation: 'update', scheduleId: String(created.scheduleid), options: {} });
		},
	},
	{
		// A created row and an unchanged one: the items a sheet's second run puts out.
		file: 'Schedule/__schema__/v1.0.0/upsert.json',
		output: async (sandbox) => {
			const upsert = { ...DAILY_FROM_2030_SCHEDULE, operation: 'upsert', scheduleId: '', lastFingerprint: '', options: {} };
			const [created] = await nodeOutput(sandbox, 'travelPricingSchedule', upsert);
			const [unchanged] = await nodeOutput(sandbox, 'travelPricingSchedule', {
				...upsert,
				scheduleId: String(created.scheduleid),
				lastFingerprint: String(created.fingerprint),
			});
			return [created, unchanged];
		},
	},
	{
		file: 'Schedule/__schema__/v1.0.0/preview.json',
		output: async (sandbox) => await nodeOutput(sandbox, 'travelPricingSchedule', { ...DAILY_FROM_2030_SCHEDULE, operation: 'preview', options: {} }),
	},
	{
		file: 'EventImpact/__schema__/v1.0.0.json',
		output: async (sandbox) => await nodeOutput(sandbox, 'travelPricingEventImpact', { filters: {}, returnAll: false, limit: 50, options: {} }, [{}], 1),
	},
	{
		// Simplify on, its default from version 1.1.
		file: 'EventImpact/__schema__/v1.1.0.json',
		output: async (sandbox) => await nodeOutput(sandbox, 'travelPricingEventImpact', { filters: {}, returnAll: false, limit: 50, options: {} }, [{}], 1.1),
	},
	{
		file: 'Airports/__schema__/v1.0.0.json',
		output: async (sandbox) => await nodeOutput(sandbox, 'travelPricingAirports', { codes: '', returnAll: false, limit: 50, options: {} }),
	},
	{
		file: 'HotelDemand/__schema__/v1.0.0.json',
		output: async (sandbox) => await nodeOutput(sandbox, 'travelPricingHotelDemand', { demandId: '1002', output: 'hotelDays', options: {} }),
	},
	{
		file: 'ShopUpdate/__schema__/v1.0.0.json',
		output: async (sandbox) => await nodeOutput(sandbox, 'travelPricingShopUpdate', VALID_SHOP_UPDATE),
	},
	{
		file: 'RateTrigger/__schema__/v1.0.0.json',
		output: postedRecords,
	},
	// 1.1 gathers deliveries: more items an execution, each the same record.
	{
		file: 'RateTrigger/__schema__/v1.1.0.json',
		output: postedRecords,
	},
	...rateChangesCases(),
];

/** Every schema file, as inferred from the nodes' output against `sandbox`, by path under nodes/. */
/**
 * The sandbox the schemas are inferred against: its clock stands still on one day, so its events and
 * shops, laid out from that day, give the same output (and the same schema) whenever it runs.
 */
export const OUTPUT_SCHEMA_SANDBOX = { speed: 0, clock: '2026-11-28T06:00:00Z' } as const;

export async function inferOutputSchemas(sandbox: Sandbox): Promise<Map<string, JsonSchema>> {
	const schemas = new Map<string, JsonSchema>();
	for (const entry of OUTPUT_SCHEMA_CASES) schemas.set(entry.file, inferSchema(await entry.output(sandbox)));
	return schemas;
}

export function schemaPath(file: string): string {
	return path.join(NODES_DIR, file);
}

/** A schema as its file holds it (4-space JSON, as n8n's own files). */
export function schemaText(schema: JsonSchema): string {
	return `${JSON.stringify(schema, null, 4)}\n`;
}

export function readSchemaFile(file: string): string | undefined {
	try {
		return fs.readFileSync(schemaPath(file), 'utf8');
	} catch {
		return undefined;
	}
}
