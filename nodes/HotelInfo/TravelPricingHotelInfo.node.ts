import {
	deepCopy,
	NodeConnectionTypes,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
	type INodeType,
} from 'n8n-workflow';

import { travelPricingNodeType, type NodeTypeDescriptionWithHint } from '../shared/builderHint';
import { ACCESS_TOKEN_CREDENTIAL, ACCESS_TOKEN_CREDENTIAL_DISPLAY_NAME } from '../shared/credentialNames';
import { checkItems, inItemOrder } from '../shared/itemOutcomes';
import { numberOption, optionFields, requestOptionsFrom } from '../shared/options';
import { isSimplified, simplifyField } from '../shared/simplify';
import { throttleAdvice } from '../shared/throttleAdvice';

import { hotelRows, lookUpHotels, parseHotelCode, type HotelQuery } from './hotelInfo';

const batchSizeOption: INodeProperties = {
	displayName: 'Batch Size',
	name: 'batchSize',
	type: 'number',
	typeOptions: { minValue: 1, numberPrecision: 0 },
	default: 50,
	description:
		'How many hotel codes to ask for in one request. 1 sends one request per hotel code. Applies to the whole run: when an expression gives items different values, the smallest holds.',
};

const OPTION_FIELDS: INodeProperties[] = optionFields({ concurrency: true }, [
	batchSizeOption,
	{
		displayName: 'Split Sources',
		name: 'splitSources',
		type: 'boolean',
		default: false,
		description:
			'Whether to output one item per source (website) of the hotel, the hotel\'s fields kept, instead of one item per hotel with a list of sources',
	},
]);
const THROTTLE_ADVICE = throttleAdvice(OPTION_FIELDS);

export class TravelPricingHotelInfo implements INodeType {
	description: NodeTypeDescriptionWithHint = {
		displayName: 'Travel Pricing Hotel Info',
		name: 'travelPricingHotelInfo',
		icon: { light: 'file:hotelInfo.svg', dark: 'file:hotelInfo.dark.svg' },
		group: ['transform'],
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: '={{$parameter["options"]["splitSources"] ? "One item per source" : "One item per hotel"}}',
		description: 'Look up a hotel and the websites (sources) configured for it, by hotel code',
		defaults: { name: 'Hotel Info' },
		builderHint: {
			searchHint:
				`Use to look up hotels of the Travel Pricing (hotel rate shopping) service by hotel code: name, city, country, coordinates, star rating and the websites (sources) their rates are shopped on. Codes from many items go out in batches. Needs the ${ACCESS_TOKEN_CREDENTIAL_DISPLAY_NAME} credential (Base URL and Access Token). Hotel codes usually come from the Rate Record Trigger's records, a Data Table or a sheet; works as an AI Agent tool too.`,
			relatedNodes: [
				{ nodeType: travelPricingNodeType('travelPricingRateTrigger'), relationHint: 'Its rate records carry the hotel codes to look up' },
				{ nodeType: travelPricingNodeType('travelPricingEventImpact'), relationHint: "Events around the hotel's location" },
			],
		},
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: ACCESS_TOKEN_CREDENTIAL, required: true }],
		properties: [
			{
				displayName: 'Hotel Code',
				name: 'hotelCode',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'e.g. 100001',
				description:
					'The code of the hotel to look up, as the service\'s hotel search returns it. Usually mapped from a field of the input items by dragging it here.',
				hint: 'Codes from many input items are sent together; each hotel comes back to the item that asked for it',
			},
			simplifyField(
				'Whether to return the hotel with its code, name, city, country, stars, coordinates and sources (each with its website code, name and channel type) instead of every field the service sends',
			),
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

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		// Every item's code is checked before the first request.
		const queries = checkItems(this, (itemIndex) => hotelQueryFor(this, itemIndex));
		const hotelOf = await lookUpHotels(this, queries, THROTTLE_ADVICE);
		// Items asking for the same code get copies, so changing one downstream leaves the others.
		const output = await inItemOrder(this, queries, (query, itemIndex) =>
			hotelRows(deepCopy(hotelOf(query.code, itemIndex)), query),
		);
		return [output];
	}
}

function hotelQueryFor(context: IExecuteFunctions, itemIndex: number): HotelQuery {
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return {
		code: parseHotelCode(context.getNodeParameter('hotelCode', itemIndex)),
		batchSize: numberOption(options, batchSizeOption),
		...requestOptionsFrom(options),
		splitSources: context.getNodeParameter('options.splitSources', itemIndex, false) as boolean,
		simplify: isSimplified(context, itemIndex),
	};
}
