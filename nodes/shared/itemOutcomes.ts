import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { Settled } from './concurrency';
import { asItemError } from './errors';

/**
 * Output items from each input item's outcome, paired with it: its records, or, when the node
 * continues on failure, one error item. Otherwise the first failure in item order stops the node.
 */
export function pairOutcomes(
	context: IExecuteFunctions,
	outcomes: ReadonlyArray<Settled<readonly object[]>>,
): INodeExecutionData[] {
	const output: INodeExecutionData[] = [];
	outcomes.forEach((outcome, itemIndex) => {
		const pairedItem = { item: itemIndex };
		if ('error' in outcome) {
			const itemError = asItemError(context.getNode(), outcome.error, itemIndex);
			if (!context.continueOnFail()) throw itemError;
			output.push({ json: { error: itemError.message }, pairedItem });
			return;
		}
		for (const record of outcome.value) output.push({ json: record as IDataObject, pairedItem });
	});
	return output;
}
