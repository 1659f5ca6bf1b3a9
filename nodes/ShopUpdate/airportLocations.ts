import {
	NodeOperationError,
	type ILoadOptionsFunctions,
	type INodeListSearchItems,
	type INodeListSearchResult,
} from 'n8n-workflow';

import { searchAirports } from '../shared/airports';
import { AIRPORTS_CREDENTIAL } from '../shared/credentialNames';
import type { Airport } from '../shared/airports';

const AIRPORTS_PER_PAGE = 100;
const PAGES_PER_TEXT_SEARCH = 5;

/** A filter that is one IATA code is sent to the service as `codes`; anything else is matched here. */
const AIRPORT_CODE = /^[A-Za-z]{3}$/;

export function airportListItem(airport: Airport): INodeListSearchItems {
	const place = airport.city ? `, ${airport.city}` : '';
	const inactive = airport.isActiveStatus === false ? ' (inactive)' : '';
	return {
		name: `${airport.airportCode} – ${airport.airportName}${place}${inactive}`,
		value: airport.airportCode,
	};
}

/** Case-insensitive match of the typed text against the code, the airport's name and its city. */
export function airportMatches(airport: Airport, filter: string): boolean {
	const wanted = filter.trim().toLowerCase();
	return [airport.airportCode, airport.airportName, airport.city].some((text) =>
		String(text ?? '').toLowerCase().includes(wanted),
	);
}

/**
 * List search of Pickup and Drop Location. The airports reference takes its own credential, which
 * this node leaves optional, so the search says plainly what to do when it is missing.
 */
export async function searchAirportLocations(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	if (!this.getNode().credentials?.[AIRPORTS_CREDENTIAL]) {
		throw new NodeOperationError(this.getNode(), 'Searching airports needs a Travel Pricing Airports API credential', {
			description:
				'Select a "Travel Pricing Airports API" credential on this node to pick airports from the list, or switch the location to "By Code" and type it.',
		});
	}
	const page = Number(paginationToken ?? 1);
	const text = (filter ?? '').trim();
	if (AIRPORT_CODE.test(text) && page === 1) {
		const byCode = await searchAirports(this, { codes: [text.toUpperCase()], page: 1, size: AIRPORTS_PER_PAGE });
		if (byCode.airports.length > 0) return { results: byCode.airports.map(airportListItem) };
	}
	// The service searches by code only, so other text is matched here page by page; a few pages
	// are read per call so that a rare name still shows results before the user scrolls.
	const results: INodeListSearchItems[] = [];
	let next: number | undefined = page;
	for (let read = 0; next !== undefined && read < PAGES_PER_TEXT_SEARCH; read++) {
		const response = await searchAirports(this, { page: next, size: AIRPORTS_PER_PAGE });
		const airports = text === '' ? response.airports : response.airports.filter((airport) => airportMatches(airport, text));
		results.push(...airports.map(airportListItem));
		next = next < response.totalPages ? next + 1 : undefined;
		if (text === '' || results.length > 0) break;
	}
	return { results, paginationToken: next === undefined ? undefined : String(next) };
}
