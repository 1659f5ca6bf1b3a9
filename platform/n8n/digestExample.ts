import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './communityPackage';
import type { WorkflowSeed } from './cli';

/**
 * A digest example of examples/ as a test runs it: its morning Schedule Trigger off, so that only
 * the test decides when a digest is sent, and its "Digest settings" posting to the test's inbox,
 * as a user swaps in a Slack URL.
 */
export function digestExample(file: string, id: string, inboxUrl: string): WorkflowSeed {
	const workflow = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'examples', file), 'utf8')) as WorkflowSeed & {
		nodes: Array<{ name: string; disabled?: boolean; parameters: Record<string, unknown> }>;
	};
	for (const node of workflow.nodes) {
		if (node.name === 'Every morning at 8') node.disabled = true;
		if (node.name === 'Digest settings') {
			const { assignments } = node.parameters.assignments as { assignments: Array<{ name: string; value: unknown }> };
			for (const assignment of assignments) if (assignment.name === 'digestUrl') assignment.value = inboxUrl;
		}
	}
	return { ...workflow, id };
}
