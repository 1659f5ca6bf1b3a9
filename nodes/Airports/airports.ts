import { searchAirports, type Airport } from '../shared/airports';
import { FieldError } from '../shared/errors';
import { listEntries } from '../shared/fields';
import { readListing, type ListingSettings } from '../shared/paging';
import type { TravelPricingContext } from '../shared/transport';

/**
 * IATA airport codes from a field, in any case: a list by the shared list rule (commas, semicolons,
 * line breaks, or a list from an expression), whose entries may also be separated by spaces, as
 * "JFK LHR" always could. Returns them upper-cased, each once, in the order typed.
 */
export function parseAirportCodes(field: string, value: unknown): string[] {
	const codes: string[] = [];
	for (const entry of listEntries(value)) {
		for (const code of typeof entry === 'string' ? entry.split(/\s+/) : [JSON.stringify(entry)]) {
			if (!/^[A-Za-z]{3}$/.test(code)) {
				throw new FieldError(field, value, `"${code}" is not an IATA airport code (three letters, for example JFK)`);
			}
			const upper = code.toUpperCase();
			if (!codes.includes(upper)) codes.push(upper);
		}
	}
	return codes;
}

/** Every airport with one of `codes` (every airport without any), or the first `limit`. */
export async function listAirports(
	context: TravelPricingContext,
	codes: string[],
	settings: ListingSettings,
): Promise<Airport[]> {
	const { retry, limiter, throttleAdvice, itemIndex } = settings;
	return await readListing(settings, async (page, size) => {
		const response = await searchAirports(context, { codes, page, size, retry, limiter, throttleAdvice, itemIndex });
		return {
			records: response.airports,
			totalRecords: response.totalData,
			totalPages: response.totalPages,
			pageSize: response.size,
		};
	});
}
