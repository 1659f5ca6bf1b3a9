/**
 * The two credential types of spec part 5, named once: the credential classes, the nodes that
 * ask for them and the transport that picks one per endpoint all read these.
 */

/** The access token every endpoint but the airports reference takes. */
export const ACCESS_TOKEN_CREDENTIAL = 'travelPricingApi';
export const ACCESS_TOKEN_CREDENTIAL_DISPLAY_NAME = 'Travel Pricing API';

/** The API key of the airports reference. */
export const AIRPORTS_CREDENTIAL = 'travelPricingAirportsApi';
export const AIRPORTS_CREDENTIAL_DISPLAY_NAME = 'Travel Pricing Airports API';
