import { buildData } from '../../../platform/sandbox/data';
import { useFrozenSandbox } from '../frozenSandbox';

const { sandbox } = useFrozenSandbox();

describe('seeded data set', () => {
	it('is identical for the same seed', () => {
		const again = buildData(sandbox.data.seed);
		expect(again.hotels).toEqual(sandbox.data.hotels);
		expect(again.events.slice(0, 200)).toEqual(sandbox.data.events.slice(0, 200));
		expect(again.airports).toEqual(sandbox.data.airports);
	});

	it('has 250 hotels with 2-8 sources, 5,000 events over 40+ cities and 3,000 unique airport codes', () => {
		expect(sandbox.data.hotels.map((hotel) => hotel.hotelcode)).toEqual(Array.from({ length: 250 }, (_, i) => 100001 + i));
		expect(sandbox.data.hotels.every((hotel) => hotel.sources.length >= 2 && hotel.sources.length <= 8)).toBe(true);
		expect(new Set(sandbox.data.events.map((event) => event.city)).size).toBeGreaterThanOrEqual(40);
		expect(new Set(sandbox.data.events.map((event) => event.category)).size).toBeGreaterThanOrEqual(12);
		expect(sandbox.data.events.every((event) => event.impactScore >= 0 && event.impactScore <= 100)).toBe(true);
		const codes = sandbox.data.airports.map((airport) => airport.airportCode);
		expect(new Set(codes).size).toBe(3000);
		expect(codes).toEqual(expect.arrayContaining(['JFK', 'LHR', 'CDG', 'DXB', 'SIN', 'LAX', 'ORD', 'FRA', 'AMS', 'MAD']));
	});
});
