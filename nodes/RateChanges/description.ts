import type { INodeProperties } from 'n8n-workflow';

import { concurrencyOption } from '../shared/options';

import { CHANGES_TABLE_DEFAULT, RATES_TABLE_DEFAULT } from './tables';

const showForDetect = { show: { operation: ['detectChanges'] } };
const showForDigest = { show: { operation: ['digest'] } };

export const DEFAULT_MAX_LISTED = 50;

export const maxListedOption: INodeProperties = {
	displayName: 'Max Changes in Text',
	name: 'maxListed',
	type: 'number',
	typeOptions: { minValue: 1, numberPrecision: 0 },
	default: DEFAULT_MAX_LISTED,
	description:
		'How many changes the text and HTML of one digest list, biggest first; the rest are counted ("and 12 more"). The changes field always holds all of them.',
};

export const rateChangesProperties: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		default: 'detectChanges',
		options: [
			{
				name: 'Detect Changes',
				value: 'detectChanges',
				description: 'Compare each incoming rate record with the last one of its stay, keep it, and put out the changes worth an alert',
				action: 'Detect rate changes',
			},
			{
				name: 'Digest',
				value: 'digest',
				description: 'Sum up every change not reported yet: one item per shop (or hotel) with a ready text and HTML table',
				action: 'Build a digest of rate changes',
			},
		],
	},
	{
		displayName: 'Rate Field',
		name: 'rateField',
		type: 'options',
		default: 'onsiteRate',
		displayOptions: showForDetect,
		options: [
			{ name: 'Onsite Rate', value: 'onsiteRate', description: 'The rate the website shows (onsiteRate)' },
			{ name: 'Net Rate', value: 'netRate', description: 'The rate net of taxes (netRate)' },
		],
		description: 'Which rate of each record to compare. A rate of 0 means sold out.',
	},
	{
		displayName: 'Change At Least (%)',
		name: 'minChangePercent',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 2 },
		default: 0,
		displayOptions: showForDetect,
		description: 'Alert only on moves of at least this percentage of the previous rate. 0 alerts on any move.',
	},
	{
		displayName: 'Change At Least (Amount)',
		name: 'minChangeAmount',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 2 },
		default: 0,
		displayOptions: showForDetect,
		description:
			"Alert only on moves of at least this amount, in the record's currency. 0 alerts on any move. With both set, a move must pass both.",
	},
	{
		displayName: 'Direction',
		name: 'direction',
		type: 'options',
		default: 'either',
		displayOptions: showForDetect,
		options: [
			{ name: 'Up or Down', value: 'either' },
			{ name: 'Up Only', value: 'up' },
			{ name: 'Down Only', value: 'down' },
		],
		description: 'Which moves of a rate alert',
	},
	{
		displayName: 'Include Sold Out and Back On Sale',
		name: 'includeAvailability',
		type: 'boolean',
		default: true,
		displayOptions: showForDetect,
		description: 'Whether a stay newly sold out, or on sale again after being sold out, alerts',
	},
	{
		displayName: 'Include First Seen',
		name: 'includeFirstSeen',
		type: 'boolean',
		default: false,
		displayOptions: showForDetect,
		description:
			'Whether a stay seen for the first time alerts. Off, a first shop fills the rates table quietly instead of alerting on every rate.',
	},
	{
		displayName: 'Group By',
		name: 'groupBy',
		type: 'options',
		default: 'shop',
		displayOptions: showForDigest,
		options: [
			{ name: 'Shop', value: 'shop', description: 'One digest item per rate shop' },
			{ name: 'Hotel', value: 'hotel', description: 'One digest item per hotel' },
		],
		description: 'What one digest item sums up',
	},
	{
		displayName: 'Rates Table',
		name: 'ratesTable',
		type: 'string',
		default: RATES_TABLE_DEFAULT,
		required: true,
		displayOptions: showForDetect,
		description: "The n8n data table that keeps the last rate of every stay. The node creates it when it doesn't exist.",
	},
	{
		displayName: 'Changes Table',
		name: 'changesTable',
		type: 'string',
		default: CHANGES_TABLE_DEFAULT,
		required: true,
		description:
			"The n8n data table where Detect Changes writes every alert and Digest reads them. The node creates it when it doesn't exist.",
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: showForDetect,
		options: [{ ...concurrencyOption, description: 'The most requests to n8n this node has in flight at once' }],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: showForDigest,
		options: [
			maxListedOption,
			{
				displayName: 'Send Again (Digest ID)',
				name: 'resendDigestId',
				type: 'string',
				default: '',
				placeholder: 'e.g. 0b6f3c1e-4d2a-4f7e-9a51-3c8d2e7b9f10',
				description:
					'The digestId of an earlier digest whose message failed: builds that digest again from the changes it reported, and marks nothing new',
			},
		],
	},
];
