import type { Source } from '../types';

/** The service websites a hotel source can point at. Codes are stable and documented. */
export interface Website {
	websitecode: number;
	websitename: string;
	channeltype: Source['channeltype'];
	/** Builds the hotel's page on this site from a URL slug. */
	urlFor(slug: string, countryCode: string): string;
}

export const WEBSITES: readonly Website[] = [
	{ websitecode: 1, websitename: 'Booking.com', channeltype: 'OTA', urlFor: (s, cc) => `https://www.booking.com/hotel/${cc.toLowerCase()}/${s}.html` },
	{ websitecode: 2, websitename: 'Expedia', channeltype: 'OTA', urlFor: (s) => `https://www.expedia.com/${s}.Hotel-Information` },
	{ websitecode: 3, websitename: 'Agoda', channeltype: 'OTA', urlFor: (s) => `https://www.agoda.com/${s}/hotel.html` },
	{ websitecode: 4, websitename: 'Hotels.com', channeltype: 'OTA', urlFor: (s) => `https://www.hotels.com/ho-${s}` },
	{ websitecode: 5, websitename: 'Trip.com', channeltype: 'OTA', urlFor: (s) => `https://www.trip.com/hotels/detail/${s}` },
	{ websitecode: 6, websitename: 'Priceline', channeltype: 'OTA', urlFor: (s) => `https://www.priceline.com/relax/at/${s}` },
	{ websitecode: 7, websitename: 'Travelocity', channeltype: 'OTA', urlFor: (s) => `https://www.travelocity.com/${s}.Hotel-Information` },
	{ websitecode: 8, websitename: 'Orbitz', channeltype: 'OTA', urlFor: (s) => `https://www.orbitz.com/${s}.Hotel-Information` },
	{ websitecode: 9, websitename: 'Hotwire', channeltype: 'OTA', urlFor: (s) => `https://www.hotwire.com/hotels/${s}` },
	{ websitecode: 10, websitename: 'Trivago', channeltype: 'Metasearch', urlFor: (s) => `https://www.trivago.com/en-US/oar/${s}` },
	{ websitecode: 11, websitename: 'Kayak', channeltype: 'Metasearch', urlFor: (s) => `https://www.kayak.com/hotels/${s}` },
	{ websitecode: 12, websitename: 'Google Hotels', channeltype: 'Metasearch', urlFor: (s) => `https://www.google.com/travel/hotels/entity/${s}` },
	{ websitecode: 13, websitename: 'Tripadvisor', channeltype: 'Metasearch', urlFor: (s) => `https://www.tripadvisor.com/Hotel_Review-${s}.html` },
	{ websitecode: 14, websitename: 'Sabre', channeltype: 'GDS', urlFor: (s) => `https://gds.sabre.com/property/${s}` },
	{ websitecode: 15, websitename: 'Amadeus', channeltype: 'GDS', urlFor: (s) => `https://gds.amadeus.com/hotel/${s}` },
	{ websitecode: 16, websitename: 'Travelport', channeltype: 'GDS', urlFor: (s) => `https://gds.travelport.com/hotel/${s}` },
];

/** Brand.com sources: one per hotel chain, chosen by the hotel's brand. */
export const BRAND_WEBSITES: readonly Website[] = [
	{ websitecode: 101, websitename: 'Marriott.com', channeltype: 'Brand', urlFor: (s) => `https://www.marriott.com/hotels/travel/${s}` },
	{ websitecode: 102, websitename: 'Hilton.com', channeltype: 'Brand', urlFor: (s) => `https://www.hilton.com/en/hotels/${s}` },
	{ websitecode: 103, websitename: 'IHG.com', channeltype: 'Brand', urlFor: (s) => `https://www.ihg.com/hotels/${s}` },
	{ websitecode: 104, websitename: 'All.accor.com', channeltype: 'Brand', urlFor: (s) => `https://all.accor.com/hotel/${s}` },
	{ websitecode: 105, websitename: 'Hyatt.com', channeltype: 'Brand', urlFor: (s) => `https://www.hyatt.com/${s}` },
	{ websitecode: 106, websitename: 'Radissonhotels.com', channeltype: 'Brand', urlFor: (s) => `https://www.radissonhotels.com/${s}` },
];

export const ALL_WEBSITES: readonly Website[] = [...WEBSITES, ...BRAND_WEBSITES];
