import type { IExecuteFunctions, INode } from 'n8n-workflow';

import { FieldError } from '../../nodes/shared/errors';
import { checkItems, inItemOrder, runInOrder } from '../../nodes/shared/itemOutcomes';

const NODE: INode = {
	id: 'node',
	name: 'Loop',
	type: 'test.loop',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** The part of n8n's execute context the loop reads: the items, the node and "On Error". */
function contextOf(inputs: readonly string[], continueOnFail = false): IExecuteFunctions {
	return {
		getInputData: () => inputs.map((value) => ({ json: { value } })),
		getNode: () => NODE,
		continueOnFail: () => continueOnFail,
	} as unknown as IExecuteFunctions;
}

/** An item's plan is its value; "bad" is refused the way a field parser refuses a value. */
function readFrom(inputs: readonly string[]) {
	return (itemIndex: number): string => {
		if (inputs[itemIndex] === 'bad') throw new FieldError('Code', 'bad', 'must be a number');
		return inputs[itemIndex];
	};
}

/** A send that records what went out and when each send started and ended. */
function recordingSend(failOn?: string) {
	const events: string[] = [];
	const send = async (plan: string, itemIndex: number) => {
		events.push(`start ${plan}`);
		await new Promise((resolve) => setTimeout(resolve, 5));
		events.push(`end ${plan}`);
		if (plan === failOn) throw new Error(`service refused ${plan}`);
		return [{ plan, itemIndex }, { plan, second: true }];
	};
	return { events, send };
}

describe('every item is checked before the first request', () => {
	it('stops the node at a bad item, naming the field and the item, with nothing sent', async () => {
		const inputs = ['a', 'bad', 'c'];
		const { events, send } = recordingSend();

		await expect(runInOrder(contextOf(inputs), readFrom(inputs), send)).rejects.toThrow(
			'Invalid Code "bad" in item 1: must be a number',
		);
		expect(events).toEqual([]);
	});

	it('keeps a bad item as its error when the node continues on failure, and reads the others', () => {
		const inputs = ['a', 'bad', 'c'];
		const checked = checkItems(contextOf(inputs, true), readFrom(inputs));

		expect(checked[0]).toEqual({ value: 'a' });
		expect(checked[1]).toHaveProperty('error');
		expect(checked[2]).toEqual({ value: 'c' });
	});
});

describe('items are sent one at a time, in item order', () => {
	it('starts an item only once the one before has its answer', async () => {
		const inputs = ['a', 'b', 'c'];
		const { events, send } = recordingSend();

		await runInOrder(contextOf(inputs), readFrom(inputs), send);

		expect(events).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
	});

	it('puts out every record of an item paired with that item, in item order', async () => {
		const inputs = ['a', 'b'];
		const { send } = recordingSend();

		const output = await runInOrder(contextOf(inputs), readFrom(inputs), send);

		expect(output).toEqual([
			{ json: { plan: 'a', itemIndex: 0 }, pairedItem: { item: 0 } },
			{ json: { plan: 'a', second: true }, pairedItem: { item: 0 } },
			{ json: { plan: 'b', itemIndex: 1 }, pairedItem: { item: 1 } },
			{ json: { plan: 'b', second: true }, pairedItem: { item: 1 } },
		]);
	});
});

describe('a failed request stops the node there unless it continues on failure', () => {
	it('sends no later item once one fails', async () => {
		const inputs = ['a', 'b', 'c'];
		const { events, send } = recordingSend('b');

		await expect(runInOrder(contextOf(inputs), readFrom(inputs), send)).rejects.toThrow('service refused b');
		expect(events).toEqual(['start a', 'end a', 'start b', 'end b']);
	});

	it('with "Continue", puts a bad item and a failed request out as error items in place, and the rest go on', async () => {
		const inputs = ['bad', 'b', 'c'];
		const { events, send } = recordingSend('b');
		const context = contextOf(inputs, true);

		const output = await inItemOrder(context, checkItems(context, readFrom(inputs)), send);

		expect(events).toEqual(['start b', 'end b', 'start c', 'end c']);
		expect(output).toEqual([
			{ json: { error: 'Invalid Code "bad" in item 0: must be a number' }, pairedItem: { item: 0 } },
			{ json: { error: 'service refused b' }, pairedItem: { item: 1 } },
			{ json: { plan: 'c', itemIndex: 2 }, pairedItem: { item: 2 } },
			{ json: { plan: 'c', second: true }, pairedItem: { item: 2 } },
		]);
	});
});
