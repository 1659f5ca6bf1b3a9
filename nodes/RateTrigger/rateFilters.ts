import { FieldError } from '../shared/errors';
import { CURRENCY_RULE_TEXT, currencyCode, listEntries, optionalDecimal, parseCodes } from '../shared/fields';

/** The node's "Filters" collection as n8n hands it over: only the fields the user added. */
export interface RateFilterParameters {
	hotelCodes?: unknown;
	websiteCodes?: unknown;
	larOnly?: unknown;
	minOnsiteRate?: unknown;
	maxOnsiteRate?: unknown;
	currencies?: unknown;
	statusCodes?: unknown;
}

/** A record passes when it satisfies every filter the user set; within a list any value matches. */
export type RateFilter = (record: Record<string, unknown>) => boolean;

/**
 * Turns the filter settings into one predicate, once per delivery: lists become Sets, so each
 * record costs a few lookups, and a delivery whose records are all filtered out starts nothing.
 */
export function compileRateFilter(parameters: RateFilterParameters): RateFilter {
	const checks: RateFilter[] = [];

	const hotelCodes = codeSet('Hotel Codes', parameters.hotelCodes);
	if (hotelCodes) checks.push((record) => hotelCodes.has(record.hotelCode as number));

	const websiteCodes = codeSet('Website Codes', parameters.websiteCodes);
	if (websiteCodes) checks.push((record) => websiteCodes.has(record.websiteCode as number));

	const statusCodes = codeSet('Status Codes', parameters.statusCodes);
	if (statusCodes) checks.push((record) => statusCodes.has(record.statusCode as number));

	const currencies = currencySet(parameters.currencies);
	if (currencies) {
		checks.push(
			(record) => typeof record.currency === 'string' && currencies.has(record.currency.toUpperCase()),
		);
	}

	if (parameters.larOnly === true) checks.push((record) => record.isLAR === true);

	// A bound the user added but left empty is no bound: it starts empty, and must not drop every record.
	const minRate = optionalDecimal('Onsite Rate At Least', parameters.minOnsiteRate, { min: 0 });
	const maxRate = optionalDecimal('Onsite Rate At Most', parameters.maxOnsiteRate, { min: 0 });
	if (minRate !== undefined && maxRate !== undefined && minRate > maxRate) {
		throw new FieldError('Onsite Rate At Most', maxRate, `must not be below "Onsite Rate At Least" (${minRate})`);
	}
	if (minRate !== undefined) checks.push((record) => isRate(record.onsiteRate) && record.onsiteRate >= minRate);
	if (maxRate !== undefined) checks.push((record) => isRate(record.onsiteRate) && record.onsiteRate <= maxRate);

	return (record) => checks.every((check) => check(record));
}

function isRate(value: unknown): value is number {
	return typeof value === 'number' && Number.isFinite(value);
}

function codeSet(field: string, value: unknown): Set<number> | undefined {
	const codes = parseCodes(field, value);
	return codes.length > 0 ? new Set(codes) : undefined;
}

function currencySet(value: unknown): Set<string> | undefined {
	const entries = listEntries(value);
	if (entries.length === 0) return undefined;
	const currencies = new Set<string>();
	for (const entry of entries) {
		const code = currencyCode(entry);
		if (code === undefined) throw new FieldError('Currencies', value, `"${String(entry)}" is not ${CURRENCY_RULE_TEXT}`);
		currencies.add(code);
	}
	return currencies;
}
