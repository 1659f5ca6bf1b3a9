import { randomUUID } from 'crypto';

import {
	NodeConnectionTypes,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { RequestLimiter } from '../shared/concurrency';
import { N8N_API_CREDENTIAL } from '../shared/credentialNames';
import { FieldError, invalidValueMessage } from '../shared/errors';
import { parseRequiredText } from '../shared/fields';
import { checkItems, inItemOrder } from '../shared/itemOutcomes';
import { concurrencyOption, numberOption } from '../shared/options';

import { DataTables } from './dataTables';
import { contestedError, detectChanges, type DetectSettings, type ObservedItem } from './detectChanges';
import { maxListedOption, rateChangesProperties } from './description';
import { buildDigests, type DigestGroup } from './digest';
import { readObservation, type ChangeRule, type RateField } from './rateChanges';
import { changesTable, reportedChange } from './tables';

export class TravelPricingRateChanges implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Travel Pricing Rate Changes',
		name: 'travelPricingRateChanges',
		icon: { light: 'file:rateChanges.svg', dark: 'file:rateChanges.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] === "digest" ? "Digest" : "Detect changes"}}',
		description:
			"Alert on what changed since the last rate shop (up, down, sold out, back on sale) and sum it up in one digest per shop, remembered in n8n's Data Tables",
		defaults: { name: 'Rate Changes' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: N8N_API_CREDENTIAL, required: true }],
		properties: rateChangesProperties,
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const operation = this.getNodeParameter('operation', 0) as 'detectChanges' | 'digest';
		return [operation === 'digest' ? await digest(this) : await detect(this)];
	}
}

/** A setting of the node (not of an item) that is wrong: nothing is read or sent. */
function settingError(context: IExecuteFunctions, error: unknown): Error {
	if (!(error instanceof FieldError)) return error as Error;
	return new NodeOperationError(context.getNode(), invalidValueMessage(error), {
		description: `Fix the "${error.field}" field. Nothing was read from or written to the data tables.`,
	});
}

function detectSettings(context: IExecuteFunctions): DetectSettings & { concurrency: number } {
	const options = context.getNodeParameter('options', 0, {}) as IDataObject;
	const percentField = { displayName: 'Change At Least (%)', name: 'minChangePercent', type: 'number', default: 0, typeOptions: { minValue: 0 } } as const;
	const amountField = { displayName: 'Change At Least (Amount)', name: 'minChangeAmount', type: 'number', default: 0, typeOptions: { minValue: 0 } } as const;
	const rule: ChangeRule = {
		minPercent: numberOption({ minChangePercent: context.getNodeParameter('minChangePercent', 0, 0) as number }, percentField),
		minAmount: numberOption({ minChangeAmount: context.getNodeParameter('minChangeAmount', 0, 0) as number }, amountField),
		direction: context.getNodeParameter('direction', 0, 'either') as ChangeRule['direction'],
		includeAvailability: context.getNodeParameter('includeAvailability', 0, true) as boolean,
		includeFirstSeen: context.getNodeParameter('includeFirstSeen', 0, false) as boolean,
	};
	return {
		rateField: context.getNodeParameter('rateField', 0, 'onsiteRate') as RateField,
		rule,
		ratesTable: parseRequiredText('Rates Table', context.getNodeParameter('ratesTable', 0)),
		changesTable: parseRequiredText('Changes Table', context.getNodeParameter('changesTable', 0)),
		concurrency: numberOption(options, concurrencyOption),
	};
}

async function detect(context: IExecuteFunctions): Promise<INodeExecutionData[]> {
	let settings: ReturnType<typeof detectSettings>;
	try {
		settings = detectSettings(context);
	} catch (error) {
		throw settingError(context, error);
	}
	const items = context.getInputData();
	// Every item is read before the first request: a bad record stops the node at once, or with
	// "Continue" becomes an error item, and the others go on.
	const observations = checkItems(context, (itemIndex) => readObservation(items[itemIndex].json, settings.rateField));
	const observed = observations.flatMap((read, itemIndex): ObservedItem[] =>
		'value' in read ? [{ itemIndex, observation: read.value }] : [],
	);
	const { alerts, contested } = await detectChanges(context, new RequestLimiter(settings.concurrency), settings, observed);
	const contestedItems = new Set(contested.map(({ itemIndex }) => itemIndex));
	const alertByItem = new Map(alerts.map((alert) => [alert.itemIndex, alert]));
	return await inItemOrder(context, observations, (_, itemIndex) => {
		if (contestedItems.has(itemIndex)) throw contestedError(context, itemIndex);
		const alert = alertByItem.get(itemIndex);
		return alert ? [{ ...items[itemIndex].json, ...alert.change }] : [];
	});
}

async function digest(context: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const options = context.getNodeParameter('options', 0, {}) as IDataObject;
	let tableName: string;
	let maxListed: number;
	try {
		tableName = parseRequiredText('Changes Table', context.getNodeParameter('changesTable', 0));
		maxListed = numberOption(options, maxListedOption);
	} catch (error) {
		throw settingError(context, error);
	}
	const groupBy = context.getNodeParameter('groupBy', 0, 'shop') as DigestGroup;
	const resendDigestId = typeof options.resendDigestId === 'string' ? options.resendDigestId.trim() : '';

	const tables = new DataTables(context, new RequestLimiter(1));
	const tableId = await tables.ensureTable(changesTable(tableName));
	const digestId = resendDigestId || randomUUID();
	// A new digest claims every unreported change in one update, so two digests at once never
	// report the same change: the database gives each row to one of them.
	const rows = resendDigestId
		? await tables.findRows(tableId, { type: 'and', filters: [{ columnName: 'digestId', condition: 'eq', value: resendDigestId }] })
		: await tables.updateRows(
				tableId,
				{ type: 'and', filters: [{ columnName: 'digestId', condition: 'eq', value: null }] },
				{ digestId, reportedAt: new Date().toISOString() },
			);
	return buildDigests(rows.map(reportedChange), { digestId, groupBy, maxListed }).map((json) => ({ json, pairedItem: { item: 0 } }));
}
