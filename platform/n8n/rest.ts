import { createRequire } from 'node:module';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { N8nRuntime } from './runtime';
import { editorTrigger } from './editorTrigger';
import { outputOf, type WorkflowRun } from './workflowRun';

/** n8n-workflow's ExecutionStatusList: every status an execution can have. */
const EXECUTION_STATUSES = ['canceled', 'crashed', 'error', 'new', 'running', 'success', 'unknown', 'waiting'];

export interface Owner {
	email: string;
	password: string;
	firstName: string;
	lastName: string;
}

/** The error an execution ended with, and the node it came from. */
export interface ExecutionError {
	node?: string;
	message: string;
	description?: string;
}

/** A stored execution: how it ended, the execution it retries (mode 'retry'), its run data and error. */
export interface StoredExecution {
	id: string;
	status: string;
	mode: string;
	retryOf?: string;
	/** When it ended (epoch ms), as n8n recorded it; undefined while it runs. */
	stoppedAt?: number;
	run: WorkflowRun;
	error?: ExecutionError;
}

/** A credential as the editor's dialog sends it: its name, type and the fields' values. */
export interface SavedCredential {
	name: string;
	type: string;
	data: Record<string, unknown>;
}

export interface RestResponse<T = unknown> {
	status: number;
	body: T;
	text: string;
}

/**
 * n8n's own REST API, as the editor in a browser uses it: the owner's sign-in (kept as its
 * cookie), publishing, node and credential types, and the stored executions.
 */
export class N8nRestClient {
	/** Workflows published through the CLI or activateWorkflow, which waitForPublished waits for. */
	protected readonly published = new Set<string>();

	private authCookie: string | undefined;

	constructor(
		readonly baseUrl: string,
		private readonly n8nRuntime: N8nRuntime,
	) {}

	/** Whether setupOwner or login ran, so requests are signed in. */
	get signedIn(): boolean {
		return this.authCookie !== undefined;
	}

	/** A request to n8n's own API, signed in when setupOwner or login ran before. */
	async request<T = unknown>(method: string, urlPath: string, body?: unknown): Promise<RestResponse<T>> {
		const headers: Record<string, string> = { accept: 'application/json' };
		if (body !== undefined) headers['content-type'] = 'application/json';
		if (this.authCookie) headers.cookie = this.authCookie;
		const response = await fetch(`${this.baseUrl}${urlPath}`, {
			method,
			headers,
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const cookie = response.headers.getSetCookie().find((value) => value.startsWith('n8n-auth='));
		if (cookie) this.authCookie = cookie.split(';')[0];
		const text = await response.text();
		let parsed: unknown = text;
		try {
			parsed = JSON.parse(text);
		} catch {
			// Not JSON (an HTML error page, say): the caller gets the text.
		}
		return { status: response.status, body: parsed as T, text };
	}

	/** Creates the owner account (the first user, as the setup screen does) and signs in as it. */
	async setupOwner(owner: Owner): Promise<void> {
		const response = await this.request('POST', '/rest/owner/setup', owner);
		if (response.status !== 200) throw new Error(`Owner setup answered ${response.status}: ${response.text}`);
	}

	async login(owner: Pick<Owner, 'email' | 'password'>): Promise<void> {
		const response = await this.request('POST', '/rest/login', {
			emailOrLdapLoginId: owner.email,
			password: owner.password,
		});
		if (response.status !== 200) throw new Error(`Login answered ${response.status}: ${response.text}`);
	}

	/** Whether the instance already has its owner (then setupOwner would be refused). */
	async hasOwner(): Promise<boolean> {
		const settings = await this.request<{ data: { userManagement?: { showSetupOnFirstLoad?: boolean } } }>('GET', '/rest/settings');
		return settings.body.data.userManagement?.showSetupOnFirstLoad === false;
	}

	/**
	 * Creates an n8n API key for the signed-in user, as Settings > n8n API does, and returns the
	 * key itself (n8n shows it once).
	 */
	async createApiKey(label: string, scopes: readonly string[]): Promise<string> {
		const response = await this.request<{ data: { rawApiKey: string } }>('POST', '/rest/api-keys', { label, scopes, expiresAt: null });
		if (response.status !== 200) throw new Error(`Creating an API key answered ${response.status}: ${response.text}`);
		return response.body.data.rawApiKey;
	}

	/**
	 * Gives the signed-in user's API key of this label other scopes, as editing it in Settings >
	 * n8n API does (PATCH /rest/api-keys/:id): the key itself stays the same.
	 */
	async setApiKeyScopes(label: string, scopes: readonly string[]): Promise<void> {
		type Listed = Array<{ id: string; label: string }>;
		const listing = await this.request<{ data: Listed | { items: Listed } }>('GET', `/rest/api-keys?label=${encodeURIComponent(label)}`);
		// n8n 2.41 answers a page ({ items }), 2.8 the list itself.
		const listed = Array.isArray(listing.body.data) ? listing.body.data : (listing.body.data?.items ?? []);
		const key = listed.find((candidate) => candidate.label === label);
		if (!key) throw new Error(`No API key labelled "${label}": ${listing.text.slice(0, 300)}`);
		const response = await this.request('PATCH', `/rest/api-keys/${key.id}`, { label, scopes });
		if (response.status !== 200) throw new Error(`Editing the API key "${label}" answered ${response.status}: ${response.text.slice(0, 300)}`);
	}

	/**
	 * A stored credential's fields as the editor's dialog reads them (GET /rest/credentials/:id with
	 * its data; n8n blanks secret fields, hidden ones come as stored).
	 */
	async storedCredential(id: string): Promise<Record<string, unknown>> {
		const response = await this.request<{ data: { data?: Record<string, unknown> } }>('GET', `/rest/credentials/${id}?includeData=true`);
		if (response.status !== 200) throw new Error(`Reading credential ${id} answered ${response.status}: ${response.text.slice(0, 300)}`);
		return response.body.data.data ?? {};
	}

	/** Saves a new credential, as the editor's credential dialog does on Save, and returns its id. */
	async createCredential(credential: SavedCredential): Promise<string> {
		const response = await this.request<{ data: { id: string } }>('POST', '/rest/credentials', credential);
		if (response.status !== 200) throw new Error(`Saving a credential answered ${response.status}: ${response.text.slice(0, 300)}`);
		return response.body.data.id;
	}

	/**
	 * Runs a saved credential's Test with the dialog's data, as the editor does after Save
	 * (POST /rest/credentials/test): n8n tests only credentials it has stored.
	 */
	async testCredential(credential: SavedCredential & { id: string }): Promise<{ status: 'OK' | 'Error'; message: string }> {
		const response = await this.request<{ data: { status: 'OK' | 'Error'; message: string } }>('POST', '/rest/credentials/test', { credentials: credential });
		if (response.status !== 200) throw new Error(`Testing a credential answered ${response.status}: ${response.text.slice(0, 300)}`);
		return response.body.data;
	}

	/** The node types n8n offers in the editor (its /types/nodes.json), signed in. */
	async nodeTypes(): Promise<Array<{ name: string; displayName: string; version: number | number[] }>> {
		const response = await this.request<Array<{ name: string; displayName: string; version: number | number[] }>>('GET', '/types/nodes.json');
		if (response.status !== 200) throw new Error(`/types/nodes.json answered ${response.status}`);
		return response.body;
	}

	async credentialTypes(): Promise<Array<{ name: string; displayName: string }>> {
		const response = await this.request<Array<{ name: string; displayName: string }>>('GET', '/types/credentials.json');
		if (response.status !== 200) throw new Error(`/types/credentials.json answered ${response.status}`);
		return response.body;
	}

	/**
	 * Activates (publishes) a workflow in the running n8n, as the editor's Publish button does
	 * (signed in). Resolves once n8n reports it published.
	 */
	async activateWorkflow(workflowId: string): Promise<void> {
		const workflow = await this.request<{ data: { versionId: string } }>('GET', `/rest/workflows/${workflowId}`);
		if (workflow.status !== 200) throw new Error(`Workflow ${workflowId}: ${workflow.status} ${workflow.text.slice(0, 300)}`);
		const response = await this.request('POST', `/rest/workflows/${workflowId}/activate`, { versionId: workflow.body.data.versionId });
		if (response.status !== 200) throw new Error(`Activating ${workflowId} answered ${response.status}: ${response.text.slice(0, 500)}`);
		// n8n 2.40 and 2.41 answer before their publication queue has registered the workflow's webhooks.
		this.published.add(workflowId);
		await this.waitForPublished();
	}

	/** Deactivates (unpublishes) a workflow as the editor does, and resolves once n8n reports it inactive. */
	async deactivateWorkflow(workflowId: string, timeoutMs = 60_000): Promise<void> {
		const response = await this.request('POST', `/rest/workflows/${workflowId}/deactivate`, {});
		if (response.status !== 200) throw new Error(`Deactivating ${workflowId} answered ${response.status}: ${response.text.slice(0, 500)}`);
		this.published.delete(workflowId);
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const workflow = await this.request<{ data: { active: boolean } }>('GET', `/rest/workflows/${workflowId}`);
			if (workflow.body.data?.active === false) return;
			if (Date.now() > deadline) throw new Error(`Workflow ${workflowId} was still active ${timeoutMs / 1000} s after deactivating it`);
			await sleep(250);
		}
	}

	/**
	 * Waits until n8n has activated every published workflow (signed in). n8n 2.8 activates them
	 * before it reports ready; later versions activate them in the background after that, through a
	 * publication queue whose state /rest/workflows/:id/publication-status shows.
	 */
	async waitForPublished(timeoutMs = 120_000): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		for (const id of this.published) {
			for (;;) {
				const response = await this.request<{ data: { status: string; triggers: Array<{ errorMessage?: string | null }> } }>(
					'GET',
					`/rest/workflows/${id}/publication-status`,
				);
				if (response.status === 404) break;
				const { status, triggers } = response.body.data;
				if (status === 'published') break;
				if (status === 'failed' || status === 'partial') {
					throw new Error(`n8n could not activate workflow ${id}: ${triggers.map((trigger) => trigger.errorMessage).join('; ')}`);
				}
				if (Date.now() > deadline) throw new Error(`Workflow ${id} was still "${status}" after ${timeoutMs / 1000} s`);
				await sleep(250);
			}
		}
	}

	/**
	 * Runs a workflow as a click on the editor's "Execute workflow" button does (signed in, n8n
	 * 2.41's `POST /rest/workflows/:id/run`): in manual mode, from the trigger the editor picks
	 * (editorTrigger.ts), and resolves once the execution has finished, with how it ended.
	 */
	async executeFromEditor(workflowId: string, timeoutMs = 180_000): Promise<{ executionId: string; trigger: string; status: string }> {
		const workflow = await this.request<{ data: { nodes: Array<{ name: string; type: string; disabled?: boolean }> } }>('GET', `/rest/workflows/${workflowId}`);
		if (workflow.status !== 200) throw new Error(`Workflow ${workflowId}: ${workflow.status} ${workflow.text.slice(0, 300)}`);
		const trigger = editorTrigger(workflow.body.data.nodes);
		if (!trigger) throw new Error(`Workflow ${workflowId} has no trigger the editor would run`);
		const run = await this.request<{ data: { executionId?: string; waitingForWebhook?: boolean } }>('POST', `/rest/workflows/${workflowId}/run`, { triggerToStartFrom: { name: trigger } });
		const executionId = run.body.data?.executionId;
		if (run.status !== 200 || !executionId) throw new Error(`Running ${workflowId} from "${trigger}" answered ${run.status}: ${run.text.slice(0, 500)}`);
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const execution = await this.request<{ data: { finished: boolean; status: string; stoppedAt?: string | null } }>('GET', `/rest/executions/${executionId}`);
			const { status, stoppedAt } = execution.body.data ?? { status: 'unknown' };
			if (stoppedAt || ['success', 'error', 'crashed', 'canceled'].includes(status)) return { executionId, trigger, status };
			if (Date.now() > deadline) throw new Error(`Execution ${executionId} of ${workflowId} was still "${status}" after ${timeoutMs / 1000} s`);
			await sleep(250);
		}
	}

	/** How many executions of a workflow n8n has stored, whatever their status. */
	async countExecutions(workflowId: string): Promise<number> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const response = await this.request<{ data: { count: number } }>('GET', `/rest/executions?filter=${filter}&limit=1`);
		if (response.status !== 200) throw new Error(`/rest/executions answered ${response.status}: ${response.text}`);
		return response.body.data.count;
	}

	/**
	 * Waits until no execution of a workflow is new or running: n8n lists an execution from its
	 * start, so a count reached says nothing of whether the last ones have finished. `createdSince`
	 * (ms): only executions created since count; one of an n8n process stopped before it can never
	 * finish, and n8n 2.8.4 has once left one listed as running after the restart.
	 */
	async waitUntilFinished(workflowId: string, { timeoutMs = 120_000, createdSince }: { timeoutMs?: number; createdSince?: number } = {}): Promise<void> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId, status: ['new', 'running'] }));
		type Listed = { count: number; results?: Array<{ createdAt?: string | null; startedAt?: string | null }> };
		for (const started = Date.now(); Date.now() - started < timeoutMs; await sleep(200)) {
			const response = await this.request<{ data: Listed }>('GET', `/rest/executions?filter=${filter}&limit=${createdSince === undefined ? 1 : 100}`);
			if (response.status !== 200) throw new Error(`/rest/executions answered ${response.status}: ${response.text}`);
			const { count, results = [] } = response.body.data;
			// More listed than one page shows: not yet told apart, so not finished.
			const unfinished = createdSince === undefined || count > results.length ? count : results.filter((execution) => !(Date.parse(execution.createdAt ?? execution.startedAt ?? '') < createdSince)).length;
			if (unfinished === 0) return;
		}
		throw new Error(`Executions of workflow ${workflowId} still running after ${timeoutMs} ms`);
	}

	/**
	 * Waits until no execution of any workflow has been new or running for `settleMs` (one that
	 * starts meanwhile is waited for too), or `timeoutMs` has passed; says which, how long it
	 * waited, and how many still ran. Executions waiting for a person (Send and Wait) do not count.
	 */
	async waitUntilIdle({ timeoutMs = 300_000, settleMs = 1_000 } = {}): Promise<{ ended: boolean; waitedSeconds: number; stillRunning: number }> {
		const filter = encodeURIComponent(JSON.stringify({ status: ['new', 'running'] }));
		const started = Date.now();
		let idleSince: number | undefined;
		for (;;) {
			const response = await this.request<{ data: { count: number } }>('GET', `/rest/executions?filter=${filter}&limit=1`);
			if (response.status !== 200) throw new Error(`/rest/executions answered ${response.status}: ${response.text}`);
			const running = response.body.data.count;
			const now = Date.now();
			idleSince = running === 0 ? (idleSince ?? now) : undefined;
			const waitedSeconds = Math.round((now - started) / 1000);
			if (idleSince !== undefined && now - idleSince >= settleMs) return { ended: true, waitedSeconds, stillRunning: 0 };
			if (now - started >= timeoutMs) return { ended: false, waitedSeconds, stillRunning: running };
			await sleep(250);
		}
	}

	/**
	 * The executions a shop's `deliveries` POSTs, every one answered 200, started in a workflow, once
	 * all have finished: the ids not in `before`. n8n answers a delivery only once the execution
	 * holding its record exists (a gathering Rate Record Trigger answers each of its deliveries once
	 * their one execution does), so every one is listed by now and only their end is waited for.
	 * There are at least one and at most `deliveries` of them: exactly `deliveries` with one
	 * execution a delivery (the trigger's version 1), fewer as the trigger gathers.
	 */
	async waitForDeliveries(workflowId: string, before: ReadonlySet<string>, deliveries: number, { timeoutMs = 300_000 } = {}): Promise<string[]> {
		await this.waitUntilFinished(workflowId, { timeoutMs });
		const started = (await this.executionIds(workflowId)).filter((id) => !before.has(id));
		if (started.length < 1 || started.length > deliveries) {
			throw new Error(`${deliveries} deliveries answered 200 started ${started.length} executions of workflow ${workflowId}: expected 1 to ${deliveries}`);
		}
		return started;
	}

	/** The ids of every stored execution of a workflow, highest first (the API gives 100 a page). */
	async executionIds(workflowId: string): Promise<string[]> {
		return this.n8nRuntime.executionCursor ? this.executionIdsByStartTime(workflowId) : this.executionIdsByIdRange(workflowId);
	}

	/**
	 * Up to n8n 2.40, every page, the first too, is asked for as a range of ids: without one n8n
	 * orders the first page by start time, and executions that ran at once started out of id order,
	 * so paging on from that page's last id skipped some (3 of 503 on n8n 1.123).
	 */
	private async executionIdsByIdRange(workflowId: string): Promise<string[]> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const ids: string[] = [];
		for (;;) {
			// Above every id: the largest Postgres integer, n8n's id column there.
			const lastId = ids.length > 0 ? ids[ids.length - 1] : '2147483647';
			const response = await this.request<{ data: { results: Array<{ id: string }> } }>(
				'GET',
				`/rest/executions?filter=${filter}&limit=100&lastId=${lastId}&firstId=0`,
			);
			if (response.status !== 200) throw new Error(`/rest/executions answered ${response.status}: ${response.text}`);
			const page = response.body.data.results.map((execution) => execution.id);
			if (page.length === 0) return ids;
			ids.push(...page);
		}
	}

	/**
	 * From n8n 2.41 on, pages come only by the cursor n8n hands out: each page is ordered by start
	 * time, and the next one holds the latest-started executions of lower id than the page's last,
	 * so executions that started out of id order across a page's edge are skipped, as with the first
	 * page before. A window of start times is therefore read by its cursor only while that finds as
	 * many executions as n8n counts in it; else it is split in two at the middle start time found,
	 * down to one millisecond, within which n8n orders by id and the cursor misses none. Executions
	 * not started yet are not listed.
	 */
	private async executionIdsByStartTime(workflowId: string): Promise<string[]> {
		const ids = new Set<string>();
		const read = async (from: number, to: number): Promise<void> => {
			const window = await this.executionsStartedBetween(workflowId, from, to);
			if (window.executions.length >= window.count) {
				for (const execution of window.executions) ids.add(execution.id);
				return;
			}
			if (from === to) {
				throw new Error(`/rest/executions gave ${window.executions.length} of the ${window.count} executions that started at ${new Date(from).toISOString()}`);
			}
			const starts = window.executions.map((execution) => execution.startedAt).sort((a, b) => a - b);
			const middle = Math.min(starts[Math.floor(starts.length / 2)] ?? Math.floor((from + to) / 2), to - 1);
			await read(from, middle);
			await read(middle + 1, to);
		};
		// n8n runs on this machine: nothing it stores started after now.
		await read(0, Date.now());
		return [...ids].sort((a, b) => Number(b) - Number(a));
	}

	/**
	 * The executions of a workflow that started from `from` to `to` (ms, both included), as n8n's
	 * cursor pages give them, and n8n's count of them.
	 */
	private async executionsStartedBetween(
		workflowId: string,
		from: number,
		to: number,
	): Promise<{ executions: Array<{ id: string; startedAt: number }>; count: number }> {
		// Every status, named: without a status n8n lists running executions on the first page only
		// and leaves them out of the count.
		const filter = encodeURIComponent(
			JSON.stringify({ workflowId, status: EXECUTION_STATUSES, startedAfter: new Date(from).toISOString(), startedBefore: new Date(to).toISOString() }),
		);
		const executions = new Map<string, number>();
		let count = 0;
		let cursor: string | null = null;
		do {
			const response: RestResponse<{ data: { results: Array<{ id: string; startedAt: string }>; count: number; nextCursor: string | null } }> =
				await this.request('GET', `/rest/executions?filter=${filter}&limit=100${cursor ? `&cursor=${cursor}` : ''}`);
			if (response.status !== 200) throw new Error(`/rest/executions answered ${response.status}: ${response.text}`);
			for (const execution of response.body.data.results) executions.set(execution.id, Date.parse(execution.startedAt));
			count = response.body.data.count;
			cursor = response.body.data.nextCursor;
		} while (cursor && executions.size < count);
		return { executions: [...executions].map(([id, startedAt]) => ({ id, startedAt })), count };
	}

	/**
	 * The items a node emitted in each stored execution of a workflow (but those `except` names), one list per execution, read
	 * through the REST API as the editor's execution view reads them (n8n stores run data in the
	 * "flatted" format, parsed here with n8n's own copy of that library).
	 */
	async executionOutputs(
		workflowId: string,
		nodeName: string,
		{ except = new Set<string>(), concurrency = 8 }: { except?: ReadonlySet<string>; concurrency?: number } = {},
	): Promise<Array<Array<Record<string, unknown>>>> {
		const ids = (await this.executionIds(workflowId)).filter((id) => !except.has(id));
		const outputs: Array<Array<Record<string, unknown>>> = new Array(ids.length);
		let next = 0;
		const worker = async (): Promise<void> => {
			while (next < ids.length) {
				const index = next++;
				outputs[index] = outputOf((await this.execution(ids[index])).run, nodeName);
			}
		};
		await Promise.all(Array.from({ length: concurrency }, worker));
		return outputs;
	}

	/**
	 * The error each stored execution of a workflow ended with, with the node it came from, newest
	 * first (null for an execution that ended without one).
	 */
	async executionErrors(workflowId: string): Promise<Array<ExecutionError | null>> {
		const errors: Array<ExecutionError | null> = [];
		for (const id of await this.executionIds(workflowId)) errors.push((await this.execution(id)).error ?? null);
		return errors;
	}

	/**
	 * One stored execution as the editor's execution view reads it (n8n stores run data in the
	 * "flatted" format, parsed here with n8n's own copy of that library).
	 */
	async execution(id: string): Promise<StoredExecution> {
		const flatted = createRequire(path.join(this.n8nRuntime.dir, 'node_modules', 'n8n', 'package.json'))('flatted') as { parse(text: string): unknown };
		const response = await this.request<{ data: { id: string; status: string; mode: string; retryOf?: string | null; stoppedAt?: string | null; data: string } }>(
			'GET',
			`/rest/executions/${id}`,
		);
		if (response.status !== 200) throw new Error(`/rest/executions/${id} answered ${response.status}`);
		const { status, mode, retryOf, stoppedAt, data } = response.body.data;
		const run = { data: flatted.parse(data) } as WorkflowRun;
		const error = run.data.resultData.error as { message: string; description?: string; node?: { name: string } } | undefined;
		return {
			id: String(id),
			status,
			mode,
			retryOf: retryOf ? String(retryOf) : undefined,
			...(stoppedAt ? { stoppedAt: Date.parse(stoppedAt) } : {}),
			run,
			...(error ? { error: { node: error.node?.name, message: error.message, description: error.description } } : {}),
		};
	}

	/**
	 * Retries a failed execution as the editor's Retry ("Retry with original workflow") does: n8n
	 * runs it again in mode 'retry' from the node that failed, with what the nodes before it put
	 * out. Resolves once the retry has finished, with its id and how it ended.
	 */
	async retryExecution(id: string): Promise<{ id: string; status: string }> {
		const response = await this.request<{ data: { id: string | number; status: string } }>('POST', `/rest/executions/${id}/retry`, { loadWorkflow: false });
		if (response.status !== 200) throw new Error(`Retrying execution ${id} answered ${response.status}: ${response.text.slice(0, 500)}`);
		return { id: String(response.body.data.id), status: response.body.data.status };
	}

	/**
	 * Waits until n8n has stored at least `count` executions of a workflow (an execution is stored
	 * after its last node finished, so a little after its effects are visible), then for the count
	 * to hold still for `settleMs`, and returns it. Gives up when the count did not move for
	 * `quietMs`, returning what it reached.
	 */
	async waitForExecutions(workflowId: string, count: number, { quietMs = 60_000, settleMs = 1_000 } = {}): Promise<number> {
		let seen = await this.countExecutions(workflowId);
		let lastChange = Date.now();
		while (Date.now() - lastChange < (seen >= count ? settleMs : quietMs)) {
			await sleep(200);
			const now = await this.countExecutions(workflowId);
			if (now !== seen) {
				seen = now;
				lastChange = Date.now();
			}
		}
		return seen;
	}
}
