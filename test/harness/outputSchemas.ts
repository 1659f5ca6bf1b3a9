import fs from 'node:fs';
import path from 'node:path';
import axios from 'axios';
import type { IDataObject } from 'n8n-workflow';
import type { Sandbox } from '../sandbox';
import { credentialsFor } from './credentials';
import { runNode } from './engine';
import { DAILY_FROM_2030_SCHEDULE, VALID_SHOP_UPDATE } from './fixtures';

/**
 * The output schemas n8n's editor shows for a node that has not run yet (its "schema preview":
 * the fields of the next items, ready to drag into an expression). n8n reads them from
 * `<node folder>/__schema__/v<version>[/<operation>].json`, as its own nodes ship them. Each is
 * inferred from what the node really puts out against the sandbox, so `npm run schemas` writes
 * them and test/foundation/outputSchemas.engine.test.ts fails when a node's output changes shape
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

async function nodeOutput(sandbox: Sandbox, nodeType: string, parameters: IDataObject, items: IDataObject[] = [{}]): Promise<IDataObject[]> {
	const result = await runNode({ nodeType, parameters: parameters as never, items, credentials: credentialsFor(sandbox) });
	if (result.error) throw new Error(`${nodeType} failed: ${result.error.message}`);
	return result.items.map((item) => item.json);
}

/** The records the sandbox posts for a rate shop: what the Rate Record Trigger passes on as items. */
async function postedRecords(sandbox: Sandbox): Promise<IDataObject[]> {
	// Port 9 (discard) refuses the delivery; the sandbox still keeps what it posted.
	await axios.post(
		`${sandbox.baseUrl}/webhook`,
		{ endpoint: 'http://127.0.0.1:9/rate-records', authType: 'none' },
		{ headers: { Authorization: `Bearer ${sandbox.credentials.accessToken}` } },
	);
	await sandbox.runShop({ shopId: 1, records: 20, perDelivery: 20 });
	const body = sandbox.deliveries().at(-1)?.body;
	return (Array.isArray(body) ? body : [body]) as unknown as IDataObject[];
}

export const OUTPUT_SCHEMA_CASES: SchemaCase[] = [
	{
		file: 'HotelInfo/__schema__/v1.0.0.json',
		output: async (sandbox) => await nodeOutput(sandbox, 'travelPricingHotelInfo', { hotelCode: '={{ $json.code }}', options: {} }, sandbox.data.hotels.slice(0, 5).map((hotel) => ({ code: hotel.hotelcode }))),
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
		file: 'Schedule/__schema__/v1.0.0/preview.json',
		output: async (sandbox) => await nodeOutput(sandbox, 'travelPricingSchedule', { ...DAILY_FROM_2030_SCHEDULE, operation: 'preview', options: {} }),
	},
	{
		file: 'EventImpact/__schema__/v1.0.0.json',
		output: async (sandbox) => await nodeOutput(sandbox, 'travelPricingEventImpact', { filters: {}, returnAll: false, limit: 50, options: {} }),
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
];

/** Every schema file, as inferred from the nodes' output against `sandbox`, by path under nodes/. */
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
