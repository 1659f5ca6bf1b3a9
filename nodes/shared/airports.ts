import { NodeApiError, type IDataObject, type JsonObject } from 'n8n-workflow';

import { FieldError } from './errors';
import { listEntries } from './fields';
import { fetchPages, type Page } from './paging';
import { AIRPORTS_PATH, apiRequest, serviceReason, type RequestSettings, type TravelPricingContext } from './transport';
import type { Airport, AirportsResponse } from './types';

export interface AirportSearch extends RequestSettings {
	/** IATA codes, already checked by parseAirportCodes; none lists every airport. */
	codes?: string[];
	/** 1 is the first page. */
	page: number;
	size: number;
}

export interface AirportListing extends RequestSettings {
	codes?: string[];
	/** Stop after this many airports; undefined reads them all. */
	limit?: number;
	pageSize: number;
}

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

/**
 * One page of GET /api/v1/references/airports. Several codes go out comma-separated in one `codes`
 * parameter (the spec does not show the format; docs/api-assumptions.md).
 */
export async function searchAirports(
	context: TravelPricingContext,
	search: AirportSearch,
): Promise<AirportsResponse> {
	const qs: IDataObject = { page: search.page, size: search.size };
	if (search.codes && search.codes.length > 0) qs.codes = search.codes.join(',');
	const { retry, limiter, throttleAdvice, itemIndex } = search;
	const response = await apiRequest.call(context, 'GET', AIRPORTS_PATH, {
		qs,
		idempotent: true,
		retry,
		limiter,
		throttleAdvice,
		itemIndex,
	}) as AirportsResponse;
	// Spec 4.4 and part 7: a success carries `error: false`; a 200 saying otherwise is no success.
	if (response?.error === true || !Array.isArray(response?.airports)) {
		throw new NodeApiError(context.getNode(), (response ?? {}) as unknown as JsonObject, {
			message: `The airports reference answered without a list of airports${
				serviceReason(response) ? `: ${serviceReason(response)}` : ''
			}`,
			itemIndex: search.itemIndex,
		});
	}
	return response;
}

/** Every airport that matches, or the first `limit`, read page by page with the shared pager. */
export async function listAirports(
	context: TravelPricingContext,
	listing: AirportListing,
): Promise<Airport[]> {
	// Asking for fewer than a page when fewer are wanted keeps a small limit to one small request.
	const size = listing.limit === undefined ? listing.pageSize : Math.min(listing.pageSize, listing.limit);
	return await fetchPages(
		async (page): Promise<Page<Airport>> => {
			const { codes, retry, limiter, throttleAdvice, itemIndex } = listing;
			const response = await searchAirports(context, { codes, page, size, retry, limiter, throttleAdvice, itemIndex });
			return {
				records: response.airports,
				totalRecords: response.totalData,
				totalPages: response.totalPages,
				pageSize: response.size,
			};
		},
		{ limit: listing.limit, concurrency: listing.limiter?.size ?? 1 },
	);
}
