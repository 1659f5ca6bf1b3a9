/**
 * Small stand-ins for the contexts n8n hands a webhook trigger: IHookFunctions for activation and
 * deactivation, IWebhookFunctions for each delivery. Parameters, credentials, URLs and static data
 * are plain values a test sets; HTTP goes wherever `send` sends it.
 */
import type { ServerResponse } from 'node:http';

import type {
	IDataObject,
	IHookFunctions,
	IHttpRequestOptions,
	INode,
	INodeParameters,
	IWebhookFunctions,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';

import { ACCESS_TOKEN_CREDENTIAL } from '../../nodes/shared/credentialNames';

export interface ServiceCredentials {
	baseUrl: string;
	accessToken: string;
}

export interface FullResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	body: unknown;
}

export type Send = (request: IHttpRequestOptions, credentials: ServiceCredentials) => Promise<FullResponse>;

export interface TriggerSetup {
	parameters?: IDataObject;
	credentials?: ServiceCredentials;
	webhookId?: string;
	/** The URL n8n gives the node: the production one, or the test one while listening. */
	webhookUrl?: string;
	staticData?: IDataObject;
	/** The node's version: 1 unless a test says otherwise. */
	typeVersion?: number;
	mode?: WorkflowExecuteMode;
	activation?: WorkflowActivateMode;
	send?: Send;
}

export const PRODUCTION_URL = 'https://n8n.example/webhook/5f0c1d2e-hook/rate-records';
export const TEST_URL = 'https://n8n.example/webhook-test/5f0c1d2e-hook/rate-records';

function node(setup: TriggerSetup): INode {
	return {
		id: 'node-1',
		name: 'Rate Record Trigger',
		type: 'n8n-nodes-travel-pricing.travelPricingRateTrigger',
		typeVersion: setup.typeVersion ?? 1,
		position: [0, 0],
		parameters: (setup.parameters ?? {}) as INodeParameters,
		webhookId: setup.webhookId ?? '5f0c1d2e-hook',
		credentials: { [ACCESS_TOKEN_CREDENTIAL]: { id: '1', name: 'Travel Pricing API' } },
	};
}

function common(setup: TriggerSetup) {
	const parameters = setup.parameters ?? {};
	return {
		getNode: () => node(setup),
		getWorkflow: () => ({ id: 'workflow-1', name: 'Rate alerts', active: true }),
		getMode: () => setup.mode ?? 'trigger',
		getNodeParameter: (name: string, fallback?: unknown) => (name in parameters ? parameters[name] : fallback),
		getCredentials: async () => {
			if (!setup.credentials) throw new Error('The test gave no credentials');
			return { ...setup.credentials };
		},
		getWorkflowStaticData: () => setup.staticData ?? (setup.staticData = {}),
		getNodeWebhookUrl: () => setup.webhookUrl ?? PRODUCTION_URL,
		getWebhookName: () => 'default',
	};
}

/** What activation sees: n8n-core's HookContext, as far as the node uses it. */
export function hookContext(setup: TriggerSetup): IHookFunctions & { requests: IHttpRequestOptions[] } {
	const requests: IHttpRequestOptions[] = [];
	const context = {
		...common(setup),
		getActivationMode: () => setup.activation ?? 'activate',
		requests,
		helpers: {
			httpRequestWithAuthentication: async (credentialType: string, request: IHttpRequestOptions) => {
				if (credentialType !== ACCESS_TOKEN_CREDENTIAL) throw new Error(`unexpected credential ${credentialType}`);
				requests.push(request);
				if (!setup.send) return { statusCode: 201, headers: {}, body: { message: 'Webhook created successfully' } };
				return await setup.send(request, setup.credentials!);
			},
		},
	};
	return context as unknown as IHookFunctions & { requests: IHttpRequestOptions[] };
}

/** Captures what the node writes to the response. */
export class RecordedResponse {
	status?: number;
	headers: Record<string, string> = {};
	body = '';
	ended = false;

	writeHead(status: number, headers: Record<string, string> = {}): this {
		this.status = status;
		this.headers = headers;
		return this;
	}

	end(body?: string): this {
		this.body += body ?? '';
		this.ended = true;
		return this;
	}

	json(): unknown {
		return JSON.parse(this.body);
	}
}

export interface Delivery {
	headers?: Record<string, string | string[] | undefined>;
	body?: unknown;
	rawBody?: Buffer;
	/** A real response to answer on (the local HTTP server); a RecordedResponse otherwise. */
	response?: ServerResponse | RecordedResponse;
}

/** What a delivery sees: n8n-core's WebhookContext, as far as the node uses it. */
export function webhookContext(setup: TriggerSetup, delivery: Delivery): IWebhookFunctions {
	const response = delivery.response ?? new RecordedResponse();
	const context = {
		...common(setup),
		getHeaderData: () => delivery.headers ?? {},
		getBodyData: () => delivery.body,
		getRequestObject: () => ({ rawBody: delivery.rawBody, headers: delivery.headers ?? {} }),
		getResponseObject: () => response,
	};
	return context as unknown as IWebhookFunctions;
}

/** Sends a request the way httpRequestWithAuthentication would with the Travel Pricing API credential. */
export const sendOverHttp: Send = async (request, credentials) => {
	const url = new URL(request.url);
	for (const [key, value] of Object.entries(request.qs ?? {})) url.searchParams.set(key, String(value));
	const response = await fetch(url, {
		method: request.method ?? 'GET',
		headers: {
			...(request.headers as Record<string, string>),
			'content-type': 'application/json',
			authorization: `Bearer ${credentials.accessToken}`,
		},
		body: request.body === undefined ? undefined : JSON.stringify(request.body),
	});
	const text = await response.text();
	return {
		statusCode: response.status,
		headers: Object.fromEntries(response.headers.entries()),
		body: text ? (JSON.parse(text) as unknown) : undefined,
	};
};
