import { expectError, useFrozenSandbox } from '../frozenSandbox';

const { api } = useFrozenSandbox();

describe('GET /hoteldemanddata/{demandId}', () => {
	const MEMBERS = ['Absolute_Value.json', 'Events_registered.json', 'Relative_Values.json', 'Event_records.json'];
	const dateKeys = (row: Record<string, unknown>): string[] => Object.keys(row).filter((key) => key !== 'HotelCode' && key !== 'HotelName');

	it('returns the four members of spec 4.7 with their row fields', async () => {
		const { status, data } = await api.get('/hoteldemanddata/1002');
		expect(status).toBe(200);
		expect(Object.keys(data)).toEqual(MEMBERS);
		const row = data['Absolute_Value.json'][0];
		expect(row).toMatchObject({ HotelCode: 100001, HotelName: expect.any(String) });
		expect(dateKeys(row)).toHaveLength(90);
		expect(dateKeys(row).every((key) => /^\d{2}\/\d{2}\/\d{4}$/.test(key) && Number.isInteger(row[key]))).toBe(true);
		expect(data['Absolute_Value.json']).toHaveLength(100);
		expect(data['Event_records.json'][0]).toEqual({ id: expect.any(Number), eventName: expect.any(String), venue: expect.any(String), category: expect.any(String), city: expect.any(String), date: expect.stringMatching(/^\d{2}\/\d{2}\/\d{4}$/), Estimated_Attendees: expect.any(Number), latitude: expect.any(Number), longitude: expect.any(Number) });
	});

	it('writes 1001 day-first, 1002 month-first, and 1003/1004 undecidably', async () => {
		const keys = async (id: number): Promise<string[]> => dateKeys((await api.get(`/hoteldemanddata/${id}`)).data['Relative_Values.json'][0]);
		expect((await keys(1001)).some((key) => Number(key.slice(0, 2)) > 12)).toBe(true);
		expect((await keys(1002)).some((key) => Number(key.slice(3, 5)) > 12)).toBe(true);
		const ambiguous = await keys(1003);
		expect(ambiguous).toHaveLength(90);
		expect(ambiguous.every((key) => Number(key.slice(0, 2)) <= 12 && Number(key.slice(3, 5)) <= 12)).toBe(true);
		expect(await keys(1004)).toEqual(['05/05/2026']);
	});

	it('leaves hotel 100043 out of Relative_Values.json in 1005 only', async () => {
		const { data } = await api.get('/hoteldemanddata/1005');
		const codes = (member: string): number[] => data[member].map((row: { HotelCode: number }) => row.HotelCode);
		expect(codes('Absolute_Value.json')).toContain(100043);
		expect(codes('Events_registered.json')).toContain(100043);
		expect(codes('Relative_Values.json')).not.toContain(100043);
		expect(codes('Relative_Values.json')).toHaveLength(99);
	});

	it('serves the large shop 1006: 1,000 hotels by 365 dates', async () => {
		const { data } = await api.get('/hoteldemanddata/1006');
		expect(data['Absolute_Value.json']).toHaveLength(1000);
		expect(dateKeys(data['Absolute_Value.json'][999])).toHaveLength(365);
	});

	it('answers 400 for an unknown or non-numeric demandId', async () => {
		expectError(await api.get('/hoteldemanddata/7'), 400, /unknown demandId 7/);
		expectError(await api.get('/hoteldemanddata/abc'), 400, /demandId must be a number/);
	});
});
