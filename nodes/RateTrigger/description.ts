import type { INodeProperties } from 'n8n-workflow';

import { optionFields } from '../shared/options';

const automatic = { registration: ['automatic'] };
const manual = { registration: ['manual'] };

const registration: INodeProperties = {
	displayName: 'Registration',
	name: 'registration',
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'Automatic',
			value: 'automatic',
			description:
				'Register this node\'s URL with the service when the workflow is activated, and its test URL while it listens for a test event',
		},
		{
			name: 'Manual (Register It Myself)',
			value: 'manual',
			description: 'Register the URL with the service yourself, for example for an account this n8n cannot reach',
		},
	],
	default: 'automatic',
	description: 'How the service learns where to post rate records',
};

const automaticNotice: INodeProperties = {
	displayName:
		'Listening for a test event registers the test URL with the service as well. If production deliveries stop after testing, deactivate and activate the workflow: that registers the production URL again.',
	name: 'automaticNotice',
	type: 'notice',
	default: '',
	displayOptions: { show: automatic },
};

// The two "Authentication" fields share a name: a generated secret needs the node to register
// itself, so Manual registration offers only the secrets a person can copy.
const authenticationAutomatic: INodeProperties = {
	displayName: 'Authentication',
	name: 'authentication',
	type: 'options',
	noDataExpression: true,
	options: [
		{ name: 'Basic Auth', value: 'basic', description: 'A user name and password you choose' },
		{ name: 'Bearer Token', value: 'bearer', description: 'A token you choose, sent as "Authorization: Bearer"' },
		{
			name: 'Generated Secret',
			value: 'generatedSecret',
			description: 'A bearer secret the node derives from the credential and registers with the service',
		},
		{ name: 'Header Auth', value: 'header', description: 'An API key you choose, sent in a header you name' },
		{ name: 'None', value: 'none', description: 'Accept deliveries without any proof of origin' },
	],
	default: 'generatedSecret',
	description: 'What each delivery must carry to start the workflow; others are answered 401',
	displayOptions: { show: automatic },
};

const authenticationManual: INodeProperties = {
	...authenticationAutomatic,
	options: (authenticationAutomatic.options ?? []).filter(
		(option) => 'value' in option && option.value !== 'generatedSecret',
	),
	default: 'bearer',
	displayOptions: { show: manual },
};

const basicAuth: INodeProperties[] = [
	{
		displayName: 'User Name',
		name: 'userName',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. rate-feed',
		description: 'The user name the service sends with each delivery (no colon)',
		displayOptions: { show: { authentication: ['basic'] } },
	},
	{
		displayName: 'Password',
		name: 'password',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		required: true,
		description: 'The password the service sends with each delivery',
		displayOptions: { show: { authentication: ['basic'] } },
	},
];

const bearerAuth: INodeProperties = {
	displayName: 'Token',
	name: 'token',
	type: 'string',
	typeOptions: { password: true },
	default: '',
	required: true,
	description: 'The token the service sends as "Authorization: Bearer &lt;token&gt;". Use a long random value.',
	displayOptions: { show: { authentication: ['bearer'] } },
};

const headerAuth: INodeProperties[] = [
	{
		displayName: 'Header Name',
		name: 'headerName',
		type: 'string',
		default: 'X-API-Key',
		required: true,
		placeholder: 'e.g. X-API-Key',
		description: 'The header that carries the key on each delivery',
		displayOptions: { show: { authentication: ['header'] } },
	},
	{
		displayName: 'Header Value',
		name: 'token',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		required: true,
		description: 'The key the service sends in that header. Use a long random value.',
		displayOptions: { show: { authentication: ['header'] } },
	},
];

const noneWarning: INodeProperties = {
	displayName:
		'Anyone who learns this URL can start the workflow with made-up rate records. Choose None only behind a network that lets nothing else reach n8n.',
	name: 'noneWarning',
	type: 'notice',
	default: '',
	displayOptions: { show: { authentication: ['none'] } },
};

function manualNotice(authType: string, fields: string): INodeProperties {
	return {
		displayName: `Register this node yourself with POST /webhook: "endpoint" is the Production URL shown under "Webhook URLs" at the top of this panel, "authType" is "${authType}"${fields}. Register the Test URL instead while you listen for a test event.`,
		name: `manualNotice${authType}`,
		type: 'notice',
		default: '',
		displayOptions: { show: { ...manual, authentication: [authType] } },
	};
}

const manualNotices: INodeProperties[] = [
	manualNotice('basic', ', "userName" and "password" are the values below'),
	manualNotice('bearer', ', "token" is the token below'),
	manualNotice('header', ', "headerName" and "token" are the header name and value below'),
	manualNotice('none', ''),
];

const filters: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	description: 'Only records that match every filter start the workflow; the others cost no execution',
	options: [
		{
			displayName: 'Currencies',
			name: 'currencies',
			type: 'string',
			default: '',
			placeholder: 'e.g. EUR, USD',
			description: 'Currency codes, separated by commas',
		},
		{
			displayName: 'Hotel Codes',
			name: 'hotelCodes',
			type: 'string',
			default: '',
			placeholder: 'e.g. 100001, 100002',
			description: 'Hotel codes, separated by commas',
		},
		{
			displayName: 'Lowest Available Rate Only',
			name: 'larOnly',
			type: 'boolean',
			default: true,
			description: 'Whether to keep only records flagged as the lowest available rate (isLAR)',
		},
		{
			displayName: 'Onsite Rate At Least',
			name: 'minOnsiteRate',
			type: 'string',
			default: '',
			placeholder: 'e.g. 100',
			description: 'Keep records whose onsite rate is this amount or more. Empty: no lower bound.',
		},
		{
			displayName: 'Onsite Rate At Most',
			name: 'maxOnsiteRate',
			type: 'string',
			default: '',
			placeholder: 'e.g. 250',
			description: 'Keep records whose onsite rate is this amount or less. Empty: no upper bound.',
		},
		{
			displayName: 'Status Codes',
			name: 'statusCodes',
			type: 'string',
			default: '',
			placeholder: 'e.g. 200',
			description: 'Values of the record\'s statusCode, separated by commas',
		},
		{
			displayName: 'Website Codes',
			name: 'websiteCodes',
			type: 'string',
			default: '',
			placeholder: 'e.g. 1, 2',
			description: 'Website (source) codes, separated by commas',
		},
	],
};

const executionsHelp =
	'Gather Deliveries: the records the service posts while a gathering is open (one a POST, many at once) start one execution together, each delivery answered once that execution exists. One per Delivery: every POST starts its own execution.';

const executionsOptions = [
	{ name: 'Gather Deliveries', value: 'gather', description: 'Deliveries that arrive together start one execution with all their records' },
	{ name: 'One per Delivery', value: 'perDelivery', description: 'Every delivery starts an execution of its own' },
];

// Version 1 started an execution a delivery; saved workflows keep that, new nodes (1.1) gather.
const executionsV1: INodeProperties = {
	displayName: 'Executions',
	name: 'executions',
	type: 'options',
	options: executionsOptions,
	default: 'perDelivery',
	displayOptions: { show: { '@version': [1] } },
	description: executionsHelp,
};

const executionsGathered: INodeProperties = {
	...executionsV1,
	default: 'gather',
	displayOptions: { show: { '@version': [{ _cnd: { gte: 1.1 } }] } },
};

const gatherOnly = { show: { '/executions': ['gather'] } };

export const gatherForField: INodeProperties = {
	displayName: 'Gather For At Most (Seconds)',
	name: 'gatherForSeconds',
	type: 'number',
	typeOptions: { minValue: 0.1, maxValue: 60, numberPrecision: 1 },
	default: 3,
	displayOptions: gatherOnly,
	description:
		'The longest a gathering stays open after its first delivery. It closes sooner once as many deliveries joined as in its recent gatherings, or when none came for 0.3 seconds (longer on a slow n8n).',
};

export const gatherRecordsField: INodeProperties = {
	displayName: 'Records per Execution At Most',
	name: 'gatherRecords',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 10000, numberPrecision: 0 },
	default: 500,
	displayOptions: gatherOnly,
	description: 'A gathering that holds this many records starts its execution at once',
};

const options: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: optionFields({}, [
		gatherForField,
		gatherRecordsField,
		{
			displayName: 'Pass Invalid Records',
			name: 'passInvalidRecords',
			type: 'boolean',
			default: false,
			description:
				'Whether to start the workflow for records that do not match the rate record format too, with the problems in their "_validationErrors" field. Off: such a delivery is answered 400 and starts nothing.',
		},
	]),
};

export const rateTriggerProperties: INodeProperties[] = [
	registration,
	automaticNotice,
	authenticationAutomatic,
	authenticationManual,
	...basicAuth,
	bearerAuth,
	...headerAuth,
	noneWarning,
	...manualNotices,
	filters,
	executionsV1,
	executionsGathered,
	options,
];
