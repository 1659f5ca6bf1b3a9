import fs from 'node:fs';
import path from 'node:path';

import type { INodeParameters } from 'n8n-workflow';

import { credentialsFor, runNode, useSandbox } from '../harness';

// The sandbox lays its events out from the day its clock starts; a fixed day keeps the figures fixed.
const sandbox = useSandbox({ speed: 0, clock: '2026-11-28T06:00:00Z' });

/**
 * What a model reads back from a tool is n8n's JSON.stringify of the items' json (n8n-core's
 * makeHandleToolInvocation), so its size is measured here the same way, for the same question
 * asked of version 1 and of version 1.1 with Simplify at its default. docs/ai-agent.md states
 * these numbers; this test fails when they drift from what the nodes put out.
 */
interface ToolQuestion {
	/** The row's first cells in docs/ai-agent.md: the question and the tool. */
	row: string;
	nodeType: string;
	parameters: INodeParameters;
}

// Hotel 100001 is in Lisbon; May 2027, five months after the sandbox's first day here, has events there.
const QUESTIONS: ToolQuestion[] = [
	{
		row: '| "Tell me about hotel 100001" | Hotel Info, Hotel Code `100001` |',
		nodeType: 'travelPricingHotelInfo',
		parameters: { hotelCode: '100001', options: {} },
	},
	{
		row: '| "Which events are in Lisbon in May 2027?" | Event Impact, City `Lisbon`, Start Date `2027-05-01`, Horizon `30`, Limit 20 |',
		nodeType: 'travelPricingEventImpact',
		parameters: { filters: { city: 'Lisbon', startDate: '2027-05-01', horizon: 30 }, returnAll: false, limit: 20, options: {} },
	},
	{
		row: '| "Which events are on from 1 May 2027, anywhere?" | Event Impact, Start Date `2027-05-01`, Horizon `30`, Limit 20 |',
		nodeType: 'travelPricingEventImpact',
		parameters: { filters: { startDate: '2027-05-01', horizon: 30 }, returnAll: false, limit: 20, options: {} },
	},
];

async function toolResultBytes({ nodeType, parameters }: ToolQuestion, typeVersion: number): Promise<number> {
	const result = await runNode({ nodeType, parameters, credentials: credentialsFor(sandbox), typeVersion });
	expect(result.error).toBeUndefined();
	expect(result.items.length).toBeGreaterThan(0);
	return Buffer.byteLength(JSON.stringify(result.items.map((item) => item.json)));
}

const grouped = (bytes: number) => bytes.toLocaleString('en-US');

describe('docs/ai-agent.md gives the bytes a tool returns before and after Simplify, as measured', () => {
	const doc = fs.readFileSync(path.resolve(__dirname, '../../docs/ai-agent.md'), 'utf8');

	test.each(QUESTIONS.map((question) => [question.row, question] as const))('%s', async (_row, question) => {
		const before = await toolResultBytes(question, 1);
		const after = await toolResultBytes(question, 1.1);
		const percent = Math.round((after / before) * 100);
		expect(doc).toContain(`${question.row} ${grouped(before)} | ${grouped(after)} | ${percent} % |`);
	});
});
