import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { settle, type RequestLimiter, type Settled } from './concurrency';
import { asItemError } from './errors';
import { requestLimiter } from './options';

/**
 * One item's failure as n8n's "On Error" setting wants it: thrown, so the node stops, unless the
 * node continues on failure; then the error item to put out in the item's place.
 */
export function failedItem(context: IExecuteFunctions, error: unknown, itemIndex: number): INodeExecutionData {
	const itemError = asItemError(context.getNode(), error, itemIndex);
	if (!context.continueOnFail()) throw itemError;
	return { json: { error: itemError.message }, pairedItem: { item: itemIndex } };
}

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
			output.push(failedItem(context, outcome.error, itemIndex));
			return;
		}
		for (const record of outcome.value) output.push({ json: record as IDataObject, pairedItem });
	});
	return output;
}

/** What an item asks for, read and checked; `concurrency` is its value of the node's Concurrency. */
export interface ItemPlan {
	concurrency: number;
}

/**
 * The flow of a node that sends each item's own requests: every item is read and checked before
 * the first request (a bad item stops the node at once, or with "Continue" becomes an error item
 * that sends nothing), then all items' requests go out under one limiter, so Concurrency bounds
 * the node's requests in flight across items and pages. Output stays in item order.
 */
export async function runPerItem<TPlan extends ItemPlan>(
	context: IExecuteFunctions,
	read: (itemIndex: number) => TPlan,
	send: (plan: TPlan, limiter: RequestLimiter, itemIndex: number) => Promise<readonly object[]>,
): Promise<INodeExecutionData[]> {
	const plans = await Promise.all(context.getInputData().map(async (_, itemIndex) => await settle(() => read(itemIndex))));
	const firstInvalid = plans.findIndex((plan) => 'error' in plan);
	if (firstInvalid !== -1 && !context.continueOnFail()) {
		throw asItemError(context.getNode(), (plans[firstInvalid] as { error: unknown }).error, firstInvalid);
	}
	const limiter = requestLimiter(plans.flatMap((plan) => ('value' in plan ? [plan.value.concurrency] : [])));
	const outcomes = await Promise.all(
		plans.map(async (plan, itemIndex) =>
			'error' in plan ? plan : await settle(() => send(plan.value, limiter, itemIndex)),
		),
	);
	return pairOutcomes(context, outcomes);
}
