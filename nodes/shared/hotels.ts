import type { IDataObject } from 'n8n-workflow';

/**
 * Reading the service's POST /hotelinfo answer (SERVICE-SPEC.md 4.1): Hotel Info's output and the
 * website names Rate Changes' calendar shows both come from here.
 */

/** One of a hotel's sources, as SERVICE-SPEC.md part 2 gives it. */
export interface Source {
	websitecode: number;
	websitename: string;
	url: string;
	channeltype: string;
	snapshotavailable: boolean;
}

/** A hotel record, as SERVICE-SPEC.md part 2 gives it. */
export interface Hotel {
	hotelcode: number;
	hotelname: string;
	address: string;
	city: string;
	state: string;
	zip: string;
	country: string;
	starrating: string;
	lat: number;
	long: number;
	/** The spec types it as "object"; a list is as plausible (docs/api-assumptions.md). */
	sources: Source[] | Record<string, Source> | Source;
}

/** A hotel as the node outputs it: whatever the service sent, with `sources` always a list. */
export type HotelRecord = Omit<Hotel, 'sources'> & IDataObject & { sources: Source[] };

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
