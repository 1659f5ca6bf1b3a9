import {
	NodeConnectionTypes,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
} from 'n8n-workflow';

import { travelPricingNodeType, type NodeTypeDescriptionWithHint } from '../shared/builderHint';
import { ACCESS_TOKEN_CREDENTIAL, ACCESS_TOKEN_CREDENTIAL_DISPLAY_NAME } from '../shared/credentialNames';
import { findEvents } from '../shared/events';
import { runListing } from '../shared/paging';
import { isSimplified } from '../shared/simplify';

import { eventImpactProperties } from './description';
import { eventImpactFilters } from './eventFilters';
import { simplifyEvent } from './eventImpact';

export class TravelPricingEventImpact implements INodeType {
	description: NodeTypeDescriptionWithHint = {
		displayName: 'Travel Pricing Event Impact',
		name: 'travelPricingEventImpact',
		icon: { light: 'file:eventImpact.svg', dark: 'file:eventImpact.dark.svg' },
		group: ['input'],
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: '={{$parameter["returnAll"] ? "All matching events" : "Up to " + $parameter["limit"] + " events"}}',
		description: 'Find events and their impact score (0 to 100) by date, place, category, size and status',
		defaults: { name: 'Event Impact' },
		builderHint: {
			searchHint:
				`Use to find events (concerts, conferences, fairs, holidays) from the Travel Pricing service with their impact score on hotel demand (0 to 100), by start date and horizon, city or coordinates and radius, category, expected attendees and status; Return All or a Limit. Needs the ${ACCESS_TOKEN_CREDENTIAL_DISPLAY_NAME} credential. Coordinates often come from Hotel Info; a Filter or Sort on the impact score usually follows; works as an AI Agent tool too.`,
			relatedNodes: [
				{ nodeType: travelPricingNodeType('travelPricingHotelInfo'), relationHint: "The hotel's location to search around" },
				{ nodeType: 'n8n-nodes-base.filter', relationHint: 'Keeps the events at or above an impact score' },
			],
		},
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
