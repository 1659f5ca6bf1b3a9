import { e2eVersions, startE2e, type E2eEnvironment } from '../../platform/n8n';
import { OPERATION_CASES, operationData, operationWorkflows, runOperationCase, type OperationData } from './operationCases';

/**
 * Each operation node in a workflow that n8n runs with `n8n execute`, the way a scheduled or
 * CLI-started workflow runs, against the sandbox; the output is checked against the sandbox's data
 * (the cases live in operationCases.ts, which the queue-mode suite runs too).
 */

describe.each(e2eVersions())('operation nodes run by n8n %s', (version) => {
	let env: E2eEnvironment;
	let data: OperationData;

	beforeAll(async () => {
		data = await operationData();
		env = await startE2e({ version, workflows: operationWorkflows(data), start: false });
	}, 30 * 60_000);

	afterAll(async () => {
		await env?.close();
	});

	test.each(OPERATION_CASES.map((item) => [item.title, item] as const))('%s', async (_title, item) => {
		await runOperationCase(item, { sandbox: env.sandbox, data }, (workflowId) => env.n8n.execute(workflowId));
	});
});
