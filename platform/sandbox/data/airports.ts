import { createPrng, deriveSeed } from '../prng';
import type { Airport } from '../types';

export const AIRPORT_COUNT = 3000;

/** Real airports first, so codes people know (JFK, LHR, …) answer as expected. */
const REAL_AIRPORTS: ReadonlyArray<[code: string, name: string, city: string]> = [
	['JFK', 'John F. Kennedy International Airport', 'New York'],
	['LGA', 'LaGuardia Airport', 'New York'],
	['EWR', 'Newark Liberty International Airport', 'Newark'],
	['LAX', 'Los Angeles International Airport', 'Los Angeles'],
	['ORD', "O'Hare International Airport", 'Chicago'],
	['ATL', 'Hartsfield-Jackson Atlanta International Airport', 'Atlanta'],
	['DFW', 'Dallas/Fort Worth International Airport', 'Dallas'],
	['DEN', 'Denver International Airport', 'Denver'],
	['SFO', 'San Francisco International Airport', 'San Francisco'],
	['SEA', 'Seattle-Tacoma International Airport', 'Seattle'],
	['LAS', 'Harry Reid International Airport', 'Las Vegas'],
	['MIA', 'Miami International Airport', 'Miami'],
	['MCO', 'Orlando International Airport', 'Orlando'],
	['BOS', 'Logan International Airport', 'Boston'],
	['AUS', 'Austin-Bergstrom International Airport', 'Austin'],
	['YYZ', 'Toronto Pearson International Airport', 'Toronto'],
	['YVR', 'Vancouver International Airport', 'Vancouver'],
	['MEX', 'Mexico City International Airport', 'Mexico City'],
	['LHR', 'Heathrow Airport', 'London'],
	['LGW', 'Gatwick Airport', 'London'],
	['EDI', 'Edinburgh Airport', 'Edinburgh'],
	['CDG', 'Paris Charles de Gaulle Airport', 'Paris'],
	['ORY', 'Paris Orly Airport', 'Paris'],
	['NCE', "Nice Côte d'Azur Airport", 'Nice'],
	['FRA', 'Frankfurt Airport', 'Frankfurt'],
	['MUC', 'Munich Airport', 'Munich'],
	['BER', 'Berlin Brandenburg Airport', 'Berlin'],
	['AMS', 'Amsterdam Airport Schiphol', 'Amsterdam'],
	['MAD', 'Adolfo Suárez Madrid–Barajas Airport', 'Madrid'],
	['BCN', 'Josep Tarradellas Barcelona-El Prat Airport', 'Barcelona'],
	['FCO', 'Leonardo da Vinci–Fiumicino Airport', 'Rome'],
	['MXP', 'Milan Malpensa Airport', 'Milan'],
	['VIE', 'Vienna International Airport', 'Vienna'],
	['PRG', 'Václav Havel Airport Prague', 'Prague'],
	['LIS', 'Humberto Delgado Airport', 'Lisbon'],
	['DUB', 'Dublin Airport', 'Dublin'],
	['ZRH', 'Zurich Airport', 'Zurich'],
	['CPH', 'Copenhagen Airport', 'Copenhagen'],
	['ARN', 'Stockholm Arlanda Airport', 'Stockholm'],
	['OSL', 'Oslo Airport, Gardermoen', 'Oslo'],
	['HEL', 'Helsinki Airport', 'Helsinki'],
	['IST', 'Istanbul Airport', 'Istanbul'],
	['DXB', 'Dubai International Airport', 'Dubai'],
	['DOH', 'Hamad International Airport', 'Doha'],
	['SIN', 'Singapore Changi Airport', 'Singapore'],
	['HND', 'Tokyo Haneda Airport', 'Tokyo'],
	['NRT', 'Narita International Airport', 'Tokyo'],
	['KIX', 'Kansai International Airport', 'Osaka'],
	['HKG', 'Hong Kong International Airport', 'Hong Kong'],
	['BKK', 'Suvarnabhumi Airport', 'Bangkok'],
	['ICN', 'Incheon International Airport', 'Seoul'],
	['PEK', 'Beijing Capital International Airport', 'Beijing'],
	['PVG', 'Shanghai Pudong International Airport', 'Shanghai'],
	['DEL', 'Indira Gandhi International Airport', 'Delhi'],
	['BOM', 'Chhatrapati Shivaji Maharaj International Airport', 'Mumbai'],
	['SYD', 'Sydney Kingsford Smith Airport', 'Sydney'],
	['MEL', 'Melbourne Airport', 'Melbourne'],
	['AKL', 'Auckland Airport', 'Auckland'],
	['GRU', 'São Paulo/Guarulhos International Airport', 'São Paulo'],
	['EZE', 'Ministro Pistarini International Airport', 'Buenos Aires'],
	['CPT', 'Cape Town International Airport', 'Cape Town'],
	['JNB', 'O. R. Tambo International Airport', 'Johannesburg'],
	['CAI', 'Cairo International Airport', 'Cairo'],
];

const PLACE_STARTS = ['Val', 'Kes', 'Mar', 'Bel', 'Tor', 'San', 'Ost', 'Lin', 'Ravn', 'Cor', 'Alt', 'Bran', 'Dun', 'Fel', 'Gar', 'Hal', 'Isk', 'Jor', 'Kal', 'Lor', 'Mon', 'Nor', 'Pel', 'Quin', 'Ros', 'Sel', 'Tam', 'Ul', 'Ver', 'Wex'];
const PLACE_ENDS = ['dora', 'ford', 'haven', 'mere', 'ton', 'vik', 'stad', 'burg', 'ia', 'ora', 'field', 'port', 'wick', 'dale', 'mont', 'sund', 'ana', 'gate'];
const AIRPORT_KINDS = ['International Airport', 'Regional Airport', 'Airport', 'Municipal Airport', 'Airfield', 'County Airport'];
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

export function buildAirports(seed: number): Airport[] {
	const random = createPrng(deriveSeed(seed, 'airports'));
	const taken = new Set(REAL_AIRPORTS.map(([code]) => code));
	const rows: Array<[string, string, string]> = [...REAL_AIRPORTS];
	while (rows.length < AIRPORT_COUNT) {
		const code = Array.from({ length: 3 }, () => random.pick([...LETTERS])).join('');
		if (taken.has(code)) continue;
		taken.add(code);
		const city = `${random.pick(PLACE_STARTS)}${random.pick(PLACE_ENDS)}`;
		rows.push([code, `${city} ${random.pick(AIRPORT_KINDS)}`, city]);
	}
	// A reference list reads best in code order; the order is stable across pages.
	rows.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
	return rows.map(([airportCode, airportName, city], index) => ({
		_id: Array.from({ length: 24 }, () => random.int(0, 15).toString(16)).join(''),
		id: String(index + 1),
		airportName,
		city,
		airportCode,
		// A few inactive airports, never the well-known ones.
		isActiveStatus: REAL_AIRPORTS.some(([code]) => code === airportCode) || !random.chance(0.05),
	}));
}
