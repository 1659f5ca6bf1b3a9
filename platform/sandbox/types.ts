/**
 * The service's record types as the sandbox serves them (spec part 2 and part 6),
 * plus the sandbox's own configuration types. Records whose shape the spec fixes outright are
 * the package's own types, so the simulator and the nodes cannot drift apart.
 */

import type { RateRecord as SpecRateRecord } from '../../nodes/RateTrigger/rateRecord';

export type { Airport } from '../../nodes/shared/airports';
export type { Market, ShopUpdate as ShopConfig } from '../../nodes/ShopUpdate/shopFields';
export type { WebhookAuthType as AuthType, WebhookRegistration } from '../../nodes/RateTrigger/deliveryAuth';

export interface Source {
	websitecode: number;
	websitename: string;
	url: string;
	channeltype: 'OTA' | 'Brand' | 'Metasearch' | 'GDS';
	snapshotavailable: boolean;
}

export interface Hotel {
	hotelcode: number;
	hotelname: string;
	address: string;
	city: string;
	state: string;
	zip: string;
	country: string;
	starrating: string;
	lat: number;
	long: number;
	sources: Source[];
}

export interface Schedule {
	scheduleid: number;
	schedulename: string;
	rateshopid: number;
	year: string;
	month: string;
	dow: string;
	day: string;
	hour: string;
	minute: string;
	seconds: string;
	status: 0 | 1;
	startdate: string;
	enddate: string | null;
}

export interface ServiceEvent {
	id: number;
	eventId: number;
	venueId: number;
	eventName: string;
	category: string;
	subCategory: string;
	description: string;
	startDate: string;
	endDate: string;
	estimatedAttendees: number;
	impactEventType: string;
	venue: string;
	address: string;
	city: string;
	state: string;
	zip: string;
	country: string;
	countryCode: string;
	region: string;
	latitude: string;
	longitude: string;
	impactScore: number;
	eventStatus: string;
}






/** A rate record of spec part 6, plus one field of the sandbox's own. */
export interface RateRecord extends SpecRateRecord {
	/** Extra field beyond spec part 6: a unique, deterministic identity per record. */
	recordId: string;
}

/** The two accounts the sandbox knows. */
export type AccountId = 'demo' | 'other';

/** Which kind of credential a request presented; logged instead of the secret itself. */
export type CredentialKind = 'bearer' | 'apiKey' | 'expired' | 'invalid' | 'missing';

/** Per-endpoint keys used by faults and the request log. */
export const ENDPOINT_KEYS = [
	'hotelinfo',
	'schedule',
	'eventimpact',
	'airports',
	'webhook',
	'hoteldemanddata',
	'shops',
] as const;
export type EndpointKey = (typeof ENDPOINT_KEYS)[number];

export interface EndpointFaults {
	/** Probability (0..1) of answering 429 instead of serving the request. */
	p429?: number;
	/** Probability (0..1) of answering 500 instead of serving the request. */
	p500?: number;
	/**
	 * Probability (0..1) of serving the request (its effect happens: a schedule is stored, a webhook
	 * registered) and then closing the connection without sending the answer, as a proxy or a
	 * network that drops a connection mid-request would (sandbox extra).
	 */
	pDrop?: number;
	/** Retry-After header value sent with injected 429s (default 1). */
	retryAfterSeconds?: number;
	/** Inject at most this many faults on this endpoint, then serve normally (sandbox extra). */
	times?: number;
}

export interface FaultSettings {
	/** Added before answering every API request. */
	latencyMs?: number;
	/** Requests allowed per credential per 1-second window; over it → 429 with Retry-After. */
	rateLimitPerSecond?: number;
	/** Seed of the PRNG that decides p429/p500 (default 1), so fault sequences repeat. */
	seed?: number;
	endpoints?: Partial<Record<EndpointKey | '*', EndpointFaults>>;
}

export interface Variants {
	/** Serve Hotel.sources as an object keyed by websitecode instead of a list. */
	sourcesAsObject: boolean;
	/** Serve a single-code hotelinfo answer as `[hotel]` instead of `hotel`. */
	singleHotelAsArray: boolean;
}
