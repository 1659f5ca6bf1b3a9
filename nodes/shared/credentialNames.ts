/**
 * The credential types, named once: the two of spec part 5 and the n8n API key of Rate Changes. The credential classes, the nodes that
 * ask for them and the transport that picks one per endpoint all read these.
 */

/** The access token every endpoint but the airports reference takes. */
export const ACCESS_TOKEN_CREDENTIAL = 'travelPricingApi';
export const ACCESS_TOKEN_CREDENTIAL_DISPLAY_NAME = 'Travel Pricing API';

/** The API key of the airports reference. */
export const AIRPORTS_CREDENTIAL = 'travelPricingAirportsApi';
export const AIRPORTS_CREDENTIAL_DISPLAY_NAME = 'Travel Pricing Airports API';

/**
 * An API key of the user's own n8n: Rate Changes keeps its memory in n8n's Data Tables through
 * n8n's public API, the only way n8n lets a community node reach them.
 */
export const N8N_API_CREDENTIAL = 'travelPricingN8nApi';
export const N8N_API_CREDENTIAL_DISPLAY_NAME = 'Travel Pricing n8n API';
