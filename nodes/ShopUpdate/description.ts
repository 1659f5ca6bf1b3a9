import type { INodeProperties } from 'n8n-workflow';

import { WEEKDAY_OPTIONS } from '../shared/fields';
import { optionFields } from '../shared/options';

/** Shop Update has the retry options only: it sends one request per item, one item at a time. */
export const shopUpdateOptionFields: INodeProperties[] = optionFields({});

function locationField(displayName: string, name: string, description: string): INodeProperties {
	return {
		displayName,
		name,
		type: 'resourceLocator',
		default: { mode: 'id', value: '' },
		required: true,
		description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select an airport...',
				typeOptions: { searchListMethod: 'searchAirportLocations', searchable: true },
			},
			{
				displayName: 'By Code',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. JFK',
			},
		],
	};
}

export const shopUpdateProperties: INodeProperties[] = [
	{
		displayName: 'Shop ID',
		name: 'shopId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 42',
		description: 'The ID of the shop to change. The whole configuration below replaces the shop\'s current one.',
	},
	{
		displayName: 'Shop Name',
		name: 'shopName',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. JFK weekly economy',
		description: 'A name of your choice for the shop',
	},
	{
		displayName: 'Markets',
		name: 'markets',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		required: true,
		placeholder: 'Add Market',
		description: 'The pickup and drop locations to shop, at least one pair',
		options: [
			{
				displayName: 'Market',
				name: 'market',
				values: [
					locationField(
						'Pickup Location',
						'pickupLocation',
						'Where the trip starts. Pick an airport from the list (needs the airports credential) or type a location code.',
					),
					locationField(
						'Drop Location',
						'dropLocation',
						'Where the trip ends. Pick an airport from the list (needs the airports credential) or type a location code.',
					),
				],
			},
		],
	},
	{
		displayName: 'Website Codes',
		name: 'websiteCodes',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 1,2,3',
		description:
			'The codes of the websites to shop, separated by commas, or a list from an expression such as {{ [1, 2, 3] }}',
	},
	{
		displayName: 'Country of Service',
		name: 'countryOfService',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. US',
		description: 'The country whose point of sale the shop uses',
	},
	{
		displayName: 'Length of Rent',
		name: 'lengthOfRent',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: 1,
		required: true,
		description: 'How many days the rental lasts',
	},
	{
		displayName: 'Currency',
		name: 'currency',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. USD',
		description: 'Three-letter currency code of the prices (lowercase is accepted and sent in capitals)',
	},
	{
		displayName: 'Horizon (Days)',
		name: 'horizon',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: 30,
		required: true,
		description: 'How many days ahead the shop collects prices',
	},
	{
		displayName: 'Horizon Days of Week',
		name: 'horizonDaysOfWeek',
		type: 'multiOptions',
		options: WEEKDAY_OPTIONS,
		default: [],
		description:
			'Only shop these days of the week within the horizon. Leave empty to leave the choice to the service. Sent as 1 (Monday) to 6 (Saturday) and 0 (Sunday).',
	},
	{
		displayName: 'Pickup Time',
		name: 'pickupTime',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 10:00',
		description: 'Time of day the car is picked up, as HH:MM on a 24-hour clock',
	},
	{
		displayName: 'Drop Time',
		name: 'dropTime',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 10:00',
		description: 'Time of day the car is returned, as HH:MM on a 24-hour clock',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: shopUpdateOptionFields,
	},
];
