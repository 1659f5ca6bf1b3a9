import { credentialFor, joinUrl, serviceReason } from '../../nodes/shared/transport';

describe('each endpoint gets the credential spec part 5 names', () => {
	it('sends the API key to the airports reference only', () => {
		expect(credentialFor('/api/v1/references/airports')).toBe('travelPricingAirportsApi');
		expect(credentialFor('/hotelinfo')).toBe('travelPricingApi');
		expect(credentialFor('/eventimpact/')).toBe('travelPricingApi');
		expect(credentialFor('/shops/4')).toBe('travelPricingApi');
	});
});

describe('a Base URL with a trailing slash still works', () => {
	it('joins without doubling the slash', () => {
		expect(joinUrl('https://api.example.com/', '/hotelinfo')).toBe('https://api.example.com/hotelinfo');
		expect(joinUrl('https://api.example.com//', '/hotelinfo')).toBe('https://api.example.com/hotelinfo');
		expect(joinUrl(' https://api.example.com ', 'hotelinfo')).toBe('https://api.example.com/hotelinfo');
	});
});

describe("a 400 carries the service's own reason, whatever the body's shape", () => {
	it.each([
		[{ error: true, status: 400, message: 'hour must be 0 to 23' }, 'hour must be 0 to 23'],
		[{ reason: 'unknown demandId' }, 'unknown demandId'],
		[{ error: 'missing schedulename' }, 'missing schedulename'],
		[{ errors: [{ message: 'a' }, { message: 'b' }] }, 'a; b'],
		['plain text reason', 'plain text reason'],
	])('reads %j', (body, reason) => {
		expect(serviceReason(body)).toBe(reason);
	});

	it('gives nothing for an empty body', () => {
		expect(serviceReason(undefined)).toBeUndefined();
		expect(serviceReason({})).toBeUndefined();
	});
});
