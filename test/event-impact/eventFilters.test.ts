import { FieldError } from '../../nodes/shared/errors';
import { DEFAULT_PROXIMITY_MILES } from '../../nodes/shared/events';
import {
	eventImpactFilters,
	parseAttendeeFilter,
	parseCodeList,
} from '../../nodes/EventImpact/eventFilters';

describe('category and subcategory take codes, lists and ranges (spec 4.5)', () => {
	it.each([
		['4', '4'],
		[4, '4'],
		['1,4,7-9', '1,4,7-9'],
		[' 1, 4 , 7 - 9 ', '1,4,7-9'],
		['101,204-205', '101,204-205'],
		['3-3', '3-3'],
		// One list rule for every node (nodes/shared/fields.ts): empty entries are dropped.
		['1,,2', '1,2'],
		['1,', '1'],
		['1;4', '1,4'],
	])('accepts %p and sends %p', (value, sent) => {
		expect(parseCodeList('Category', value)).toBe(sent);
	});

	it('takes a list from an expression, whose text members may be lists too', () => {
		expect(parseCodeList('Category', ['1,2', 3])).toBe('1,2,3');
		expect(parseCodeList('Subcategory', [204, '7-9'])).toBe('204,7-9');
	});

	it.each([
		['abc', /"abc" is not a code or a range/],
		['9-7', /runs backwards/],
		['1.5', /not a code or a range/],
		['-3', /not a code or a range/],
		['1-2-3', /not a code or a range/],
		['', /is empty/],
		[[], /is empty/],
		[['1', 'x'], /"x" is not a code or a range/],
	])('rejects %p, naming the field and the value', (value, reason) => {
		expect(() => parseCodeList('Subcategory', value)).toThrow(FieldError);
		expect(() => parseCodeList('Subcategory', value)).toThrow(/^Subcategory /);
		expect(() => parseCodeList('Subcategory', value)).toThrow(reason);
	});
});

describe('estimated attendees take the four forms of spec 4.5', () => {
	it.each([
		['1000-5000', '1000-5000'],
		['1000 - 5000', '1000-5000'],
		['<1000', '<1000'],
		['< 1000', '<1000'],
		['>5000', '>5000'],
		['2500', '2500'],
		[2500, '2500'],
	])('accepts %p and sends %p', (value, sent) => {
		expect(parseAttendeeFilter('Estimated Attendees', value)).toBe(sent);
	});

	it.each([['5000-1000'], ['many'], ['<'], ['<=1000'], ['1,000'], ['>1000-2000'], ['']])('rejects %p', (value) => {
		expect(() => parseAttendeeFilter('Estimated Attendees', value)).toThrow(/^Estimated Attendees /);
	});

	it('names the forms with the labels the spec gives them', () => {
		expect(() => parseAttendeeFilter('Estimated Attendees', 'lots')).toThrow(
			'a range a-b (1000-5000), <n (minimum value), >n (maximum value) or an exact number n',
		);
	});
});

describe('each filter goes out in the type the spec gives it', () => {
	it('sends integers, numbers, coordinate strings and a YYYY-MM-DD date', () => {
		expect(
			eventImpactFilters({
				eventId: '3100007',
				eventName: ' Marathon ',
				category: '1, 2',
				subCategory: '204',
				startDate: '2026-03-01T00:00:00',
				estimatedAttendee: '>1000',
				venue: 'Arena',
				address: '1 Main St',
				city: 'Berlin',
				state: 'BE',
				zip: 10115,
				country: 'Germany',
				region: 'Europe',
				lat: 52.52,
				lng: '13.405',
				proximity: '25',
				horizon: 7,
				impactEventType: 'High Impact',
				eventStatusCode: 1,
			}, 'UTC'),
		).toEqual({
			eventId: 3100007,
			eventName: 'Marathon',
			category: '1,2',
			subCategory: '204',
			startDate: '2026-03-01',
			estimatedAttendee: '>1000',
			venue: 'Arena',
			address: '1 Main St',
			city: 'Berlin',
			state: 'BE',
			zip: '10115',
			country: 'Germany',
			region: 'Europe',
			lat: '52.52',
			lng: '13.405',
			proximity: 25,
			horizon: 7,
			impactEventType: 'High Impact',
			eventStatusCode: 1,
		});
	});

	it('sends nothing for filters that were not added', () => {
		expect(eventImpactFilters({}, 'UTC')).toEqual({});
	});

	it('reads Start Date in the workflow\'s timezone: an instant counts on its day there', () => {
		expect(eventImpactFilters({ startDate: '2026-03-01T23:30:00-05:00' }, 'UTC').startDate).toBe('2026-03-02');
		expect(eventImpactFilters({ startDate: '2026-03-01T23:30:00-05:00' }, 'America/New_York').startDate).toBe('2026-03-01');
	});

	it('sends All Events as status code 0', () => {
		expect(eventImpactFilters({ eventStatusCode: 0 }, 'UTC')).toEqual({ eventStatusCode: 0 });
	});
});

describe('bad filter values are refused with the field and the value named', () => {
	it.each([
		[{ eventId: 'abc' }, 'Event ID "abc"'],
		[{ eventId: 0 }, 'Event ID "0"'],
		[{ startDate: '2026-02-30' }, 'Start Date "2026-02-30"'],
		[{ startDate: '01/03/2026' }, 'Start Date "01/03/2026"'],
		[{ startDate: '2026-03' }, 'Start Date "2026-03"'],
		[{ lat: '95', lng: '10', proximity: 5 }, 'Latitude "95"'],
		[{ lat: '10', lng: 'east', proximity: 5 }, 'Longitude "east"'],
		[{ lat: '10', lng: '10', proximity: 0 }, 'Proximity (Miles) "0"'],
		[{ horizon: -1 }, 'Horizon "-1"'],
		[{ horizon: 1.5 }, 'Horizon "1.5"'],
		[{ eventStatusCode: 6 }, 'Event Status "6"'],
		[{ city: '  ' }, 'City "  "'],
	])('%p', (filters, named) => {
		expect(() => eventImpactFilters(filters, 'UTC')).toThrow(FieldError);
		expect(() => eventImpactFilters(filters, 'UTC')).toThrow(named);
	});

	it.each([
		[{ lat: '40.7', lng: '-74', proximity: '0x10' }, 'Proximity (Miles) "0x10": must be a number above 0'],
		[{ lat: '40.7', lng: '-74', proximity: '1e3' }, 'Proximity (Miles) "1e3": must be a number above 0'],
		[{ lat: '40.7', lng: '-74', proximity: -5 }, 'Proximity (Miles) "-5": must be a number above 0'],
		[{ lat: '1e1', lng: '-74' }, 'Latitude "1e1": must be a number from -90 to 90'],
		[{ lat: '95', lng: '-74' }, 'Latitude "95": must be a number from -90 to 90'],
		[{ horizon: -1 }, 'Horizon "-1": must be a whole number of 0 or more'],
		[{ horizon: 1.5 }, 'Horizon "1.5": must be a whole number of 0 or more'],
		[{ city: '  ' }, 'City "  ": is required'],
		[{ venue: { name: 'Arena' } }, 'Venue "{"name":"Arena"}": must be text'],
	])('reads %j by the shared rules, in their wording', (filters, message) => {
		expect(() => eventImpactFilters(filters, 'UTC')).toThrow(message);
	});

	it('takes a Proximity in plain decimal notation, as text too', () => {
		expect(eventImpactFilters({ lat: '40.7', lng: '-74', proximity: ' 2.5 ' }, 'UTC').proximity).toBe(2.5);
	});
});

describe('a search area is a point and a radius (spec 4.5: proximity is required with lat and lng)', () => {
	it('sends the documented 25 miles when Latitude and Longitude come without Proximity', () => {
		expect(DEFAULT_PROXIMITY_MILES).toBe(25);
		expect(eventImpactFilters({ lat: '40.7', lng: '-74' }, 'UTC')).toEqual({ lat: '40.7', lng: '-74', proximity: 25 });
	});

	it('sends the Proximity the user gave', () => {
		expect(eventImpactFilters({ lat: '40.7', lng: '-74', proximity: 3 }, 'UTC').proximity).toBe(3);
	});

	it('asks for Longitude when only Latitude is given', () => {
		expect(() => eventImpactFilters({ lat: '40.7', proximity: 10 }, 'UTC')).toThrow(/^Longitude .*is required when Latitude is given/);
	});

	it('asks for Latitude when only Longitude is given', () => {
		expect(() => eventImpactFilters({ lng: '-74', proximity: 10 }, 'UTC')).toThrow(/^Latitude .*is required when Longitude is given/);
	});

	it('asks for coordinates when Proximity is given alone', () => {
		expect(() => eventImpactFilters({ proximity: 10 }, 'UTC')).toThrow(/^Latitude .*required when Proximity is given/);
	});
});
