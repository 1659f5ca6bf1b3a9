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

import { RequestLimiter, requestLimiter, type ConcurrencySettings } from '../shared/concurrency';
import { N8N_API_CREDENTIAL } from '../shared/credentialNames';
import { FieldError, invalidValueMessage } from '../shared/errors';
import { parsePositiveInteger, parseRequiredText } from '../shared/fields';
import { checkItems, failedItem, inItemOrder } from '../shared/itemOutcomes';
import { concurrencyFrom, numberOption } from '../shared/options';

import { DataTables } from './dataTables';
import { contestedError, detectChanges, type DetectSettings, type ObservedItem } from './detectChanges';
import { maxListedOption, rateChangesConcurrencyOption, rateChangesProperties } from './description';
import { buildDigests, type DigestGroup } from './digest';
import { readObservation, type ChangeRule, type RateField } from './rateChanges';
import { checkParity, compareWithMyHotel, type CompareSettings, type ParitySettings } from './standing';
import { changesTable, reportedChange } from './tables';

type Operation = 'detectChanges' | 'digest' | 'compareWithMyHotel' | 'checkParity';

export class TravelPricingRateChanges implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Travel Pricing Rate Changes',
		name: 'travelPricingRateChanges',
		icon: { light: 'file:rateChanges.svg', dark: 'file:rateChanges.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle:
			'={{ {"detectChanges": "Detect changes", "digest": "Digest", "compareWithMyHotel": "Compare with my hotel", "checkParity": "Check parity"}[$parameter["operation"]] }}',
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
		const operation = this.getNodeParameter('operation', 0) as Operation;
		switch (operation) {
			case 'digest':
				return [await digest(this)];
			case 'compareWithMyHotel':
			case 'checkParity':
				return [await standing(this, operation)];
			default:
				return [await detect(this)];
		}
	}
}

/** A setting of the node (not of an item) that is wrong: nothing is read or sent. */
function settingError(context: IExecuteFunctions, error: unknown): Error {
	if (!(error instanceof FieldError)) return error as Error;
	return new NodeOperationError(context.getNode(), invalidValueMessage(error), {
		description: `Fix the "${error.field}" field. Nothing was read from or written to the data tables.`,
	});
}

function detectSettings(context: IExecuteFunctions): DetectSettings & ConcurrencySettings {
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
		...concurrencyFrom(options, rateChangesConcurrencyOption),
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
	const { alerts, contested } = await detectChanges(context, requestLimiter(context.getNode(), [settings]), settings, observed);
	const contestedItems = new Set(contested.map(({ itemIndex }) => itemIndex));
	const alertByItem = new Map(alerts.map((alert) => [alert.itemIndex, alert]));
	return await inItemOrder(context, observations, (_, itemIndex) => {
		if (contestedItems.has(itemIndex)) throw contestedError(context, itemIndex);
		const alert = alertByItem.get(itemIndex);
		return alert ? [{ ...items[itemIndex].json, ...alert.change }] : [];
	});
}

function standingSettings(context: IExecuteFunctions, operation: 'compareWithMyHotel' | 'checkParity'): (CompareSettings | ParitySettings) & ConcurrencySettings {
	const number = (name: string, displayName: string) =>
		numberOption({ [name]: context.getNodeParameter(name, 0, 0) as number }, { displayName, name, type: 'number', default: 0, typeOptions: { minValue: 0 } });
	const tables = {
		ratesTable: parseRequiredText('Rates Table', context.getNodeParameter('ratesTable', 0)),
		changesTable: parseRequiredText('Changes Table', context.getNodeParameter('changesTable', 0)),
		positionsTable: parseRequiredText('Positions Table', context.getNodeParameter('positionsTable', 0)),
		...concurrencyFrom(context.getNodeParameter('options', 0, {}) as IDataObject, rateChangesConcurrencyOption),
	};
	if (operation === 'compareWithMyHotel') {
		return {
			...tables,
			myHotelCode: parsePositiveInteger('My Hotel Code', context.getNodeParameter('myHotelCode', 0)),
			sameWebsite: context.getNodeParameter('compareOn', 0, 'sameWebsite') === 'sameWebsite',
			rateField: context.getNodeParameter('rateField', 0, 'onsiteRate') as RateField,
			alertOn: context.getNodeParameter('compareAlertOn', 0, 'undercut') as CompareSettings['alertOn'],
			undercut: {
				minPercent: context.getNodeParameter('compareAlertOn', 0, 'undercut') === 'undercut' ? number('undercutPercent', 'Undercut At Least (%)') : 0,
				minAmount: context.getNodeParameter('compareAlertOn', 0, 'undercut') === 'undercut' ? number('undercutAmount', 'Undercut At Least (Amount)') : 0,
			},
		};
	}
	const reference = context.getNodeParameter('reference', 0, 'website') as 'website' | 'lowest';
	return {
		...tables,
		hotelCode: parsePositiveInteger('Hotel Code', context.getNodeParameter('parityHotelCode', 0)),
		reference:
			reference === 'lowest'
				? { kind: 'lowest' }
				: { kind: 'website', websiteCode: parsePositiveInteger('Reference Website Code', context.getNodeParameter('referenceWebsiteCode', 0)) },
		tolerance: { percent: number('tolerancePercent', 'Tolerance (%)'), amount: number('toleranceAmount', 'Tolerance (Amount)') },
		alertOn: context.getNodeParameter('parityAlertOn', 0, 'losses') as ParitySettings['alertOn'],
	};
}

/**
 * Compare With My Hotel and Check Parity: one item per stay-night (or stay) the incoming records
 * touch, paired with those records, where the first of them stood; a bad record is an error item
 * in its place (with "Continue"), found before any request.
 */
async function standing(context: IExecuteFunctions, operation: 'compareWithMyHotel' | 'checkParity'): Promise<INodeExecutionData[]> {
	let settings: ReturnType<typeof standingSettings>;
	try {
		settings = standingSettings(context, operation);
	} catch (error) {
		throw settingError(context, error);
	}
	const items = context.getInputData();
	const rateField = 'rateField' in settings ? settings.rateField : 'onsiteRate';
	const observations = checkItems(context, (itemIndex) => readObservation(items[itemIndex].json, rateField));
	const observed = observations.flatMap((read, itemIndex): ObservedItem[] => ('value' in read ? [{ itemIndex, observation: read.value }] : []));
	const limiter = requestLimiter(context.getNode(), [settings]);
	const results =
		operation === 'compareWithMyHotel'
			? await compareWithMyHotel(context, limiter, settings as CompareSettings, observed)
			: await checkParity(context, limiter, settings as ParitySettings, observed);
	const resultAt = new Map(results.map((result) => [Math.min(...result.itemIndexes), result]));
	return observations.flatMap((read, itemIndex): INodeExecutionData[] => {
		if ('error' in read) return [failedItem(context, read.error, itemIndex)];
		const result = resultAt.get(itemIndex);
		return result ? [{ json: result.json, pairedItem: result.itemIndexes.map((item) => ({ item })) }] : [];
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
