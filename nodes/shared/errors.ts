import { NodeOperationError, type INode } from 'n8n-workflow';

/**
 * A value a user typed (or an expression produced) that the service would reject.
 * Pure parsers throw it without knowing which node or item they serve; the node adds both.
 */
export class FieldError extends Error {
	constructor(
		readonly field: string,
		readonly value: unknown,
		readonly reason: string,
	) {
		super(`${field} ${describeValue(value)}: ${reason}`);
		this.name = 'FieldError';
	}
}

export function describeValue(value: unknown): string {
	if (value === undefined || value === null || value === '') return '(empty)';
	// String(), not JSON: NaN, the value an expression's failed arithmetic gives, stays "NaN".
	const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : JSON.stringify(value);
	return `"${text.length > 80 ? `${text.slice(0, 77)}...` : text}"`;
}

/** `Invalid FIELD "VALUE" in item N: REASON`, the one wording of a bad value; a trigger's settings have no item. */
export function invalidValueMessage(error: FieldError, itemIndex?: number): string {
	const where = itemIndex === undefined ? '' : ` in item ${itemIndex}`;
	return `Invalid ${error.field} ${describeValue(error.value)}${where}: ${error.reason}`;
}

/** The error a user sees for bad input: it names the field, the value and the item. */
export function invalidInputError(
	node: INode,
	error: FieldError,
	itemIndex: number,
	description = `Fix the "${error.field}" field (or the expression that fills it) for item ${itemIndex}. Nothing was sent to the service for this item.`,
): NodeOperationError {
	return new NodeOperationError(node, invalidValueMessage(error, itemIndex), { itemIndex, description });
}

/** Field errors become input errors for the item; anything else passes through unchanged. */
export function asItemError(node: INode, error: unknown, itemIndex: number): Error {
	if (error instanceof FieldError) return invalidInputError(node, error, itemIndex);
	if (error instanceof Error) return error;
	return new NodeOperationError(node, String(error), { itemIndex });
}
