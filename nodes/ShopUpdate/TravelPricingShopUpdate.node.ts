import {
	NodeConnectionTypes,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { ACCESS_TOKEN_CREDENTIAL, AIRPORTS_CREDENTIAL } from '../shared/credentialNames';
import { WEEKDAY_OPTIONS } from '../shared/fields';
import { runInOrder } from '../shared/itemOutcomes';
import { optionFields, retryPolicyFrom } from '../shared/options';
import { throttleAdvice } from '../shared/throttleAdvice';
import type { RetryPolicy } from '../shared/retry';
import { apiRequest } from '../shared/transport';

import { searchAirportLocations } from './airportLocations';
import {
	parseShopUpdate,
	shopUpdateResult,
	type ShopUpdateInput,
	type ShopUpdateRequest,
} from './shopFields';

const OPTION_FIELDS = optionFields({});
const THROTTLE_ADVICE = throttleAdvice(OPTION_FIELDS);

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

export class TravelPricingShopUpdate implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Travel Pricing Shop Update',
		name: 'travelPricingShopUpdate',
		icon: { light: 'file:shopUpdate.svg', dark: 'file:shopUpdate.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{"Shop " + $parameter["shopId"]}}',
		description:
			'Change the configuration of an existing shop: markets, websites, country, length of rent, currency, horizon and trip times',
		defaults: { name: 'Shop Update' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: ACCESS_TOKEN_CREDENTIAL, required: true },
			// Only the airport list of Pickup and Drop Location uses it; typed codes need no key.
			{ name: AIRPORTS_CREDENTIAL, required: false },
		],
		properties: [
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
				options: OPTION_FIELDS,
			},
		],
	};

	methods = {
		listSearch: { searchAirportLocations },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		// Every item is checked before the first shop is changed, so a bad item stops the run
		// (without "Continue") with nothing half done. Then one shop at a time, in item order: two
		// items for the same shop end with the later one.
		const output = await runInOrder(
			this,
			(itemIndex) => shopUpdateRequestFor(this, itemIndex),
			async (request, itemIndex) => {
				const response = await apiRequest.call(this, 'PUT', `/shops/${request.shopId}`, {
					body: request.body as unknown as IDataObject,
					retry: request.retry,
					throttleAdvice: THROTTLE_ADVICE,
					// The body replaces the shop's configuration, so repeating it after a 500 is harmless.
					idempotent: true,
					resource: `shop ${request.shopId}`,
					itemIndex,
				});
				return [shopUpdateResult(request.shopId, response)];
			},
		);
		return [output];
	}
}

function shopUpdateRequestFor(context: IExecuteFunctions, itemIndex: number): ShopUpdateRequest & { retry: RetryPolicy } {
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return { ...parseShopUpdate(readShopInput(context, itemIndex)), retry: retryPolicyFrom(options) };
}

function readShopInput(context: IExecuteFunctions, itemIndex: number): ShopUpdateInput {
	const parameter = (name: string, fallback?: unknown) => context.getNodeParameter(name, itemIndex, fallback);
	return {
		shopId: parameter('shopId'),
		shopName: parameter('shopName'),
		markets: parameter('markets', {}),
		websiteCodes: parameter('websiteCodes'),
		countryOfService: parameter('countryOfService'),
		lengthOfRent: parameter('lengthOfRent'),
		currency: parameter('currency'),
		horizon: parameter('horizon'),
		horizonDaysOfWeek: parameter('horizonDaysOfWeek', []),
		pickupTime: parameter('pickupTime'),
		dropTime: parameter('dropTime'),
	};
}
