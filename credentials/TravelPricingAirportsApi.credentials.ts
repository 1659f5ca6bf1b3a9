import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { AIRPORTS_CREDENTIAL, AIRPORTS_CREDENTIAL_DISPLAY_NAME } from '../nodes/shared/credentialNames';

/** The API key of the airports reference, sent bare, with no scheme word (spec part 5). */
export class TravelPricingAirportsApi implements ICredentialType {
	name = AIRPORTS_CREDENTIAL;

	displayName = AIRPORTS_CREDENTIAL_DISPLAY_NAME;

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
			description: 'The address of the service, without a path; the node adds /api/v1/references/airports',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Sent as the whole value of the Authorization header, with no "Bearer" before it',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '={{$credentials.apiKey}}',
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/api/v1/references/airports',
			method: 'GET',
			qs: { page: 1, size: 1 },
			json: true,
		},
		// n8n shows a matching rule's message instead of the bare status text ("Unauthorized").
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message: 'The service refused this API key, or the account\'s validity has expired: check the API Key field',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message: 'The service was not found at this Base URL (/api/v1/references/airports answered 404): check the Base URL field',
				},
			},
		],
	};

	httpRequestNode = {
		name: 'Travel Pricing Airports',
		docsUrl: 'https://github.com/travel-pricing/n8n-nodes-travel-pricing#credentials',
		apiBaseUrlPlaceholder: 'https://api.example.com/api/v1/references/airports',
	};
}
