import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { requestLimiter, settle, type ConcurrencySettings, type RequestLimiter, type Settled } from './concurrency';
import { asItemError } from './errors';

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

/**
 * Every item read and checked before the first request: a bad item stops the node at once, named
 * by its index, or, when the node continues on failure, is kept as its error, to become an error
 * item in its place and send nothing.
 */
export function checkItems<TPlan>(context: IExecuteFunctions, read: (itemIndex: number) => TPlan): Array<Settled<TPlan>> {
	return context.getInputData().map((_, itemIndex) => {
		try {
			return { value: read(itemIndex) };
		} catch (error) {
			if (!context.continueOnFail()) throw asItemError(context.getNode(), error, itemIndex);
			return { error };
		}
	});
}

/**
 * The one item loop of a node that checks its items and then sends: each checked item in turn,
 * the next only once the one before has its answer, so a later item's request follows an earlier
 * one's. A failure stops the node there, with no later item sent, unless the node continues on
 * failure; then it is the item's error item and the rest go on. Output stays in item order.
 */
export async function inItemOrder<TPlan>(
	context: IExecuteFunctions,
	plans: ReadonlyArray<Settled<TPlan>>,
	send: (plan: TPlan, itemIndex: number) => Promise<readonly object[]> | readonly object[],
): Promise<INodeExecutionData[]> {
	const output: INodeExecutionData[] = [];
	for (const [itemIndex, plan] of plans.entries()) {
		try {
			if ('error' in plan) throw plan.error;
			const pairedItem = { item: itemIndex };
			for (const record of await send(plan.value, itemIndex)) output.push({ json: record as IDataObject, pairedItem });
		} catch (error) {
			output.push(failedItem(context, error, itemIndex));
		}
	}
	return output;
}

/** Check every item, then send one item at a time in item order: `checkItems`, then `inItemOrder`. */
export async function runInOrder<TPlan>(
	context: IExecuteFunctions,
	read: (itemIndex: number) => TPlan,
	send: (plan: TPlan, itemIndex: number) => Promise<readonly object[]>,
): Promise<INodeExecutionData[]> {
	return await inItemOrder(context, checkItems(context, read), send);
}

/** What an item asks for, read and checked, with its values of Concurrency and Concurrency Mode. */
export type ItemPlan = ConcurrencySettings;

/**
 * The flow of a node that sends each item's own requests: every item is checked (`checkItems`),
 * then all items' requests go out under one limiter, so Concurrency bounds the node's requests in
 * flight across items and pages. Output stays in item order.
 */
export async function runPerItem<TPlan extends ItemPlan>(
	context: IExecuteFunctions,
	read: (itemIndex: number) => TPlan,
	send: (plan: TPlan, limiter: RequestLimiter, itemIndex: number) => Promise<readonly object[]>,
): Promise<INodeExecutionData[]> {
	const plans = checkItems(context, read);
	const limiter = requestLimiter(context.getNode(), plans.flatMap((plan) => ('value' in plan ? [plan.value] : [])));
	const outcomes = await Promise.all(
		plans.map(async (plan, itemIndex) =>
			'error' in plan ? plan : await settle(() => send(plan.value, limiter, itemIndex)),
		),
	);
	return pairOutcomes(context, outcomes);
}
