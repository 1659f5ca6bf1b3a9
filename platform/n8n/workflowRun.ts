import { tail } from './processes';

/** The part of a run (as `n8n execute --rawOutput` prints it and n8n stores it) the tests read. */
export interface WorkflowRun {
	finished?: boolean;
	status?: string;
	data: {
		resultData: {
			runData: Record<string, Array<{ data?: { main: Array<Array<{ json: Record<string, unknown> }> | null> }; error?: unknown }>>;
			error?: unknown;
		};
	};
}

/**
 * `--rawOutput` prints the run as indented JSON among n8n's other log lines. The run is the block
 * from a line "{" to the next line "}".
 */
export function parseRun(stdout: string): WorkflowRun {
	const lines = stdout.split('\n');
	const first = lines.indexOf('{');
	const last = lines.indexOf('}', first);
	if (first === -1 || last === -1) throw new Error(`n8n execute printed no run:\n${tail(stdout)}`);
	return JSON.parse(lines.slice(first, last + 1).join('\n')) as WorkflowRun;
}

/** The items a node put on its first output in the last run of that node. */
export function outputOf(run: WorkflowRun, nodeName: string): Array<Record<string, unknown>> {
	const runs = run.data.resultData.runData[nodeName];
	if (!runs || runs.length === 0) throw new Error(`Node "${nodeName}" did not run`);
	const last = runs[runs.length - 1];
	if (last.error) throw new Error(`Node "${nodeName}" failed: ${JSON.stringify(last.error).slice(0, 500)}`);
	return (last.data?.main[0] ?? []).map((item) => item.json);
}
