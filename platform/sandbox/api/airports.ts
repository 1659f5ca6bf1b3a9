import { badRequest } from './errors';
import { positiveQueryInteger } from './fields';
import type { ApiHandler } from './types';

export const DEFAULT_AIRPORT_PAGE_SIZE = 20;
export const MAX_AIRPORT_PAGE_SIZE = 500;
/** The spec's own wording for the airports 400. */
const FAILED = 'request data failed validation: ';

/** `codes` is a comma-separated list of IATA codes, matched case-insensitively. */
function parseCodes(raw: string | null): Set<string> | null {
	if (raw === null) return null;
	const codes = raw.split(',').map((code) => code.trim().toUpperCase());
	for (const code of codes) {
		if (!/^[A-Z]{3}$/.test(code)) throw badRequest(`${FAILED}codes must be comma-separated 3-letter IATA codes, got '${code}'`);
	}
	return new Set(codes);
}

/** GET /api/v1/references/airports. */
export const listAirports: ApiHandler = (call, { data }) => {
	const page = positiveQueryInteger(call.query.get('page'), 'page', 1, FAILED);
	const size = positiveQueryInteger(call.query.get('size'), 'size', DEFAULT_AIRPORT_PAGE_SIZE, FAILED);
	if (size > MAX_AIRPORT_PAGE_SIZE) throw badRequest(`${FAILED}size must be at most ${MAX_AIRPORT_PAGE_SIZE}`);
	const codes = parseCodes(call.query.get('codes'));
	const matching = codes ? data.airports.filter((airport) => codes.has(airport.airportCode)) : data.airports;
	return {
		status: 200,
		body: {
			error: false,
			airports: matching.slice((page - 1) * size, page * size).map((airport) => ({ ...airport })),
			totalData: matching.length,
			totalPages: Math.ceil(matching.length / size),
			page,
			size,
		},
	};
};
