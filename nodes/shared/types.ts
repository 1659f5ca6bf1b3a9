/** Records of the Hotel Rate, Event and Schedule Data Service, as SERVICE-SPEC.md part 2 gives them. */

export interface Source {
	websitecode: number;
	websitename: string;
	url: string;
	channeltype: string;
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
	/** The spec types it as "object"; a list is as plausible (docs/api-assumptions.md). */
	sources: Source[] | Record<string, Source> | Source;
}

export interface ScheduleFields {
	schedulename: string;
	rateshopid: number;
	year: string;
	month: string;
	dow: string;
	day: string;
	hour: string;
	minute: string;
	seconds: string;
	status?: 0 | 1;
	startdate: string;
	enddate?: string;
}

export interface Schedule extends ScheduleFields {
	scheduleid: number;
}

export interface EventRecord {
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

export interface PageInfo {
	totalRecords: number;
	fetchedRecords: number;
	totalPages: number;
	currentPage: number;
	pageSize: number;
}

export interface EventImpactResponse {
	pageInfo: PageInfo;
	events: EventRecord[];
}

export interface Airport {
	_id: string;
	id: string;
	airportName: string;
	city: string;
	airportCode: string;
	isActiveStatus: boolean;
}

export interface AirportsResponse {
	error: boolean;
	airports: Airport[];
	totalData: number;
	totalPages: number;
	page: number;
	size: number;
}

export type WebhookAuthType = 'none' | 'basic' | 'bearer' | 'header';

export interface WebhookRegistration {
	endpoint: string;
	authType: WebhookAuthType;
	userName?: string;
	password?: string;
	token?: string;
	/** Not named by the spec: the header that carries `token` when authType is `header`. */
	headerName?: string;
}

export interface Market {
	pickupLocation: string;
	dropLocation: string;
}

export interface ShopUpdate {
	shopName: string;
	markets: Market[];
	websiteCode: number[];
	cob: string;
	lor: number;
	currency: string;
	horizon: number;
	horizonDow?: number[];
	pickupTime: string;
	dropTime: string;
}

export interface MessageResponse {
	message: string;
}

/** One row of a demand value table: HotelCode, HotelName and one integer member per date. */
export type DemandValueRow = { HotelCode: number; HotelName: string } & Record<string, number | string>;

export interface DemandEventRecord {
	id: number;
	eventName: string;
	venue: string;
	category: string;
	city: string;
	date: string;
	Estimated_Attendees: number;
	latitude: number;
	longitude: number;
}

export interface HotelDemandResponse {
	'Absolute_Value.json': DemandValueRow[];
	'Events_registered.json': DemandValueRow[];
	'Relative_Values.json': DemandValueRow[];
	'Event_records.json': DemandEventRecord[];
}

/** A rate record as the service posts it to a registered webhook (spec part 6). */
export interface RateRecord {
	shopId: number;
	dtCollected: string;
	websiteCode: number;
	checkIn: string;
	checkOut: string;
	los: number;
	pos: number;
	guests: number;
	hotelId: number;
	hotelCode: number;
	hotelName: string;
	sourceUrl: string;
	address: string;
	city: string;
	state: string;
	country: string;
	latitude: string;
	longitude: string;
	currency: string;
	isLAR: boolean;
	propertyType: string;
	roomType: string;
	roomDescription: string;
	roomAmenities: string;
	mapLink: string;
	roomAvailable: string;
	roomLeft: string;
	reviewRating: number;
	reviewsCount: number;
	taxAmount: number;
	taxType: string;
	taxStatus: number;
	mealPlan: string;
	ratePlan: string;
	locationRating: number;
	promo: string;
	ratingText: string;
	onsiteRate: number;
	netRate: number;
	discount: number;
	occupancy: number;
	paymentType: string;
	rankingListingCount: number;
	navigationPage: number;
	newArrival: string;
	distanceHotel: number;
	otherInformation: string;
	statusCode: number;
	otherRatings: { htlRating: number; aptRating: number; dotsRating: number };
	ratingFlags: { preferredPartner: boolean; preferredPlus: boolean };
}
