import { FieldError } from '../../nodes/shared/errors';

/** Runs `parse` and returns the FieldError it throws, failing the test if it throws none. */
export function fieldErrorOf(parse: () => unknown): FieldError {
	let thrown: unknown;
	try {
		parse();
	} catch (error) {
		thrown = error;
	}
	expect(thrown).toBeInstanceOf(FieldError);
	return thrown as FieldError;
}
