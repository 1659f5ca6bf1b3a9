import {
	NodeOperationError,
	type IDataObject,
	type IDisplayOptions,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import type { ConcurrencySettings } from '../../shared/concurrency';
import { FieldError, invalidValueMessage } from '../../shared/errors';
import { parsePositiveInteger, parseRequiredText } from '../../shared/fields';
import { concurrencyFrom, concurrencyModeOption, concurrencyOption, numberOption } from '../../shared/options';
import { CHANGES_TABLE_DEFAULT, POSITIONS_TABLE_DEFAULT, RATES_TABLE_DEFAULT } from '../storage/tables';

/**
 * The fields more than one operation of Rate Changes shows, and the readers every operation reads
 * its settings with: each reads a field through the same object the description declares, so the
 * editor and the check cannot drift apart. An operation's own fields sit in its own file.
 */

/** The operations that read incoming rate records (each name is checked against the router's list by test/package/operations.test.ts). */
export const RECORD_OPERATIONS = ['detectChanges', 'compareWithMyHotel', 'checkParity'];

/** The operations that read the remembered rates of a window of dates, once a run, whatever comes in. */
export const CALENDAR_OPERATIONS = ['rateCalendar', 'suggestRates'];

export function showFor(operations: readonly string[], extra: IDisplayOptions['show'] = {}): IDisplayOptions {
	return { show: { operation: [...operations], ...extra } };
}

/** Which rate of a record Detect Changes and Compare With My Hotel read. */
export const rateFieldField: INodeProperties = {
	displayName: 'Rate Field',
	name: 'rateField',
	type: 'options',
	default: 'onsiteRate',
	displayOptions: showFor(['detectChanges', 'compareWithMyHotel']),
	options: [
		{ name: 'Onsite Rate', value: 'onsiteRate', description: 'The rate the website shows (onsiteRate)' },
		{ name: 'Net Rate', value: 'netRate', description: 'The rate net of taxes (netRate)' },
	],
	description: 'Which rate of each record to compare. A rate of 0 means sold out.',
};

export const ratesTableField: INodeProperties = {
	displayName: 'Rates Table',
	name: 'ratesTable',
	type: 'string',
	default: RATES_TABLE_DEFAULT,
	required: true,
	displayOptions: showFor([...RECORD_OPERATIONS, ...CALENDAR_OPERATIONS]),
	description: "The n8n data table that keeps the latest rate of every stay (Detect Changes writes it). The node creates it when it doesn't exist.",
};

export const changesTableField: INodeProperties = {
	displayName: 'Changes Table',
	name: 'changesTable',
	type: 'string',
	default: CHANGES_TABLE_DEFAULT,
	required: true,
	displayOptions: { hide: { operation: CALENDAR_OPERATIONS } },
	description: "The n8n data table where every alert is written and Digest reads them. The node creates it when it doesn't exist.",
};

export const positionsTableField: INodeProperties = {
	displayName: 'Positions Table',
	name: 'positionsTable',
	type: 'string',
	default: POSITIONS_TABLE_DEFAULT,
	required: true,
	displayOptions: showFor(['compareWithMyHotel', 'checkParity']),
	description: "The n8n data table that remembers each stay-night's rank and each stay's parity states between shops. The node creates it when it doesn't exist.",
};

/**
 * Rate Changes' Concurrency: its requests go to n8n's own API, in the n8n that runs the executions,
 * so its ceiling stays at 10 (benchmark 7's setting), where the service's nodes may go up to 50.
 */
export const rateChangesConcurrencyOption: INodeProperties = {
	...concurrencyOption,
	default: 10,
	description: 'The most requests to n8n this node has in flight at once (with Concurrency Mode "Adaptive", the ceiling it grows toward)',
};

/**
 * How long the changes table keeps an alert, reported or not, counted from the collection time of
 * its record. Two weeks: a daily digest, and a message that failed to go out, can be sent again
 * for two weeks, while a year of daily shops stays inside n8n's Data Tables limit (the node's
 * reference page, "Size").
 */
export const keepChangesOption: INodeProperties = {
	displayName: 'Keep Changes (Days)',
	name: 'keepChangesDays',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 366, numberPrecision: 0 },
	default: 14,
	description:
		"How many days the changes table keeps an alert, reported or not, counted from when its record was collected. Older alerts go, as do stays and positions whose check-in has passed, so the tables stop growing. Send Again works for this long.",
};

/**
 * How long the history table (`<Rates Table>_history`) keeps each stay's rates, counted back from
 * the newest record a batch holds. 90 days: most bookings of a stay date are made within 90 days
 * before arrival, so 90 covers that booking window's curve, a quarter, and "the last 30 days" with
 * room to spare, at a size the reference page gives ("Size"). 0: no history, no table.
 */
export const keepHistoryOption: INodeProperties = {
	displayName: 'Keep History (Days)',
	name: 'keepHistoryDays',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 366, numberPrecision: 0 },
	default: 90,
	displayOptions: { show: { '/operation': ['detectChanges'] } },
	description:
		"How many days each stay's rates are kept in the history table (the Rates Table's name + \"_history\"): its first rate and every change, with when it was collected. 90 covers a booking window: most bookings of a date are made within 90 days before arrival. 0 keeps no history and creates no table.",
};

export const recordOptionsField: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	displayOptions: showFor(RECORD_OPERATIONS),
	options: [rateChangesConcurrencyOption, concurrencyModeOption, keepChangesOption, keepHistoryOption],
};

/** A setting of the node (not of an item) that is wrong: nothing is read or sent. */
export function settingError(context: IExecuteFunctions, error: unknown): Error {
	if (!(error instanceof FieldError)) return error as Error;
	return new NodeOperationError(context.getNode(), invalidValueMessage(error), {
		description: `Fix the "${error.field}" field. Nothing was read from or written to the data tables.`,
	});
}

/** Reads settings, turning a wrong one into the error that names its field. */
export function readSettings<T>(context: IExecuteFunctions, read: () => T): T {
	try {
		return read();
	} catch (error) {
		throw settingError(context, error);
	}
}

/** The field's value for the node (the first item's, as the node reads its settings once a run). */
function value(context: IExecuteFunctions, field: INodeProperties): unknown {
	return context.getNodeParameter(field.name, 0, field.default);
}

export function numberField(context: IExecuteFunctions, field: INodeProperties): number {
	return numberOption({ [field.name]: value(context, field) } as IDataObject, field);
}

export function textField(context: IExecuteFunctions, field: INodeProperties): string {
	return parseRequiredText(field.displayName, value(context, field));
}

export function codeField(context: IExecuteFunctions, field: INodeProperties): number {
	return parsePositiveInteger(field.displayName, value(context, field));
}

/** A true-or-false option of an Options collection (its default when not added). */
export function booleanOption(options: IDataObject, field: INodeProperties): boolean {
	const read = options[field.name] ?? field.default;
	if (typeof read === 'boolean') return read;
	throw new FieldError(field.displayName, read, 'must be true or false');
}

export function booleanField(context: IExecuteFunctions, field: INodeProperties): boolean {
	const read = value(context, field);
	if (typeof read === 'boolean') return read;
	throw new FieldError(field.displayName, read, 'must be true or false');
}

/** One of the field's own options: an expression that gives anything else is refused by name. */
export function optionField<T extends string>(context: IExecuteFunctions, field: INodeProperties): T {
	const read = value(context, field);
	const allowed = (field.options ?? []).map((option) => ('value' in option ? option.value : undefined));
	if (allowed.includes(read as string)) return read as T;
	throw new FieldError(field.displayName, read, `must be one of ${allowed.join(', ')}`);
}

/** One of an Options collection's own options (its default when not added), refused by name like optionField. */
export function collectionOption<T extends string>(options: IDataObject, field: INodeProperties): T {
	const read = options[field.name] ?? field.default;
	const allowed = (field.options ?? []).map((option) => ('value' in option ? option.value : undefined));
	if (allowed.includes(read as string)) return read as T;
	throw new FieldError(field.displayName, read, `must be one of ${allowed.join(', ')}`);
}

export function optionsOf(context: IExecuteFunctions): IDataObject {
	return context.getNodeParameter('options', 0, {}) as IDataObject;
}

/** The settings every operation that reads records shares. */
export interface RecordSettings extends ConcurrencySettings {
	ratesTable: string;
	changesTable: string;
	keepChangesDays: number;
}

export function recordSettings(context: IExecuteFunctions): RecordSettings {
	const options = optionsOf(context);
	return {
		ratesTable: textField(context, ratesTableField),
		changesTable: textField(context, changesTableField),
		keepChangesDays: numberOption(options, keepChangesOption),
		...concurrencyFrom(options, rateChangesConcurrencyOption),
	};
}
