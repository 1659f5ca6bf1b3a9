import fs from 'node:fs';
import path from 'node:path';
import { editorTrigger, EXAMPLES_DIR } from '../../platform/n8n';

const node = (name: string, type: string, disabled = false) => ({ name, type, disabled });

describe('the trigger the editor’s "Execute workflow" button runs from (n8n 2.41.1’s ranking)', () => {
	it('puts a community trigger before a Schedule Trigger, and a Schedule Trigger before a Manual Trigger', () => {
		const rate = node('Rate records', 'n8n-nodes-travel-pricing.travelPricingRateTrigger');
		const morning = node('Every morning at 8', 'n8n-nodes-base.scheduleTrigger');
		const now = node('Send the digest now', 'n8n-nodes-base.manualTrigger');
		expect(editorTrigger([now, morning, rate])).toBe('Rate records');
		expect(editorTrigger([now, morning])).toBe('Every morning at 8');
		expect(editorTrigger([node('Form', 'n8n-nodes-base.formTrigger'), rate])).toBe('Form');
	});

	it('passes over a disabled trigger and nodes that are not triggers', () => {
		expect(editorTrigger([node('Every morning at 8', 'n8n-nodes-base.scheduleTrigger', true), node('Set', 'n8n-nodes-base.set'), node('Start', 'n8n-nodes-base.manualTrigger')])).toBe('Start');
		expect(editorTrigger([node('Set', 'n8n-nodes-base.set')])).toBeUndefined();
	});

	it.each(['rate-change-digest.json', 'undercut-parity-digest.json'])('runs %s’s digest from the big button: the digest is a workflow of its own', (file) => {
		const workflow = JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')) as {
			nodes: Array<{ name: string; type: string }>;
			connections: Record<string, { main: Array<Array<{ node: string }>> }>;
		};
		const trigger = editorTrigger(workflow.nodes) as string;
		expect(workflow.connections[trigger].main[0].map((target) => target.node)).toEqual(['Digest']);
	});
});
