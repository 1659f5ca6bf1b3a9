import fs from 'node:fs';
import path from 'node:path';
import { freePort, runChecked, type CommandResult } from './processes';
import { isN8n1x, type N8nRuntime } from './runtime';
import { parseRun, type WorkflowRun } from './workflowRun';

/** A credential as `n8n import:credentials` takes it: `data` in plain JSON, which n8n encrypts. */
export interface CredentialSeed {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
}

/** A workflow as `n8n import:workflow` takes it (the editor's export format with a fixed id). */
export interface WorkflowSeed {
	id: string;
	name: string;
	nodes: Array<Record<string, unknown>>;
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
	[key: string]: unknown;
}

/**
 * n8n's command line against one n8n folder, as an operator runs it: import, publish, execute.
 * Every command is its own process with its own task-broker port, so it can run beside `n8n start`.
 */
export class N8nCli {
	constructor(
		private readonly runtime: N8nRuntime,
		private readonly userFolder: string,
		private readonly env: (brokerPort: number) => NodeJS.ProcessEnv,
	) {}

	/** Runs an n8n CLI command; a non-zero exit is an error. */
	async run(args: string[], env: Record<string, string> = {}, timeoutMs = 300_000): Promise<CommandResult> {
		return runChecked(this.runtime.nodeBin, [this.runtime.n8nScript, ...args], {
			cwd: this.userFolder,
			env: { ...this.env(await freePort()), ...env },
			timeoutMs,
		});
	}

	async importCredentials(credentials: CredentialSeed[]): Promise<void> {
		await this.importFile('credentials', credentials);
	}

	async importWorkflows(workflows: WorkflowSeed[]): Promise<void> {
		await this.importFile('workflow', workflows);
	}

	/** Marks a workflow's current version as published (active); takes effect at the next start. */
	async publishWorkflow(id: string): Promise<void> {
		// n8n 1.x has no publish:workflow: its update:workflow --active=true sets the same active version.
		await this.run(isN8n1x(this.runtime.version) ? ['update:workflow', `--id=${id}`, '--active=true'] : ['publish:workflow', `--id=${id}`]);
	}

	/**
	 * Runs a workflow from its manual trigger with `n8n execute` and returns the run as n8n reports
	 * it. A failed run is an error carrying n8n's output.
	 */
	async execute(workflowId: string): Promise<WorkflowRun> {
		// n8n prints the report through its logger, so it lands on stdout only with console output.
		const { stdout } = await this.run(['execute', `--id=${workflowId}`, '--rawOutput'], { N8N_LOG_OUTPUT: 'console' });
		return parseRun(stdout);
	}

	private async importFile(kind: 'credentials' | 'workflow', items: unknown[]): Promise<void> {
		const file = path.join(this.userFolder, `import-${kind}-${Date.now()}.json`);
		fs.writeFileSync(file, JSON.stringify(items, null, 2));
		try {
			await this.run([`import:${kind}`, `--input=${file}`]);
		} finally {
			fs.rmSync(file, { force: true });
		}
	}
}
