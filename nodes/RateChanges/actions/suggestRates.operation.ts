import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { FieldError } from '../../shared/errors';
import { parseDecimal } from '../../shared/fields';
import { numberOption } from '../../shared/options';
import { buildCalendar } from '../rules/calendar';
import { DEFAULT_MAX_CHANGE_PERCENT, DEFAULT_MIN_COMPETITORS, suggestRates, type Anchor, type RoundingMode, type Suggestion, type SuggestionRules, type UpliftBand } from '../rules/suggestion';
import { DEFAULT_MAX_LISTED, suggestionSummary } from '../rules/suggestionView';
import type { Store } from '../storage/store';

import { readCalendarFacts, type CalendarFacts } from './calendarFacts';
import { calendarSource, currencyOption, dateOrderOption, rateFieldOption, type CalendarSource } from './calendarFields';
import { codeField, numberField, optionField, optionsOf, readSettings, showFor } from './fields';

/**
 * Suggest Rates: a rate for each date of the window by rules the user sets (an anchor on the comp
 * set, event and demand uplifts, bounds, rounding), each with its reason in words, for a person to
 * approve. It shops nothing and sets no price: what is approved goes wherever the workflow sends it
 * (docs/nodes/rate-changes.md).
 */

/** Its option in the Operation field (the router lists it). */
export const option = {
	name: 'Suggest Rates',
	value: 'suggestRates',
	description: 'A suggested rate for each date by your rules (anchor, event and demand uplifts, bounds, rounding), each with its reason, for a person to approve; sets no price',
	action: 'Suggest rates for approval',
} as const;

const show = showFor(['suggestRates']);

const anchor: INodeProperties = {
	displayName: 'Anchor',
	name: 'anchor',
	type: 'options',
	default: 'compMedian',
	displayOptions: show,
	options: [
		{ name: 'Comp Median', value: 'compMedian', description: "The middle rate of the competitors on sale, the market's rate" },
		{ name: 'Comp Lowest', value: 'compLowest', description: 'The cheapest competitor on sale' },
		{ name: 'One Competitor', value: 'competitor', description: "One hotel's cheapest rate on sale" },
		{ name: 'My Current Rate', value: 'current', description: 'No anchor: only the uplifts and bounds move my rate' },
	],
	description: 'Where each suggestion starts, before the uplifts',
};

const anchorHotelCode: INodeProperties = {
	displayName: 'Anchor Hotel Code',
	name: 'anchorHotelCode',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. 100154',
	displayOptions: showFor(['suggestRates'], { anchor: ['competitor'] }),
	description: 'The competitor whose rate the suggestions follow',
};

const adjustBy: INodeProperties = {
	displayName: 'Adjust Anchor By',
	name: 'adjustBy',
	type: 'options',
	default: 'percent',
	displayOptions: showFor(['suggestRates'], { anchor: ['compMedian', 'compLowest', 'competitor'] }),
	options: [
		{ name: 'Percent', value: 'percent' },
		{ name: 'Amount', value: 'amount' },
	],
	description: 'Whether Adjustment is a percentage of the anchor or an amount in its currency',
};

const adjustment: INodeProperties = {
	displayName: 'Adjustment',
	name: 'adjustment',
	type: 'number',
	typeOptions: { numberPrecision: 2 },
	default: 0,
	displayOptions: showFor(['suggestRates'], { anchor: ['compMedian', 'compLowest', 'competitor'] }),
	description: 'Added to the anchor: -5 with Percent is "comp median − 5 %"; 0 follows the anchor as it is',
};

const atLeast: INodeProperties = { displayName: 'At Least', name: 'atLeast', type: 'number', typeOptions: { minValue: 0, maxValue: 100 }, default: 70 };

/**
 * Bands of a figure (0 to 100) and what each adds, the band with the highest threshold reached
 * applying. A new band starts at 70 and +10 %; the examples and the page show the usual ones
 * (events: 70 and up +15 %, the service's High Impact; demand: 80 and up +10 %, where occupancy
 * pricing rules start raising rates).
 */
function upliftField(name: string, displayName: string, threshold: string, shownWith: string): INodeProperties {
	return {
		displayName,
		name,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Band',
		displayOptions: showFor(['suggestRates'], { serviceData: [shownWith] }),
		options: [
			{
				name: 'bands',
				displayName: 'Band',
				values: [
					{ ...atLeast, displayName: `${threshold} At Least`, description: `From this ${threshold.toLowerCase()} (0 to 100) up` },
					{ displayName: 'Change (%)', name: 'percent', type: 'number', typeOptions: { numberPrecision: 2 }, default: 10, description: 'Added to the rate (below 0: taken off)' },
				],
			},
		],
	};
}

const eventUplift = upliftField('eventUplift', 'Event Uplift', 'Impact Score', 'events');
const demandUplift = upliftField('demandUplift', 'Demand Uplift', 'Demand', 'demand');

const maxChangePercent: INodeProperties = {
	displayName: 'Most Change per Suggestion (%)',
	name: 'maxChangePercent',
	type: 'number',
	typeOptions: { minValue: 0, numberPrecision: 2 },
	default: DEFAULT_MAX_CHANGE_PERCENT,
	displayOptions: show,
	description: 'How far a suggestion may move from my current rate, up or down. 10: further is more often a rule gone wrong than a decision. 0: no limit.',
};

const minRate: INodeProperties = {
	displayName: 'Minimum Rate',
	name: 'minRate',
	type: 'number',
	typeOptions: { minValue: 0, numberPrecision: 2 },
	default: 0,
	displayOptions: show,
	description: 'No suggestion goes below this, in the calendar currency. 0: none.',
};

const maxRate: INodeProperties = {
	displayName: 'Maximum Rate',
	name: 'maxRate',
	type: 'number',
	typeOptions: { minValue: 0, numberPrecision: 2 },
	default: 0,
	displayOptions: show,
	description: 'No suggestion goes above this. 0: none.',
};

const rounding: INodeProperties = {
	displayName: 'Rounding',
	name: 'rounding',
	type: 'options',
	default: 'none',
	displayOptions: show,
	options: [
		{ name: 'Ending in .95', value: 'end95', description: '190.30 → 189.95' },
		{ name: 'Ending in .99', value: 'end99', description: '190.30 → 189.99' },
		{ name: 'None (to the Cent)', value: 'none' },
		{ name: 'Whole Amount', value: 'whole', description: '189.50 → 190' },
		{ name: 'Whole Amount Ending in 9', value: 'end9', description: '190.30 → 189' },
	],
	description: 'To the nearest price point, never past a bound',
};

const minCompetitors: INodeProperties = {
	displayName: 'Minimum Competitors',
	name: 'minCompetitors',
	type: 'number',
	typeOptions: { minValue: 1, numberPrecision: 0 },
	default: DEFAULT_MIN_COMPETITORS,
	description: 'A date with fewer competitors on sale gets no suggestion. 3: the fewest whose median is a middle rate.',
};

const maxListed: INodeProperties = {
	displayName: 'Max Changes in Text',
	name: 'maxListed',
	type: 'number',
	typeOptions: { minValue: 1, numberPrecision: 0 },
	default: DEFAULT_MAX_LISTED,
	description: 'How many changes the text and HTML list, biggest first; the rest are counted. The changes field always holds all of them.',
};

const optionsField: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	displayOptions: show,
	options: [currencyOption, dateOrderOption, maxListed, minCompetitors, rateFieldOption],
};

export const properties: INodeProperties[] = [anchor, anchorHotelCode, adjustBy, adjustment, eventUplift, demandUplift, maxChangePercent, minRate, maxRate, rounding, optionsField];

interface SuggestSettings {
	source: CalendarSource;
	rules: SuggestionRules;
	maxListed: number;
}

function anchorOf(context: IExecuteFunctions): Anchor | undefined {
	const basis = optionField<'compMedian' | 'compLowest' | 'competitor' | 'current'>(context, anchor);
	if (basis === 'current') return undefined;
	const value = numberField(context, adjustment);
	const adjust = value === 0 ? undefined : optionField(context, adjustBy) === 'percent' ? { percent: value } : { amount: value };
	const adjusted = adjust ? { adjust } : {};
	return basis === 'competitor' ? { basis, hotelCode: codeField(context, anchorHotelCode), ...adjusted } : { basis, ...adjusted };
}

/** A field's bands, each checked; a band list left empty is no uplift. */
function bandsOf(context: IExecuteFunctions, field: INodeProperties): UpliftBand[] {
	const { bands = [] } = context.getNodeParameter(field.name, 0, {}) as { bands?: IDataObject[] };
	return bands.map((band) => ({
		atLeast: parseDecimal(`${field.displayName} At Least`, band.atLeast, { min: 0, max: 100 }),
		percent: parseDecimal(`${field.displayName} Change (%)`, band.percent, { above: -100 }),
	}));
}

function settings(context: IExecuteFunctions): SuggestSettings {
	const options = optionsOf(context);
	const source = calendarSource(context, options);
	const maxChange = numberField(context, maxChangePercent);
	const [lowest, highest] = [numberField(context, minRate), numberField(context, maxRate)];
	if (lowest > 0 && highest > 0 && lowest > highest) throw new FieldError(maxRate.displayName, highest, `is below Minimum Rate (${lowest})`);
	const rules: SuggestionRules = {
		anchor: anchorOf(context),
		eventUplift: source.events ? bandsOf(context, eventUplift) : [],
		demandUplift: source.demand ? bandsOf(context, demandUplift) : [],
		maxChangePercent: maxChange === 0 ? null : maxChange,
		rounding: optionField<RoundingMode>(context, rounding),
		minCompetitors: numberOption(options, minCompetitors),
		...(lowest > 0 ? { minRate: lowest } : {}),
		...(highest > 0 ? { maxRate: highest } : {}),
	};
	return { source, rules, maxListed: numberOption(options, maxListed) };
}

/** A change as it goes for approval (and, approved, to a sheet): a suggestion that was made, so no `skipped`. */
function toApprove(suggestion: Suggestion): IDataObject {
	const { date, weekday, currentRate, suggestedRate, change, changePercent, currency, reason, steps } = suggestion;
	return { date, weekday, currentRate, suggestedRate, change, changePercent, currency, reason, steps: steps as unknown as IDataObject[] };
}

function summaryItem(suggest: SuggestSettings, facts: CalendarFacts, suggestions: ReturnType<typeof suggestRates>): IDataObject {
	const { myHotelCode, website, los, guests, dates } = suggest.source;
	const summary = suggestionSummary(suggestions, { hotelName: facts.hotelName, hotelCode: myHotelCode, website, websiteName: facts.websiteName, los, guests, maxListed: suggest.maxListed });
	return {
		myHotelCode,
		hotelName: facts.hotelName,
		website,
		websiteName: facts.websiteName,
		nights: los,
		guests,
		from: dates[0],
		to: dates[dates.length - 1],
		currency: suggestions.find((suggestion) => suggestion.currency !== null)?.currency ?? null,
		counts: { ...summary.counts },
		text: summary.text,
		html: summary.html,
		changes: summary.changes.map(toApprove),
		suggestions: suggestions as unknown as IDataObject[],
	};
}

export async function execute(this: IExecuteFunctions, store: Store): Promise<INodeExecutionData[]> {
	const suggest = readSettings(this, () => settings(this));
	const facts = await readCalendarFacts(store, suggest.source);
	const { myHotelCode, compSet, website, dates, currency } = suggest.source;
	const days = buildCalendar({
		rates: facts.rates,
		settings: { myHotelCode, compSet, website, dates, ...(currency ? { currency } : {}) },
		events: facts.events,
		demand: facts.demand,
	});
	const suggestions = suggestRates(days, suggest.rules);
	const output = suggest.source.output;
	const items: IDataObject[] = [
		...(output === 'summary' ? [] : suggestions.map((suggestion) => ({ myHotelCode, ...suggestion }) as unknown as IDataObject)),
		...(output === 'dates' ? [] : [summaryItem(suggest, facts, suggestions)]),
	];
	return items.map((json) => ({ json, pairedItem: { item: 0 } }));
}
