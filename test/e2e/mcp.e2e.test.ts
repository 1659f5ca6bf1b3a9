import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
	API_CREDENTIAL,
	connectMcpClient,
	e2eVersions,
	ensureN8n,
	mcpBearerCredential,
	mcpExample,
	mcpTriggerAccess,
	startE2e,
	type E2eEnvironment,
	type McpAccess,
	type McpTransport,
	type N8nRuntime,
	type WorkflowSeed,
} from '../../platform/n8n';
import { nextRunAtOrAfter, parsePattern } from '../../platform/sandbox/scheduleFields';
import { HOTEL_CODES, operationData, type OperationData } from './operationCases';

/**
 * The MCP example (examples/mcp-travel-pricing-tools.json) as an outside assistant uses it: the
 * workflow published in n8n, and the official MCP client (@modelcontextprotocol/sdk) connected to
 * its MCP Server Trigger with the example's bearer token, over every transport the trigger's
 * versions serve. Each tool's answer is checked against the sandbox's own data.
 */

const TOKEN = 'mcp-e2e-token-0123456789abcdef';
const EXAMPLE_ID = 'exMcpTools000001';
/** The same tools behind the trigger's v1, which serves SSE only (at <path>/sse). */
const V1_ID = 'exMcpToolsV10001';
const DEMAND_ID = 1002;
const TOOL_NAMES = ['Airports', 'Event_Impact', 'Hotel_Demand', 'Hotel_Info', 'Schedule_Preview'];
/** What Event Impact's Simplify keeps of an event (docs/nodes/event-impact.md#output): what the model gets. */
const SIMPLIFIED_EVENT_FIELDS = [
	'eventId',
	'eventName',
	'category',
	'startDate',
	'endDate',
	'city',
	'venue',
	'estimatedAttendees',
	'impactScore',
	'eventStatus',
] as const;

/** Every trigger version and transport the tools are proven on; v1 serves SSE alone. */
const SERVERS: Array<{ title: string; trigger: 'newest' | 'v1'; transport: McpTransport }> = [
	{ title: "the trigger's newest version over Streamable HTTP", trigger: 'newest', transport: 'streamable-http' },
	{ title: "the trigger's newest version over SSE", trigger: 'newest', transport: 'sse' },
	{ title: 'the trigger v1 over SSE', trigger: 'v1', transport: 'sse' },
];

/**
 * A workflow of ours for n8n's instance-level MCP server (/mcp-server/http), which runs whole
 * workflows marked available in MCP: a Webhook trigger (one of the triggers that server can run in
 * production) and Hotel Info for the hotel code posted.
 */
const LOOKUP_ID = 'e2eMcpHotelLook1';
function hotelLookupWorkflow(): WorkflowSeed {
	return {
		id: LOOKUP_ID,
		name: 'Hotel lookup for assistants',
		settings: { executionOrder: 'v1', availableInMCP: true },
		nodes: [
			{
				id: randomUUID(),
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: { httpMethod: 'POST', path: 'hotel-lookup', options: {} },
			},
			{
				id: randomUUID(),
				name: 'Hotel Info',
				type: 'n8n-nodes-travel-pricing.travelPricingHotelInfo',
				typeVersion: 1,
				position: [220, 0],
				parameters: { hotelCode: '={{ $json.body.hotelCode }}', options: {} },
				credentials: { travelPricingApi: API_CREDENTIAL },
			},
		],
		connections: { Webhook: { main: [[{ node: 'Hotel Info', type: 'main', index: 0 }]] } },
	};
}

type ToolResult = { isError?: boolean; content: Array<{ type: string; text?: string }> };

/** The text of a tool's answer: n8n puts a tool's output items in one text part, as JSON. */
function textOf(result: unknown): string {
	return (result as ToolResult).content.map((part) => part.text ?? '').join('');
}

function itemsOf(result: unknown): Array<Record<string, unknown>> {
	const parsed = JSON.parse(textOf(result)) as unknown;
	return (Array.isArray(parsed) ? parsed : [parsed]) as Array<Record<string, unknown>>;
}

/** The example with its trigger at the given version and path, and the id the test runs it by. */
function exampleAt(id: string, triggerVersion: number, triggerPath?: string): WorkflowSeed {
	const example = mcpExample();
	const nodes = example.nodes.map((node) =>
		node.type === '@n8n/n8n-nodes-langchain.mcpTrigger'
			? {
					...node,
					typeVersion: triggerVersion,
					webhookId: triggerPath ? `${String(node.webhookId).slice(0, -4)}0001` : node.webhookId,
					parameters: { ...(node.parameters as object), ...(triggerPath ? { path: triggerPath } : {}) },
				}
			: node,
	);
	return { ...example, id, name: `${example.name} v${triggerVersion}`, nodes };
}

/** The newest version of the MCP Server Trigger among node types n8n offers (2 in n8n 2.8, 2.1 in 2.40 and 2.41). */
function newestVersion(types: ReadonlyArray<{ name: string; version: number | number[] }>, name: string): number {
	const type = types.find((candidate) => candidate.name === name);
	if (!type) throw new Error('This n8n has no MCP Server Trigger');
	return Math.max(...(Array.isArray(type.version) ? type.version : [type.version]));
}

/**
 * The trigger's newest version as the node list n8n ships gives it (the langchain package's
 * dist/types/nodes.json, which n8n serves at /types/nodes.json), read before n8n first starts so
 * that the example goes in at that version at once; the first test checks that the running n8n
 * offers the same.
 */
function shippedTriggerVersion(runtime: N8nRuntime): number {
	const file = path.join(runtime.dir, 'node_modules', '@n8n', 'n8n-nodes-langchain', 'dist', 'types', 'nodes.json');
	const types = JSON.parse(fs.readFileSync(file, 'utf8')) as Array<{ name: string; version: number | number[] }>;
	return newestVersion(types, 'mcpTrigger');
}

describe.each(e2eVersions())('the MCP example in n8n %s, with the official MCP client', (version) => {
	let env: E2eEnvironment;
	let data: OperationData;
	let newest: number;
	/** Where each trigger answers, and the transports it serves there. */
	let access: Record<'newest' | 'v1', McpAccess>;
	const clients: Client[] = [];

	beforeAll(async () => {
		data = await operationData();
		// The example (saved with v2, which n8n 2.8, 2.40 and 2.41 all offer) is imported at the
		// trigger's newest version, as the editor would upgrade it, and published.
		newest = shippedTriggerVersion(await ensureN8n(version));
		const workflows = [exampleAt(EXAMPLE_ID, newest), exampleAt(V1_ID, 1, 'travel-pricing-tools-v1'), hotelLookupWorkflow()];
		env = await startE2e({ version, credentials: [mcpBearerCredential(TOKEN)], workflows, publish: workflows.map((workflow) => workflow.id) });
		access = { newest: mcpTriggerAccess(env.n8n.baseUrl, workflows[0], TOKEN), v1: mcpTriggerAccess(env.n8n.baseUrl, workflows[1], TOKEN) };
	}, 30 * 60_000);

	afterAll(async () => {
		for (const client of clients) await client.close().catch(() => undefined);
		await env?.close();
	});

	test('the example runs on the newest trigger version, which serves Streamable HTTP and SSE at its path', async () => {
		expect(newestVersion(await env.n8n.nodeTypes(), '@n8n/n8n-nodes-langchain.mcpTrigger')).toBe(newest);
		expect(newest).toBeGreaterThanOrEqual(2);
		expect(access.newest.transports).toEqual(['streamable-http', 'sse']);
		expect(access.v1.transports).toEqual(['sse']);
	});

	test.each(SERVERS)('a client with a wrong token, or none, is refused: $title', async ({ trigger, transport }) => {
		// n8n's webhook Bearer Auth answers 403 "Authorization data is wrong!" to a wrong token and to none.
		const refused = /403|Authorization data is wrong!/;
		await expect(connectMcpClient(access[trigger].url, transport, 'Bearer not-the-token')).rejects.toThrow(refused);
		await expect(connectMcpClient(access[trigger].url, transport)).rejects.toThrow(refused);
	});

	describe.each(SERVERS)('$title', ({ trigger, transport }) => {
		let client: Client;

		beforeAll(async () => {
			client = await connectMcpClient(access[trigger].url, transport, access[trigger].authorization);
			clients.push(client);
		});

		test('listTools names every tool, with its description and an input schema of its $fromAI fields', async () => {
			const { tools } = await client.listTools();
			expect(tools.map((tool) => tool.name).sort()).toEqual(TOOL_NAMES);
			const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
			const fields = (name: string) => Object.keys(byName[name].inputSchema.properties ?? {}).sort();
			expect(fields('Hotel_Info')).toEqual(['hotelCode']);
			expect(fields('Event_Impact')).toEqual(['city', 'horizon', 'startDate']);
			expect(fields('Hotel_Demand')).toEqual(['demandId', 'fromDate', 'toDate']);
			expect(fields('Airports')).toEqual(['codes']);
			expect(fields('Schedule_Preview')).toEqual(['daysOfWeek', 'hours', 'startDate']);
			for (const tool of tools) {
				expect(tool.inputSchema.type).toBe('object');
				expect(tool.description).toMatch(/\w{3,}/);
			}
			expect(byName.Event_Impact.description).toContain('impact score');
		});

		test('Hotel Info returns the hotel as the sandbox holds it, simplified (no street address)', async () => {
			env.sandbox.clearRequests();
			const result = await client.callTool({ name: 'Hotel_Info', arguments: { hotelCode: HOTEL_CODES[0] } });
			expect(result.isError).toBeFalsy();
			const hotel = env.sandbox.data.hotels.find((candidate) => candidate.hotelcode === HOTEL_CODES[0]);
			const [item] = itemsOf(result);
			expect(item).toMatchObject({ hotelcode: hotel?.hotelcode, hotelname: hotel?.hotelname, city: hotel?.city, country: hotel?.country });
			expect(item).not.toHaveProperty('address');
			expect(env.sandbox.requests({ endpoint: 'hotelinfo' }).map((request) => request.status)).toEqual([200]);
		});

		test('Event Impact returns the events of the city over the days asked, as the sandbox holds them, with the simplified fields', async () => {
			env.sandbox.clearRequests();
			const result = await client.callTool({ name: 'Event_Impact', arguments: { city: data.city, startDate: '2026-12-30', horizon: 3 } });
			expect(result.isError).toBeFalsy();
			const events = itemsOf(result);
			expect(events.length).toBeGreaterThan(0);
			const requests = env.sandbox.requests({ endpoint: 'eventimpact' });
			expect(requests.map((request) => request.status)).toEqual([200]);
			expect(requests[0].body).toMatchObject({ city: data.city, startDate: '2026-12-30', horizon: 3 });
			for (const event of events) {
				const seeded = env.sandbox.data.events.find((candidate) => candidate.eventId === event.eventId);
				if (!seeded) throw new Error(`Event ${String(event.eventId)} is not in the sandbox`);
				expect(event).toEqual(Object.fromEntries(SIMPLIFIED_EVENT_FIELDS.map((field) => [field, seeded[field]])));
				expect(event.city).toBe(data.city);
			}
		});

		test('Hotel Demand returns each hotel of the demand shop with its values for the days asked', async () => {
			env.sandbox.clearRequests();
			const result = await client.callTool({ name: 'Hotel_Demand', arguments: { demandId: DEMAND_ID, fromDate: '2026-12-30', toDate: '2027-01-02' } });
			expect(result.isError).toBeFalsy();
			const rows = itemsOf(result);
			const shop = env.sandbox.data.demand.result(DEMAND_ID);
			if (!shop) throw new Error(`The sandbox has no demand shop ${DEMAND_ID}`);
			const byCode = (entries: Array<[unknown, unknown]>) => entries.map(([code, name]) => `${String(code)} ${String(name)}`).sort();
			expect(byCode(rows.map((row) => [row.hotelCode, row.hotelName]))).toEqual(
				byCode(shop['Absolute_Value.json'].map((hotel) => [hotel.HotelCode, hotel.HotelName])),
			);
			const text = textOf(result);
			expect(text).toContain('"2026-12-30"');
			expect(text).toContain('"2027-01-02"');
			expect(text).not.toContain('"2026-12-29"');
		});

		test('Airports returns the airports of the codes asked, as the sandbox holds them', async () => {
			const result = await client.callTool({ name: 'Airports', arguments: { codes: data.airportCodes.join(', ') } });
			expect(result.isError).toBeFalsy();
			const expected = data.airportCodes.map((code) => env.sandbox.data.airports.find((airport) => airport.airportCode === code));
			expect(itemsOf(result).map((airport) => [airport.airportCode, airport.airportName]).sort()).toEqual(
				expected.map((airport) => [airport?.airportCode, airport?.airportName]).sort(),
			);
		});

		test('Schedule Preview returns the next runs the sandbox would make of that schedule, and sends nothing', async () => {
			env.sandbox.clearRequests();
			const result = await client.callTool({ name: 'Schedule_Preview', arguments: { daysOfWeek: 'Mon,Fri', hours: '6,18', startDate: '2030-01-07' } });
			expect(result.isError).toBeFalsy();
			const [preview] = itemsOf(result);
			const pattern = parsePattern(preview as unknown as Parameters<typeof parsePattern>[0]);
			const expected: string[] = [];
			for (let from = Date.parse('2030-01-07T00:00:00Z'); expected.length < 5; ) {
				const at = nextRunAtOrAfter(pattern, from);
				if (at === null) break;
				expected.push(new Date(at).toISOString());
				from = at + 1000;
			}
			expect((preview.nextRuns as string[]).map((run) => new Date(run).toISOString())).toEqual(expected);
			expect(env.sandbox.requests()).toEqual([]);
		});

		test('a date the node refuses comes back as a tool error naming the field, and nothing reaches the service', async () => {
			env.sandbox.clearRequests();
			const result = await client.callTool({ name: 'Event_Impact', arguments: { city: data.city, startDate: 'next week', horizon: 3 } });
			expect({ isError: result.isError, text: textOf(result) }).toEqual({
				isError: true,
				text: expect.stringContaining('Invalid Start Date "next week" in item 0: must be a date in the form YYYY-MM-DD'),
			});
			expect(env.sandbox.requests()).toEqual([]);
		});

		test('a 429 from the service is waited out inside the call, as its Retry-After says', async () => {
			env.sandbox.clearRequests();
			env.sandbox.setFaults({ endpoints: { hotelinfo: { p429: 1, retryAfterSeconds: 1, times: 1 } } });
			try {
				const started = Date.now();
				const result = await client.callTool({ name: 'Hotel_Info', arguments: { hotelCode: HOTEL_CODES[1] } });
				expect(result.isError).toBeFalsy();
				expect(itemsOf(result)[0]).toMatchObject({ hotelcode: HOTEL_CODES[1] });
				expect(env.sandbox.requests({ endpoint: 'hotelinfo' }).map((request) => request.status)).toEqual([429, 200]);
				expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
			} finally {
				env.sandbox.resetFaults();
			}
		});
	});
	describe("n8n's instance-level MCP server (/mcp-server/http)", () => {
		let client: Client;
		/** n8n 2.40's and 2.41's execute_workflow starts the run and answers its id; 2.8's waits and answers the result. */
		let startsOnly: boolean;

		beforeAll(async () => {
			const settings = await env.n8n.request('PATCH', '/rest/mcp/settings', { mcpAccessEnabled: true });
			expect({ status: settings.status, text: settings.text.slice(0, 300) }).toMatchObject({ status: 200 });
			const key = await env.n8n.request<{ data: { apiKey: string } }>('GET', '/rest/mcp/api-key');
			expect(key.status).toBe(200);
			client = await connectMcpClient(`${env.n8n.baseUrl}/mcp-server/http`, 'streamable-http', `Bearer ${key.body.data.apiKey}`);
			clients.push(client);
			const { tools } = await client.listTools();
			const execute = tools.find((tool) => tool.name === 'execute_workflow');
			startsOnly = Object.keys(execute?.inputSchema.properties ?? {}).includes('executionMode');
		});

		test('a wrong MCP access token is refused', async () => {
			await expect(connectMcpClient(`${env.n8n.baseUrl}/mcp-server/http`, 'streamable-http', 'Bearer not-the-key')).rejects.toThrow('Unauthorized');
		});

		test('search_workflows finds our workflow marked available in MCP', async () => {
			const result = await client.callTool({ name: 'search_workflows', arguments: { query: 'Hotel lookup' } });
			const found = (result.structuredContent as { data: Array<{ id: string; name: string }> }).data;
			expect(found.map((workflow) => [workflow.id, workflow.name])).toEqual([[LOOKUP_ID, 'Hotel lookup for assistants']]);
		});

		test('execute_workflow runs it through its Webhook trigger, and Hotel Info returns the hotel from the sandbox', async () => {
			env.sandbox.clearRequests();
			const webhookData = { method: 'POST', body: { hotelCode: HOTEL_CODES[2] } };
			const result = await client.callTool({
				name: 'execute_workflow',
				arguments: startsOnly
					? { workflowId: LOOKUP_ID, executionMode: 'production', triggerNodeName: 'Webhook', inputs: { webhookData } }
					: { workflowId: LOOKUP_ID, inputs: { type: 'webhook', webhookData } },
			});
			expect(result.isError).toBeFalsy();
			let output = textOf(result);
			if (startsOnly) {
				const { executionId } = result.structuredContent as { executionId: string };
				output = await finishedExecution(client, executionId);
			}
			const hotel = env.sandbox.data.hotels.find((candidate) => candidate.hotelcode === HOTEL_CODES[2]);
			expect(output).toContain(JSON.stringify(hotel?.hotelname));
			expect(env.sandbox.requests({ endpoint: 'hotelinfo' }).map((request) => [request.status, request.body])).toEqual([
				[200, expect.objectContaining({ hotelcodes: [HOTEL_CODES[2]] })],
			]);
		});
	});
});

/** Asks get_workflow_execution until the run has finished, and returns its data as text. */
async function finishedExecution(client: Client, executionId: string, timeoutMs = 60_000): Promise<string> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const result = await client.callTool({ name: 'get_workflow_execution', arguments: { workflowId: LOOKUP_ID, executionId, includeData: true } });
		const { execution } = result.structuredContent as { execution: { status: string } | null };
		if (execution && !['new', 'running', 'waiting'].includes(execution.status)) {
			expect(execution.status).toBe('success');
			return textOf(result);
		}
		if (Date.now() > deadline) throw new Error(`Execution ${executionId} had not finished after ${timeoutMs / 1000} s`);
		await sleep(250);
	}
}
