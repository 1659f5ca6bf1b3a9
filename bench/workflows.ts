import { N8N_API_CREDENTIAL, type CredentialSeed, type WorkflowSeed } from '../platform/n8n';

/**
 * The benchmark workflows, each pair built the way its user would build it in the editor: this
 * package's node with its defaults, against n8n's own nodes (HTTP Request, Webhook, Split Out, IF,
 * Data Table) with their defaults, changed only where the task needs it (URL, body, pagination,
 * auth, the table).
 *
 * Every measured workflow but the trigger ones starts with a Webhook node that answers when the
 * last node has finished, so one HTTP call runs it and its duration is the wall time a user sees.
 * The input items arrive in the call's body as `items` and a Split Out node turns them into items.
 */

const PACKAGE = 'n8n-nodes-travel-pricing';

/** The credential an HTTP Request or Webhook node user creates: "Header Auth", Authorization: Bearer … */
export const HEADER_AUTH_CREDENTIAL = { id: 'benchHeaderAuth1', name: 'Service token (Header Auth)' };
export const DELIVERY_AUTH_CREDENTIAL = { id: 'benchDeliveryAut', name: 'Delivery token (Header Auth)' };

export function headerAuthCredentials(accessToken: string, deliveryToken: string): CredentialSeed[] {
	return [{ ...HEADER_AUTH_CREDENTIAL, type: 'httpHeaderAuth', data: { name: 'Authorization', value: `Bearer ${accessToken}` } }, deliveryAuthCredential(deliveryToken)];
}

/** The Header Auth credential a Webhook node checks the service's deliveries with: Authorization: Bearer <the delivery token>. */
export function deliveryAuthCredential(deliveryToken: string): CredentialSeed {
	return { ...DELIVERY_AUTH_CREDENTIAL, type: 'httpHeaderAuth', data: { name: 'Authorization', value: `Bearer ${deliveryToken}` } };
}

type Node = Record<string, unknown>;

let nodeSeq = 0;

function node(name: string, type: string, typeVersion: number, parameters: Record<string, unknown>, extra: Node = {}): Node {
	nodeSeq++;
	return {
		id: `b0000000-0000-4000-8000-${String(nodeSeq).padStart(12, '0')}`,
		name,
		type,
		typeVersion,
		position: [nodeSeq * 220, 0],
		parameters,
		...extra,
	};
}

/** A straight line of nodes, each feeding the next. */
function chain(id: string, name: string, nodes: Node[]): WorkflowSeed {
	const connections: Record<string, unknown> = {};
	for (let index = 0; index + 1 < nodes.length; index++) {
		connections[String(nodes[index].name)] = { main: [[{ node: nodes[index + 1].name, type: 'main', index: 0 }]] };
	}
	return { id, name, nodes, connections, settings: { executionOrder: 'v1' }, active: false };
}

/** One condition of an IF node; a single-value operator (exists) has an empty right value, as the editor stores it. */
interface IfCondition {
	id: string;
	leftValue: string;
	rightValue?: unknown;
	operator: { type: string; operation: string; singleValue?: boolean };
}

/** An IF node (version 2.2, strict type validation, as the editor adds it) on one condition. */
function ifNode(name: string, { id, leftValue, rightValue = '', operator }: IfCondition): Node {
	return node(name, 'n8n-nodes-base.if', 2.2, {
		conditions: {
			options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
			conditions: [{ id, leftValue, rightValue, operator }],
			combinator: 'and',
		},
		options: {},
	});
}

/** Webhook (answers when the last node finished) → Split Out of body.items. */
function startedByCall(path: string): Node[] {
	return [
		node('Start', 'n8n-nodes-base.webhook', 2.1, { httpMethod: 'POST', path, responseMode: 'lastNode', options: {} }, { webhookId: path }),
		node('Items', 'n8n-nodes-base.splitOut', 1, { fieldToSplitOut: 'body.items', options: {} }),
	];
}

/**
 * The Travel Pricing API credential of one benchmark: the same token, but a credential of its
 * own, so that what Adaptive Concurrency learns of the service in one benchmark (it keeps it per
 * credential, nodes/shared/concurrency.ts) does not carry into the next, as if each ran on an n8n
 * of its own. Within a benchmark it carries from round to round, as for a user's workflow.
 */
export function caseCredential(caseId: string): { id: string; name: string } {
	return { id: `benchApi${caseId}`.padEnd(16, '0'), name: `Travel Pricing API (benchmark ${caseId})` };
}

/** The credentials caseCredential names, each with the sandbox's Base URL and token. */
export function caseCredentials(caseIds: string[], baseUrl: string, accessToken: string): CredentialSeed[] {
	return caseIds.map((caseId) => ({ ...caseCredential(caseId), type: 'travelPricingApi', data: { baseUrl, accessToken } }));
}

/** Hotel Info's and Event Impact's version as the editor adds them today: Simplify on (docs/nodes). */
const DEFAULT_VERSION = 1.1;

const packageCredential = (caseId: string) => ({ travelPricingApi: caseCredential(caseId) });
const headerAuth = { httpHeaderAuth: HEADER_AUTH_CREDENTIAL };

/** HTTP Request node, POST with a JSON body, authenticated by the Header Auth credential. */
function httpPost(name: string, url: string, jsonBody: string, query: Record<string, string>, options: Record<string, unknown> = {}): Node {
	const queryNames = Object.keys(query);
	return node(
		name,
		'n8n-nodes-base.httpRequest',
		4.2,
		{
			method: 'POST',
			url,
			authentication: 'genericCredentialType',
			genericAuthType: 'httpHeaderAuth',
			...(queryNames.length > 0
				? { sendQuery: true, queryParameters: { parameters: queryNames.map((key) => ({ name: key, value: query[key] })) } }
				: {}),
			sendBody: true,
			specifyBody: 'json',
			jsonBody,
			options,
		},
		{ credentials: headerAuth },
	);
}

export interface BenchWorkflow {
	seed: WorkflowSeed;
	/** Webhook path that runs it (call-started workflows). */
	path: string;
	/** The node whose own time is measured. */
	measuredNode: string;
}

function callWorkflow(id: string, name: string, measured: Node, after: Node[] = []): BenchWorkflow {
	return { seed: chain(id, name, [...startedByCall(id), measured, ...after]), path: id, measuredNode: String(measured.name) };
}

/**
 * The package's nodes as they sent before Adaptive Concurrency: always up to 10 requests in flight
 * (the former default), measured beside the defaults for "no slower, fewer 429s than before".
 */
export const BEFORE_ADAPTIVE = { concurrencyMode: 'fixed', concurrency: 10 };

/** The package's node workflows of benchmarks 1 and 2: with its defaults, and as it was before Adaptive. */
export interface PackageWorkflows {
	node: BenchWorkflow;
	before: BenchWorkflow;
	http: BenchWorkflow;
}

/** 1. Hotel Info, one item per hotel code (input items { code }). */
export function hotelInfoWorkflows(baseUrl: string): PackageWorkflows {
	const hotelInfo = (options: Record<string, unknown>): Node =>
		node('Hotel Info', `${PACKAGE}.travelPricingHotelInfo`, DEFAULT_VERSION, { hotelCode: '={{ $json.code }}', options }, { credentials: packageCredential('1a') });
	return {
		node: callWorkflow('benchHotelInfoNd', 'Bench: Hotel Info node', hotelInfo({})),
		before: callWorkflow('benchHotelInfoFx', 'Bench: Hotel Info node, Fixed 10', hotelInfo(BEFORE_ADAPTIVE)),
		http: callWorkflow(
			'benchHotelInfoHt',
			'Bench: Hotel Info by HTTP Request',
			httpPost('HTTP Request', `${baseUrl}/hotelinfo`, '={ "hotelcode": {{ $json.code }} }', {}),
		),
	};
}

/** 1. Event Impact, one query per input item (input items { city }), the node's default limit of 50. */
export function eventQueryWorkflows(baseUrl: string): PackageWorkflows {
	const eventImpact = (options: Record<string, unknown>): Node =>
		node('Event Impact', `${PACKAGE}.travelPricingEventImpact`, DEFAULT_VERSION, { filters: { city: '={{ $json.city }}' }, options }, { credentials: packageCredential('1b') });
	return {
		node: callWorkflow('benchEventQryNod', 'Bench: Event Impact node, one query per item', eventImpact({})),
		before: callWorkflow('benchEventQryFix', 'Bench: Event Impact node, one query per item, Fixed 10', eventImpact(BEFORE_ADAPTIVE)),
		http: callWorkflow(
			'benchEventQryHtt',
			'Bench: Event Impact by HTTP Request, one query per item',
			httpPost('HTTP Request', `${baseUrl}/eventimpact/`, '={ "city": {{ JSON.stringify($json.city) }} }', { eventsImpactPerPage: '50' }),
		),
	};
}

export const EVENT_PAGE_SIZE = 100;

/**
 * 2. Every event: Event Impact with Return All, against HTTP Request paging with "Update a
 * Parameter in Each Request" ($pageCount) until the last page, then Split Out to one item per event.
 */
export function allEventsWorkflows(baseUrl: string): PackageWorkflows & { splitOut: string } {
	const start = (path: string): Node[] => [
		node('Start', 'n8n-nodes-base.webhook', 2.1, { httpMethod: 'POST', path, responseMode: 'lastNode', options: {} }, { webhookId: path }),
	];
	const eventImpact = (options: Record<string, unknown>): Node =>
		node('Event Impact', `${PACKAGE}.travelPricingEventImpact`, DEFAULT_VERSION, { filters: {}, returnAll: true, options: { pageSize: EVENT_PAGE_SIZE, ...options } }, { credentials: packageCredential('2') });
	const pages = httpPost('HTTP Request', `${baseUrl}/eventimpact/`, '={}', { eventsImpactPerPage: String(EVENT_PAGE_SIZE) }, {
		pagination: {
			pagination: {
				paginationMode: 'updateAParameterInEachRequest',
				parameters: { parameters: [{ type: 'qs', name: 'pageNumber', value: '={{ $pageCount + 1 }}' }] },
				paginationCompleteWhen: 'other',
				completeExpression: '={{ $response.body.pageInfo.currentPage >= $response.body.pageInfo.totalPages }}',
			},
		},
	});
	const splitOut = node('Split Out', 'n8n-nodes-base.splitOut', 1, { fieldToSplitOut: 'events', options: {} });
	return {
		node: {
			seed: chain('benchAllEventsNd', 'Bench: Event Impact node, Return All', [...start('benchAllEventsNd'), eventImpact({})]),
			path: 'benchAllEventsNd',
			measuredNode: 'Event Impact',
		},
		before: {
			seed: chain('benchAllEventsFx', 'Bench: Event Impact node, Return All, Fixed 10', [...start('benchAllEventsFx'), eventImpact(BEFORE_ADAPTIVE)]),
			path: 'benchAllEventsFx',
			measuredNode: 'Event Impact',
		},
		http: {
			seed: chain('benchAllEventsHt', 'Bench: HTTP Request pagination + Split Out', [...start('benchAllEventsHt'), pages, splitOut]),
			path: 'benchAllEventsHt',
			measuredNode: 'HTTP Request',
		},
		splitOut: 'Split Out',
	};
}

/**
 * 4. Hotel Demand, Per Hotel and Date, between two timestamp nodes: the second runs once (Execute
 * Once), so the pair adds next to nothing and brackets the node's own time without reading the
 * 365,000 items back from n8n.
 */
export function demandWorkflow(demandId: number): BenchWorkflow {
	const path = 'benchHotelDemand';
	const nodes = [
		node('Start', 'n8n-nodes-base.webhook', 2.1, { httpMethod: 'POST', path, responseMode: 'lastNode', options: {} }, { webhookId: path }),
		node('Before', 'n8n-nodes-base.set', 3.4, {
			assignments: { assignments: [{ id: 'before-at', name: 'at', value: '={{ Date.now() }}', type: 'number' }] },
			options: {},
		}),
		node('Hotel Demand', `${PACKAGE}.travelPricingHotelDemand`, 1, { demandId: String(demandId), output: 'hotelDays', options: {} }, { credentials: packageCredential('4') }),
		node(
			'After',
			'n8n-nodes-base.set',
			3.4,
			{
				assignments: {
					assignments: [
						{ id: 'after-start', name: 'startedAt', value: "={{ $('Before').first().json.at }}", type: 'number' },
						{ id: 'after-end', name: 'finishedAt', value: '={{ Date.now() }}', type: 'number' },
						{ id: 'after-count', name: 'items', value: "={{ $('Hotel Demand').all().length }}", type: 'number' },
					],
				},
				includeOtherFields: false,
				options: {},
			},
			{ executeOnce: true },
		),
	];
	return { seed: chain(path, 'Bench: Hotel Demand, Per Hotel and Date', nodes), path, measuredNode: 'Hotel Demand' };
}

/** A workflow started by rate record deliveries, and the path the service posts to. */
export interface ReceiverWorkflow {
	seed: WorkflowSeed;
	/** Path under /webhook/ that deliveries go to. */
	path: string;
}

/** How a Rate Record Trigger is set up beyond registering by hand with a bearer token. */
export interface TriggerSetup {
	/** Only this hotel's records start the workflow. */
	hotelCode?: number;
	/** 1 (default): one execution a delivery, as the benchmarks before gathering measured it; 1.1: Gather Deliveries, its default there. */
	typeVersion?: 1 | 1.1;
}

/**
 * 3. The Rate Record Trigger, registered by hand (the benchmark registers each receiver with the
 * sandbox only for the rounds it is measured in) and checking a bearer token, like the Webhook
 * node's Header Auth on the other side.
 */
export function triggerWorkflow(id: string, token: string, { hotelCode, typeVersion = 1 }: TriggerSetup = {}): ReceiverWorkflow {
	const webhookId = `${id}-hook`;
	const trigger = node(
		'Rate Trigger',
		`${PACKAGE}.travelPricingRateTrigger`,
		typeVersion,
		{
			registration: 'manual',
			authentication: 'bearer',
			token,
			filters: hotelCode === undefined ? {} : { hotelCodes: String(hotelCode) },
			options: {},
		},
		{ webhookId },
	);
	return { seed: chain(id, `Bench: Rate Record Trigger${hotelCode === undefined ? '' : ', filtered'}`, [trigger]), path: `${webhookId}/rate-records` };
}

/** How a benchmark 3 Webhook node is set up beyond its defaults. */
export interface WebhookSetup {
	/** 2.1 (the editor's default); at 1, n8n takes an expression isolate for each request's webhook phase. */
	typeVersion?: 1 | 2.1;
	/** Header Auth with the delivery token (default), or none. */
	headerAuth?: boolean;
}

/**
 * 3. The Webhook node (POST, Respond Immediately) with Header Auth, alone (single records),
 * followed by Split Out (100 records per delivery: one item per record, as the trigger gives), or
 * by an IF node keeping one hotel's records (the filtered case). The same node at version 1 without
 * authentication is n8n's floor for any other trigger: n8n takes an isolate for its webhook phase,
 * as it does for every trigger but its own Webhook node from version 1.1 on, and no credential
 * takes a second one (see docs/benchmarks.md, 3a).
 */
export function webhookWorkflow(id: string, after: 'none' | 'splitOut' | { hotelCode: number }, setup: WebhookSetup = {}): ReceiverWorkflow {
	const { typeVersion = 2.1, headerAuth = true } = setup;
	const nodes = [webhookNode(id, setup)];
	if (after === 'splitOut') nodes.push(node('Split Out', 'n8n-nodes-base.splitOut', 1, { fieldToSplitOut: 'body', options: {} }));
	if (typeof after === 'object') {
		nodes.push(ifNode('If', { id: 'hotel-matches', leftValue: '={{ $json.body.hotelCode }}', rightValue: after.hotelCode, operator: { type: 'number', operation: 'equals' } }));
	}
	const label = after === 'none' ? '' : after === 'splitOut' ? ' + Split Out' : ' + IF';
	return { seed: chain(id, `Bench: Webhook node${typeVersion === 1 ? ' v1' : ''}${headerAuth ? '' : ', no authentication'}${label}`, nodes), path: id };
}

/** The Webhook node on path `id` (POST, Respond Immediately, its defaults), named "Webhook". */
function webhookNode(id: string, { typeVersion = 2.1, headerAuth = true }: WebhookSetup = {}): Node {
	return node(
		'Webhook',
		'n8n-nodes-base.webhook',
		typeVersion,
		{ httpMethod: 'POST', path: id, authentication: headerAuth ? 'headerAuth' : 'none', options: {} },
		{ webhookId: id, ...(headerAuth ? { credentials: { httpHeaderAuth: DELIVERY_AUTH_CREDENTIAL } } : {}) },
	);
}

/** What the stay key of a rate record (`$json`, `$('Rate Trigger').item.json`) is for the Data Table nodes: as Rate Changes builds it. */
function stayKeyOf(source: string): string {
	const fields = ['hotelCode', 'websiteCode', 'checkIn.slice(0, 10)', 'los', 'guests', 'roomType'].map((field) => `${source}.${field}`);
	return `={{ [${fields.join(', ')}].join('|') }}`;
}

const STAY_KEY_EXPRESSION = stayKeyOf('$json');

/** A Data Table node on a table given by id, as "From List" stores a picked table. */
function dataTable(name: string, operation: string, tableId: string, parameters: Record<string, unknown>): Node {
	return node(name, 'n8n-nodes-base.dataTable', 1.1, { resource: 'row', operation, dataTableId: { __rl: true, mode: 'id', value: tableId }, ...parameters });
}

/** One condition, stayKey equals `value`. */
function stayKeyIs(value: string): Record<string, unknown> {
	return { matchType: 'allConditions', filters: { conditions: [{ keyName: 'stayKey', condition: 'eq', keyValue: value }] } };
}

/**
 * The table the Data Table node build keeps: one row per stay, its stay key and its last record's
 * fields, as a user would lay it out (and as Rate Changes 1.0 did).
 */
export const STAY_ROW_COLUMNS = [
	{ name: 'stayKey', type: 'string' },
	{ name: 'hotelCode', type: 'number' },
	{ name: 'hotelName', type: 'string' },
	{ name: 'websiteCode', type: 'number' },
	{ name: 'checkIn', type: 'string' },
	{ name: 'los', type: 'number' },
	{ name: 'guests', type: 'number' },
	{ name: 'roomType', type: 'string' },
	{ name: 'currency', type: 'string' },
	{ name: 'shopId', type: 'number' },
	{ name: 'onsiteRate', type: 'number' },
	{ name: 'netRate', type: 'number' },
	{ name: 'dtCollected', type: 'string' },
] as const;

/** The Columns of an insert or upsert: the stay row's columns, each set by an expression on `source` (`$json`, `$('Items').item.json`). */
function rateColumns(source: string, stayKey: string): Record<string, unknown> {
	const expression = (name: string): string => {
		if (name === 'stayKey') return stayKey;
		return name === 'checkIn' ? `={{ ${source}.checkIn.slice(0, 10) }}` : `={{ ${source}.${name} }}`;
	};
	const value = Object.fromEntries(STAY_ROW_COLUMNS.map(({ name }) => [name, expression(name)]));
	const schema = STAY_ROW_COLUMNS.map(({ name, type }) => ({ id: name, displayName: name, required: false, defaultMatch: false, display: true, type, canBeUsedToMatch: true }));
	return { columns: { mappingMode: 'defineBelow', value, matchingColumns: [], schema } };
}

export interface RateChangesWorkflows {
	node: BenchWorkflow;
	builtIn: BenchWorkflow & {
		/** The nodes of the changed-rate path and of the first-seen path, in the order they run. */
		changedPath: string[];
		firstSeenPath: string[];
		/** The IF node (its true output: the stored rows of the stays whose rate moved) and the Upsert after it. */
		changedIf: string;
		upsert: string;
	};
}

/**
 * 7. Rate change alerts: Rate Changes (Detect Changes, Change At Least 0 %) against what a user builds
 * from n8n's Data Table nodes. The Data Table node's Get puts out nothing for a stay not stored
 * yet, so a stay's first record takes a path of its own: Get → IF (stored rate ≠ the record's) →
 * Upsert by stay key, and beside it "If Row Does Not Exist" → Insert. Both start with a Webhook
 * call whose body holds the records (answered when the last node finished, without a body: the
 * first run puts out no alert).
 */
export function rateChangesWorkflows(tables: { ratesTable: string; changesTable: string }, builtInTableId: string): RateChangesWorkflows {
	const start = (path: string): Node[] => [
		node('Start', 'n8n-nodes-base.webhook', 2.1, { httpMethod: 'POST', path, responseMode: 'lastNode', responseData: 'noData', options: {} }, { webhookId: path }),
		node('Items', 'n8n-nodes-base.splitOut', 1, { fieldToSplitOut: 'body.items', options: {} }),
	];
	const rateChanges = node(
		'Rate Changes',
		`${PACKAGE}.travelPricingRateChanges`,
		1,
		{ operation: 'detectChanges', ratesTable: tables.ratesTable, changesTable: tables.changesTable, minChangePercent: 0, options: {} },
		{ credentials: { travelPricingN8nApi: N8N_API_CREDENTIAL } },
	);

	const [webhook, items] = start('benchRateChgBltIn');
	const stored = dataTable('Stored rate', 'get', builtInTableId, { ...stayKeyIs(STAY_KEY_EXPRESSION), returnAll: false, limit: 1 });
	const changed = ifNode('Rate changed', {
		id: 'rate-moved',
		leftValue: '={{ $json.onsiteRate }}',
		rightValue: "={{ $('Items').item.json.onsiteRate }}",
		operator: { type: 'number', operation: 'notEquals' },
	});
	const upsert = dataTable('Store new rate', 'upsert', builtInTableId, { ...stayKeyIs('={{ $json.stayKey }}'), ...rateColumns("$('Items').item.json", '={{ $json.stayKey }}'), options: {} });
	const notStored = dataTable('Not stored yet', 'rowNotExists', builtInTableId, stayKeyIs(STAY_KEY_EXPRESSION));
	const insert = dataTable('Store first rate', 'insert', builtInTableId, { ...rateColumns('$json', STAY_KEY_EXPRESSION), options: {} });
	// The changed-rate path above the first-seen one: n8n (execution order v1) runs it first.
	notStored.position = [Number((stored.position as number[])[0]), 300];
	insert.position = [Number((upsert.position as number[])[0]), 300];
	const to = (name: unknown) => [{ node: name, type: 'main', index: 0 }];
	const builtInSeed: WorkflowSeed = {
		id: 'benchRateChgBltIn',
		name: 'Bench: Data Table Get, IF, Upsert (and If Row Does Not Exist, Insert)',
		nodes: [webhook, items, stored, changed, upsert, notStored, insert],
		connections: {
			Start: { main: [to(items.name)] },
			Items: { main: [[...to(stored.name), ...to(notStored.name)]] },
			[String(stored.name)]: { main: [to(changed.name)] },
			[String(changed.name)]: { main: [to(upsert.name), []] },
			[String(notStored.name)]: { main: [to(insert.name)] },
		},
		settings: { executionOrder: 'v1' },
		active: false,
	};
	return {
		node: { seed: chain('benchRateChgNode', 'Bench: Rate Changes, Detect Changes', [...start('benchRateChgNode'), rateChanges]), path: 'benchRateChgNode', measuredNode: 'Rate Changes' },
		builtIn: {
			seed: builtInSeed,
			path: 'benchRateChgBltIn',
			measuredNode: String(upsert.name),
			changedPath: [String(stored.name), String(changed.name), String(upsert.name)],
			firstSeenPath: [String(notStored.name), String(insert.name)],
			changedIf: String(changed.name),
			upsert: String(upsert.name),
		},
	};
}

/** Rate Changes as the editor adds it, an operation with its defaults, on the Travel Pricing n8n API credential. */
function rateChangesNode(name: string, operation: string): Node {
	return node(name, `${PACKAGE}.travelPricingRateChanges`, 1, { operation, options: {} }, { credentials: { travelPricingN8nApi: N8N_API_CREDENTIAL } });
}

export interface GroupWorkflows {
	shop: ReceiverWorkflow;
	/** The node whose output items are the shop's alerts. */
	detectNode: string;
	digest: BenchWorkflow;
}

/**
 * 9. Rate Changes at group scale: the Rate Record Trigger (registered by hand, a bearer token)
 * into Detect Changes as the editor adds it (its defaults), and the morning Digest
 * started by a call, in production so that it marks what it reports, answering with its items.
 */
export function groupWorkflows(token: string): GroupWorkflows {
	const receiver = triggerWorkflow('benchGroupShop01', token);
	const detect = rateChangesNode('Detect changes', 'detectChanges');
	const digest = rateChangesNode('Digest', 'digest');
	const digestPath = 'benchGroupDigest';
	const start = node('Start', 'n8n-nodes-base.webhook', 2.1, { httpMethod: 'POST', path: digestPath, responseMode: 'lastNode', responseData: 'allEntries', options: {} }, { webhookId: digestPath });
	return {
		shop: { seed: chain(receiver.seed.id, 'Bench: a group shop into Rate Changes', [...(receiver.seed.nodes as Node[]), detect]), path: receiver.path },
		detectNode: String(detect.name),
		digest: { seed: chain(digestPath, 'Bench: the group morning digest', [start, digest]), path: digestPath, measuredNode: String(digest.name) },
	};
}

export interface OneRecordWorkflows {
	/** (a) What n8n does without this package: its Webhook node into a No Operation node. */
	webhook: ReceiverWorkflow;
	/** (b) The same job from n8n's Data Table nodes, behind its Webhook node. */
	dataTables: ReceiverWorkflow;
	/** (c) The Rate Record Trigger, gathering, into Rate Changes (Detect Changes). */
	rateChanges: ReceiverWorkflow;
	/** F: (c)'s trigger filtering out every record, into a No Operation node: n8n's per-request work alone. */
	perRequest: ReceiverWorkflow;
	/** (c)'s trigger, whose items are the records an execution holds. */
	trigger: string;
	/** The No Operation node the alerts of (b) and (c) go to. */
	alerts: string;
	/** (b)'s Get: the stored row, whose onsiteRate is an alert's previous rate. */
	storedRate: string;
}

/**
 * 10. One rate record a delivery, as the service posts them, each workflow a production URL of its
 * own. (a) and (b) start with n8n's Webhook node as benchmark 3a has it (version 2.1, POST, Header
 * Auth with the delivery token, Respond Immediately): one execution a delivery, the record in
 * `body`. (b) is what a user builds for the alerts of Rate Changes at its defaults (moves of 10 %
 * or more) from n8n's Data Table nodes on the stay's row: Get by stay key (Always Output Data, so
 * that a stay not stored yet goes on as an empty item) → IF stored → IF moved 10 % or more →
 * Update → the alerts; not stored → Insert. (c) is the Rate Record Trigger as the editor adds it
 * today (version 1.1, Gather Deliveries), registered by hand with a bearer token; F is that
 * trigger with Hotel Codes set to `absentHotel`, so that no record starts an execution.
 */
export function oneRecordWorkflows(token: string, tableId: string, absentHotel: number): OneRecordWorkflows {
	const alerts = (): Node => node('Alerts', 'n8n-nodes-base.noOp', 1, {});

	const webhook = webhookNode('benchOneRecHook');

	const tableHook = webhookNode('benchOneRecTable');
	const record = `$('${String(tableHook.name)}').item.json.body`;
	const stored: Node = { ...dataTable('Stored rate', 'get', tableId, { ...stayKeyIs(stayKeyOf('$json.body')), returnAll: false, limit: 1 }), alwaysOutputData: true };
	const found = ifNode('Stored already', { id: 'stay-stored', leftValue: '={{ $json.stayKey }}', operator: { type: 'string', operation: 'exists', singleValue: true } });
	const moved = ifNode('Moved 10 % or more', {
		id: 'rate-moved-10',
		leftValue: `={{ Math.abs(${record}.onsiteRate - $json.onsiteRate) / $json.onsiteRate }}`,
		rightValue: 0.1,
		operator: { type: 'number', operation: 'gte' },
	});
	const update = dataTable('Store new rate', 'update', tableId, { ...stayKeyIs('={{ $json.stayKey }}'), ...rateColumns(record, '={{ $json.stayKey }}'), options: {} });
	const tableAlerts = alerts();
	const insert = dataTable('Store first rate', 'insert', tableId, { ...rateColumns(record, stayKeyOf(record)), options: {} });
	insert.position = [Number((moved.position as number[])[0]), 300];
	const to = (target: Node) => [{ node: target.name, type: 'main', index: 0 }];
	const dataTables: WorkflowSeed = {
		id: 'benchOneRecTable',
		name: 'Bench: one record a delivery, Webhook node, Data Table Get, IF, Update (Insert when missing)',
		nodes: [tableHook, stored, found, moved, update, tableAlerts, insert],
		connections: {
			[String(tableHook.name)]: { main: [to(stored)] },
			[String(stored.name)]: { main: [to(found)] },
			[String(found.name)]: { main: [to(moved), to(insert)] },
			[String(moved.name)]: { main: [to(update), []] },
			[String(update.name)]: { main: [to(tableAlerts)] },
		},
		settings: { executionOrder: 'v1' },
		active: false,
	};

	const gathering = triggerWorkflow('benchOneRecChnge', token, { typeVersion: 1.1 });
	const trigger = (gathering.seed.nodes as Node[])[0];
	const filtered = triggerWorkflow('benchOneRecFloor', token, { typeVersion: 1.1, hotelCode: absentHotel });
	return {
		webhook: { seed: chain('benchOneRecHook', "Bench: one record a delivery, n8n's Webhook node", [webhook, node('No Operation', 'n8n-nodes-base.noOp', 1, {})]), path: 'benchOneRecHook' },
		dataTables: { seed: dataTables, path: 'benchOneRecTable' },
		rateChanges: {
			seed: chain('benchOneRecChnge', 'Bench: one record a delivery, Rate Record Trigger gathering, Rate Changes', [trigger, rateChangesNode('Rate Changes', 'detectChanges'), alerts()]),
			path: gathering.path,
		},
		perRequest: {
			seed: chain('benchOneRecFloor', 'Bench: one record a delivery, the trigger filtering out every record', [(filtered.seed.nodes as Node[])[0], node('No Operation', 'n8n-nodes-base.noOp', 1, {})]),
			path: filtered.path,
		},
		trigger: String(trigger.name),
		alerts: String(tableAlerts.name),
		storedRate: String(stored.name),
	};
}
