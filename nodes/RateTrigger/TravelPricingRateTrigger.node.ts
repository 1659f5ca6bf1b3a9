import {
	NodeConnectionTypes,
	NodeOperationError,
	type IDataObject,
	type IHookFunctions,
	type INodeType,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { travelPricingNodeType, type NodeTypeDescriptionWithHint } from '../shared/builderHint';
import { ACCESS_TOKEN_CREDENTIAL, ACCESS_TOKEN_CREDENTIAL_DISPLAY_NAME } from '../shared/credentialNames';
import { FieldError, invalidValueMessage } from '../shared/errors';
import { numberOption, retryPolicyFrom } from '../shared/options';
import type { RetryPolicy } from '../shared/retry';
import { apiRequest } from '../shared/transport';

import {
	deliveryAuthFrom,
	generatedSecret,
	registrationFingerprint,
	webhookRegistration,
	type DeliveryAuth,
	type DeliveryAuthParameters,
	type WebhookRegistration,
} from './deliveryAuth';
import { gatherForField, gatherRecordsField, rateTriggerProperties } from './description';
import { gather, outcomeOfAnswer, type GatherSettings } from './gathering';
import { receiveRateDelivery, type ReceiveOutcome } from './rateDelivery';
import { compileRateFilter, type RateFilter, type RateFilterParameters } from './rateFilters';

type TriggerContext = IHookFunctions | IWebhookFunctions;

interface ServiceCredentials {
	baseUrl: string;
	accessToken: string;
}

interface RegistrationPlan {
	registration: WebhookRegistration;
	fingerprint: string;
	retry: RetryPolicy;
}

/** What this node keeps in workflow static data: where it registered, and no secret. */
interface RegistrationMemory extends IDataObject {
	registeredEndpoint?: string;
	registrationFingerprint?: string;
}

export class TravelPricingRateTrigger implements INodeType {
	description: NodeTypeDescriptionWithHint = {
		displayName: 'Travel Pricing Rate Record Trigger',
		name: 'travelPricingRateTrigger',
		icon: { light: 'file:rateTrigger.svg', dark: 'file:rateTrigger.dark.svg' },
		group: ['trigger'],
		// 1.1 gathers deliveries into one execution by default (Executions); 1 started one a delivery.
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle:
			'={{ $parameter["registration"] === "manual" ? "Registered by hand" : "Rate records after each rate shop" }}',
		description:
			'Starts the workflow with the rate records the Hotel Rate, Event and Schedule Data Service posts after each scheduled rate shop',
		eventTriggerDescription: 'Waiting for the service to post rate records',
		activationMessage:
			'The service now posts the rate records of each scheduled rate shop to this workflow.',
		defaults: { name: 'Rate Record Trigger' },
		builderHint: {
			searchHint:
				`Use to start a workflow with the rate records the Travel Pricing service posts after each scheduled rate shop (one item per record: hotel, website, stay dates, room, rate, currency). On activation it registers its own URL with the service; its Filters (hotels, websites, status codes, currencies, rate bounds) drop records before they start an execution. Needs the ${ACCESS_TOKEN_CREDENTIAL_DISPLAY_NAME} credential. Rate Changes usually follows, to alert on what changed since the last shop.`,
			relatedNodes: [
				{ nodeType: travelPricingNodeType('travelPricingRateChanges'), relationHint: 'Compares the records with the last shop and puts out the changes worth an alert' },
				{ nodeType: travelPricingNodeType('travelPricingHotelInfo'), relationHint: "Adds the hotel's name and location to a record" },
			],
		},
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: ACCESS_TOKEN_CREDENTIAL,
				required: true,
				displayOptions: { show: { registration: ['automatic'] } },
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				// n8n answers "on received" with the description's responseData when it has one, and
				// reads a missing one as the text "firstEntryJson"; an empty one makes it answer with
				// the webhookResponse this node returns instead ({"received": n, "emitted": m}).
				responseData: '',
				path: 'rate-records',
			},
		],
		triggerPanel: {
			header: 'Rate records arrive after a scheduled rate shop runs',
			executionsHelp: {
				inactive:
					'While you listen for a test event, the service posts to the test URL: run a rate shop (or wait for a scheduled one) and the records show up here. Activate the workflow to receive them at the production URL.',
				active:
					'The workflow is active: the service posts each rate shop\'s records to the production URL, and the executions show up in the executions list.',
			},
			activationHint:
				'Activate the workflow to register its production URL with the service and receive every scheduled rate shop.',
		},
		properties: rateTriggerProperties,
	};

	webhookMethods = {
		default: {
			// The service has no list endpoint, so what this node registered is the only source of
			// truth: the same URL and secrets as last time mean there is nothing to do.
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const plan = await registrationPlan(this);
				if (plan === undefined) return true;
				const memory = this.getWorkflowStaticData('node') as RegistrationMemory;
				return memory.registrationFingerprint === plan.fingerprint;
			},

			async create(this: IHookFunctions): Promise<boolean> {
				const plan = await registrationPlan(this);
				if (plan === undefined) return true;
				await apiRequest.call(this, 'POST', '/webhook', {
					body: plan.registration as unknown as IDataObject,
					retry: plan.retry,
					resource: 'the webhook registration',
				});
				const memory = this.getWorkflowStaticData('node') as RegistrationMemory;
				memory.registeredEndpoint = plan.registration.endpoint;
				memory.registrationFingerprint = plan.fingerprint;
				return true;
			},

			// The service has no delete endpoint: it keeps posting to this URL until the webhook is
			// registered elsewhere, and n8n answers those deliveries 404 meanwhile.
			async delete(this: IHookFunctions): Promise<boolean> {
				const memory = this.getWorkflowStaticData('node') as RegistrationMemory;
				delete memory.registeredEndpoint;
				delete memory.registrationFingerprint;
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const auth = await expectedAuth(this);
		const filter = rateFilterOf(this);
		const options = this.getNodeParameter('options', {}) as IDataObject;
		const gathering = gatherSettingsOf(this);

		const outcome = receiveRateDelivery(
			{
				headers: this.getHeaderData(),
				body: this.getBodyData(),
				rawBody: this.getRequestObject().rawBody,
			},
			{ auth, filter, passInvalidRecords: options.passInvalidRecords === true },
		);
		// A refusal, or a delivery whose records were all filtered out, starts nothing: answered here.
		if (outcome.status !== 200 || outcome.records.length === 0) {
			answer(this.getResponseObject(), outcome);
			return { noWebhookResponse: true };
		}
		if (gathering === undefined) return startedWith(outcome, outcome.records);

		const gathered = gather(gatheringKey(this), outcome.records, gathering);
		if (gathered.role === 'joined') {
			// Answered by the node once the gathering's execution exists, as n8n answers the first.
			const response = this.getResponseObject();
			// A sender that hung up meanwhile has nobody to answer: it sends the delivery again.
			void gathered.outcome.then((result) => answer(response, result.started ? outcome : notStarted(result.status))).catch(() => undefined);
			return { noWebhookResponse: true };
		}
		outcomeOfAnswer(this.getResponseObject(), gathered.settle);
		return startedWith(outcome, await gathered.close());
	}
}

/**
 * One execution with the records as items. n8n answers the delivery with its own body once it has
 * created the execution ("on received"), so a sender in a burst waits for n8n instead of piling up
 * executions it cannot store yet.
 */
function startedWith(outcome: ReceiveOutcome, records: IDataObject[]): IWebhookResponseData {
	return {
		webhookResponse: outcome.body,
		workflowData: [records.map((record) => ({ json: record }))],
	};
}

/** What a delivery is answered when the execution that was to hold its records could not be created: send it again. */
function notStarted(status: number): DeliveryAnswer {
	return {
		status: 503,
		headers: { 'Retry-After': '1' },
		body: { error: true, status: 503, message: `n8n did not start the execution holding this delivery's records (it answered ${status}): send it again` },
	};
}

/** Gather Deliveries' settings, or undefined for one execution a delivery. */
function gatherSettingsOf(context: TriggerContext): GatherSettings | undefined {
	const node = context.getNode();
	const executions = context.getNodeParameter('executions', node.typeVersion >= 1.1 ? 'gather' : 'perDelivery') as string;
	if (executions !== 'gather') return undefined;
	const options = context.getNodeParameter('options', {}) as IDataObject;
	return asSettingError(context, () => ({
		maxWaitMs: numberOption(options, gatherForField) * 1000,
		maxRecords: numberOption(options, gatherRecordsField),
	}));
}

/** A gathering is one trigger's, of one workflow, listening for tests or in production. */
function gatheringKey(context: IWebhookFunctions): string {
	return [context.getMode(), context.getWorkflow().id ?? '', webhookIdOf(context)].join('|');
}

/** The registration this node wants, or undefined when the user registers it by hand. */
async function registrationPlan(context: IHookFunctions): Promise<RegistrationPlan | undefined> {
	// Every setting is checked on activation, so a typo fails there, named like any other bad
	// setting, and not at the first delivery or halfway through the registration.
	rateFilterOf(context);
	gatherSettingsOf(context);
	const retry = asSettingError(context, () => retryPolicyFrom(context.getNodeParameter('options', {}) as IDataObject));
	if (context.getNodeParameter('registration', 'automatic') === 'manual') {
		await expectedAuth(context);
		return undefined;
	}
	const endpoint = context.getNodeWebhookUrl('default');
	if (!endpoint) {
		throw new NodeOperationError(context.getNode(), 'n8n did not provide a webhook URL for this node');
	}
	const credentials = await serviceCredentials(context);
	const registration = webhookRegistration(endpoint, await expectedAuth(context, credentials));
	return {
		registration,
		fingerprint: registrationFingerprint(registration, credentials.baseUrl, credentials.accessToken),
		retry,
	};
}

async function serviceCredentials(context: TriggerContext): Promise<ServiceCredentials> {
	return await context.getCredentials<ServiceCredentials>(ACCESS_TOKEN_CREDENTIAL);
}

/** The authentication each delivery must carry, from the node's settings (and the credential). */
async function expectedAuth(
	context: TriggerContext,
	knownCredentials?: ServiceCredentials,
): Promise<DeliveryAuth> {
	const parameters: DeliveryAuthParameters = {
		authentication: context.getNodeParameter('authentication', 'generatedSecret') as DeliveryAuthParameters['authentication'],
		userName: context.getNodeParameter('userName', '') as string,
		password: context.getNodeParameter('password', '') as string,
		token: context.getNodeParameter('token', '') as string,
		headerName: context.getNodeParameter('headerName', '') as string,
	};
	if (
		parameters.authentication === 'generatedSecret' &&
		context.getNodeParameter('registration', 'automatic') === 'manual'
	) {
		// The derived secret is never shown, so a person registering by hand could not copy it.
		throw new NodeOperationError(context.getNode(), 'Generated Secret needs Automatic registration', {
			description: 'Choose Basic Auth, Bearer Token, Header Auth or None for Manual registration.',
		});
	}
	const credentials =
		parameters.authentication === 'generatedSecret'
			? (knownCredentials ?? (await serviceCredentials(context)))
			: undefined;
	return asSettingError(context, () =>
		deliveryAuthFrom(parameters, () => generatedSecret(credentials?.accessToken ?? '', webhookIdOf(context))),
	);
}

/** Both the test and the production URL end in the node's webhook ID; older nodes may lack one. */
function webhookIdOf(context: TriggerContext): string {
	const node = context.getNode();
	return node.webhookId ?? `${context.getWorkflow().id ?? ''}/${node.name}`;
}

function rateFilterOf(context: TriggerContext): RateFilter {
	const parameters = context.getNodeParameter('filters', {}) as RateFilterParameters;
	return asSettingError(context, () => compileRateFilter(parameters));
}

/** A trigger has no items: a bad setting is named by its field and value, and blocks activation. */
function asSettingError<T>(context: TriggerContext, build: () => T): T {
	try {
		return build();
	} catch (error) {
		if (error instanceof FieldError) {
			throw new NodeOperationError(context.getNode(), invalidValueMessage(error), {
				description: `Fix the "${error.field}" field of the trigger.`,
			});
		}
		throw new NodeOperationError(context.getNode(), error as Error);
	}
}

type DeliveryAnswer = Pick<ReceiveOutcome, 'headers' | 'body'> & { status: number };

function answer(response: ReturnType<IWebhookFunctions['getResponseObject']>, outcome: DeliveryAnswer): void {
	response.writeHead(outcome.status, {
		'Content-Type': 'application/json; charset=utf-8',
		...outcome.headers,
	});
	response.end(JSON.stringify(outcome.body));
}
