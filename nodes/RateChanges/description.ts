import type { INodeProperties } from 'n8n-workflow';

import { concurrencyModeOption, concurrencyOption } from '../shared/options';

import { CHANGES_TABLE_DEFAULT, POSITIONS_TABLE_DEFAULT, RATES_TABLE_DEFAULT } from './tables';

const showForDetect = { show: { operation: ['detectChanges'] } };
const showForDigest = { show: { operation: ['digest'] } };
const showForCompare = { show: { operation: ['compareWithMyHotel'] } };
const showForParity = { show: { operation: ['checkParity'] } };
/** The operations that read incoming rate records. */
const showForRecords = { show: { operation: ['detectChanges', 'compareWithMyHotel', 'checkParity'] } };

export const DEFAULT_MAX_LISTED = 50;

/**
 * Rate Changes' Concurrency: its requests go to n8n's own API, in the n8n that runs the executions,
 * so its ceiling stays at 10 (benchmark 7's setting), where the service's nodes may go up to 50.
 */
export const rateChangesConcurrencyOption: INodeProperties = {
	...concurrencyOption,
	default: 10,
	description: 'The most requests to n8n this node has in flight at once (with Concurrency Mode "Adaptive", the ceiling it grows toward)',
};

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
				name: 'Check Parity',
				value: 'checkParity',
				description:
					"Compare a hotel's total for the same stay and room across websites against a reference website: win, meet or loss, with the severity of each loss",
				action: 'Check rate parity',
			},
			{
				name: 'Compare With My Hotel',
				value: 'compareWithMyHotel',
				description:
					"Where your hotel's rate stands among the other hotels for each stay-night of the incoming records: rank, lowest, median, highest, cheapest competitor",
				action: 'Compare with my hotel',
			},
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
		displayOptions: { show: { operation: ['detectChanges', 'compareWithMyHotel'] } },
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
		displayName: 'My Hotel Code',
		name: 'myHotelCode',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 100085',
		displayOptions: showForCompare,
		description: 'Your hotel; every other hotel shopped for the same stay-night is its comp set',
	},
	{
		displayName: 'Compare On',
		name: 'compareOn',
		type: 'options',
		default: 'sameWebsite',
		displayOptions: showForCompare,
		options: [
			{ name: 'Same Website', value: 'sameWebsite', description: 'Hotels compared on the website of the incoming record' },
			{ name: 'All Websites', value: 'allWebsites', description: "Each hotel's cheapest rate on any website" },
		],
		description: "Each hotel's rate is its cheapest room on sale for the stay-night",
	},
	{
		displayName: 'Alert On',
		name: 'compareAlertOn',
		type: 'options',
		default: 'undercut',
		displayOptions: showForCompare,
		options: [
			{ name: 'Undercut', value: 'undercut', description: 'A competitor sells below your rate' },
			{ name: 'Rank Changed', value: 'rankChanged', description: 'Your rank differs from the last shop of the stay-night' },
			{ name: 'Always (Position Feed)', value: 'always', description: 'Every stay-night where your hotel was shopped' },
		],
		description: 'Which stay-nights come out',
	},
	{
		displayName: 'Undercut At Least (%)',
		name: 'undercutPercent',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 2 },
		default: 0,
		displayOptions: { show: { operation: ['compareWithMyHotel'], compareAlertOn: ['undercut'] } },
		description: 'How far below your rate, as a percentage of it, the cheapest competitor must be. 0: any amount below.',
	},
	{
		displayName: 'Undercut At Least (Amount)',
		name: 'undercutAmount',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 2 },
		default: 0,
		displayOptions: { show: { operation: ['compareWithMyHotel'], compareAlertOn: ['undercut'] } },
		description: "How far below your rate, in your rate's currency, the cheapest competitor must be. With both set, both must hold.",
	},
	{
		displayName: 'Hotel Code',
		name: 'parityHotelCode',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 100085',
		displayOptions: showForParity,
		description: 'The hotel whose parity to check, usually yours. Records of other hotels are passed over.',
	},
	{
		displayName: 'Reference',
		name: 'reference',
		type: 'options',
		default: 'website',
		displayOptions: showForParity,
		options: [
			{ name: 'A Website', value: 'website', description: "The hotel's own site, or the website every other must not undercut" },
			{ name: 'The Lowest Website', value: 'lowest', description: 'The cheapest website of the stay; the others win or meet against it' },
		],
		description: 'What every website is held against',
	},
	{
		displayName: 'Reference Website Code',
		name: 'referenceWebsiteCode',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 1',
		displayOptions: { show: { operation: ['checkParity'], reference: ['website'] } },
		description: "The website code of the reference, for example the hotel's own site",
	},
	{
		displayName: 'Tolerance (%)',
		name: 'tolerancePercent',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 2 },
		default: 1,
		displayOptions: showForParity,
		description: 'A total within this percentage of the reference meets it. With an amount too, being within either meets.',
	},
	{
		displayName: 'Tolerance (Amount)',
		name: 'toleranceAmount',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 2 },
		default: 0,
		displayOptions: showForParity,
		description: "A total within this amount of the reference, in the reference's currency, meets it",
	},
	{
		displayName: 'Alert On',
		name: 'parityAlertOn',
		type: 'options',
		default: 'losses',
		displayOptions: showForParity,
		options: [
			{ name: 'Losses', value: 'losses', description: 'Stays where a website sells below the reference by more than the tolerance' },
			{
				name: 'Every Change of State',
				value: 'stateChanges',
				description: "Stays where a website's state (win, meet, loss) differs from the last shop; the first time, stays with a loss",
			},
		],
		description: 'Which stays come out',
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
			{ name: 'Hotel and Day', value: 'hotelDay', description: 'One digest item per hotel and check-in day' },
		],
		description: 'What one digest item sums up',
	},
	{
		displayName: 'Rates Table',
		name: 'ratesTable',
		type: 'string',
		default: RATES_TABLE_DEFAULT,
		required: true,
		displayOptions: showForRecords,
		description: "The n8n data table that keeps the last rate of every stay (Detect Changes writes it). The node creates it when it doesn't exist.",
	},
	{
		displayName: 'Changes Table',
		name: 'changesTable',
		type: 'string',
		default: CHANGES_TABLE_DEFAULT,
		required: true,
		description:
			"The n8n data table where every alert is written and Digest reads them. The node creates it when it doesn't exist.",
	},
	{
		displayName: 'Positions Table',
		name: 'positionsTable',
		type: 'string',
		default: POSITIONS_TABLE_DEFAULT,
		required: true,
		displayOptions: { show: { operation: ['compareWithMyHotel', 'checkParity'] } },
		description: "The n8n data table that remembers each stay-night's rank and each stay's parity states between shops. The node creates it when it doesn't exist.",
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: showForRecords,
		options: [
			rateChangesConcurrencyOption,
			concurrencyModeOption,
		],
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
