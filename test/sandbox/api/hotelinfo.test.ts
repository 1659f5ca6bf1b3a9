import type { Hotel } from '../../../platform/sandbox';
import { expectError, useFrozenSandbox } from '../frozenSandbox';

const { sandbox, api, control } = useFrozenSandbox();

describe('POST /hotelinfo', () => {
	it('returns one Hotel object with its sources as a list for `hotelcode`', async () => {
		const { status, data } = await api.post('/hotelinfo', { hotelcode: 100007 });
		expect(status).toBe(200);
		expect(data).toEqual({
			hotelcode: 100007,
			hotelname: expect.any(String),
			address: expect.any(String),
			city: expect.any(String),
			state: expect.any(String),
			zip: expect.any(String),
			country: expect.any(String),
			starrating: expect.stringMatching(/^[2-5]$/),
			lat: expect.any(Number),
			long: expect.any(Number),
			sources: expect.any(Array),
		});
		expect(data.sources.length).toBeGreaterThanOrEqual(2);
		expect(data.sources.length).toBeLessThanOrEqual(8);
		for (const source of data.sources) {
			expect(source).toEqual({ websitecode: expect.any(Number), websitename: expect.any(String), url: expect.stringMatching(/^https:\/\//), channeltype: expect.stringMatching(/^(OTA|Brand|Metasearch|GDS)$/), snapshotavailable: expect.any(Boolean) });
		}
	});

	it('returns an array for `hotelcodes`, in request order, leaving unknown codes out', async () => {
		const { data } = await api.post('/hotelinfo', { hotelcodes: [100010, 999999, 100003] });
		expect(data.map((hotel: Hotel) => hotel.hotelcode)).toEqual([100010, 100003]);
	});

	it('lets `hotelcodes` win when both are sent', async () => {
		const { data } = await api.post('/hotelinfo', { hotelcode: 100001, hotelcodes: [100002] });
		expect(data.map((hotel: Hotel) => hotel.hotelcode)).toEqual([100002]);
	});

	it.each([
		['neither code is sent', {}, /hotelcode or hotelcodes is required/],
		['hotelcode is unknown', { hotelcode: 123 }, /unknown hotelcode 123/],
		['hotelcode is a string', { hotelcode: '100001' }, /hotelcode must be an integer/],
		['hotelcodes is empty', { hotelcodes: [] }, /hotelcodes must be a non-empty array/],
		['hotelcodes has more than 100 codes', { hotelcodes: Array.from({ length: 101 }, (_, i) => 100001 + i) }, /at most 100/],
		['an unknown field is sent', { hotelcode: 100001, hotel: 1 }, /unknown field 'hotel'/],
	])('answers 400 when %s', async (_case, body, reason) => {
		expectError(await api.post('/hotelinfo', body), 400, reason);
	});

	it('serves sources as an object keyed by websitecode under the sourcesAsObject variant (control route)', async () => {
		expect((await control.put('/__sandbox/variants', { sourcesAsObject: true })).status).toBe(200);
		const { data } = await api.post('/hotelinfo', { hotelcode: 100001 });
		expect(Array.isArray(data.sources)).toBe(false);
		for (const [key, source] of Object.entries(data.sources as Record<string, { websitecode: number }>)) expect(source.websitecode).toBe(Number(key));
	});

	it('serves a single code as [hotel] under the singleHotelAsArray variant', async () => {
		sandbox.setVariants({ singleHotelAsArray: true });
		const { data } = await api.post('/hotelinfo', { hotelcode: 100001 });
		expect(data).toHaveLength(1);
		expect(data[0].hotelcode).toBe(100001);
	});
});
