/** Real cities with real coordinates; hotels and events are placed around them. */
export interface City {
	name: string;
	state: string;
	country: string;
	countryCode: string;
	region: string;
	lat: number;
	lng: number;
	/** Postcode prefix; a generated suffix completes it. */
	zipPrefix: string;
	currency: string;
}

export const CITIES: readonly City[] = [
	{ name: 'New York', state: 'NY', country: 'United States', countryCode: 'US', region: 'North America', lat: 40.7128, lng: -74.006, zipPrefix: '100', currency: 'USD' },
	{ name: 'Los Angeles', state: 'CA', country: 'United States', countryCode: 'US', region: 'North America', lat: 34.0522, lng: -118.2437, zipPrefix: '900', currency: 'USD' },
	{ name: 'Chicago', state: 'IL', country: 'United States', countryCode: 'US', region: 'North America', lat: 41.8781, lng: -87.6298, zipPrefix: '606', currency: 'USD' },
	{ name: 'Las Vegas', state: 'NV', country: 'United States', countryCode: 'US', region: 'North America', lat: 36.1699, lng: -115.1398, zipPrefix: '891', currency: 'USD' },
	{ name: 'Miami', state: 'FL', country: 'United States', countryCode: 'US', region: 'North America', lat: 25.7617, lng: -80.1918, zipPrefix: '331', currency: 'USD' },
	{ name: 'San Francisco', state: 'CA', country: 'United States', countryCode: 'US', region: 'North America', lat: 37.7749, lng: -122.4194, zipPrefix: '941', currency: 'USD' },
	{ name: 'Boston', state: 'MA', country: 'United States', countryCode: 'US', region: 'North America', lat: 42.3601, lng: -71.0589, zipPrefix: '021', currency: 'USD' },
	{ name: 'Seattle', state: 'WA', country: 'United States', countryCode: 'US', region: 'North America', lat: 47.6062, lng: -122.3321, zipPrefix: '981', currency: 'USD' },
	{ name: 'Orlando', state: 'FL', country: 'United States', countryCode: 'US', region: 'North America', lat: 28.5383, lng: -81.3792, zipPrefix: '328', currency: 'USD' },
	{ name: 'Austin', state: 'TX', country: 'United States', countryCode: 'US', region: 'North America', lat: 30.2672, lng: -97.7431, zipPrefix: '787', currency: 'USD' },
	{ name: 'Toronto', state: 'ON', country: 'Canada', countryCode: 'CA', region: 'North America', lat: 43.6532, lng: -79.3832, zipPrefix: 'M5V', currency: 'CAD' },
	{ name: 'Vancouver', state: 'BC', country: 'Canada', countryCode: 'CA', region: 'North America', lat: 49.2827, lng: -123.1207, zipPrefix: 'V6B', currency: 'CAD' },
	{ name: 'Mexico City', state: 'CDMX', country: 'Mexico', countryCode: 'MX', region: 'North America', lat: 19.4326, lng: -99.1332, zipPrefix: '06', currency: 'MXN' },
	{ name: 'London', state: 'England', country: 'United Kingdom', countryCode: 'GB', region: 'Europe', lat: 51.5074, lng: -0.1278, zipPrefix: 'WC2', currency: 'GBP' },
	{ name: 'Edinburgh', state: 'Scotland', country: 'United Kingdom', countryCode: 'GB', region: 'Europe', lat: 55.9533, lng: -3.1883, zipPrefix: 'EH1', currency: 'GBP' },
	{ name: 'Paris', state: 'Île-de-France', country: 'France', countryCode: 'FR', region: 'Europe', lat: 48.8566, lng: 2.3522, zipPrefix: '750', currency: 'EUR' },
	{ name: 'Nice', state: "Provence-Alpes-Côte d'Azur", country: 'France', countryCode: 'FR', region: 'Europe', lat: 43.7102, lng: 7.262, zipPrefix: '060', currency: 'EUR' },
	{ name: 'Berlin', state: 'Berlin', country: 'Germany', countryCode: 'DE', region: 'Europe', lat: 52.52, lng: 13.405, zipPrefix: '101', currency: 'EUR' },
	{ name: 'Munich', state: 'Bavaria', country: 'Germany', countryCode: 'DE', region: 'Europe', lat: 48.1351, lng: 11.582, zipPrefix: '803', currency: 'EUR' },
	{ name: 'Frankfurt', state: 'Hesse', country: 'Germany', countryCode: 'DE', region: 'Europe', lat: 50.1109, lng: 8.6821, zipPrefix: '603', currency: 'EUR' },
	{ name: 'Amsterdam', state: 'North Holland', country: 'Netherlands', countryCode: 'NL', region: 'Europe', lat: 52.3676, lng: 4.9041, zipPrefix: '101', currency: 'EUR' },
	{ name: 'Madrid', state: 'Community of Madrid', country: 'Spain', countryCode: 'ES', region: 'Europe', lat: 40.4168, lng: -3.7038, zipPrefix: '280', currency: 'EUR' },
	{ name: 'Barcelona', state: 'Catalonia', country: 'Spain', countryCode: 'ES', region: 'Europe', lat: 41.3851, lng: 2.1734, zipPrefix: '080', currency: 'EUR' },
	{ name: 'Rome', state: 'Lazio', country: 'Italy', countryCode: 'IT', region: 'Europe', lat: 41.9028, lng: 12.4964, zipPrefix: '001', currency: 'EUR' },
	{ name: 'Milan', state: 'Lombardy', country: 'Italy', countryCode: 'IT', region: 'Europe', lat: 45.4642, lng: 9.19, zipPrefix: '201', currency: 'EUR' },
	{ name: 'Vienna', state: 'Vienna', country: 'Austria', countryCode: 'AT', region: 'Europe', lat: 48.2082, lng: 16.3738, zipPrefix: '10', currency: 'EUR' },
	{ name: 'Prague', state: 'Prague', country: 'Czechia', countryCode: 'CZ', region: 'Europe', lat: 50.0755, lng: 14.4378, zipPrefix: '110', currency: 'CZK' },
	{ name: 'Lisbon', state: 'Lisbon', country: 'Portugal', countryCode: 'PT', region: 'Europe', lat: 38.7223, lng: -9.1393, zipPrefix: '1100', currency: 'EUR' },
	{ name: 'Dublin', state: 'Leinster', country: 'Ireland', countryCode: 'IE', region: 'Europe', lat: 53.3498, lng: -6.2603, zipPrefix: 'D02', currency: 'EUR' },
	{ name: 'Zurich', state: 'Zurich', country: 'Switzerland', countryCode: 'CH', region: 'Europe', lat: 47.3769, lng: 8.5417, zipPrefix: '80', currency: 'CHF' },
	{ name: 'Dubai', state: 'Dubai', country: 'United Arab Emirates', countryCode: 'AE', region: 'Middle East', lat: 25.2048, lng: 55.2708, zipPrefix: '00', currency: 'AED' },
	{ name: 'Istanbul', state: 'Istanbul', country: 'Turkey', countryCode: 'TR', region: 'Europe', lat: 41.0082, lng: 28.9784, zipPrefix: '344', currency: 'TRY' },
	{ name: 'Singapore', state: 'Singapore', country: 'Singapore', countryCode: 'SG', region: 'Asia', lat: 1.3521, lng: 103.8198, zipPrefix: '01', currency: 'SGD' },
	{ name: 'Tokyo', state: 'Tokyo', country: 'Japan', countryCode: 'JP', region: 'Asia', lat: 35.6762, lng: 139.6503, zipPrefix: '100', currency: 'JPY' },
	{ name: 'Osaka', state: 'Osaka', country: 'Japan', countryCode: 'JP', region: 'Asia', lat: 34.6937, lng: 135.5023, zipPrefix: '530', currency: 'JPY' },
	{ name: 'Hong Kong', state: 'Hong Kong', country: 'Hong Kong', countryCode: 'HK', region: 'Asia', lat: 22.3193, lng: 114.1694, zipPrefix: '999', currency: 'HKD' },
	{ name: 'Bangkok', state: 'Bangkok', country: 'Thailand', countryCode: 'TH', region: 'Asia', lat: 13.7563, lng: 100.5018, zipPrefix: '10', currency: 'THB' },
	{ name: 'Sydney', state: 'NSW', country: 'Australia', countryCode: 'AU', region: 'Oceania', lat: -33.8688, lng: 151.2093, zipPrefix: '20', currency: 'AUD' },
	{ name: 'Melbourne', state: 'VIC', country: 'Australia', countryCode: 'AU', region: 'Oceania', lat: -37.8136, lng: 144.9631, zipPrefix: '30', currency: 'AUD' },
	{ name: 'São Paulo', state: 'SP', country: 'Brazil', countryCode: 'BR', region: 'South America', lat: -23.5505, lng: -46.6333, zipPrefix: '010', currency: 'BRL' },
	{ name: 'Buenos Aires', state: 'CABA', country: 'Argentina', countryCode: 'AR', region: 'South America', lat: -34.6037, lng: -58.3816, zipPrefix: 'C10', currency: 'ARS' },
	{ name: 'Cape Town', state: 'Western Cape', country: 'South Africa', countryCode: 'ZA', region: 'Africa', lat: -33.9249, lng: 18.4241, zipPrefix: '80', currency: 'ZAR' },
];

export const STREET_NAMES: readonly string[] = [
	'Main Street', 'Park Avenue', 'High Street', 'Market Street', 'Harbour Road', 'King Street',
	'Queen Street', 'Station Road', 'Church Street', 'Riverside Drive', 'Ocean Boulevard',
	'Central Avenue', 'Bridge Street', 'Victoria Road', 'Garden Lane', 'Lake Shore Drive',
	'Hill Road', 'Castle Street', 'Mill Lane', 'Broadway',
];

/** A point within roughly `radiusMiles` of the city centre. */
export function jitterAround(city: City, radiusMiles: number, random: () => number): { lat: number; lng: number } {
	const milesPerDegreeLat = 69;
	const milesPerDegreeLng = 69 * Math.cos((city.lat * Math.PI) / 180);
	const distance = radiusMiles * Math.sqrt(random());
	const bearing = random() * 2 * Math.PI;
	return {
		lat: Number((city.lat + (distance * Math.cos(bearing)) / milesPerDegreeLat).toFixed(6)),
		lng: Number((city.lng + (distance * Math.sin(bearing)) / milesPerDegreeLng).toFixed(6)),
	};
}
