import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { WEEKDAY_OPTIONS } from '../shared/fields';
import { optionFields } from '../shared/options';

import { MONTH_NAMES } from './scheduleFields';

export type ScheduleOperation = 'create' | 'update' | 'upsert' | 'preview';

const showOnlyForUpdate = { show: { operation: ['update'] } };
const showOnlyForUpsert = { show: { operation: ['upsert'] } };

// Calendar order, not alphabetical: a person scans months and weekdays in the order they come.
const MONTH_OPTIONS: INodePropertyOptions[] = MONTH_NAMES.map((name, index) => ({ name, value: index + 1 }));

export const scheduleProperties: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create a schedule',
				description: 'Store a new schedule that runs a rate shop at the dates and times below',
			},
			{
				name: 'Create or Update',
				value: 'upsert',
				action: 'Create or update a schedule',
				description: 'Create a new record, or update the current one if it already exists (upsert)',
			},
			{
				name: 'Preview',
				value: 'preview',
				action: 'Preview the next runs of a schedule',
				description: 'Check the fields and list the next run times without sending anything',
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update a schedule',
				description: 'Replace the whole configuration of an existing schedule',
			},
		],
		default: 'create',
	},
	{
		displayName: 'Schedule ID',
		name: 'scheduleId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 1205',
		displayOptions: showOnlyForUpdate,
		description: 'The scheduleid the service returned when the schedule was created',
	},
	{
		displayName: 'Schedule ID',
		name: 'scheduleId',
		type: 'string',
		default: '',
		placeholder: 'e.g. 1205',
		displayOptions: showOnlyForUpsert,
		description:
			'The scheduleid of the schedule to update, usually the column the previous run wrote it back to. Empty: the schedule is created.',
	},
	{
		displayName: 'Last Sent Fingerprint',
		name: 'lastFingerprint',
		type: 'string',
		default: '={{ $json.fingerprint }}',
		displayOptions: showOnlyForUpsert,
		description:
			'The fingerprint this node put out when it last sent the schedule, written back beside the Schedule ID. When it matches the fields below, nothing is sent.',
	},
	{
		displayName:
			'Update replaces the whole configuration: fill in every field, not only the ones that change',
		name: 'updateNotice',
		type: 'notice',
		default: '',
		displayOptions: showOnlyForUpdate,
	},
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Daily Paris competitor shop',
		description: 'A name to recognise the schedule by',
	},
	{
		displayName: 'Rate Shop ID',
		name: 'rateShopId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 42',
		description: 'The ID of the rate shop this schedule runs',
	},
	{
		displayName: 'Years',
		name: 'years',
		type: 'string',
		default: '',
		placeholder: 'e.g. 2026,2027',
		description: 'Leave empty (or *) to run every year; otherwise years separated by commas',
	},
	{
		displayName: 'Months',
		name: 'monthsMode',
		type: 'options',
		options: [
			{ name: 'All Months', value: 'all' },
			{ name: 'Selected Months', value: 'selected' },
		],
		default: 'all',
	},
	{
		displayName: 'Selected Months',
		name: 'months',
		type: 'multiOptions',
		options: MONTH_OPTIONS,
		default: [],
		displayOptions: { show: { monthsMode: ['selected'] } },
		description:
			'The months to run in. An expression may give a list such as 1,3,5 (1 = January) or month names.',
	},
	{
		displayName: 'Days of Week',
		name: 'daysOfWeekMode',
		type: 'options',
		options: [
			{ name: 'All Days of Week', value: 'all' },
			{ name: 'Selected Days of Week', value: 'selected' },
		],
		default: 'all',
	},
	{
		displayName: 'Selected Days of Week',
		name: 'daysOfWeek',
		type: 'multiOptions',
		options: WEEKDAY_OPTIONS,
		default: [],
		displayOptions: { show: { daysOfWeekMode: ['selected'] } },
		description:
			'The weekdays to run on. An expression may give a list such as 1,3,5 (1 = Monday, 0 = Sunday) or day names.',
	},
	{
		displayName: 'Days of Month',
		name: 'daysOfMonth',
		type: 'string',
		default: '',
		placeholder: 'e.g. 1,15,20-25',
		description:
			'Leave empty (or *) to run on every day; otherwise days 1 to 31 and ranges, separated by commas. A day must also match the months and days of week.',
	},
	{
		displayName: 'Hours',
		name: 'hours',
		type: 'string',
		default: '',
		placeholder: 'e.g. 6,18',
		description:
			'Hours of the day, 0 to 23, separated by commas. Leave empty (or *) to run every hour.',
	},
	{
		displayName: 'Minute',
		name: 'minute',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 59 },
		default: 0,
		description: 'Minute of the hour to run at, 0 to 59',
	},
	{
		displayName: 'Second',
		name: 'second',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 59 },
		default: 0,
		description: 'Second of the minute to run at, 0 to 59',
	},
	{
		displayName: 'Status',
		name: 'status',
		type: 'options',
		options: [
			{ name: 'Active', value: 1, description: 'The schedule runs' },
			{ name: 'Inactive', value: 0, description: 'The schedule is stored but does not run' },
		],
		default: 1,
	},
	{
		displayName: 'Start Date',
		name: 'startDate',
		type: 'dateTime',
		required: true,
		default: '',
		description: 'First day the schedule may run, a day in the workflow\'s timezone (only the date is used)',
	},
	{
		displayName: 'End Date',
		name: 'endDate',
		type: 'dateTime',
		default: '',
		description:
			'Last day the schedule may run, a day in the workflow\'s timezone (only the date is used). Leave empty to run indefinitely.',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: optionFields({}, [
			{
				displayName: 'Next Runs to Show',
				name: 'nextRunsToShow',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 100 },
				default: 5,
				description:
					'How many upcoming run times to list in nextRuns, in the workflow\'s timezone',
			},
		]),
	},
];
