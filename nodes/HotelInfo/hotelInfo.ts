import type { IDataObject } from 'n8n-workflow';

import { parsePositiveInteger } from '../shared/fields';
import type { Hotel, Source } from '../shared/types';

export const HOTEL_CODE_FIELD = 'Hotel Code';

/** A hotel as the node outputs it: whatever the service sent, with `sources` always a list. */
export type HotelRecord = Omit<Hotel, 'sources'> & IDataObject & { sources: Source[] };

/** One output row of "Split Sources": the hotel's own fields and one source's fields side by side. */
export type HotelSourceRow = IDataObject & Partial<Source>;

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

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isHotel(value: unknown): value is IDataObject {
	return isObject(value) && 'hotelcode' in value;
}

function isSource(value: unknown): value is IDataObject {
	return isObject(value) && 'websitecode' in value;
}

/** Members under which a service could wrap its list of hotels. */
const HOTEL_LIST_KEYS = ['hotels', 'hotelinfo', 'hotelInfo', 'data', 'results', 'items'];

/**
 * The spec shows a single Hotel object for one code and leaves the answer for several codes open
 * (4.1), so every plausible shape is read: one Hotel, a list of Hotels, a list wrapped in an object
 * (`{ hotels: [...] }`), or hotels keyed by their code. An empty answer means no hotel was found.
 */
export function hotelsFromResponse(body: unknown): HotelRecord[] {
	if (body === undefined || body === null || body === '') return [];
	if (Array.isArray(body)) return body.flatMap((entry) => hotelsFromResponse(entry));
	if (!isObject(body)) throw new UnexpectedHotelInfoResponse(body);
	if (isHotel(body)) return [normalizeHotel(body)];
	for (const key of HOTEL_LIST_KEYS) {
		if (key in body) return hotelsFromResponse(body[key]);
	}
	const members = Object.values(body);
	if (members.length === 0) return [];
	if (members.every(isHotel)) return members.map((member) => normalizeHotel(member as IDataObject));
	throw new UnexpectedHotelInfoResponse(body);
}

export class UnexpectedHotelInfoResponse extends Error {
	constructor(readonly body: unknown) {
		super('The service answered POST /hotelinfo with no hotel in a form the node can read');
		this.name = 'UnexpectedHotelInfoResponse';
	}
}

export function normalizeHotel(hotel: IDataObject): HotelRecord {
	return { ...hotel, sources: sourcesAsList(hotel.sources) } as HotelRecord;
}

/**
 * The spec types `sources` as "object" (part 2) without saying whether it is a list. Accepted: a
 * list of Sources, an object keyed by website code (the key fills a missing `websitecode`), a single
 * Source, or nothing at all (no source configured yet).
 */
export function sourcesAsList(sources: unknown): Source[] {
	if (sources === undefined || sources === null) return [];
	if (Array.isArray(sources)) return sources.filter(isObject) as unknown as Source[];
	if (!isObject(sources)) return [];
	if (isSource(sources)) return [sources as unknown as Source];
	return Object.entries(sources)
		.filter((entry): entry is [string, IDataObject] => isObject(entry[1]))
		.map(([key, source]) => {
			if ('websitecode' in source || !/^\d+$/.test(key)) return source as unknown as Source;
			return { websitecode: Number(key), ...source } as unknown as Source;
		});
}

/** The service may send codes as text; a hotel is found by the number either way. */
export function indexHotelsByCode(hotels: readonly HotelRecord[]): Map<number, HotelRecord> {
	const byCode = new Map<number, HotelRecord>();
	for (const hotel of hotels) {
		const code = Number(hotel.hotelcode);
		if (Number.isSafeInteger(code) && !byCode.has(code)) byCode.set(code, hotel);
	}
	return byCode;
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
