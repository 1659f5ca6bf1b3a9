import {
	deepCopy,
	NodeConnectionTypes,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INode,
	type INodeExecutionData,
	type INodeProperties,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { ACCESS_TOKEN_CREDENTIAL } from '../shared/credentialNames';
import { asItemError } from '../shared/errors';
import { failedItem } from '../shared/itemOutcomes';
import { numberOption, optionFields, requestLimiter, requestOptionsFrom, throttleAdvice } from '../shared/options';
import type { RetryPolicy } from '../shared/retry';
import { apiRequest } from '../shared/transport';

import {
	hotelInfoRequestBody,
	hotelsFromResponse,
	indexHotelsByCode,
	parseHotelCode,
	planHotelBatches,
	splitHotelSources,
	UnexpectedHotelInfoResponse,
	type HotelRecord,
} from './hotelInfo';

/** What one batch request brought back: the hotels found, or why the batch failed. */
type BatchOutcome = { hotels: Map<number, HotelRecord> } | { error: Error };

/** One item's request, read and checked. */
interface HotelQuery {
	code: number;
	batchSize: number;
	concurrency: number;
	retry: RetryPolicy;
}

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
	description: INodeTypeDescription = {
		displayName: 'Travel Pricing Hotel Info',
		name: 'travelPricingHotelInfo',
		icon: { light: 'file:hotelInfo.svg', dark: 'file:hotelInfo.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["options"]["splitSources"] ? "One item per source" : "One item per hotel"}}',
		description: 'Look up a hotel and the websites (sources) configured for it, by hotel code',
		defaults: { name: 'Hotel Info' },
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
		const items = this.getInputData();
		const node = this.getNode();

		// Each item's hotel code and options, or why it cannot be sent; checked for all items before
		// any request.
		const queries: Array<HotelQuery | INodeExecutionData> = [];
		for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
			try {
				const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
				queries.push({
					code: parseHotelCode(this.getNodeParameter('hotelCode', itemIndex)),
					batchSize: numberOption(options, batchSizeOption),
					...requestOptionsFrom(options),
				});
			} catch (error) {
				queries.push(failedItem(this, error, itemIndex));
			}
		}

		// The batches are one plan for the whole run, so Batch Size, like Concurrency, is the run's.
		const valid = queries.filter((query): query is HotelQuery => !('json' in query));
		const batchSize = valid.reduce((smallest, query) => Math.min(smallest, query.batchSize), Infinity);
		const batches = planHotelBatches(valid.map((query) => query.code), batchSize);
		const askedCodes = queries.map((query) => ('json' in query ? query : query.code));
		const limiter = requestLimiter(valid.map((query) => query.concurrency));
		// A failed batch fails only the items that asked for its codes, so failures are kept, not thrown.
		const outcomes = await Promise.all(
			batches.map(async (batch): Promise<BatchOutcome> => {
				// The batch is sent with the options of the first item that asked for its first code.
				const itemIndex = askedCodes.indexOf(batch[0]);
				try {
					const response = await apiRequest.call(this, 'POST', '/hotelinfo', {
						body: hotelInfoRequestBody(batch, batchSize),
						retry: (queries[itemIndex] as HotelQuery).retry,
						limiter,
						throttleAdvice: THROTTLE_ADVICE,
						idempotent: true,
						itemIndex,
					});
					return { hotels: indexHotelsByCode(hotelsFromResponse(response)) };
				} catch (error) {
					return { error: asBatchError(node, error, itemIndex) };
				}
			}),
		);
		const outcomeOfCode = new Map<number, BatchOutcome>();
		batches.forEach((batch, index) => batch.forEach((code) => outcomeOfCode.set(code, outcomes[index])));

		const returnData: INodeExecutionData[] = [];
		askedCodes.forEach((asked, itemIndex) => {
			const pairedItem = { item: itemIndex };
			if (typeof asked !== 'number') {
				returnData.push(asked);
				return;
			}
			const answer = hotelOrError(node, outcomeOfCode.get(asked), asked, itemIndex);
			if (answer instanceof Error) {
				returnData.push(failedItem(this, answer, itemIndex));
				return;
			}
			const splitSources = this.getNodeParameter('options.splitSources', itemIndex, false) as boolean;
			// Items asking for the same code get copies, so changing one downstream leaves the others.
			const rows: IDataObject[] = splitSources ? splitHotelSources(deepCopy(answer)) : [deepCopy(answer)];
			for (const json of rows) returnData.push({ json, pairedItem });
		});
		return [returnData];
	}
}

/** Each asking item gets the hotel of its code, its batch's failure, or "not found". */
function hotelOrError(
	node: INode,
	outcome: BatchOutcome | undefined,
	code: number,
	itemIndex: number,
): HotelRecord | Error {
	if (outcome && 'error' in outcome) return outcome.error;
	return outcome?.hotels.get(code) ?? hotelNotFound(node, code, itemIndex);
}

function hotelNotFound(node: INode, code: number, itemIndex: number): NodeOperationError {
	return new NodeOperationError(node, `Hotel code ${code} was not found`, {
		itemIndex,
		description:
			'The service returned no hotel for this code. Check the code: hotel codes come from the service\'s hotel search.',
	});
}

/** Service errors already carry their item; an answer the node cannot read gets one here. */
function asBatchError(node: INode, error: unknown, itemIndex: number | undefined): Error {
	if (error instanceof UnexpectedHotelInfoResponse) {
		return new NodeOperationError(node, error.message, {
			itemIndex,
			description: 'Expected a hotel, a list of hotels or an object holding a list of hotels.',
		});
	}
	return asItemError(node, error, itemIndex ?? 0);
}
