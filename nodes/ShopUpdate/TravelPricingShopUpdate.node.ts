import {
	NodeConnectionTypes,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
} from 'n8n-workflow';

import { travelPricingNodeType, type NodeTypeDescriptionWithHint } from '../shared/builderHint';
import { ACCESS_TOKEN_CREDENTIAL, ACCESS_TOKEN_CREDENTIAL_DISPLAY_NAME, AIRPORTS_CREDENTIAL, AIRPORTS_CREDENTIAL_DISPLAY_NAME } from '../shared/credentialNames';
import { runInOrder } from '../shared/itemOutcomes';
import { retryPolicyFrom } from '../shared/options';
import { throttleAdvice } from '../shared/throttleAdvice';
import type { RetryPolicy } from '../shared/retry';
import { apiRequest } from '../shared/transport';

import { searchAirportLocations } from './airportLocations';
import { shopUpdateOptionFields, shopUpdateProperties } from './description';
import {
	parseShopUpdate,
	shopUpdateResult,
	type ShopUpdateInput,
	type ShopUpdateRequest,
} from './shopFields';

const THROTTLE_ADVICE = throttleAdvice(shopUpdateOptionFields);

export class TravelPricingShopUpdate implements INodeType {
	description: NodeTypeDescriptionWithHint = {
		displayName: 'Travel Pricing Shop Update',
		name: 'travelPricingShopUpdate',
		icon: { light: 'file:shopUpdate.svg', dark: 'file:shopUpdate.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{"Shop " + $parameter["shopId"]}}',
		description:
			'Change the configuration of an existing shop: markets, websites, country, length of rent, currency, horizon and trip times',
		defaults: { name: 'Shop Update' },
		builderHint: {
			searchHint:
				`Use to change an existing shop of the Travel Pricing service by its Shop ID: markets (pickup and drop locations), websites, country, length of rent, currency, horizon and trip times. It replaces the shop's whole configuration, so set every field. Needs the ${ACCESS_TOKEN_CREDENTIAL_DISPLAY_NAME} credential; the ${AIRPORTS_CREDENTIAL_DISPLAY_NAME} credential only for picking airports from a list.`,
			relatedNodes: [
				{ nodeType: travelPricingNodeType('travelPricingAirports'), relationHint: 'Looks up the airport codes of the markets' },
			],
		},
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: ACCESS_TOKEN_CREDENTIAL, required: true },
			// Only the airport list of Pickup and Drop Location uses it; typed codes need no key.
			{ name: AIRPORTS_CREDENTIAL, required: false },
		],
		properties: shopUpdateProperties,
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
