import { randomUUID } from 'node:crypto';
import { ExecuteContext, RoutingNode } from 'n8n-core';
import { createRunExecutionData, Workflow, type ICredentialDataDecryptedObject, type ICredentialsDecrypted, type INode, type INodeType } from 'n8n-workflow';

import { additionalDataFor, HarnessCredentialsHelper, loadPackage, type CredentialSet } from './engine';

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
 * Does what n8n's "Test" button does with a credential type's `test` request (n8n's
 * CredentialsTester): a noOp node whose one field routes that request runs in n8n-core's
 * RoutingNode, which sends it with httpRequestWithAuthentication (so a type's preAuthentication
 * runs first, as a test); a thrown error gives the message of the rule for its status, or its own.
 */
export async function testCredential(type: string, data: ICredentialDataDecryptedObject): Promise<CredentialTestResult> {
	const loader = await loadPackage();
	const helper = new HarnessCredentialsHelper(loader, { [type]: { ...data } });
	const test = helper.credentialType(type).test;
	if (!test) throw new Error(`Credential type ${type} has no test`);

	const credentialsDecrypted: ICredentialsDecrypted = { id: randomUUID(), name: 'Credential test', type, data: await helper.getDecrypted({} as never, {} as never, type) };
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [type]: { id: credentialsDecrypted.id, name: credentialsDecrypted.name } },
	};
	const testNode = {
		description: {
			displayName: 'No Operation',
			name: 'n8n-nodes-base.noOp',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: { name: 'No Operation' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: type, required: true }],
			properties: [{ displayName: 'Temp', name: 'temp', type: 'string', routing: { request: test.request }, default: '' }],
		},
	} as unknown as INodeType;
	const nodeTypes = { getByName: () => testNode, getByNameAndVersion: () => testNode, getKnownTypes: () => ({}) };
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const additionalData = additionalDataFor(helper, { id: randomUUID(), name: 'Credential test', nodes: [node], connections: {} }, 'internal', randomUUID());
	const context = new ExecuteContext(workflow, node, additionalData, 'internal', createRunExecutionData(), 0, [], { main: [[{ json: {} }]] }, { node, data: {}, source: null }, []);
	try {
		await new RoutingNode(context, testNode, credentialsDecrypted).runNode();
	} catch (error) {
		// n8n's tester reads the status (or socket code) off the axios error its NodeApiError wraps;
		// the n8n-core the harness runs keeps it as the error's httpCode instead.
		const failure = error as { cause?: { response?: { status: number; statusText?: string }; code?: string }; httpCode?: string | null; message: string };
		const httpCode = failure.httpCode ?? '';
		const status = failure.cause?.response?.status ?? (/^\d{3}$/.test(httpCode) ? Number(httpCode) : undefined);
		if (status !== undefined) {
			const rule = test.rules?.find((candidate) => candidate.type === 'responseCode' && candidate.properties.value === status);
			if (rule?.type === 'responseCode') return { status: 'Error', message: rule.properties.message };
			if (status < 200 || status > 299) return { status: 'Error', message: failure.cause?.response?.statusText || `Received HTTP status code: ${status}` };
		}
		const code = failure.cause?.code ?? (/^E[A-Z_]+$/.test(httpCode) ? httpCode : undefined);
		if (code) return { status: 'Error', message: code };
		return { status: 'Error', message: failure.message };
	}
	return { status: 'OK', message: 'Connection successful!' };
}
