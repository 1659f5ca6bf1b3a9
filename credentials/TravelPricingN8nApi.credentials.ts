import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { checkKeyScopes, SCOPES_CHECKED_AT } from '../nodes/RateChanges/storage/keyScopes';
import { N8N_API_CREDENTIAL, N8N_API_CREDENTIAL_DISPLAY_NAME } from '../nodes/shared/credentialNames';

/**
 * An API key of the user's own n8n, for the Data Tables that Rate Changes keeps its memory in.
 * n8n lets a community node reach Data Tables only through its public API (its in-process data
 * table proxy serves n8n's own nodes alone), and a community node may not borrow n8n's own
 * "n8n API" credential, so the package has this one. Before its Test's one request, and before
 * an execution's first request with a key not yet checked, its preAuthentication tries each data
 * table scope Rate Changes needs and names the ones the key lacks (storage/keyScopes.ts).
 */
export class TravelPricingN8nApi implements ICredentialType {
	name = N8N_API_CREDENTIAL;

	displayName = N8N_API_CREDENTIAL_DISPLAY_NAME;

	icon: Icon = { light: 'file:travelPricing.svg', dark: 'file:travelPricing.dark.svg' };

	documentationUrl = 'https://github.com/travel-pricing/n8n-nodes-travel-pricing/blob/main/docs/nodes/rate-changes.md#prerequisites';

	properties: INodeProperties[] = [
		{
			displayName: 'n8n Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. http://localhost:5678',
			description:
				'The address of this n8n as n8n itself reaches it (the editor address, without /api/v1). The API key is sent to this address only.',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'An n8n API key (Settings > n8n API > Create an API key). Where your plan offers scopes, give it only the data table and data table row scopes.',
		},
		{
			// When the key was last found to have every scope: n8n runs preAuthentication while it is
			// empty (and on every Test, and after a 401), and stores what it returns.
			displayName: 'Scopes Checked At',
			name: SCOPES_CHECKED_AT,
			type: 'hidden',
			typeOptions: { expirable: true },
			default: '',
		},
	];

	preAuthentication = checkKeyScopes;

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				'X-N8N-API-KEY': '={{$credentials.apiKey}}',
			},
		},
	};

	// One data table, if any: succeeds only with a valid key on an n8n whose public API has Data Tables.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/api/v1/data-tables',
			method: 'GET',
			qs: { limit: 1 },
			json: true,
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message: 'n8n refused this API key (or it has expired): check the API Key field',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message: 'This API key may not read data tables: give it the data table scopes, or use a key without scopes',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'No n8n public API with Data Tables answers at this Base URL: check the n8n Base URL field, that the public API is enabled, and that n8n is 2.8 or later',
				},
			},
		],
	};
}
