import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { N8N_API_CREDENTIAL } from '../shared/credentialNames';

import { properties, route } from './actions/router';

export class TravelPricingRateChanges implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Travel Pricing Rate Changes',
		name: 'travelPricingRateChanges',
		icon: { light: 'file:rateChanges.svg', dark: 'file:rateChanges.dark.svg' },
		group: ['transform'],
		// 1.1: alerts on moves of 10 % and undercuts of 5 % by default, and Digest previews in test
		// runs and tool calls; workflows saved with 1 keep what they had.
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle:
			'={{ {"detectChanges": "Detect changes", "digest": "Digest", "compareWithMyHotel": "Compare with my hotel", "checkParity": "Check parity"}[$parameter["operation"]] }}',
		description:
			"Alert on what changed since the last rate shop (up, down, sold out, back on sale) and sum it up in one digest per shop, remembered in n8n's Data Tables",
		defaults: { name: 'Rate Changes' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: N8N_API_CREDENTIAL, required: true }],
		properties,
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await route(this);
	}
}
