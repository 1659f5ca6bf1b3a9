import type { CredentialSeed } from './instance';

/** Fixed ids, so that workflow files can name the credentials they use. */
export const API_CREDENTIAL = { id: 'tpApiCredential1', name: 'Travel Pricing API' };
export const AIRPORTS_CREDENTIAL = { id: 'tpAirportsCred01', name: 'Travel Pricing Airports API' };

export interface ServiceAccess {
	baseUrl: string;
	accessToken: string;
	apiKey: string;
}

/** Both credential types of the package, pointing at one service (the sandbox, or a real one). */
export function serviceCredentials(access: ServiceAccess): CredentialSeed[] {
	return [
		{
			...API_CREDENTIAL,
			type: 'travelPricingApi',
			data: { baseUrl: access.baseUrl, accessToken: access.accessToken },
		},
		{
			...AIRPORTS_CREDENTIAL,
			type: 'travelPricingAirportsApi',
			data: { baseUrl: access.baseUrl, apiKey: access.apiKey },
		},
	];
}

const CREDENTIAL_BY_TYPE: Record<string, { id: string; name: string }> = {
	travelPricingApi: API_CREDENTIAL,
	travelPricingAirportsApi: AIRPORTS_CREDENTIAL,
};

/**
 * Points every credential reference of the package's types in a workflow at the imported
 * credentials, whatever id the workflow file was saved with (a template exported from another
 * n8n carries that n8n's ids).
 */
export function bindCredentials<T extends { nodes: Array<Record<string, unknown>> }>(workflow: T): T {
	const nodes = workflow.nodes.map((node) => {
		const credentials = node.credentials as Record<string, unknown> | undefined;
		if (!credentials) return node;
		const bound = Object.fromEntries(
			Object.entries(credentials).map(([type, reference]) => [type, CREDENTIAL_BY_TYPE[type] ?? reference]),
		);
		return { ...node, credentials: bound };
	});
	return { ...workflow, nodes };
}
