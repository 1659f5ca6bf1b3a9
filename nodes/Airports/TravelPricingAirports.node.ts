import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { AIRPORTS_CREDENTIAL } from '../shared/credentialNames';
import { listingOptionFields, returnAllFields, runListing } from '../shared/paging';

import { listAirports, parseAirportCodes } from './airports';

export class TravelPricingAirports implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Travel Pricing Airports',
		name: 'travelPricingAirports',
		icon: { light: 'file:airports.svg', dark: 'file:airports.dark.svg' },
		group: ['input'],
		version: 1,
		subtitle: '={{$parameter["codes"] ? "Airports " + $parameter["codes"] : "All airports"}}',
		description: 'Look up airports by IATA code, or list the whole airport reference',
		defaults: { name: 'Airports' },
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
