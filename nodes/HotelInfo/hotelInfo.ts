import { NodeOperationError, type IDataObject, type IExecuteFunctions, type INode } from 'n8n-workflow';

import { requestLimiter, type ConcurrencyMode, type Settled } from '../shared/concurrency';
import { asItemError } from '../shared/errors';
import { parsePositiveInteger } from '../shared/fields';
import type { RetryPolicy } from '../shared/retry';
import { keepFields } from '../shared/simplify';
import { apiRequest } from '../shared/transport';

export { hotelsFromResponse, indexHotelsByCode, normalizeHotel, sourcesAsList, UnexpectedHotelInfoResponse, type Hotel, type HotelRecord, type Source } from '../shared/hotels';
import { hotelsFromResponse, indexHotelsByCode, UnexpectedHotelInfoResponse, type Hotel, type HotelRecord, type Source } from '../shared/hotels';

export const HOTEL_CODE_FIELD = 'Hotel Code';

/** One output row of "Split Sources": the hotel's own fields and one source's fields side by side. */
export type HotelSourceRow = IDataObject & Partial<Source>;

/** One item's request, read and checked. */
export interface HotelQuery {
	code: number;
	batchSize: number;
	concurrency: number;
	concurrencyMode: ConcurrencyMode;
	retry: RetryPolicy;
	splitSources: boolean;
	simplify: boolean;
}

/** The hotel asked for by an item: found, or the error of its batch, or "not found". */
export type HotelOf = (code: number, itemIndex: number) => HotelRecord;

/** What one batch request brought back: the hotels found, or why the batch failed. */
type BatchOutcome = { hotels: Map<number, HotelRecord> } | { error: Error };

/**
 * Every valid item's code asked in one plan for the whole run, so Batch Size, like Concurrency, is
 * the run's: the smallest any item gives. All batches are answered before any item's output, and
 * a failed batch fails only the items that asked for its codes.
 */
export async function lookUpHotels(
	context: IExecuteFunctions,
	queries: ReadonlyArray<Settled<HotelQuery>>,
	throttleAdvice: string,
): Promise<HotelOf> {
	const node = context.getNode();
	const valid = queries.flatMap((query) => ('value' in query ? [query.value] : []));
	const batchSize = valid.reduce((smallest, query) => Math.min(smallest, query.batchSize), Infinity);
	const batches = planHotelBatches(valid.map((query) => query.code), batchSize);
	const askedCodes = queries.map((query) => ('value' in query ? query.value.code : undefined));
	const limiter = requestLimiter(node, valid);
	const outcomes = await Promise.all(
		batches.map(async (batch): Promise<BatchOutcome> => {
			// The batch is sent with the options of the first item that asked for its first code.
			const itemIndex = askedCodes.indexOf(batch[0]);
			try {
				const response = await apiRequest.call(context, 'POST', '/hotelinfo', {
					body: hotelInfoRequestBody(batch, batchSize),
					retry: (queries[itemIndex] as { value: HotelQuery }).value.retry,
					limiter,
					throttleAdvice,
					idempotent: true,
					itemIndex,
				});
				return { hotels: indexHotelsByCode(hotelsFromResponse(response)) };
			} catch (error) {
				return { error: asBatchError(node, error, itemIndex) };
			}
		}),
	);
	const outcomeOfCode = new Map<number, BatchOutcome>();
	batches.forEach((batch, index) => batch.forEach((code) => outcomeOfCode.set(code, outcomes[index])));
	return (code, itemIndex) => {
		const outcome = outcomeOfCode.get(code);
		if (outcome && 'error' in outcome) throw outcome.error;
		return outcome?.hotels.get(code) ?? hotelNotFound(node, code, itemIndex);
	};
}

function hotelNotFound(node: INode, code: number, itemIndex: number): never {
	throw new NodeOperationError(node, `Hotel code ${code} was not found`, {
		itemIndex,
		description:
			'The service returned no hotel for this code. Check the code: hotel codes come from the service\'s hotel search.',
	});
}

/** Service errors already carry their item; an answer the node cannot read gets one here. */
function asBatchError(node: INode, error: unknown, itemIndex: number): Error {
	if (error instanceof UnexpectedHotelInfoResponse) {
		return new NodeOperationError(node, error.message, {
			itemIndex,
			description: 'Expected a hotel, a list of hotels or an object holding a list of hotels.',
		});
	}
	return asItemError(node, error, itemIndex);
}

export function parseHotelCode(value: unknown): number {
	return parsePositiveInteger(HOTEL_CODE_FIELD, value);
}

/**
 * The requests a run needs: every distinct code once, in the order items asked for them, cut into
 * chunks of `batchSize`.
 */
export function planHotelBatches(codes: readonly number[], batchSize: number): number[][] {
	const distinct = [...new Set(codes)];
	const size = Math.max(1, Math.floor(batchSize));
	const batches: number[][] = [];
	for (let start = 0; start < distinct.length; start += size) {
		batches.push(distinct.slice(start, start + size));
	}
	return batches;
}

/**
 * Spec 4.1 accepts `hotelcode` (one) or `hotelcodes` (several) and leaves open which wins when both
 * are sent, so exactly one is sent: `hotelcode` when the user asked for one request per item.
 */
export function hotelInfoRequestBody(batch: readonly number[], batchSize: number): IDataObject {
	return batchSize === 1 && batch.length === 1 ? { hotelcode: batch[0] } : { hotelcodes: [...batch] };
}

/**
 * "Which websites are configured for this hotel": one row per source, the hotel's fields kept.
 * A hotel without sources still gives one row (without source fields), so it is not lost.
 */
export function splitHotelSources(hotel: HotelRecord): HotelSourceRow[] {
	const { sources, ...hotelFields } = hotel;
	if (sources.length === 0) return [{ ...hotelFields }];
	return sources.map((source) => ({ ...hotelFields, ...(source as unknown as IDataObject) }));
}

/**
 * What Simplify keeps of a hotel: who it is, where (the city and coordinates that Event Impact and
 * Airports searches take), its stars, and which websites are configured for it. The street address,
 * state and zip are for letters, not for questions about prices and demand.
 */
export const SIMPLIFIED_HOTEL_FIELDS = [
	'hotelcode',
	'hotelname',
	'city',
	'country',
	'starrating',
	'lat',
	'long',
	'sources',
] as const satisfies ReadonlyArray<keyof Hotel>;

/**
 * What Simplify keeps of a source: the website code the rate nodes are set with, its name and its
 * channel type. The page address is the longest field and no answer needs it; whether a snapshot
 * is available matters only to whoever opens the service's screenshots.
 */
export const SIMPLIFIED_SOURCE_FIELDS = ['websitecode', 'websitename', 'channeltype'] as const satisfies ReadonlyArray<keyof Source>;

export function simplifyHotel(hotel: HotelRecord): HotelRecord {
	const sources = hotel.sources.map((source) => keepFields(source, SIMPLIFIED_SOURCE_FIELDS) as unknown as Source);
	return { ...keepFields(hotel, SIMPLIFIED_HOTEL_FIELDS), sources } as HotelRecord;
}

/** An item's output: the hotel, or with Split Sources one row per source, simplified if asked. */
export function hotelRows(hotel: HotelRecord, { splitSources, simplify }: Pick<HotelQuery, 'splitSources' | 'simplify'>): IDataObject[] {
	const shown = simplify ? simplifyHotel(hotel) : hotel;
	return splitSources ? splitHotelSources(shown) : [shown];
}
