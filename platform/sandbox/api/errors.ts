/**
 * The error body shape is "not shown" in the spec; the sandbox answers every error with
 * `{ error: true, status, message }`, mirroring the airports success body's `error: false`.
 */
export interface ErrorBody {
	error: true;
	status: number;
	message: string;
}

export class ApiError extends Error {
	constructor(
		readonly status: number,
		message: string,
		readonly headers: Record<string, string> = {},
	) {
		super(message);
	}

	get body(): ErrorBody {
		return { error: true, status: this.status, message: this.message };
	}
}

/** 400 with a reason naming the field; the spec's catch-all for invalid input. */
export function badRequest(message: string): ApiError {
	return new ApiError(400, message);
}
