import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import {
	API_CREDENTIAL,
	AIRPORTS_CREDENTIAL,
	DEMO_MODEL_CREDENTIAL,
	demoModelCredential,
	e2eVersions,
	isN8n1x,
	OLDEST_N8N,
	outputOf,
	REPO_ROOT,
	startE2e,
	type E2eEnvironment,
	type WorkflowSeed,
} from '../../platform/n8n';
import { startScriptedModel, toolResults, type ChatRequest, type ScriptedModel } from '../../platform/n8n/scriptedModel';
import { HOTEL_CODES, operationData, type OperationData } from './operationCases';

/**
 * This package's nodes as tools of n8n's AI Agent: the agent's chat model is the OpenAI Chat Model
 * node pointed at a scripted OpenAI-compatible server (platform/n8n/scriptedModel.ts), which first calls
 * the tools with arguments, then answers from what they returned. The tool calls must reach the
 * sandbox as valid requests, and the tools' results must come back to the model.
 */

const AGENT_WORKFLOW_ID = 'e2eAgentTools001';
const EXAMPLE_ID = 'exAgentExample01';
const DEMAND_ID = 1002;
/** The day the sandbox's clock starts on (see sandboxClock below). */
const AGENT_SANDBOX_CLOCK = '2026-11-28T06:00:00Z';
const QUESTION = 'What is on around hotel 100001 in the next days, and how is demand?';

/** Tool node name → the node type's tool variant and its parameters, with the fields the model fills as $fromAI. */
const TOOLS: Record<string, { type: string; credential: 'api' | 'airports'; parameters: Record<string, unknown> }> = {
	'Event Impact': {
		type: 'travelPricingEventImpactTool',
		credential: 'api',
		parameters: {
			filters: { city: "={{ $fromAI('city', 'The city to find events in', 'string') }}" },
			returnAll: false,
			limit: 5,
			options: {},
		},
	},
	'Hotel Info': {
		type: 'travelPricingHotelInfoTool',
		credential: 'api',
		parameters: { hotelCode: "={{ $fromAI('hotelCode', 'The hotel code, a number such as 100001', 'number') }}", options: {} },
	},
	'Hotel Demand': {
		type: 'travelPricingHotelDemandTool',
		credential: 'api',
		parameters: {
			demandId: "={{ $fromAI('demandId', 'The demand shop ID', 'number') }}",
			output: 'hotels',
			options: {
				fromDate: "={{ $fromAI('fromDate', 'The first day to report, as YYYY-MM-DD', 'string') }}",
				toDate: "={{ $fromAI('toDate', 'The last day to report, as YYYY-MM-DD', 'string') }}",
			},
		},
	},
	Airports: {
		type: 'travelPricingAirportsTool',
		credential: 'airports',
		parameters: { codes: "={{ $fromAI('codes', 'IATA airport codes separated by commas', 'string') }}", returnAll: false, limit: 10, options: {} },
	},
	'Schedule Preview': {
		type: 'travelPricingScheduleTool',
		credential: 'api',
		parameters: {
			operation: 'preview',
			name: 'Agent preview',
			rateShopId: '7',
			years: '',
			monthsMode: 'all',
			daysOfWeekMode: 'selected',
			daysOfWeek: "={{ $fromAI('daysOfWeek', 'Days of the week, such as Mon,Wed,Fri', 'string') }}",
			daysOfMonth: '',
			hours: "={{ $fromAI('hours', 'Hours of the day to run at, such as 6,18', 'string') }}",
			minute: 0,
			second: 0,
			status: 1,
			startDate: '2030-01-07',
			endDate: '',
			options: { nextRunsToShow: 3 },
		},
	},
};

/** The tool name n8n gives a node: its name with spaces (and other marks) as underscores. */
const toolName = (nodeName: string) => nodeName.replace(/[^A-Za-z0-9]+/g, '_');

/** The AI Agent's version: 3.1, which the example uses, from n8n 2.x; n8n 1.123's newest is 3. */
function agentVersion(n8nVersion: string): number {
	return isN8n1x(n8nVersion) ? 3 : 3.1;
}

function agentWorkflow(n8nVersion: string): WorkflowSeed {
	const toolNodes = Object.entries(TOOLS).map(([name, tool], index) => ({
		id: randomUUID(),
		name,
		type: `n8n-nodes-travel-pricing.${tool.type}`,
		typeVersion: 1,
		position: [200 + index * 160, 300],
		parameters: tool.parameters,
		credentials:
			tool.credential === 'api' ? { travelPricingApi: API_CREDENTIAL } : { travelPricingAirportsApi: AIRPORTS_CREDENTIAL },
	}));
	return {
		id: AGENT_WORKFLOW_ID,
		name: 'E2E agent with Travel Pricing tools',
		settings: { executionOrder: 'v1' },
		nodes: [
			{ id: randomUUID(), name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: randomUUID(),
				name: 'AI Agent',
				type: '@n8n/n8n-nodes-langchain.agent',
				typeVersion: agentVersion(n8nVersion),
				position: [300, 0],
				parameters: { promptType: 'define', text: QUESTION, options: {} },
			},
			{
				id: randomUUID(),
				name: 'OpenAI Chat Model',
				type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
				typeVersion: 1.3,
				position: [0, 300],
				parameters: { model: { __rl: true, mode: 'id', value: 'scripted-model' }, responsesApiEnabled: false, options: {} },
				credentials: { openAiApi: DEMO_MODEL_CREDENTIAL },
			},
			...toolNodes,
		],
		connections: {
			Start: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
			'OpenAI Chat Model': { ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]] },
			...Object.fromEntries(toolNodes.map((node) => [node.name, { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] }])),
		},
	} as WorkflowSeed;
}

/**
 * The agent example as a user publishes it: its chat made public as an embedded chat (webhook
 * mode), so that a chat message can be posted to it.
 */
function publishedExample(n8nVersion: string): WorkflowSeed {
	const example = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'examples', 'event-demand-agent.json'), 'utf8')) as WorkflowSeed;
	const nodes = example.nodes.map((node) => {
		if (node.type === '@n8n/n8n-nodes-langchain.chatTrigger') return { ...node, parameters: { ...(node.parameters as object), public: true, mode: 'webhook' } };
		if (node.type === '@n8n/n8n-nodes-langchain.agent') return { ...node, typeVersion: agentVersion(n8nVersion) };
		return node;
	});
	return { ...example, id: EXAMPLE_ID, nodes };
}

describe.each(e2eVersions())('the nodes as tools of n8n %s\'s AI Agent', (version) => {
	let env: E2eEnvironment;
	let model: ScriptedModel;
	let data: OperationData;
	let firstRequest: ChatRequest;
	let lastRequest: ChatRequest;
	let answer: string;

	beforeAll(async () => {
		data = await operationData();
		model = await startScriptedModel();
		env = await startE2e({
			version,
			workflows: [agentWorkflow(version), publishedExample(version)],
			publish: [EXAMPLE_ID],
			// The OpenAI credential the examples name, as `npm start` imports it: the scripted model's address.
			credentials: [demoModelCredential(model.url)],
			// The example's question asks about 30 December 2026 to 2 January 2027: the sandbox's events,
			// laid out from its clock's day, are those of 28 November 2026 whatever day the suite runs.
			sandboxClock: AGENT_SANDBOX_CLOCK,
		});
		model.script([
			{ name: toolName('Event Impact'), arguments: { city: data.city } },
			{ name: toolName('Hotel Info'), arguments: { hotelCode: HOTEL_CODES[0] } },
			{ name: toolName('Hotel Demand'), arguments: { demandId: DEMAND_ID, fromDate: '2026-12-30', toDate: '2027-01-02' } },
			{ name: toolName('Airports'), arguments: { codes: data.airportCodes.join(', ') } },
			{ name: toolName('Schedule Preview'), arguments: { daysOfWeek: 'Mon,Fri', hours: '6,18' } },
		]);
		env.sandbox.clearRequests();
		const run = await env.n8n.execute(AGENT_WORKFLOW_ID);
		firstRequest = model.requests[0];
		lastRequest = model.requests[model.requests.length - 1];
		answer = String(outputOf(run, 'AI Agent')[0]?.output ?? '');
	}, 30 * 60_000);

	afterAll(async () => {
		await env?.close();
		await model?.close();
	});

	test('n8n offers every attached node to the model as a tool, with a parameter for each $fromAI field', () => {
		const offered = Object.fromEntries((firstRequest.tools ?? []).map((tool) => [tool.function.name, tool.function]));
		expect(Object.keys(offered).sort()).toEqual(Object.keys(TOOLS).map(toolName).sort());
		const parameterNames = (name: string) => Object.keys((offered[toolName(name)].parameters?.properties ?? {}) as object).sort();
		expect(parameterNames('Event Impact')).toEqual(['city']);
		expect(parameterNames('Hotel Info')).toEqual(['hotelCode']);
		expect(parameterNames('Hotel Demand')).toEqual(['demandId', 'fromDate', 'toDate']);
		expect(parameterNames('Airports')).toEqual(['codes']);
		expect(parameterNames('Schedule Preview')).toEqual(['daysOfWeek', 'hours']);
		expect(firstRequest.messages.some((message) => message.role === 'user' && String(message.content).includes(QUESTION))).toBe(true);
	});

	test('the tool calls reach the service as valid requests with the model\'s arguments', () => {
		const events = env.sandbox.requests({ endpoint: 'eventimpact' });
		expect(events).toHaveLength(1);
		expect(events[0].status).toBe(200);
		expect(events[0].body).toMatchObject({ city: data.city });

		const hotels = env.sandbox.requests({ endpoint: 'hotelinfo' });
		expect(hotels.map((request) => [request.status, request.body])).toEqual([[200, expect.objectContaining({ hotelcodes: [HOTEL_CODES[0]] })]]);

		const demand = env.sandbox.requests({ endpoint: 'hoteldemanddata' });
		expect(demand.length).toBeGreaterThan(0);
		expect(demand.every((request) => request.status === 200)).toBe(true);

		const airports = env.sandbox.requests({ endpoint: 'airports' });
		expect(airports).toHaveLength(1);
		expect(airports[0].status).toBe(200);

		// Preview computes the next runs on n8n's side: it stores nothing in the service.
		expect(env.sandbox.requests({ endpoint: 'schedule' })).toEqual([]);
	});

	test('each tool\'s result comes back to the model, and the agent\'s answer is built from them', () => {
		const results = Object.fromEntries(toolResults(lastRequest).map((result) => [result.name, result.content]));
		expect(Object.keys(results).sort()).toEqual(Object.keys(TOOLS).map(toolName).sort());

		const hotel = env.sandbox.data.hotels.find((candidate) => candidate.hotelcode === HOTEL_CODES[0]);
		expect(results.Hotel_Info).toContain(String(hotel?.hotelname));
		expect(results.Event_Impact).toContain(data.city);
		for (const code of data.airportCodes) expect(results.Airports).toContain(code);
		// The days the model asked for, and no others.
		expect(results.Hotel_Demand).toContain('"2026-12-30"');
		expect(results.Hotel_Demand).toContain('"2027-01-02"');
		expect(results.Hotel_Demand).not.toContain('"2026-12-29"');
		expect(results.Schedule_Preview).toContain('2030-01-07');

		for (const name of Object.keys(results)) expect(answer).toContain(`${name}:`);
		expect(answer).toContain(String(hotel?.hotelname));
	});

	test('a value the node refuses is an error naming the field, and nothing is sent (n8n 2.40 and 2.41 give it back to the model; 2.8 and 1.123 end the run with it)', async () => {
		const refusal = 'Invalid Hotel Code "abc" in item 0: must be a whole number of 1 or more';
		model.script([{ name: toolName('Hotel Info'), arguments: { hotelCode: 'abc' } }]);
		env.sandbox.clearRequests();
		if (version === OLDEST_N8N || isN8n1x(version)) {
			// n8n 2.8's Agent (3.1 in its langchain package) and 1.123's (3) stop the execution with a tool's error.
			await expect(env.n8n.execute(AGENT_WORKFLOW_ID)).rejects.toThrow(refusal);
		} else {
			await env.n8n.execute(AGENT_WORKFLOW_ID);
			const results = toolResults(model.requests[model.requests.length - 1]);
			expect(results).toHaveLength(1);
			expect(JSON.parse(results[0].content)).toEqual([{ error: refusal }]);
		}
		expect(env.sandbox.requests({ endpoint: 'hotelinfo' })).toEqual([]);
	});

	test('the agent example answers a chat message with what its tools found', async () => {
		const example = publishedExample(version);
		const chat = example.nodes.find((node) => node.type === '@n8n/n8n-nodes-langchain.chatTrigger');
		model.script([
			{ name: toolName('Hotel Info'), arguments: { hotelCode: HOTEL_CODES[0] } },
			{ name: toolName('Event Impact'), arguments: { city: data.city, startDate: '2026-12-30' } },
			{ name: toolName('Hotel Demand'), arguments: { demandId: DEMAND_ID, fromDate: '2026-12-30', toDate: '2027-01-02' } },
			{ name: toolName('Airports'), arguments: { codes: data.airportCodes.join(',') } },
		]);
		const before = model.requests.length;
		env.sandbox.clearRequests();

		const response = await fetch(`${env.n8n.baseUrl}/webhook/${String(chat?.webhookId)}/chat`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ action: 'sendMessage', sessionId: 'e2e-session', chatInput: QUESTION }),
		});
		const text = await response.text();
		expect({ status: response.status, text: text.slice(0, 300) }).toMatchObject({ status: 200 });
		const reply = String((JSON.parse(text) as { output?: unknown }).output);

		const conversation = model.requests.slice(before);
		expect(conversation[0].messages[0]).toMatchObject({ role: 'system' });
		expect(String(conversation[0].messages[0].content)).toContain('revenue manager');
		expect(conversation[0].messages.some((message) => message.role === 'user' && message.content === QUESTION)).toBe(true);
		for (const endpoint of ['hotelinfo', 'eventimpact', 'hoteldemanddata', 'airports'] as const) {
			const requests = env.sandbox.requests({ endpoint });
			expect({ endpoint, statuses: requests.map((request) => request.status) }).toEqual({ endpoint, statuses: [200] });
		}
		expect(env.sandbox.requests({ endpoint: 'eventimpact' })[0].body).toMatchObject({ city: data.city, startDate: '2026-12-30' });
		const hotel = env.sandbox.data.hotels.find((candidate) => candidate.hotelcode === HOTEL_CODES[0]);
		expect(reply).toContain(String(hotel?.hotelname));
		for (const name of ['Hotel_Info', 'Event_Impact', 'Hotel_Demand', 'Airports']) expect(reply).toContain(`${name}:`);
	});

	test('with the demo model, the agent example answers the question its sticky note suggests from the sandbox\'s data', async () => {
		const example = publishedExample(version);
		const notes = example.nodes.filter((node) => node.type === 'n8n-nodes-base.stickyNote').map((node) => String((node.parameters as { content?: unknown }).content));
		const suggested = /ask, for example: \*(.+?)\*/.exec(notes.join('\n'))?.[1] ?? '';
		expect(suggested).toContain('hotel 100013');
		const chat = example.nodes.find((node) => node.type === '@n8n/n8n-nodes-langchain.chatTrigger');
		model.demo();
		env.sandbox.clearRequests();

		const response = await fetch(`${env.n8n.baseUrl}/webhook/${String(chat?.webhookId)}/chat`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ action: 'sendMessage', sessionId: 'e2e-demo-session', chatInput: suggested }),
		});
		const text = await response.text();
		expect({ status: response.status, text: text.slice(0, 300) }).toMatchObject({ status: 200 });
		const reply = String((JSON.parse(text) as { output?: unknown }).output);

		// Hotel Info first; Event Impact then looks in the city it found the hotel in.
		const hotel = env.sandbox.data.hotels.find((candidate) => candidate.hotelcode === 100013);
		expect(env.sandbox.requests({ endpoint: 'eventimpact' }).map((request) => request.body)).toEqual([
			expect.objectContaining({ city: hotel?.city, startDate: '2026-12-30', horizon: 3 }),
		]);
		const events = env.sandbox.data.events.filter(
			(event) => event.city === hotel?.city && event.startDate.slice(0, 10) <= '2027-01-02' && event.endDate.slice(0, 10) >= '2026-12-30',
		);
		expect(events.length).toBeGreaterThan(0);
		expect(reply).toContain(`hotel 100013 is ${String(hotel?.hotelname)}`);
		for (const event of events.slice(0, 5)) expect(reply).toContain(event.eventName);
		expect(reply).toContain('demand shop 1002, 100 hotels, 2026-12-30 to 2027-01-02');
		expect(env.sandbox.requests({ endpoint: 'hoteldemanddata' }).every((request) => request.status === 200)).toBe(true);
	});
});
