import type { N8nRestClient, StoredExecution } from './rest';

/** What n8n's own recovery made of a workflow's executions. */
export interface Recovery {
	/** Executions started by the workflow's trigger (or a run), not by a retry. */
	started: number;
	/** Of those, the ones that failed. */
	failed: StoredExecution[];
	/** Retries made, of the failed executions and of retries that failed again. */
	retries: number;
	/** For each started execution, the one that ended its chain: itself, or its last retry. */
	final: StoredExecution[];
}

/**
 * n8n's own recovery, as a user does it in the editor: each execution of the workflow (but those
 * `except` names) that failed is retried (Executions, Retry), and a retry that fails is retried in
 * its turn, up to `attempts` retries an execution. What every chain ended with is what the
 * workflow put out.
 */
export async function retryFailedExecutions(n8n: N8nRestClient, workflowId: string, except: ReadonlySet<string>, attempts = 3): Promise<Recovery> {
	const ids = (await n8n.executionIds(workflowId)).filter((id) => !except.has(id));
	const executions = await Promise.all(ids.map(async (id) => await n8n.execution(id)));
	const started = executions.filter((execution) => execution.mode !== 'retry').sort((a, b) => Number(a.id) - Number(b.id));
	const failed = started.filter((execution) => execution.status !== 'success');
	const final: StoredExecution[] = started.filter((execution) => execution.status === 'success');
	let retries = 0;
	for (const execution of failed) {
		let last = execution;
		for (let attempt = 1; last.status !== 'success' && attempt <= attempts; attempt++) {
			const retry = await n8n.retryExecution(last.id);
			retries++;
			last = await n8n.execution(retry.id);
		}
		final.push(last);
	}
	return { started: started.length, failed, retries, final };
}
