import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { ACCESS_TOKEN_CREDENTIAL, ACCESS_TOKEN_CREDENTIAL_DISPLAY_NAME } from '../nodes/shared/credentialNames';

/** The access token that every endpoint but the airports reference takes (spec part 5). */
export class TravelPricingApi implements ICredentialType {
	name = ACCESS_TOKEN_CREDENTIAL;

	displayName = ACCESS_TOKEN_CREDENTIAL_DISPLAY_NAME;

	icon: Icon = { light: 'file:travelPricing.svg', dark: 'file:travelPricing.dark.svg' };

	documentationUrl = 'https://github.com/travel-pricing/n8n-nodes-travel-pricing#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.example.com',
			description: 'The address of the Hotel Rate, Event and Schedule Data Service, without a path',
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Sent as "Authorization: Bearer <token>" on every request but the airports reference',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.accessToken}}',
			},
		},
	};

	// The cheapest request that only a valid token passes: one event of the first page.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/eventimpact/',
			method: 'POST',
			qs: { eventsImpactPerPage: 1, pageNumber: 1 },
			body: { eventStatusCode: 0 },
			json: true,
		},
		// n8n shows a matching rule's message instead of the bare status text ("Unauthorized").
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message: 'The service refused this access token, or the account\'s validity has expired: check the Access Token field',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message: 'The service was not found at this Base URL (/eventimpact/ answered 404): check the Base URL field',
				},
			},
		],
	};

	httpRequestNode = {
		name: 'Travel Pricing',
		docsUrl: 'https://github.com/travel-pricing/n8n-nodes-travel-pricing#credentials',
		apiBaseUrlPlaceholder: 'https://api.example.com/hotelinfo',
	};
}
