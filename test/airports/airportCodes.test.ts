import { FieldError } from '../../nodes/shared/errors';
import { parseAirportCodes } from '../../nodes/Airports/airports';

describe('airport codes are IATA codes: three letters, any case, sent upper-case', () => {
	it.each([
		['JFK', ['JFK']],
		['jfk', ['JFK']],
		['JFK,LHR', ['JFK', 'LHR']],
		['jfk, lhr  cdg', ['JFK', 'LHR', 'CDG']],
		[' JFK ;LHR ', ['JFK', 'LHR']],
		['JFK, jfk, LHR', ['JFK', 'LHR']],
		[['JFK', 'lhr'], ['JFK', 'LHR']],
		[['JFK LHR', 'cdg;ORD'], ['JFK', 'LHR', 'CDG', 'ORD']],
		['JFK\nLHR\tCDG', ['JFK', 'LHR', 'CDG']],
		[[null, 'JFK'], ['JFK']],
		['', []],
		[undefined, []],
	])('reads %p as %p', (value, codes) => {
		expect(parseAirportCodes('Codes', value)).toEqual(codes);
	});

	it.each([['JF'], ['JFKX'], ['J1K'], ['JFK, 123'], ['JFK-LHR']])('refuses %p, naming the field and the code', (value) => {
		expect(() => parseAirportCodes('Codes', value)).toThrow(FieldError);
		expect(() => parseAirportCodes('Codes', value)).toThrow(/^Codes ".*": ".*" is not an IATA airport code/);
	});

	it('refuses a value that is not text', () => {
		expect(() => parseAirportCodes('Codes', 42)).toThrow('Codes "42": "42" is not an IATA airport code (three letters, for example JFK)');
	});
});
