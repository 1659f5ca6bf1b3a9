import axios from 'axios';
import { randomUUID } from 'node:crypto';
import { Workflow, type ICredentialDataDecryptedObject, type IDataObject, type IHttpRequestOptions, type INode, type INodeType } from 'n8n-workflow';

import { HarnessCredentialsHelper, loadPackage, type CredentialSet } from './engine';

/** Both credential types filled in with the sandbox's demo secrets. */
export function credentialsFor(sandbox: {
	baseUrl: string;
	credentials: { accessToken: string; apiKey: string };
}): CredentialSet {
	return {
		travelPricingApi: { baseUrl: sandbox.baseUrl, accessToken: sandbox.credentials.accessToken },
		travelPricingAirportsApi: { baseUrl: sandbox.baseUrl, apiKey: sandbox.credentials.apiKey },
	};
}

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

/**
 * Does what n8n's "Test" button does with a credential type's `test` request: fills its
 * expressions from the credential, applies the type's `authenticate`, sends it and calls any
 * 2xx answer a success.
 */
export async function testCredential(
	type: string,
	data: ICredentialDataDecryptedObject,
): Promise<CredentialTestResult> {
	const loader = await loadPackage();
	const helper = new HarnessCredentialsHelper(loader, { [type]: data });
	const test = helper.credentialType(type).test;
	if (!test) throw new Error(`Credential type ${type} has no test`);

	const node: INode = { id: randomUUID(), name: 'Credential test', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [0, 0], parameters: {} };
	// The expression engine only needs a workflow around the node; the node type has no fields.
	const noFields = { description: { properties: [] } } as unknown as INodeType;
	const nodeTypes = { getByName: () => noFields, getByNameAndVersion: () => noFields, getKnownTypes: () => ({}) };
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const resolve = (value: unknown): unknown =>
		typeof value === 'string' && value.startsWith('=')
			? workflow.expression.getSimpleParameterValue(node, value, 'internal', { $credentials: data }, undefined, '')
			: value;

	const request = test.request;
	const options: IHttpRequestOptions = {
		method: request.method ?? 'GET',
		url: `${resolve(request.baseURL) as string}${resolve(request.url) as string}`,
		qs: request.qs as IDataObject,
		body: request.body as IDataObject,
		headers: (request.headers as IDataObject) ?? {},
		json: true,
	};
	const authenticated = await helper.authenticate(data, type, options, workflow, node);
	try {
		const response = await axios.request({
			method: authenticated.method,
			url: authenticated.url,
			params: authenticated.qs,
			data: authenticated.body,
			headers: authenticated.headers as Record<string, string>,
			validateStatus: () => true,
			timeout: 10_000,
		});
		if (response.status >= 200 && response.status < 300) return { status: 'OK', message: 'Connection tested successfully' };
		// As n8n's credential tester does: a rule for the status gives the message shown to the user.
		const rule = test.rules?.find((candidate) => candidate.type === 'responseCode' && candidate.properties.value === response.status);
		if (rule?.type === 'responseCode') return { status: 'Error', message: rule.properties.message };
		return { status: 'Error', message: `Authorization failed - HTTP ${response.status}` };
	} catch (error) {
		return { status: 'Error', message: (error as Error).message };
	}
}
