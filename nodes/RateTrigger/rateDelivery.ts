import type { IDataObject } from 'n8n-workflow';

import { authChallenge, isAuthenticDelivery, type DeliveryAuth, type DeliveryHeaders } from './deliveryAuth';
import type { RateFilter } from './rateFilters';
import { rateRecordProblems, readDeliveryContent, summarizeProblems } from './rateRecord';

export interface RateDelivery {
	headers: DeliveryHeaders;
	/** The body as n8n parsed it. */
	body: unknown;
	/** The raw bytes, for bodies n8n did not parse (no or an unusual content type). */
	rawBody?: unknown;
}

export interface ReceiveSettings {
	auth: DeliveryAuth;
	filter: RateFilter;
	/** Emit records that fail the part 6 check, marked with `_validationErrors`, instead of refusing the delivery. */
	passInvalidRecords: boolean;
}

/** What the service is answered and which records start the workflow (none: no execution). */
export interface ReceiveOutcome {
	status: 200 | 400 | 401;
	headers: Record<string, string>;
	body: IDataObject;
	records: IDataObject[];
}

/**
 * The whole receiving side, pure: authenticate, then read and check the records, then filter.
 * Authentication comes first, so an unauthenticated caller learns nothing about the body rules.
 */
export function receiveRateDelivery(delivery: RateDelivery, settings: ReceiveSettings): ReceiveOutcome {
	if (!isAuthenticDelivery(delivery.headers, settings.auth)) {
		return refuse(401, 'Authentication failed', [], authChallenge(settings.auth));
	}

	const content = readDeliveryContent(delivery.body, delivery.rawBody);
	if (content.rejection !== undefined) return refuse(400, content.rejection);
	const candidates = content.records;

	const records: IDataObject[] = [];
	const invalid: string[] = [];
	for (const [index, candidate] of candidates.entries()) {
		const problems = rateRecordProblems(candidate);
		if (problems.length > 0) {
			if (!settings.passInvalidRecords) {
				invalid.push(`record ${index}: ${summarizeProblems(problems)}`);
				continue;
			}
			candidate._validationErrors = problems;
		}
		if (invalid.length === 0 && settings.filter(candidate)) records.push(candidate as IDataObject);
	}

	if (invalid.length > 0) {
		const reason =
			candidates.length === 1
				? `The rate record is invalid: ${invalid[0].replace(/^record 0: /, '')}`
				: `${invalid.length} of ${candidates.length} rate records are invalid`;
		return refuse(400, reason, invalid.slice(0, 20));
	}

	return {
		status: 200,
		headers: {},
		body: { received: candidates.length, emitted: records.length },
		records,
	};
}

function refuse(
	status: 400 | 401,
	reason: string,
	details: string[] = [],
	headers: Record<string, string> = {},
): ReceiveOutcome {
	const body: IDataObject = { error: true, status, message: reason };
	if (details.length > 0) body.errors = details;
	return { status, headers, body, records: [] };
}
