/**
 * The errors n8n's public API answers with, as status and `{ message }`. Every module throws an
 * ApiError; the server turns it into the answer.
 */
export class ApiError extends Error {
	constructor(
		readonly status: number,
		message: string,
	) {
		super(message);
	}
}

export const badRequest = (message: string): ApiError => new ApiError(400, message);

/** n8n's DataTableValidationError: its text always starts with this prefix (400). */
export const VALIDATION_PREFIX = 'Validation error with data table request: ';

export const validationError = (message: string): ApiError => badRequest(`${VALIDATION_PREFIX}${message}`);

export const tableNotFound = (tableId: string): ApiError => new ApiError(404, `Could not find the data table: '${tableId}'`);

export const columnNotFound = (tableId: string, columnId: string): ApiError =>
	new ApiError(404, `Could not find the column '${columnId}' in the data table: ${tableId}`);

/** n8n 2.41 hides every error that is not its own behind this text (500). */
export const INTERNAL_ERROR_MESSAGE = 'Internal server error';

/**
 * A database error: n8n 2.8.4's Data Tables handlers answer any error 400 with its message; n8n 2.41
 * answers 500 "Internal server error" for errors it did not raise itself.
 */
export function databaseError(version: string, message: string): ApiError {
	return version === '2.8.4' ? badRequest(message) : new ApiError(500, INTERNAL_ERROR_MESSAGE);
}
