import {
	NodeConnectionTypes,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { ACCESS_TOKEN_CREDENTIAL } from '../shared/credentialNames';
import { runListing } from '../shared/paging';
import { isSimplified } from '../shared/simplify';

import { eventImpactProperties } from './description';
import { eventImpactFilters } from './eventFilters';
import { findEvents, simplifyEvent } from './eventImpact';

export class TravelPricingEventImpact implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Travel Pricing Event Impact',
		name: 'travelPricingEventImpact',
		icon: { light: 'file:eventImpact.svg', dark: 'file:eventImpact.dark.svg' },
		group: ['input'],
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: '={{$parameter["returnAll"] ? "All matching events" : "Up to " + $parameter["limit"] + " events"}}',
		description: 'Find events and their impact score (0 to 100) by date, place, category, size and status',
		defaults: { name: 'Event Impact' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: ACCESS_TOKEN_CREDENTIAL, required: true }],
		properties: eventImpactProperties,
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const zone = this.getTimezone();
		// Each item is its own search; all run at once within the node's Concurrency.
		const output = await runListing(
			this,
			(itemIndex) => ({
				filters: eventImpactFilters(this.getNodeParameter('filters', itemIndex, {}) as IDataObject, zone),
				simplify: isSimplified(this, itemIndex),
			}),
			async ({ filters, simplify }, settings) => {
				const events = await findEvents(this, filters, settings);
				return simplify ? events.map(simplifyEvent) : events;
			},
		);
		return [output];
	}
}
