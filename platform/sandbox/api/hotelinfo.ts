import type { Hotel, Source, Variants } from '../types';
import { badRequest } from './errors';
import { integer, isPresent, rejectUnknownFields, requireBody } from './fields';
import type { ApiHandler } from './types';

/** Our limit for `hotelcodes` (spec: "maximum number of codes: not shown"). */
export const MAX_HOTEL_CODES = 100;

/** The spec leaves the shape of `sources` open; the variants serve both plausible answers. */
function present(hotel: Hotel, variants: Variants): Omit<Hotel, 'sources'> & { sources: Source[] | Record<string, Source> } {
	const sources = hotel.sources.map((source) => ({ ...source }));
	return {
		...hotel,
		sources: variants.sourcesAsObject ? Object.fromEntries(sources.map((source) => [String(source.websitecode), source])) : sources,
	};
}

/**
 * POST /hotelinfo. `hotelcodes` wins over `hotelcode` when both are sent; several codes answer
 * with an array in request order, where unknown codes are simply absent.
 */
export const hotelInfo: ApiHandler = (call, { data, variants }) => {
	const body = requireBody(call.body);
	rejectUnknownFields(body, ['hotelcode', 'hotelcodes']);
	const byCode = data.hotelsByCode;
	if (isPresent(body.hotelcodes)) {
		const codes = body.hotelcodes;
		if (!Array.isArray(codes) || codes.length === 0) throw badRequest('hotelcodes must be a non-empty array of integers');
		if (codes.length > MAX_HOTEL_CODES) throw badRequest(`hotelcodes accepts at most ${MAX_HOTEL_CODES} codes, got ${codes.length}`);
		const wanted = [...new Set(codes.map((code, i) => integer(code, `hotelcodes[${i}]`, { min: 1 })))];
		const hotels = wanted.flatMap((code) => {
			const found = byCode.get(code);
			return found ? [present(found.hotel, variants)] : [];
		});
		return { status: 200, body: hotels };
	}
	if (!isPresent(body.hotelcode)) throw badRequest('hotelcode or hotelcodes is required');
	const code = integer(body.hotelcode, 'hotelcode', { min: 1 });
	const found = byCode.get(code);
	if (!found) throw badRequest(`unknown hotelcode ${code}`);
	const hotel = present(found.hotel, variants);
	return { status: 200, body: variants.singleHotelAsArray ? [hotel] : hotel };
};
