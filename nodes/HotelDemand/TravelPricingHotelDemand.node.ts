import {
	NodeConnectionTypes,
	type IDataObject,
	type IExecuteFunctions,
	type INode,
	type INodeExecutionData,
	type INodeType,
} from 'n8n-workflow';

import { travelPricingNodeType, type NodeTypeDescriptionWithHint } from '../shared/builderHint';
import { ACCESS_TOKEN_CREDENTIAL, ACCESS_TOKEN_CREDENTIAL_DISPLAY_NAME } from '../shared/credentialNames';
import { dayRange, shapeDemand, type DateOrderChoice, type DayRange, type DemandOutput, type HotelDemandResponse } from '../shared/demand';
import { asItemError, FieldError, invalidInputError } from '../shared/errors';
import { optionalCalendarDay, parsePositiveInteger } from '../shared/fields';
import { runPerItem } from '../shared/itemOutcomes';
import { optionFields, requestOptionsFrom } from '../shared/options';
import { throttleAdvice } from '../shared/throttleAdvice';
import { apiRequest } from '../shared/transport';

const THROTTLE_ADVICE = throttleAdvice(optionFields({ concurrency: true }));

export class TravelPricingHotelDemand implements INodeType {
	description: NodeTypeDescriptionWithHint = {
		displayName: 'Travel Pricing Hotel Demand',
		name: 'travelPricingHotelDemand',
		icon: { light: 'file:hotelDemand.svg', dark: 'file:hotelDemand.dark.svg' },
		group: ['input'],
		version: 1,
		subtitle: '={{"Demand " + $parameter["demandId"]}}',
		description: 'Get the result of a hotel demand shop: demand per hotel and date, and the events behind it',
		defaults: { name: 'Hotel Demand' },
		builderHint: {
			searchHint:
				`Use to read a hotel demand shop's result from the Travel Pricing service by its Demand ID: one row per hotel and date (demand value, events registered, relative value), or per hotel, the event records, or raw. Needs the ${ACCESS_TOKEN_CREDENTIAL_DISPLAY_NAME} credential. The rows go to a Data Table, a sheet or a chart as they are; works as an AI Agent tool too.`,
			relatedNodes: [
				{ nodeType: travelPricingNodeType('travelPricingEventImpact'), relationHint: "The events and impact scores behind a day's demand" },
				{ nodeType: 'n8n-nodes-base.dataTable', relationHint: 'Keeps the demand rows' },
			],
		},
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: ACCESS_TOKEN_CREDENTIAL, required: true }],
		properties: [
			{
				displayName: 'Demand ID',
				name: 'demandId',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'e.g. 1001',
				description: 'The ID of the hotel demand shop whose result to get',
			},
			{
				displayName: 'Output',
				name: 'output',
				type: 'options',
				default: 'hotelDays',
				options: [
					{
						name: 'Event Records',
						value: 'eventRecords',
						description: 'One item per event behind the demand, its date as YYYY-MM-DD',
					},
					{
						name: 'Per Hotel',
						value: 'hotels',
						description:
							'One item per hotel, with absoluteValue, eventsRegistered and relativeValue each keyed by date (YYYY-MM-DD)',
					},
					{
						name: 'Per Hotel and Date',
						value: 'hotelDays',
						description:
							'One item per hotel and date with hotelCode, hotelName, date, absoluteValue, eventsRegistered and relativeValue: ready for a sheet, a chart or a table',
					},
					{
						name: 'Raw',
						value: 'raw',
						description: 'The response exactly as the service sent it, as one item',
					},
				],
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: optionFields({ concurrency: true }, [
					{
						displayName: 'Date Order',
						name: 'dateOrder',
						type: 'options',
						default: 'auto',
						description:
							'The service writes dates as nn/nn/yyyy without saying which part is the day. Auto reads it from the data and stops with an error if the data cannot tell.',
						displayOptions: { hide: { '/output': ['raw'] } },
						options: [
							{
								name: 'Auto',
								value: 'auto',
								description: 'Decide from the whole response: a part above 12 is a day, and consecutive dates must stay consecutive',
							},
							{ name: 'Day First (DD/MM/YYYY)', value: 'dayFirst' },
							{ name: 'Month First (MM/DD/YYYY)', value: 'monthFirst' },
						],
					},
					{
						displayName: 'From Date',
						name: 'fromDate',
						type: 'dateTime',
						default: '',
						description: 'Keep only dates on or after this day (a day in the workflow\'s timezone)',
						displayOptions: { hide: { '/output': ['raw'] } },
					},
					{
						displayName: 'To Date',
						name: 'toDate',
						type: 'dateTime',
						default: '',
						description: 'Keep only dates on or before this day (a day in the workflow\'s timezone)',
						displayOptions: { hide: { '/output': ['raw'] } },
					},
				]),
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const zone = this.getTimezone();
		// Each item is its own demand shop; all are fetched at once within the node's Concurrency.
		const output = await runPerItem(
			this,
			(itemIndex) => {
				const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
				return {
					demandId: parsePositiveInteger('Demand ID', this.getNodeParameter('demandId', itemIndex)),
					shape: this.getNodeParameter('output', itemIndex, 'hotelDays') as DemandOutput,
					range: dayRange(
						optionalCalendarDay('From Date', options.fromDate, zone),
						optionalCalendarDay('To Date', options.toDate, zone),
					),
					dateOrder: (options.dateOrder ?? 'auto') as DateOrderChoice,
					...requestOptionsFrom(options),
				};
			},
			async ({ demandId, shape, range, dateOrder, retry }, limiter, itemIndex) => {
				const response = await apiRequest.call(this, 'GET', `/hoteldemanddata/${demandId}`, {
					idempotent: true,
					retry,
					limiter,
					throttleAdvice: THROTTLE_ADVICE,
					resource: `demand shop ${demandId}`,
					itemIndex,
				}) as HotelDemandResponse;
				return shapeResponse(this.getNode(), response, shape, dateOrder, range, itemIndex);
			},
		);
		return [output];
	}
}

/**
 * Shapes the answer; a date order that does not fit it is the user's to settle, but unlike other
 * input errors it is found after the request, so the description must not say nothing was sent.
 */
function shapeResponse(
	node: INode,
	response: HotelDemandResponse,
	shape: DemandOutput,
	dateOrder: DateOrderChoice,
	range: DayRange,
	itemIndex: number,
): object[] {
	try {
		return shapeDemand(response, shape, dateOrder, range);
	} catch (error) {
		if (!(error instanceof FieldError)) throw asItemError(node, error, itemIndex);
		throw invalidInputError(
			node,
			error,
			itemIndex,
			'The service answered, but its nn/nn/yyyy dates cannot be read in this order. Set Options > Date Order to Day First or Month First (the Raw output shows the dates as sent).',
		);
	}
}
