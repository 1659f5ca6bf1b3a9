/**
 * Runs workflows through n8n-core's real execution engine, in-process, with this package's node
 * and credential types loaded from the build (dist/) the way n8n loads a community package.
 */
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';

import {
	ExecutionLifecycleHooks,
	PackageDirectoryLoader,
	WorkflowExecute,
} from 'n8n-core';
import {
	ICredentialsHelper,
	Workflow,
	type ExecutionError,
	type ICredentialDataDecryptedObject,
	type ICredentials,
	type ICredentialType,
	type IDataObject,
	type IHttpRequestHelper,
	type IHttpRequestOptions,
	type INode,
	type INodeCredentialsDetails,
	type INodeExecutionData,
	type INodeParameters,
	type INodeProperties,
	type INodeType,
	type INodeTypes,
	type IRequestOptionsSimplified,
	type IRun,
	type IExecuteFunctions,
	type IVersionedNodeType,
	type IWorkflowExecuteAdditionalData,
	type IConnections,
	type IWorkflowSettings,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

/**
 * n8n-core's SSH tunnel manager starts a cleanup interval the first time any trigger context is
 * built, and only clears it on n8n's shutdown: stop it so a test process can end.
 */
export async function stopEngine(): Promise<void> {
	// n8n-core keeps its own copy of the DI container, so both are found from n8n-core's folder.
	const coreDir = path.dirname(require.resolve('n8n-core'));
	const { Container } = (await import(require.resolve('@n8n/di', { paths: [coreDir] }))) as typeof import('@n8n/di');
	const { SSHClientsManager } = (await import(path.join(coreDir, 'execution-engine/ssh-clients-manager'))) as {
		SSHClientsManager: new () => { onShutdown(): void };
	};
	if (Container.has(SSHClientsManager)) Container.get(SSHClientsManager).onShutdown();
}

export const PACKAGE_NAME = 'n8n-nodes-travel-pricing';
const PACKAGE_ROOT = path.resolve(__dirname, '../..');
const SOURCE_NODE_TYPE = 'harness.items';

/** Credential data by credential type name, as a user would fill it in. */
export type CredentialSet = Record<string, ICredentialDataDecryptedObject>;

let loaderPromise: Promise<PackageDirectoryLoader> | undefined;

/** Loads dist/ through n8n's own package loader, which also checks package.json's n8n section. */
export async function loadPackage(): Promise<PackageDirectoryLoader> {
	loaderPromise ??= (async () => {
		const loader = new PackageDirectoryLoader(PACKAGE_ROOT);
		await loader.loadAll();
		return loader;
	})();
	return await loaderPromise;
}

export function fullNodeType(shortName: string): string {
	return shortName.includes('.') ? shortName : `${PACKAGE_NAME}.${shortName}`;
}

/**
 * Emits the items in its `items` parameter: the node every test run starts from. Not a trigger,
 * so a run can be in any mode ('manual', 'trigger', 'retry'): n8n hands the first node of a run
 * one empty item, which it replaces with its own.
 */
class ItemsSource implements INodeType {
	description = {
		displayName: 'Items',
		name: SOURCE_NODE_TYPE,
		group: ['input'],
		version: 1,
		description: 'Emits test items',
		defaults: { name: 'Items' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' }] as INodeProperties[],
	} as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = JSON.parse(this.getNodeParameter('items', 0) as string) as IDataObject[];
		return [items.map((json) => ({ json }))];
	}
}

class HarnessNodeTypes implements INodeTypes {
	constructor(
		private readonly loader: PackageDirectoryLoader,
		private readonly extra: Record<string, INodeType>,
	) {}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		if (this.extra[nodeType]) return this.extra[nodeType];
		const shortName = nodeType.replace(`${PACKAGE_NAME}.`, '');
		return this.loader.getNode(shortName).type;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		const type = this.getByName(nodeType);
		return 'nodeVersions' in type ? type.getNodeType(version) : type;
	}

	getKnownTypes(): IDataObject {
		return {};
	}
}

/** Hands the engine the credentials a test gives, and applies each type's `authenticate` as n8n does. */
export class HarnessCredentialsHelper extends ICredentialsHelper {
	constructor(
		private readonly loader: PackageDirectoryLoader,
		private readonly credentials: CredentialSet,
	) {
		super();
	}

	credentialType(name: string): ICredentialType {
		return this.loader.getCredential(name).type;
	}

	getParentTypes(): string[] {
		return [];
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow: Workflow,
		node: INode,
	): Promise<IHttpRequestOptions> {
		const authenticate = this.credentialType(typeName).authenticate;
		const options = requestOptions as IHttpRequestOptions;
		if (authenticate === undefined) return options;
		if (typeof authenticate === 'function') return await authenticate(credentials, options);
		const resolve = (value: unknown) =>
			typeof value === 'string' && value.startsWith('=')
				? workflow.expression.getSimpleParameterValue(node, value, 'internal', { $credentials: credentials }, undefined, '')
				: value;
		for (const target of ['headers', 'qs', 'body'] as const) {
			const values = authenticate.properties[target] as IDataObject | undefined;
			if (!values) continue;
			const resolved = Object.fromEntries(Object.entries(values).map(([key, value]) => [key, resolve(value)]));
			options[target] = { ...((options[target] as IDataObject | undefined) ?? {}), ...resolved } as IDataObject;
		}
		return options;
	}

	/**
	 * As n8n's CredentialsHelper does: a credential type with a hidden `expirable` field runs its
	 * preAuthentication while that field is empty, after a 401 (`expired`), and on a credential
	 * Test (n8n's test node: a noOp whose `temp` parameter is empty); what it returns is stored
	 * with the credential when it fills that field.
	 */
	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		expired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.credentialType(typeName);
		const expirable = type.properties.find((property) => property.type === 'hidden' && property.typeOptions?.expirable === true);
		if (expirable === undefined || typeof type.preAuthentication !== 'function') return undefined;
		const testing = node.parameters?.temp === '' && node.type === 'n8n-nodes-base.noOp';
		if (credentials[expirable.name] !== '' && !expired && !testing) return undefined;
		this.preAuthentications++;
		const output = await type.preAuthentication.call({ helpers: { httpRequest: helpers.helpers.httpRequest } }, credentials);
		if (output[expirable.name] === undefined || !node.credentials) return undefined;
		// Into the credential the test gave, as n8n writes it into the saved credential.
		Object.assign(this.credentials[typeName] ?? {}, output);
		return Object.assign(credentials, output);
	}

	/** How many times a credential's preAuthentication ran. */
	preAuthentications = 0;

	/** What a credential of this type holds now: its data, with what preAuthentication stored. */
	stored(type: string): ICredentialDataDecryptedObject | undefined {
		return this.credentials[type];
	}

	async getCredentials(): Promise<ICredentials> {
		throw new Error('The harness hands out decrypted credentials only');
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.credentials[type];
		if (!data) throw new Error(`The test gave no "${type}" credential`);
		// n8n fills the fields a credential was saved without with their defaults.
		const defaults = Object.fromEntries(this.credentialType(type).properties.map((property) => [property.name, property.default]));
		return { ...defaults, ...data } as ICredentialDataDecryptedObject;
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.credentialType(type).properties;
	}
}

export interface WorkflowDefinition {
	nodes: INode[];
	connections: IConnections;
	settings?: IWorkflowSettings;
	staticData?: IDataObject;
}

export interface RunWorkflowOptions {
	/** How n8n started the run: 'manual' (a test run in the editor, the default), 'trigger' or 'webhook' (a published workflow), 'retry' (Retry of a failed execution). */
	mode?: WorkflowExecuteMode;
	/** Handed the run's cancel, as n8n's Stop button or a workflow timeout cancels an execution. */
	cancelWith?: (cancel: () => void) => void;
	/** The execution's id (a new one each run unless given). */
	executionId?: string;
	/** The workflow's id: n8n's Retry runs the same workflow again (a new one each run unless given). */
	workflowId?: string;
	credentials?: CredentialSet;
	/** Extra node types for the run, by full type name. */
	extraNodeTypes?: Record<string, INodeType>;
}

export function additionalDataFor(
	credentialsHelper: ICredentialsHelper,
	workflow: WorkflowDefinition & { id: string; name: string },
	mode: WorkflowExecuteMode,
	executionId: string,
): IWorkflowExecuteAdditionalData {
	const hooks = new ExecutionLifecycleHooks(mode, executionId, {
		id: workflow.id,
		name: workflow.name,
		nodes: workflow.nodes,
		connections: workflow.connections,
		active: false,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
		settings: workflow.settings,
	} as never);
	return {
		credentialsHelper,
		hooks,
		executionId,
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://localhost:5678/rest',
		instanceBaseUrl: 'http://localhost:5678/',
		formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
		webhookBaseUrl: 'http://localhost:5678/webhook',
		webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
		variables: {},
		executeWorkflow: async () => {
			throw new Error('Sub-workflows are not part of the harness');
		},
		getRunExecutionData: async () => undefined,
		logAiEvent: () => {},
		startRunnerTask: async () => {
			throw new Error('Task runners are not part of the harness');
		},
	} as unknown as IWorkflowExecuteAdditionalData;
}

/** Runs a whole workflow from its first node (which must be a trigger, e.g. the items source). */
export async function runWorkflow(definition: WorkflowDefinition, options: RunWorkflowOptions = {}): Promise<IRun> {
	const loader = await loadPackage();
	const extra: Record<string, INodeType> = { [SOURCE_NODE_TYPE]: new ItemsSource(), ...options.extraNodeTypes };
	const nodeTypes = new HarnessNodeTypes(loader, extra);
	const credentialsHelper = new HarnessCredentialsHelper(loader, options.credentials ?? {});
	const meta = { id: options.workflowId ?? randomUUID(), name: 'harness' };
	const workflow = new Workflow({
		...meta,
		nodes: definition.nodes,
		connections: definition.connections,
		active: false,
		nodeTypes,
		staticData: definition.staticData,
		settings: definition.settings ?? {},
	});
	const mode = options.mode ?? 'manual';
	const additionalData = additionalDataFor(credentialsHelper, { ...definition, ...meta }, mode, options.executionId ?? randomUUID());
	const startNode = definition.nodes[0];
	const running = new WorkflowExecute(additionalData, mode).run({ workflow, startNode });
	options.cancelWith?.(() => running.cancel());
	return await running;
}

export interface RunNodeOptions {
	nodeType: string;
	parameters: INodeParameters;
	items?: IDataObject[];
	credentials?: CredentialSet;
	continueOnFail?: boolean;
	timezone?: string;
	typeVersion?: number;
	/** The id the node's credentials have; runs that share one share what Adaptive learnt. */
	credentialId?: string;
	mode?: RunWorkflowOptions['mode'];
	cancelWith?: RunWorkflowOptions['cancelWith'];
	workflowId?: string;
	/** n8n numbers its executions ("4711"); a UUID each run unless given. */
	executionId?: string;
}

export interface NodeRunResult {
	items: INodeExecutionData[];
	outputs: INodeExecutionData[][];
	error?: ExecutionError;
	run: IRun;
}

const NODE_NAME = 'Node under test';
const NODE_ID = 'node-under-test';

/** Feeds `items` into one node of this package and returns what it put out. */
export async function runNode(options: RunNodeOptions): Promise<NodeRunResult> {
	const loader = await loadPackage();
	const type = fullNodeType(options.nodeType);
	const description = new HarnessNodeTypes(loader, {}).getByNameAndVersion(type, options.typeVersion).description;
	const credentials = Object.fromEntries(
		(description.credentials ?? [])
			.filter(({ name }) => options.credentials?.[name] !== undefined)
			// A credential id of its own each run: Adaptive Concurrency starts from what the last run
			// for the same credential learnt (nodes/shared/concurrency.ts, LearntLimits), and a test
			// that wants that names the credential with `credentialId`.
			.map(({ name }) => [name, { id: options.credentialId ?? `${name}-${randomUUID()}`, name }]),
	);
	const node: INode = {
		// One id for every run, as a saved workflow's node keeps its id from one execution to the next.
		id: NODE_ID,
		name: NODE_NAME,
		type,
		typeVersion: options.typeVersion ?? (Array.isArray(description.version) ? Math.max(...description.version) : description.version),
		position: [200, 0],
		parameters: options.parameters,
		credentials,
		...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
	};
	const source: INode = {
		id: randomUUID(),
		name: 'Items',
		type: SOURCE_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: { items: JSON.stringify(options.items ?? [{}]) },
	};
	const run = await runWorkflow(
		{
			nodes: [source, node],
			connections: { Items: { main: [[{ node: NODE_NAME, type: 'main', index: 0 }]] } },
			settings: { timezone: options.timezone ?? 'UTC', executionOrder: 'v1' },
		},
		{ credentials: options.credentials, mode: options.mode, cancelWith: options.cancelWith, workflowId: options.workflowId, executionId: options.executionId },
	);
	const taskData = run.data.resultData.runData[NODE_NAME]?.[0];
	const outputs = (taskData?.data?.main ?? []).map((output) => output ?? []);
	return {
		items: outputs[0] ?? [],
		outputs,
		error: taskData?.error ?? run.data.resultData.error,
		run,
	};
}
