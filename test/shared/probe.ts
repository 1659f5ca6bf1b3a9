/**
 * A test-only node that sends one request through the package's transport, so
 * the transport's retries and errors are proven in the real engine independently of any node.
 */
import type { IDataObject, IExecuteFunctions, IHttpRequestMethods, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { apiRequest } from '../../nodes/shared/transport';

export const PROBE_NODE_TYPE = 'harness.transportProbe';

export class TransportProbe implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Transport Probe',
		name: PROBE_NODE_TYPE,
		group: ['transform'],
		version: 1,
		description: 'Sends one request through the transport',
		defaults: { name: 'Transport Probe' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [
			{ name: 'travelPricingApi', required: false },
			{ name: 'travelPricingAirportsApi', required: false },
		],
		properties: [
			{ displayName: 'Method', name: 'method', type: 'string', default: 'GET' },
			{ displayName: 'Endpoint', name: 'endpoint', type: 'string', default: '/' },
			{ displayName: 'Body', name: 'body', type: 'json', default: '' },
			{ displayName: 'Query', name: 'qs', type: 'json', default: '' },
			{ displayName: 'Max Attempts', name: 'maxAttempts', type: 'number', default: 5 },
			{ displayName: 'Max Wait', name: 'maxTotalWaitMs', type: 'number', default: 60000 },
			{ displayName: 'Read Only', name: 'idempotent', type: 'boolean', default: true },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const parse = (name: string) => {
			const text = this.getNodeParameter(name, 0) as string;
			return text ? (JSON.parse(text) as IDataObject) : undefined;
		};
		const body = await apiRequest.call(this, this.getNodeParameter('method', 0) as IHttpRequestMethods, this.getNodeParameter('endpoint', 0) as string, {
			body: parse('body'),
			qs: parse('qs'),
			idempotent: this.getNodeParameter('idempotent', 0) as boolean,
			retry: {
				maxAttempts: this.getNodeParameter('maxAttempts', 0) as number,
				maxTotalWaitMs: this.getNodeParameter('maxTotalWaitMs', 0) as number,
			},
			resource: 'shop 901',
		});
		return [[{ json: body as IDataObject, pairedItem: { item: 0 } }]];
	}
}
