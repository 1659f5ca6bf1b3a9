import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
} from 'n8n-workflow';

import { travelPricingNodeType, type NodeTypeDescriptionWithHint } from '../shared/builderHint';
import { ACCESS_TOKEN_CREDENTIAL_DISPLAY_NAME, AIRPORTS_CREDENTIAL, AIRPORTS_CREDENTIAL_DISPLAY_NAME } from '../shared/credentialNames';
import { listingOptionFields, returnAllFields, runListing } from '../shared/paging';

import { listAirports, parseAirportCodes } from './airports';

export class TravelPricingAirports implements INodeType {
	description: NodeTypeDescriptionWithHint = {
		displayName: 'Travel Pricing Airports',
		name: 'travelPricingAirports',
		icon: { light: 'file:airports.svg', dark: 'file:airports.dark.svg' },
		group: ['input'],
		version: 1,
		subtitle: '={{$parameter["codes"] ? "Airports " + $parameter["codes"] : "All airports"}}',
		description: 'Look up airports by IATA code, or list the whole airport reference',
		defaults: { name: 'Airports' },
		builderHint: {
			searchHint:
				`Use to read the Travel Pricing service's airport reference list (IATA code, name, city), by code or all of it. Needs the ${AIRPORTS_CREDENTIAL_DISPLAY_NAME} credential (Base URL and API Key), not the ${ACCESS_TOKEN_CREDENTIAL_DISPLAY_NAME} one. Its codes are the pickup and drop locations of Shop Update's markets; works as an AI Agent tool too.`,
			relatedNodes: [
				{ nodeType: travelPricingNodeType('travelPricingShopUpdate'), relationHint: "Airport codes are its markets' pickup and drop locations" },
			],
		},
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: AIRPORTS_CREDENTIAL, required: true }],
		properties: [
			{
				displayName: 'Codes',
				name: 'codes',
				type: 'string',
				default: '',
				placeholder: 'e.g. JFK, LHR, CDG',
				description:
					'IATA airport codes (three letters) separated by commas or spaces; lowercase is fine. Leave empty to list every airport.',
			},
			...returnAllFields('airports'),
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: listingOptionFields,
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		// Each item is its own listing; all run at once within the node's Concurrency.
		const output = await runListing(
			this,
			(itemIndex) => parseAirportCodes('Codes', this.getNodeParameter('codes', itemIndex, '')),
			async (codes, settings) => await listAirports(this, codes, settings),
		);
		return [output];
	}
}
