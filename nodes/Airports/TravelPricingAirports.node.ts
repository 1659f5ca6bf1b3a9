import {
	NodeConnectionTypes,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { listAirports, parseAirportCodes } from '../shared/airports';
import { settleWithConcurrency } from '../shared/concurrency';
import { pairOutcomes } from '../shared/itemOutcomes';
import { itemConcurrency, pagingFrom, pagingOptionFields, returnAllFields } from '../shared/paging';
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
		const itemIndexes = this.getInputData().map((_, itemIndex) => itemIndex);
		// Each item is its own listing; several run at once, as the pages of one listing do.
		const outcomes = await settleWithConcurrency(itemIndexes, itemConcurrency(this), async (itemIndex) => {
			const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
			const codes = parseAirportCodes('Codes', this.getNodeParameter('codes', itemIndex, ''));
			const paging = pagingFrom(
				this.getNodeParameter('returnAll', itemIndex, false),
				this.getNodeParameter('limit', itemIndex, 50),
				options,
			);
			return await listAirports(this, { codes, ...paging, retry: retryPolicyFrom(options), itemIndex });
		});

		return [pairOutcomes(this, outcomes)];
	}
}
