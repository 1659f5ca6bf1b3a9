import { NodeApiError, type IDataObject, type JsonObject } from 'n8n-workflow';

import { AIRPORTS_PATH, apiRequest, serviceReason, type RequestSettings, type TravelPricingContext } from './transport';

/** An airport of the reference, as SERVICE-SPEC.md part 2 gives it (Airports and Shop Update's list search). */
export interface Airport {
	_id: string;
	id: string;
	airportName: string;
	city: string;
	airportCode: string;
	isActiveStatus: boolean;
}

export interface AirportsResponse {
	error: boolean;
	airports: Airport[];
	totalData: number;
	totalPages: number;
	page: number;
	size: number;
}

export interface AirportSearch extends RequestSettings {
	/** IATA codes, already checked; none lists every airport. */
	codes?: string[];
	/** 1 is the first page. */
	page: number;
	size: number;
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
