import fs from 'node:fs';
import path from 'node:path';
import { bindCredentials, type WorkflowSeed } from '../../platform/n8n';

const WORKFLOWS_DIR = path.join(__dirname, 'workflows');

/**
 * A workflow from test/e2e/workflows/ with its credentials bound to the imported ones and each
 * placeholder `__NAME__` in the file replaced by `values.NAME` (a collector URL, say).
 */
export function loadWorkflow(file: string, values: Record<string, string> = {}): WorkflowSeed {
	let text = fs.readFileSync(path.join(WORKFLOWS_DIR, file), 'utf8');
	for (const [name, value] of Object.entries(values)) text = text.split(`__${name}__`).join(value);
	const leftover = text.match(/__[A-Z_]+__/);
	if (leftover) throw new Error(`${file}: no value given for ${leftover[0]}`);
	return bindCredentials(JSON.parse(text) as WorkflowSeed);
}
