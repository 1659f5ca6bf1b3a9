import type { CredentialSeed } from './cli';
import { isN8n1x } from './runtime';
import { DATA_TABLE_SCOPES } from '../../nodes/RateChanges/storage/dataTables';

/** Fixed ids, so that workflow files can name the credentials they use. */
export const API_CREDENTIAL = { id: 'tpApiCredential1', name: 'Travel Pricing API' };
export const AIRPORTS_CREDENTIAL = { id: 'tpAirportsCred01', name: 'Travel Pricing Airports API' };
export const N8N_API_CREDENTIAL = { id: 'tpN8nApiCred0001', name: 'Travel Pricing n8n API' };
/**
 * The agent example's model: OpenAI's credential type pointing at the scripted model
 * (scriptedModel.ts), which `npm start` runs in demo mode and the agent e2e scripts. A user's own
 * OpenAI credential replaces it.
 */
export const DEMO_MODEL_CREDENTIAL = { id: 'tpDemoModel00001', name: 'Demo model (scripted, offline)' };
/** The MCP example's token: n8n's own Bearer Auth credential type, which the MCP Server Trigger checks. */
export const MCP_BEARER_CREDENTIAL = { id: 'tpMcpBearer00001', name: 'Travel Pricing MCP token' };
/**
 * The email examples' mail server: n8n's SMTP credential type pointing at the demo inbox
 * (platform/inbox), which takes every message and keeps it. A user's own SMTP credential replaces it.
 */
export const DEMO_SMTP_CREDENTIAL = { id: 'tpDemoSmtp000001', name: 'Demo inbox (SMTP)' };

/**
 * What Rate Changes' tables need of an n8n API key (n8n without scopes gives a key every scope):
 * the node's own list, so a key the harness makes has exactly the scopes the node's page names.
 */
export { DATA_TABLE_SCOPES };

/**
 * The scopes of the key the harness gives Rate Changes. n8n 1.x has no Data Table scopes (and no
 * Data Tables in its public API) and takes no key without a scope: there the key may read
 * workflows, so that what Rate Changes meets is the missing route, not a refused key.
 */
export function rateChangesKeyScopes(version: string): readonly string[] {
	return isN8n1x(version) ? ['workflow:read'] : [...DATA_TABLE_SCOPES];
}

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

/** The credential of Rate Changes: an API key of the n8n the node runs in, and that n8n's address. */
export function n8nApiCredential(baseUrl: string, apiKey: string): CredentialSeed {
	return { ...N8N_API_CREDENTIAL, type: 'travelPricingN8nApi', data: { baseUrl, apiKey } };
}

/** The token an MCP client must send as `Authorization: Bearer <token>` to the MCP example. */
export function mcpBearerCredential(token: string): CredentialSeed {
	return { ...MCP_BEARER_CREDENTIAL, type: 'httpBearerAuth', data: { token } };
}

/**
 * The demo inbox's SMTP server as n8n's SMTP credential (what the Send Email node needs): plain
 * SMTP on loopback, so SSL/TLS off and STARTTLS not tried, and no user (the inbox has no accounts).
 */
export function demoSmtpCredential(smtp: { host: string; port: number }): CredentialSeed {
	return { ...DEMO_SMTP_CREDENTIAL, type: 'smtp', data: { user: '', password: '', host: smtp.host, port: smtp.port, secure: false, disableStartTls: true, hostName: '' } };
}

/** The scripted model at url (`…/v1`) as an OpenAI credential; it takes any key. */
export function demoModelCredential(url: string): CredentialSeed {
	return { ...DEMO_MODEL_CREDENTIAL, type: 'openAiApi', data: { apiKey: 'demo-model-needs-no-key', url, header: false } };
}

const CREDENTIAL_BY_TYPE: Record<string, { id: string; name: string }> = {
	travelPricingApi: API_CREDENTIAL,
	travelPricingAirportsApi: AIRPORTS_CREDENTIAL,
	travelPricingN8nApi: N8N_API_CREDENTIAL,
	httpBearerAuth: MCP_BEARER_CREDENTIAL,
	openAiApi: DEMO_MODEL_CREDENTIAL,
	smtp: DEMO_SMTP_CREDENTIAL,
};

/**
 * Points every credential reference of the types above in a workflow at the imported
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
