import {
	NodeConnectionTypes,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { listAirports, parseAirportCodes } from '../shared/airports';
import { asItemError } from '../shared/errors';
import { pagingFrom, pagingOptionFields, returnAllFields } from '../shared/paging';
import { retryOptionFields, retryPolicyFrom } from '../shared/properties';

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
		credentials: [{ name: 'travelPricingAirportsApi', required: true }],
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
				options: [...pagingOptionFields, ...retryOptionFields].sort((a, b) =>
					a.displayName.localeCompare(b.displayName),
				),
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const output: INodeExecutionData[] = [];

		for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
			try {
				const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
				const codes = parseAirportCodes('Codes', this.getNodeParameter('codes', itemIndex, ''));
				const paging = pagingFrom(
					this.getNodeParameter('returnAll', itemIndex, false),
					this.getNodeParameter('limit', itemIndex, 50),
					options,
				);

				const airports = await listAirports(this, {
					codes,
					...paging,
					retry: retryPolicyFrom(options),
					itemIndex,
				});

				for (const airport of airports) {
					output.push({ json: airport as unknown as IDataObject, pairedItem: { item: itemIndex } });
				}
			} catch (error) {
				const itemError = asItemError(this.getNode(), error, itemIndex);
				if (!this.continueOnFail()) throw itemError;
				output.push({ json: { error: itemError.message }, pairedItem: { item: itemIndex } });
			}
		}

		return [output];
	}
}
