import { buildData } from '../../../platform/sandbox/data';
import { CITIES } from '../../../platform/sandbox/data/cities';
import { seasonAt } from '../../../platform/sandbox/data/events';
import { USD_RATE } from '../../../platform/sandbox/rateRecords';
import { START, useFrozenSandbox } from '../frozenSandbox';

const { sandbox } = useFrozenSandbox();

describe('seeded data set', () => {
	it('is identical for the same seed', () => {
		const again = buildData(sandbox.data.seed, { firstDay: Date.parse(START) });
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

	it("lays its events out from the sandbox's first day: every one upcoming, within two years", () => {
		const days = sandbox.data.seedEvents.map((event) => event.startDay).sort();
		expect(days[0] >= START.slice(0, 10)).toBe(true);
		expect(days[days.length - 1] < '2028-12-01').toBe(true);
		// Another first day moves them, keeping the same events.
		const later = buildData(sandbox.data.seed, { firstDay: Date.parse('2027-03-01T00:00:00Z') });
		expect(later.seedEvents.map((event) => event.event.city)).toEqual(sandbox.data.seedEvents.map((event) => event.event.city));
		expect(later.seedEvents.map((event) => event.startDay).sort()[0] >= '2027-03-01').toBe(true);
	});

	it("names events to fit their city and day: no holiday named after another country's, seasons the city's own", () => {
		for (const { event, startDay, lat } of sandbox.data.seedEvents) {
			const city = CITIES.find((candidate) => candidate.name === event.city);
			const season = seasonAt(city as (typeof CITIES)[number], Date.parse(startDay));
			expect(event.eventName).not.toMatch(/Midsummer|Founders Day|Harvest Day|New Year|Independence Day/);
			for (const named of ['Spring', 'Summer', 'Autumn', 'Winter']) if (event.eventName.includes(` ${named} `)) expect({ event: event.eventName, startDay, season }).toEqual({ event: event.eventName, startDay, season: named });
			if (['Summer Break', 'Heatwave'].includes(event.subCategory)) expect({ event: event.eventName, startDay, season }).toEqual({ event: event.eventName, startDay, season: 'Summer' });
			expect(Number.isFinite(lat)).toBe(true);
		}
		expect(seasonAt(CITIES.find((city) => city.name === 'Cape Town') as (typeof CITIES)[number], Date.parse('2026-12-24'))).toBe('Summer');
		expect(seasonAt(CITIES.find((city) => city.name === 'London') as (typeof CITIES)[number], Date.parse('2026-12-24'))).toBe('Winter');
	});

	it("has every shop collect in its hotels' city's currency, each priced from the same bands", () => {
		for (const city of CITIES) expect({ currency: city.currency, rate: USD_RATE[city.currency] > 0 }).toEqual({ currency: city.currency, rate: true });
		for (const shop of sandbox.data.shops.shops) {
			const currencies = new Set(shop.hotelCodes.map((code) => sandbox.data.hotelsByCode.get(code)?.cityInfo.currency));
			expect({ shop: shop.shopId, currencies: [...currencies] }).toEqual({ shop: shop.shopId, currencies: [shop.config.currency] });
		}
		expect(sandbox.data.shops.get(1)?.config.currency).toBe('ZAR');
	});
});
