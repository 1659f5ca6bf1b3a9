import { DateTime } from 'luxon';
import {
	NodeConnectionTypes,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
} from 'n8n-workflow';

import type { NodeTypeDescriptionWithHint } from '../shared/builderHint';
import { ACCESS_TOKEN_CREDENTIAL, ACCESS_TOKEN_CREDENTIAL_DISPLAY_NAME } from '../shared/credentialNames';
import { runInOrder } from '../shared/itemOutcomes';
import { optionFields, retryPolicyFrom } from '../shared/options';
import { throttleAdvice } from '../shared/throttleAdvice';
import type { RetryPolicy } from '../shared/retry';
import { apiRequest } from '../shared/transport';

import { scheduleProperties, type ScheduleOperation } from './description';
import { scheduleFingerprint } from './fingerprint';
import { nextRuns, type NextRuns } from './nextRuns';
import {
	SCHEDULE_FIELD_LABELS,
	parseNextRunsToShow,
	parseOptionalScheduleId,
	parseScheduleId,
	scheduleFieldsFrom,
	selectionOrAll,
	type Schedule,
	type ScheduleFields,
	type ScheduleInput,
} from './scheduleFields';

const THROTTLE_ADVICE = throttleAdvice(optionFields({}));

export class TravelPricingSchedule implements INodeType {
	description: NodeTypeDescriptionWithHint = {
		displayName: 'Travel Pricing Schedule',
		name: 'travelPricingSchedule',
		icon: { light: 'file:schedule.svg', dark: 'file:schedule.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle:
			'={{ {"create": "Create schedule", "update": "Update schedule", "upsert": "Create or update schedule", "preview": "Preview next runs"}[$parameter["operation"]] }}',
		description: 'Create or update the schedules that run a rate shop, and see when they will run',
		defaults: { name: 'Schedule' },
		builderHint: {
			searchHint:
				`Use to create or update the schedules that run a rate shop in the Travel Pricing service, or to list a schedule's next run times without sending anything (Preview, no credential needed). Create or Update keeps one schedule per row of a sheet: write the output's scheduleid and fingerprint back into the row, and an unchanged row sends nothing. Needs the ${ACCESS_TOKEN_CREDENTIAL_DISPLAY_NAME} credential for Create, Update and Create or Update.`,
			relatedNodes: [
				{ nodeType: 'n8n-nodes-base.dataTable', relationHint: 'The rows of schedules to keep; Update writes scheduleid and fingerprint back into each row' },
				{ nodeType: 'n8n-nodes-base.scheduleTrigger', relationHint: 'Runs the sheet-to-schedules sync every morning' },
			],
		},
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: ACCESS_TOKEN_CREDENTIAL,
				required: true,
				// Preview sends nothing, so it needs no credential.
				displayOptions: { show: { operation: ['create', 'update', 'upsert'] } },
			},
		],
		properties: scheduleProperties,
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const zone = this.getTimezone();
		const neverRuns = new Map<string, number[]>();
		// Every item is checked before the first schedule is stored: a bad row 40 must not leave
		// rows 0 to 39 created, to be created twice when the workflow is run again.
		const output = await runInOrder(
			this,
			(itemIndex) => scheduleRequestFor(this, itemIndex, zone),
			async (request, itemIndex) => {
				const schedule = await saveSchedule(this, request, itemIndex);
				// The service stores the schedule now, so the queueing rule counts from now.
				const upcoming = nextRuns(request.fields, { createdAt: DateTime.now().toMillis(), zone, count: request.count });
				if (upcoming.outlook === 'never' && upcoming.note) {
					neverRuns.set(upcoming.note, [...(neverRuns.get(upcoming.note) ?? []), itemIndex]);
				}
				return [withNextRuns(schedule, upcoming)];
			},
		);

		for (const [note, itemIndexes] of neverRuns) {
			const which = itemIndexes.length === 1 ? 'Item' : 'Items';
			this.addExecutionHints({ message: `${which} ${itemIndexes.join(', ')}: ${note}`, type: 'warning' });
		}
		return [output];
	}
}

/** One item's parameters, checked: what to send. */
interface ScheduleRequest {
	operation: ScheduleOperation;
	scheduleId?: number;
	fields: ScheduleFields;
	/** Create or Update: the fingerprint of `fields`, and the one the item says was last sent. */
	fingerprint?: string;
	lastFingerprint?: string;
	count: number;
	retry: RetryPolicy;
}

/** What Create or Update did with an item, for the next node to write back beside the ID. */
type UpsertAction = 'created' | 'updated' | 'unchanged';

function scheduleRequestFor(context: IExecuteFunctions, itemIndex: number, zone: string): ScheduleRequest {
	const operation = context.getNodeParameter('operation', itemIndex) as ScheduleOperation;
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const fields = scheduleFieldsFrom(readScheduleInput(context, itemIndex), zone);
	const request: ScheduleRequest = {
		operation,
		fields,
		count: parseNextRunsToShow(options.nextRunsToShow),
		retry: retryPolicyFrom(options),
	};
	if (operation === 'update') {
		request.scheduleId = parseScheduleId(context.getNodeParameter('scheduleId', itemIndex));
	}
	if (operation === 'upsert') {
		request.scheduleId = parseOptionalScheduleId(context.getNodeParameter('scheduleId', itemIndex, ''));
		request.fingerprint = scheduleFingerprint(fields);
		request.lastFingerprint = String(context.getNodeParameter('lastFingerprint', itemIndex, '') ?? '').trim();
	}
	return request;
}

function readScheduleInput(context: IExecuteFunctions, itemIndex: number): ScheduleInput {
	const parameter = (name: string, fallback?: unknown) =>
		context.getNodeParameter(name, itemIndex, fallback) as unknown;
	return {
		name: parameter('name'),
		rateShopId: parameter('rateShopId'),
		years: parameter('years', ''),
		months: selectionOrAll(SCHEDULE_FIELD_LABELS.months, parameter('monthsMode', 'all'), parameter('months', [])),
		daysOfWeek: selectionOrAll(
			SCHEDULE_FIELD_LABELS.daysOfWeek,
			parameter('daysOfWeekMode', 'all'),
			parameter('daysOfWeek', []),
		),
		daysOfMonth: parameter('daysOfMonth', ''),
		hours: parameter('hours', ''),
		minute: parameter('minute', 0),
		second: parameter('second', 0),
		status: parameter('status', 1),
		startDate: parameter('startDate'),
		endDate: parameter('endDate', ''),
	};
}

/**
 * Create and Update send the fields; Create or Update sends what the item needs, if anything;
 * Preview sends nothing and shows the fields it would send.
 */
async function saveSchedule(context: IExecuteFunctions, request: ScheduleRequest, itemIndex: number): Promise<IDataObject> {
	if (request.operation === 'create') return await createSchedule(context, request, itemIndex);
	if (request.operation === 'update') return await replaceSchedule(context, request, itemIndex);
	if (request.operation === 'upsert') return await upsertSchedule(context, request, itemIndex);
	return { ...request.fields };
}

async function createSchedule(context: IExecuteFunctions, request: ScheduleRequest, itemIndex: number): Promise<IDataObject> {
	// Not idempotent: a connection that breaks after the POST left is not retried (transport.ts).
	return (await apiRequest.call(context, 'POST', '/schedule', {
		body: { ...request.fields },
		retry: request.retry,
		throttleAdvice: THROTTLE_ADVICE,
		itemIndex,
	})) as Schedule & IDataObject;
}

async function replaceSchedule(context: IExecuteFunctions, request: ScheduleRequest, itemIndex: number): Promise<IDataObject> {
	const { scheduleId } = request;
	// PUT replaces the whole configuration, so sending it again after a 500 cannot do anything
	// the first attempt did not: it is as safe to retry as a lookup.
	return (await apiRequest.call(context, 'PUT', `/schedule/${scheduleId}`, {
		body: { ...request.fields },
		retry: request.retry,
		throttleAdvice: THROTTLE_ADVICE,
		itemIndex,
		idempotent: true,
		resource: `schedule ${scheduleId}`,
	})) as Schedule & IDataObject;
}

/**
 * No Schedule ID: the row was never sent, so it is created. An ID and the fingerprint of what was
 * last sent equal to the fields' own: the service holds them already, and nothing is sent.
 * Otherwise the whole configuration replaces the schedule's.
 */
function upsertAction({ scheduleId, fingerprint, lastFingerprint }: ScheduleRequest): UpsertAction {
	if (scheduleId === undefined) return 'created';
	return fingerprint === lastFingerprint ? 'unchanged' : 'updated';
}

async function upsertSchedule(context: IExecuteFunctions, request: ScheduleRequest, itemIndex: number): Promise<IDataObject> {
	const action = upsertAction(request);
	const schedule =
		action === 'created'
			? await createSchedule(context, request, itemIndex)
			: action === 'updated'
				? await replaceSchedule(context, request, itemIndex)
				: { scheduleid: request.scheduleId, ...request.fields };
	return {
		...schedule,
		scheduleid: schedule.scheduleid ?? request.scheduleId,
		action,
		fingerprint: request.fingerprint,
	};
}

/** The schedule as the service returned it, plus when it will run. */
function withNextRuns(schedule: IDataObject, upcoming: NextRuns): IDataObject {
	return {
		...schedule,
		nextRuns: upcoming.runs,
		...(upcoming.note === undefined ? {} : { nextRunsNote: upcoming.note }),
	};
}
