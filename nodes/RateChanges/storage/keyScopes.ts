import type { ICredentialDataDecryptedObject, IDataObject, IHttpRequestHelper, IHttpRequestMethods, IN8nHttpFullResponse } from 'n8n-workflow';

import { CredentialCheckError, joinUrl } from '../../shared/send';

import { DATA_TABLE_SCOPES, SCOPE_REQUESTS, type DataTableScope } from './dataTables';

/**
 * Whether the "Travel Pricing n8n API" key may do every request Rate Changes sends: the
 * credential's preAuthentication, which n8n runs on its Test and before the first request an
 * execution sends with a credential not yet checked. n8n checks a key's scopes before it reads a
 * request's body or looks for the table (after only the key and its OpenAPI document's checks),
 * so each scope is tried with a request n8n then refuses without changing anything: 403 if the
 * key lacks the scope, anything else if it has it. Where keys carry every scope (2.8 without an
 * enterprise licence), all of them pass.
 */

/** What a scope's request (SCOPE_REQUESTS) carries when it is tried. */
interface Probe {
	query?: Record<string, string>;
	body?: IDataObject;
}

/** A table id of n8n's form (16 letters and digits) that no table has: n8n's own are random. */
const ABSENT_TABLE_ID = 'NoSuchTable00000';

const ANY_ROW = { type: 'and', filters: [{ columnName: 'id', condition: 'eq', value: 0 }] };

/** One request per scope the node's page names, sent where the node sends it; a new scope without a probe does not compile. */
const PROBES: Record<DataTableScope, Probe> = {
	'dataTable:list': { query: { limit: '1' } },
	// A blank name passes the OpenAPI document (one character) and fails n8n's own rule (trimmed,
	// one character): 400, and no table.
	'dataTable:create': { body: { name: ' ', columns: [] } },
	'dataTableRow:read': { query: { limit: '1' } },
	'dataTableRow:create': { body: { data: [{}] } },
	'dataTableRow:update': { body: { filter: ANY_ROW, data: { unchanged: null } } },
	'dataTableRow:delete': { query: { filter: JSON.stringify(ANY_ROW) } },
};

/** A scope's request, on a table that does not exist. */
function probeTarget(scope: DataTableScope): { method: IHttpRequestMethods; path: string } {
	const [method, path] = SCOPE_REQUESTS[scope].split(' ');
	return { method: method as IHttpRequestMethods, path: path.replace('{id}', ABSENT_TABLE_ID) };
}

const ANSWER_TIMEOUT_MS = 15_000;

/** The credential's hidden field that holds when its key was last found to have every scope. */
export const SCOPES_CHECKED_AT = 'scopesCheckedAt';

/**
 * Tries each scope and returns the check's time, which n8n stores in the credential's hidden
 * field so an execution checks a credential once, not each request. A refused key (401), an n8n
 * without Data Tables (404) and an unreachable one are not checked: nothing is stored, and the
 * request that follows (the Test's, or the node's) meets the same answer and says so in its own
 * words. n8n runs this again after a 401, so a key revoked later costs one probe.
 */
export async function checkKeyScopes(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject): Promise<IDataObject> {
	const baseUrl = String(credentials.baseUrl ?? '');
	const apiKey = String(credentials.apiKey ?? '');
	const send = async (scope: DataTableScope) => ({ scope, status: await this.helpers.httpRequest(probeRequest(baseUrl, apiKey, scope)).then(statusOf, unanswered) });

	const listed = await send('dataTable:list');
	if (listed.status === undefined || listed.status === 401 || listed.status === 404) return {};
	if (listed.status !== 403 && !isSuccess(listed.status)) throw unexpected(listed.scope, listed.status);

	const answers = [listed, ...(await Promise.all(DATA_TABLE_SCOPES.filter((scope) => scope !== listed.scope).map(send)))];
	const missing: string[] = [];
	for (const { scope, status } of answers) {
		if (status === undefined) return {};
		// Anything but a refusal came after the scope check: a 400 or a 404 here means allowed.
		if ((status >= 300 && status < 400) || status >= 500) throw unexpected(scope, status);
		if (status === 403) missing.push(scope);
	}
	if (missing.length > 0) throw missingScopes(missing);
	return { [SCOPES_CHECKED_AT]: new Date().toISOString() };
}

/** The key goes in n8n's header, to the Base URL alone: redirects are not followed. */
function probeRequest(baseUrl: string, apiKey: string, scope: DataTableScope) {
	const { method, path } = probeTarget(scope);
	return {
		method,
		url: joinUrl(baseUrl, `/api/v1${path}`),
		qs: PROBES[scope].query,
		body: PROBES[scope].body,
		headers: { 'X-N8N-API-KEY': apiKey },
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		timeout: ANSWER_TIMEOUT_MS,
	};
}

function statusOf(response: unknown): number {
	return (response as IN8nHttpFullResponse).statusCode;
}

/** A probe nothing answered (or whose answer was lost): the key could not be checked. */
function unanswered(): undefined {
	return undefined;
}

function isSuccess(status: number): boolean {
	return status >= 200 && status < 300;
}

function unexpected(scope: DataTableScope, status: number): CredentialCheckError {
	const { method, path } = probeTarget(scope);
	return new CredentialCheckError(`n8n's API answered HTTP ${status} to ${method} /api/v1${path}: check the n8n Base URL field`);
}

function missingScopes(scopes: string[]): CredentialCheckError {
	const [noun, pronoun] = scopes.length === 1 ? ['scope', 'it'] : ['scopes', 'them'];
	return new CredentialCheckError(`This API key lacks the ${noun} ${scopes.join(', ')} that Rate Changes needs: in n8n, open Settings > n8n API, edit the key and add ${pronoun}`);
}
