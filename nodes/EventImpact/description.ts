import type { INodeProperties } from 'n8n-workflow';

import { listingOptionFields, returnAllFields } from '../shared/paging';
import { DEFAULT_PROXIMITY_MILES } from '../shared/events';
import { simplifyField } from '../shared/simplify';

import { EVENT_STATUS_CODES } from './eventFilters';

export const eventImpactProperties: INodeProperties[] = [
	{
		displayName:
			'Each input item runs its own search. Every event found becomes one output item, linked to the item whose filters found it.',
		name: 'notice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		description: 'Only events matching every filter added here are returned',
		options: [
			{
				displayName: 'Address',
				name: 'address',
				type: 'string',
				default: '',
				placeholder: 'e.g. 4 Pennsylvania Plaza',
			},
			{
				displayName: 'Category',
				name: 'category',
				type: 'string',
				default: '',
				placeholder: 'e.g. 1,4,7-9',
				description:
					'Event category codes: one code, a comma-separated list, dash ranges, or a mix such as 1,4,7-9',
			},
			{
				displayName: 'City',
				name: 'city',
				type: 'string',
				default: '',
				placeholder: 'e.g. New York',
			},
			{
				displayName: 'Country',
				name: 'country',
				type: 'string',
				default: '',
				placeholder: 'e.g. United States',
			},
			{
				displayName: 'Estimated Attendees',
				name: 'estimatedAttendee',
				type: 'string',
				default: '',
				placeholder: 'e.g. 1000-5000',
				description:
					'Size of the event, in one of the forms the service takes: a range a-b (1000-5000); &lt;n, which the service calls "minimum value" (&lt;1000); &gt;n, which it calls "maximum value" (&gt;5000); or an exact number n (2500)',
			},
			{
				displayName: 'Event ID',
				name: 'eventId',
				type: 'string',
				default: '',
				placeholder: 'e.g. 3100007',
				description: 'The service\'s ID of one event',
			},
			{
				displayName: 'Event Name',
				name: 'eventName',
				type: 'string',
				default: '',
				placeholder: 'e.g. Marathon',
			},
			{
				displayName: 'Event Status',
				name: 'eventStatusCode',
				type: 'options',
				default: 0,
				description: 'Which events to return by their status',
				options: [...EVENT_STATUS_CODES]
					.sort((a, b) => a.name.localeCompare(b.name))
					.map((status) => ({ name: status.name, value: status.code })),
			},
			{
				displayName: 'Horizon',
				name: 'horizon',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 30,
				description:
					'Sent to the service as a whole number. The service does not document its unit; it is commonly read as days from the start date.',
			},
			{
				displayName: 'Impact Event Type',
				name: 'impactEventType',
				type: 'string',
				default: '',
				placeholder: 'e.g. High Impact',
				description: 'The impact class of the event, as the service names it',
			},
			{
				displayName: 'Latitude',
				name: 'lat',
				type: 'string',
				default: '',
				placeholder: 'e.g. 40.7128',
				description: `Centre of the search area in decimal degrees. Needs Longitude too; the radius is Proximity (Miles), ${DEFAULT_PROXIMITY_MILES} unless added.`,
			},
			{
				displayName: 'Longitude',
				name: 'lng',
				type: 'string',
				default: '',
				placeholder: 'e.g. -74.0060',
				description: `Centre of the search area in decimal degrees. Needs Latitude too; the radius is Proximity (Miles), ${DEFAULT_PROXIMITY_MILES} unless added.`,
			},
			{
				displayName: 'Proximity (Miles)',
				name: 'proximity',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: DEFAULT_PROXIMITY_MILES,
				description: `Radius of the search area around Latitude and Longitude, in miles. Without this filter, ${DEFAULT_PROXIMITY_MILES} miles.`,
			},
			{
				displayName: 'Region',
				name: 'region',
				type: 'string',
				default: '',
				placeholder: 'e.g. North America',
			},
			{
				displayName: 'Start Date',
				name: 'startDate',
				type: 'dateTime',
				default: '',
				description:
					'Events on this day, a day in the workflow\'s timezone. A time without an offset is ignored; a time with one, or {{ $now }}, counts on the day it falls on in that timezone.',
			},
			{
				displayName: 'State',
				name: 'state',
				type: 'string',
				default: '',
				placeholder: 'e.g. NY',
			},
			{
				displayName: 'Subcategory',
				name: 'subCategory',
				type: 'string',
				default: '',
				placeholder: 'e.g. 101,204-205',
				description:
					'Event subcategory codes: one code, a comma-separated list, dash ranges, or a mix such as 101,204-205',
			},
			{
				displayName: 'Venue',
				name: 'venue',
				type: 'string',
				default: '',
				placeholder: 'e.g. Madison Square Garden',
			},
			{
				displayName: 'Zip',
				name: 'zip',
				type: 'string',
				default: '',
				placeholder: 'e.g. 10001',
			},
		],
	},
	...returnAllFields('events'),
	simplifyField(
		'Whether to return each event with the ten fields that say what, when, where, how big and how sure it is (ID, name, category, start and end, city, venue, attendees, impact score, status) instead of all 23 fields the service sends',
	),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: listingOptionFields,
	},
];
