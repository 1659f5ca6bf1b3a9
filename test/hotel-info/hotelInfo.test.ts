import { FieldError } from '../../nodes/shared/errors';
import {
	hotelInfoRequestBody,
	hotelsFromResponse,
	indexHotelsByCode,
	parseHotelCode,
	planHotelBatches,
	sourcesAsList,
	splitHotelSources,
	UnexpectedHotelInfoResponse,
} from '../../nodes/HotelInfo/hotelInfo';

const booking = { websitecode: 1, websitename: 'Booking.com', url: 'https://booking.example/h', channeltype: 'OTA', snapshotavailable: true };
const expedia = { websitecode: 2, websitename: 'Expedia', url: 'https://expedia.example/h', channeltype: 'OTA', snapshotavailable: false };

function hotel(hotelcode: number | string, sources: unknown = [booking, expedia]) {
	return { hotelcode, hotelname: `Hotel ${hotelcode}`, city: 'Berlin', country: 'Germany', lat: 52.5, long: 13.4, sources };
}

describe('a hotel code is a positive whole number', () => {
	it.each([
		[100001, 100001],
		['100001', 100001],
		[' 100002 ', 100002],
	])('accepts %p', (value, expected) => {
		expect(parseHotelCode(value)).toBe(expected);
	});

	it.each([['abc'], [0], [-1], [1.5], [''], ['1.5'], ['12abc'], [undefined], [null], [true], [{}]])('rejects %p naming the field', (value) => {
		expect(() => parseHotelCode(value)).toThrow(FieldError);
		expect(() => parseHotelCode(value)).toThrow(/^Hotel Code /);
	});

	it('says an empty code is missing rather than malformed', () => {
		expect(() => parseHotelCode('')).toThrow('Hotel Code (empty): is required');
	});
});

describe('codes are asked once each, in chunks of the batch size', () => {
	it('cuts 1,000 distinct codes into 20 batches of 50', () => {
		const codes = Array.from({ length: 1000 }, (_, i) => 100001 + i);
		const batches = planHotelBatches(codes, 50);
		expect(batches).toHaveLength(20);
		expect(batches.every((batch) => batch.length === 50)).toBe(true);
		expect(batches.flat()).toEqual(codes);
	});

	it('asks a repeated code once, in the order the items first asked', () => {
		expect(planHotelBatches([3, 1, 3, 2, 1], 2)).toEqual([[3, 1], [2]]);
	});

	it('gives one batch per code with batch size 1', () => {
		expect(planHotelBatches([5, 6, 5], 1)).toEqual([[5], [6]]);
	});

	it('plans nothing for no codes', () => {
		expect(planHotelBatches([], 50)).toEqual([]);
	});
});

describe('one code goes out as hotelcode only with batch size 1, else as hotelcodes', () => {
	it('sends hotelcode with batch size 1', () => {
		expect(hotelInfoRequestBody([100001], 1)).toEqual({ hotelcode: 100001 });
	});

	it('sends hotelcodes for a batch, even a last batch of one', () => {
		expect(hotelInfoRequestBody([100001, 100002], 50)).toEqual({ hotelcodes: [100001, 100002] });
		expect(hotelInfoRequestBody([100003], 50)).toEqual({ hotelcodes: [100003] });
	});
});

describe('every answer shape becomes a list of hotels', () => {
	it('reads a single Hotel object (the spec example)', () => {
		expect(hotelsFromResponse(hotel(1)).map((h) => h.hotelcode)).toEqual([1]);
	});

	it('reads a list of hotels', () => {
		expect(hotelsFromResponse([hotel(1), hotel(2)]).map((h) => h.hotelcode)).toEqual([1, 2]);
	});

	it.each(['hotels', 'data', 'results'])('reads a list wrapped as { %s: [...] }', (key) => {
		expect(hotelsFromResponse({ [key]: [hotel(1), hotel(2)], total: 2 }).map((h) => h.hotelcode)).toEqual([1, 2]);
	});

	it('reads hotels keyed by their code', () => {
		expect(hotelsFromResponse({ '1': hotel(1), '2': hotel(2) }).map((h) => h.hotelcode)).toEqual([1, 2]);
	});

	it('reads an empty answer as no hotels', () => {
		for (const empty of [[], {}, null, undefined, '', { hotels: [] }]) expect(hotelsFromResponse(empty)).toEqual([]);
	});

	it('refuses an answer that holds no hotel', () => {
		expect(() => hotelsFromResponse({ message: 'maintenance' })).toThrow(UnexpectedHotelInfoResponse);
		expect(() => hotelsFromResponse('maintenance')).toThrow(UnexpectedHotelInfoResponse);
	});

	it('keeps every field the service sent', () => {
		const [found] = hotelsFromResponse({ ...hotel(1), chain: 'Example Group' });
		expect(found).toMatchObject({ hotelname: 'Hotel 1', city: 'Berlin', lat: 52.5, long: 13.4, chain: 'Example Group' });
	});
});

describe('sources are always a list', () => {
	it('keeps a list as it is', () => {
		expect(sourcesAsList([booking, expedia])).toEqual([booking, expedia]);
	});

	it('turns an object keyed by website code into a list', () => {
		expect(sourcesAsList({ '1': booking, '2': expedia })).toEqual([booking, expedia]);
	});

	it('fills a missing websitecode from its key', () => {
		const withoutCode = { websitename: 'Expedia', url: 'https://expedia.example/h', channeltype: 'OTA', snapshotavailable: false };
		expect(sourcesAsList({ '2': withoutCode })).toEqual([{ ...withoutCode, websitecode: 2 }]);
	});

	it('wraps a single Source object', () => {
		expect(sourcesAsList(booking)).toEqual([booking]);
	});

	it('reads missing sources as none', () => {
		expect(sourcesAsList(undefined)).toEqual([]);
		expect(sourcesAsList(null)).toEqual([]);
		expect(hotelsFromResponse({ hotelcode: 7, hotelname: 'New' })[0].sources).toEqual([]);
	});

	it('normalizes the sources of every hotel in the answer', () => {
		const hotels = hotelsFromResponse([hotel(1, { '1': booking }), hotel(2, booking), { hotelcode: 3 }]);
		expect(hotels.map((h) => h.sources)).toEqual([[booking], [booking], []]);
	});
});

describe('hotels are found by code whether the service sends it as a number or text', () => {
	it('indexes "100001" under 100001', () => {
		const byCode = indexHotelsByCode(hotelsFromResponse([hotel('100001'), hotel(100002)]));
		expect(byCode.get(100001)?.hotelname).toBe('Hotel 100001');
		expect(byCode.get(100002)?.hotelname).toBe('Hotel 100002');
	});
});

describe('split sources gives one row per website, the hotel fields kept', () => {
	it('gives one row per source with hotel and source fields side by side', () => {
		const [found] = hotelsFromResponse(hotel(1));
		const rows = splitHotelSources(found);
		expect(rows).toHaveLength(2);
		expect(rows[0]).toMatchObject({ hotelcode: 1, hotelname: 'Hotel 1', websitecode: 1, websitename: 'Booking.com' });
		expect(rows[1]).toMatchObject({ hotelcode: 1, websitecode: 2, snapshotavailable: false });
		expect(rows[0]).not.toHaveProperty('sources');
	});

	it('keeps a hotel without sources as one row, so it is not lost', () => {
		const [found] = hotelsFromResponse(hotel(1, []));
		expect(splitHotelSources(found)).toEqual([{ hotelcode: 1, hotelname: 'Hotel 1', city: 'Berlin', country: 'Germany', lat: 52.5, long: 13.4 }]);
	});
});
