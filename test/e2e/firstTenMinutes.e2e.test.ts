import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchChromium } from '../ui/harness/browser';
import { datesBetween } from './calendarExpectation';
import { expectedParityLosses, expectedUndercuts } from './compSet';
import { eachDateWorkflow, expectedHistory, expectHistoryOf, HISTORY_NODE } from './historyExpectation';
import type { ExpectedChange, RateRecord, RunSummary } from '../../platform/sandbox';
import {
	editorTrigger,
	ensureN8n,
	EXAMPLE_FILES,
	NEWEST_N8N,
	printProgress,
	readyText,
	slackChannelOf,
	startDemo,
	type Demo,
	type WorkflowSeed,
} from '../../platform/n8n';
import { round2 } from '../../nodes/RateChanges/rules/amounts';

/**
 * The first ten minutes of `npm start`, as a newcomer spends them: the demo started the way npm
 * start starts it (startDemo, on n8n 2.41.1, in a new folder), then the alert and digest steps of
 * its ready text followed as readyText prints them: each "click Publish" done as the editor's
 * Publish button does it, each "unpublish" as its Unpublish does, each curl sent as printed, each
 * "click Execute workflow" run as the editor's button runs it. After each step: the alerts and
 * digests are exactly what the sandbox made (its expected changes, and the undercuts and parity
 * losses its delivered records give, by the rules the ready text states), they arrived in the demo
 * inbox, and no execution ended in an error; the peak dates' history (step 10, after four weekly
 * shops, the first three weeks ago) holds on each shop day the figures their records give; after the
 * last step that runs shops, the inbox holds no message twice.
 */

type Action =
	| { kind: 'publish'; workflow: string }
	| { kind: 'unpublish'; workflow: string }
	| { kind: 'curl'; url: string; body: Record<string, unknown> }
	| { kind: 'execute'; workflow: string };

interface Step {
	number: number;
	text: string;
	actions: Action[];
}

/** The numbered steps of the ready text, and what each asks the user to do, in the order it asks. */
function readySteps(text: string): Map<number, Step> {
	const steps = new Map<number, Step>();
	let current: Step | undefined;
	for (const line of text.split('\n')) {
		const start = /^ {2}(\d+)\. /.exec(line);
		if (start) {
			current = { number: Number(start[1]), text: '', actions: [] };
			steps.set(current.number, current);
		} else if (!/^ {5}/.test(line)) {
			current = undefined;
		}
		if (current) current.text += `${line}\n`;
	}
	for (const step of steps.values()) {
		const found: Array<{ at: number; action: Action }> = [];
		for (const match of step.text.matchAll(/open "([^"]+)", click "Publish"/g)) found.push({ at: match.index ?? 0, action: { kind: 'publish', workflow: match[1] } });
		for (const match of step.text.matchAll(/curl -X POST '([^']+)' -H 'content-type: application\/json' -d '([^']+)'/g)) {
			found.push({ at: match.index ?? 0, action: { kind: 'curl', url: match[1], body: JSON.parse(match[2]) as Record<string, unknown> } });
		}
		for (const match of step.text.matchAll(/unpublish "([^"]+)"/g)) found.push({ at: match.index ?? 0, action: { kind: 'unpublish', workflow: match[1] } });
		for (const match of step.text.matchAll(/open "([^"]+)" and click "Execute workflow"/gi)) found.push({ at: match.index ?? 0, action: { kind: 'execute', workflow: match[1] } });
		found.sort((a, b) => a.at - b.at);
		// "execute it again": the workflow the step executed last.
		for (const match of step.text.matchAll(/execute it again/g)) {
			const before = found.filter(({ at, action }) => at < (match.index ?? 0) && action.kind === 'execute').pop();
			if (before) found.push({ at: match.index ?? 0, action: before.action });
		}
		step.actions = found.sort((a, b) => a.at - b.at).map(({ action }) => action);
	}
	return steps;
}

/** A number the step's text states, as `pattern`'s first group. */
function stated(step: Step, pattern: RegExp): number {
	const match = pattern.exec(step.text.replace(/\s+/g, ' '));
	if (!match) throw new Error(`Step ${step.number} does not say ${pattern}:\n${step.text}`);
	return Number(match[1]);
}

/** What the node must report of a change the sandbox made: its move in cents and percent, as Detect Changes rounds them. */
function movePercent(change: ExpectedChange): number {
	return round2((round2((change.rate as number) - (change.previousRate as number)) / (change.previousRate as number)) * 100);
}

function stayOf(change: Record<string, unknown>): string {
	return [change.hotelCode, change.websiteCode, String(change.checkIn).slice(0, 10), change.los, change.guests, change.roomType, change.changeType].join('|');
}

describe(`The first ten minutes of npm start (n8n ${NEWEST_N8N})`, () => {
	let demo: Demo;
	let folder: string;
	let steps: Map<number, Step>;
	const runs: RunSummary[] = [];
	/** The trigger addresses of the workflows a step unpublished: the service has no delete and goes on posting there. */
	const unpublished = new Set<string>();

	const workflowId = (name: string): string => {
		const workflow = [...demo.examples.values()].find((candidate) => candidate.name === name);
		if (!workflow) throw new Error(`The ready text names "${name}", which is no example`);
		return workflow.id;
	};
	const idOf = (file: string) => (demo.examples.get(file) as WorkflowSeed).id;
	const webhookIdOf = (workflow: WorkflowSeed) => (workflow.nodes as Array<{ webhookId?: string }>).find((node) => node.webhookId)?.webhookId as string;
	const recordsOf = (run: RunSummary, webhookEndpoint?: string): RateRecord[] =>
		demo.sandbox
			?.deliveries()
			.filter((delivery) => delivery.runId === run.runId && (webhookEndpoint === undefined || delivery.endpoint === webhookEndpoint))
			.flatMap((delivery) => [delivery.body].flat() as RateRecord[]) ?? [];

	/** Does what a step asks, in order; returns the runs it made and the executions it started from the editor. */
	async function follow(step: Step): Promise<{ runs: RunSummary[]; executions: Array<{ workflow: string; executionId: string; trigger: string; status: string }> }> {
		const made: RunSummary[] = [];
		const executions: Array<{ workflow: string; executionId: string; trigger: string; status: string }> = [];
		for (const action of step.actions) {
			if (action.kind === 'publish') await demo.n8n.activateWorkflow(workflowId(action.workflow));
			if (action.kind === 'unpublish') {
				await demo.n8n.deactivateWorkflow(workflowId(action.workflow));
				unpublished.add(webhookIdOf([...demo.examples.values()].find((candidate) => candidate.name === action.workflow) as WorkflowSeed));
			}
			if (action.kind === 'curl') {
				const response = await fetch(action.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(action.body) });
				expect(response.status).toBe(200);
				// A printed command answers in one short line; the run's whole summary is at the URL it gives.
				const text = await response.text();
				expect(text).not.toContain('\n');
				expect(text.length).toBeLessThan(400);
				const { details, settled } = JSON.parse(text) as { details: string; settled: { executions: { ended: boolean } } };
				// The command answered once n8n's executions of the shop had ended: the next action needs no wait of its own.
				expect(settled.executions.ended).toBe(true);
				const run = (await (await fetch(new URL(details, action.url))).json()) as RunSummary;
				// Every delivery to a published workflow was answered 200 in the end, retried or not; n8n
				// answers 404 to those for a workflow a step unpublished.
				const answered = (demo.sandbox?.deliveries() ?? []).filter((delivery) => delivery.runId === run.runId);
				expect(answered).toHaveLength(run.deliveries);
				for (const delivery of answered) {
					expect({ endpoint: delivery.endpoint, status: delivery.status }).toEqual({ endpoint: delivery.endpoint, status: [...unpublished].some((id) => delivery.endpoint.includes(id)) ? 404 : 200 });
				}
				made.push(run);
				runs.push(run);
			}
			if (action.kind === 'execute') executions.push({ workflow: action.workflow, ...(await demo.n8n.executeFromEditor(workflowId(action.workflow))) });
		}
		return { runs: made, executions };
	}

	/** The items a node put out in one execution. */
	async function outputIn(file: string, node: string, executionId: string): Promise<Array<Record<string, unknown>>> {
		const others = new Set((await demo.n8n.executionIds(idOf(file))).filter((id) => id !== executionId));
		return (await demo.n8n.executionOutputs(idOf(file), node, { except: others })).flat();
	}

	/** The POSTs of a run beyond the first of each delivery: a sender that got no answer in time posts again, and n8n may have taken each attempt. */
	const extraPosts = (run: RunSummary): number =>
		(demo.sandbox?.deliveries() ?? []).filter((delivery) => delivery.runId === run.runId).reduce((sum, delivery) => sum + delivery.attempts.length - 1, 0);

	/** The deliveries to an alert workflow whose records its trigger passed on, and how many POSTs they took (a sender gives up on a slow answer and posts again, and n8n may have taken both). */
	function passedOn(file: string): { deliveries: number; attempts: number } {
		const trigger = webhookIdOf(demo.examples.get(file) as WorkflowSeed);
		const passed = (demo.sandbox?.deliveries() ?? []).filter(
			// n8n's 404 to an unpublished workflow is a page of its own, cut to 1 KB: only a 200 is read.
			(delivery) => delivery.endpoint.includes(trigger) && delivery.status === 200 && ((JSON.parse(delivery.responseBody ?? '{}') as { emitted?: number }).emitted ?? 0) > 0,
		);
		return { deliveries: passed.length, attempts: passed.reduce((sum, delivery) => sum + delivery.attempts.length, 0) };
	}

	beforeAll(async () => {
		const runtime = await ensureN8n(NEWEST_N8N);
		folder = fs.mkdtempSync(path.join(os.tmpdir(), 'first-ten-minutes-'));
		demo = await startDemo({ runtime, userFolder: folder, ports: { n8n: 0, sandbox: 0, inbox: 0, smtp: 0 } });
		steps = readySteps(readyText(demo, 0));
	}, 30 * 60_000);

	afterAll(async () => {
		await demo?.stop();
		if (folder && !process.env.E2E_KEEP_N8N_FOLDER) fs.rmSync(folder, { recursive: true, force: true });
	});

	test('the ready text lands on the workflow list, gives the inbox address, and its steps 4 to 6 publish, run shops and execute digests', () => {
		const text = readyText(demo, 0);
		expect(text).toContain(`Editor       ${demo.n8n.baseUrl}/home/workflows`);
		expect(text).toContain(`Inbox        ${demo.inbox.url}`);
		expect([4, 5, 6].map((number) => steps.get(number)?.actions.map((action) => action.kind))).toEqual([
			['publish', 'curl', 'unpublish'],
			['publish', 'curl', 'curl', 'execute'],
			['publish', 'curl', 'execute'],
		]);
		// No run number in a command: each repeats "the latest run of shop 1", whatever ran before.
		expect(text).not.toMatch(/"repeatRun":\d/);
	});

	test("step 4: the rate alert posts each rate of the competitor at or below the threshold to the inbox, as Slack shows it", async () => {
		const step = steps.get(4) as Step;
		const competitor = stated(step, /Each rate of [^(]+\((\d+)\)/);
		const threshold = stated(step, /at or below (\d+(?:\.\d+)?) [A-Z]{3}/);
		const { runs: made } = await follow(step);
		const matching = recordsOf(made[0]).filter((record) => record.hotelCode === competitor && record.statusCode === 200 && record.onsiteRate <= threshold);
		// A handful: the competitor's promotions and cheap nights, not every rate.
		expect(matching.length).toBeGreaterThan(0);
		expect(matching.length).toBeLessThan(recordsOf(made[0]).filter((record) => record.hotelCode === competitor).length);
		const alerts = demo.inbox.slackMessages(slackChannelOf(EXAMPLE_FILES.rateAlert));
		const stay = (record: Partial<RateRecord>) => [record.websiteCode, String(record.checkIn).slice(0, 10), record.onsiteRate].join('|');
		expect([...new Set(alerts.map((alert) => stay(alert.payload.rate as RateRecord)))].sort()).toEqual(matching.map(stay).sort());
		// The Rate Alert example has no memory: a delivery the sender posted again, after n8n took it, alerts twice.
		printProgress(`step 4: ${made[0].deliveries} deliveries, ${made[0].retried} sent again after no answer in time (${extraPosts(made[0])} POSTs more), ${alerts.length} alerts of ${matching.length} rates`);
		// Each POST of a delivery n8n took alerts: a delivery posted three times may alert three times.
		expect(alerts.length - matching.length).toBeLessThanOrEqual(extraPosts(made[0]));
		// In the currency of the Cape Town hotels' shop, as the step states it.
		const currency = /at or below \d+(?:\.\d+)? ([A-Z]{3})/.exec(step.text)?.[1];
		expect(currency).toBe('ZAR');
		for (const alert of alerts) expect(alert.text).toMatch(new RegExp(`^Rate alert: .+ sells Standard Queen Room at [\\d.]+ ${currency} a night for check-in \\d{4}-\\d{2}-\\d{2} \\(a stay of \\d+ nights?\\) on [a-z0-9-]+(\\.[a-z0-9-]+)+ \\(\\d+\\): https?://`));
	});

	test("step 5: the rate change digest holds exactly the moves of the stated size or more, sold out and back on sale, and arrives in the inbox", async () => {
		const step = steps.get(5) as Step;
		const atLeast = stated(step, /every move of (\d+) % or more/);
		const { runs: made, executions } = await follow(step);
		const [today, tomorrow] = made;
		// "latest" is the run the step made just before, not a number printed in advance.
		expect(tomorrow.repeatOf).toBe(today.runId);
		const expected = (tomorrow.expectedChanges ?? []).filter((change) => change.changeType === 'soldOut' || change.changeType === 'backOnSale' || Math.abs(movePercent(change)) >= atLeast);
		// The market moved most rates a little: the rule keeps a handful of them, with every kind of line.
		expect(expected.length).toBeGreaterThanOrEqual(3);
		expect(expected.length).toBeLessThan((tomorrow.expectedChanges ?? []).length / 2);

		const [digestRun] = executions;
		expect(digestRun).toMatchObject({ workflow: demo.examples.get(EXAMPLE_FILES.rateChangeDigest)?.name, trigger: 'Every morning at 8', status: 'success' });
		const digests = await outputIn(EXAMPLE_FILES.rateChangeDigest, 'Digest', digestRun.executionId);
		expect(digests).toHaveLength(1);
		const [digest] = digests;
		expect(digest).toMatchObject({ shopId: 1, changeCount: expected.length });
		expect((digest.changes as Array<Record<string, unknown>>).map(stayOf).sort()).toEqual(expected.map((change) => stayOf(change as unknown as Record<string, unknown>)).sort());

		const posted = demo.inbox.slackMessages(slackChannelOf(EXAMPLE_FILES.rateChangeDigest));
		expect(posted).toHaveLength(1);
		expect(posted[0].text).toBe(digest.text);
		const lines = posted[0].text.split('\n').filter((line) => line.startsWith('• '));
		expect(lines).toHaveLength(expected.length);
		for (const line of lines) expect(line).toContain('Standard Queen Room');
	});

	test('step 6: the undercut and parity email holds exactly the undercuts and parity losses of the whole comp set, and arrives in the inbox', async () => {
		const step = steps.get(6) as Step;
		const myHotel = stated(step, /one email for [^(]+\((\d+)\)/);
		const atLeast = stated(step, /each competitor (\d+) % or more below it/);
		const tolerance = stated(step, /each website more than (\d+(?:\.\d+)?) % below website \d+/);
		const reference = stated(step, /% below website (\d+)/);
		const { runs: made, executions } = await follow(step);
		const [whole] = made;
		expect(whole.repeatOf).toBe(runs[runs.length - 2].runId);
		expect(whole.expectedChanges).toEqual([]);
		const records = recordsOf(whole).slice(0, whole.records);
		const undercuts = expectedUndercuts(records, myHotel, atLeast);
		const losses = expectedParityLosses(records, myHotel, reference, tolerance);
		// A few real undercuts, and not every night: the comp set spreads on both sides of my rate.
		expect(undercuts.length).toBeGreaterThan(0);
		expect(undercuts.length).toBeLessThan(records.filter((record) => record.hotelCode === myHotel).length / 2);

		const [digestRun] = executions;
		expect(digestRun).toMatchObject({ trigger: 'Every morning at 8', status: 'success' });
		const digests = await outputIn(EXAMPLE_FILES.undercutDigest, 'Digest', digestRun.executionId);
		expect(digests).toHaveLength(1);
		const [digest] = digests;
		const changes = digest.changes as Array<Record<string, unknown>>;
		const nightOf = (change: Record<string, unknown>) => `${change.websiteCode}|${String(change.checkIn).slice(0, 10)}`;
		expect(digest).toMatchObject({ hotelCode: myHotel, undercut: undercuts.length, parityLoss: losses.length, changeCount: undercuts.length + losses.length });
		expect(changes.filter((change) => change.changeType === 'undercut').map(nightOf).sort()).toEqual(undercuts);
		expect(changes.filter((change) => change.changeType === 'parityLoss').map(nightOf).sort()).toEqual(losses);

		const emails = demo.inbox.emails();
		expect(emails).toHaveLength(1);
		expect(emails[0]).toMatchObject({
			to: ['revenue@hotel.example'],
			subject: `Undercut and parity: ${String(digest.hotelName)} (${myHotel}), ${undercuts.length + losses.length} alert${undercuts.length + losses.length === 1 ? '' : 's'}`,
		});
		expect(emails[0].html).toContain('<table ');
		// Each undercut line names the room, as the competitor's.
		for (const line of String(digest.text).split('\n').filter((candidate) => candidate.includes('undercut by'))) expect(line).toContain('Standard Queen Room');
	});

	test('step 1: the event impact digest names each event once, one that lasts several days on one line', async () => {
		const { executions } = await follow(steps.get(1) as Step);
		const [digestRun] = executions;
		expect(digestRun).toMatchObject({ workflow: demo.examples.get(EXAMPLE_FILES.eventDigest)?.name, status: 'success' });
		const [digest] = await outputIn(EXAMPLE_FILES.eventDigest, 'Build digest', digestRun.executionId);
		const events = digest.events as Array<{ eventId: number; eventName: string; startDate: string; endDate: string }>;
		const multiDay = events.filter((event) => event.startDate.slice(0, 10) !== event.endDate.slice(0, 10));
		// The sandbox's events near a hotel include some that last days (festivals, expos, school holidays).
		expect(multiDay.length).toBeGreaterThan(0);
		expect(new Set(events.map((event) => event.eventId)).size).toBe(events.length);
		const lines = String(digest.text).split('\n');
		for (const event of multiDay) {
			const named = events.filter((other) => other.eventName.includes(event.eventName)).length;
			expect({ event: event.eventName, lines: lines.filter((line) => line.includes(event.eventName)).length }).toEqual({ event: event.eventName, lines: named });
		}
	});

	test('step 8: the calendar month and its next day, each calendar executed from its big button', async () => {
		const step = steps.get(8) as Step;
		expect(step.actions.map((action) => action.kind)).toEqual(['curl', 'execute', 'curl', 'execute']);
		const { executions } = await follow(step);
		for (const execution of executions) expect(execution).toMatchObject({ workflow: demo.examples.get(EXAMPLE_FILES.rateCalendar)?.name, status: 'success' });
	});

	test("step 10: the peak dates email holds the dates of the next 30 dearest now, each with every shop day's rates of four weekly shops as the delivered records give them", async () => {
		const step = steps.get(10) as Step;
		expect(step.actions.map((action) => action.kind)).toEqual(['curl', 'curl', 'curl', 'curl', 'execute']);
		const peaks = stated(step, /with the (\d+) dates of the next 30/);
		const lookBackDays = stated(step, /each day of the last (\d+)/);
		const myHotelCode = stated(step, /four weekly shops of shop \d+, [^(]+\((\d+)\)/);
		const nights = stated(step, /three of its comp set for (\d+) nights/);
		const started = Date.now();
		const { runs: made, executions } = await follow(step);
		printProgress(`step 10: ${made.map((run) => `${run.deliveries} deliveries (${run.retried} sent again)`).join(', ')}, shops and email in ${Math.round((Date.now() - started) / 1000)} s`);
		// Collected three weeks, two weeks and one week before the sandbox's clock and today, each a repeat of the week before.
		const sandbox = demo.sandbox as NonNullable<Demo['sandbox']>;
		expect(made.map((run) => Math.round((sandbox.now().getTime() - Date.parse(run.collectedAt)) / 86_400_000))).toEqual([21, 14, 7, 0]);
		expect(made.slice(1).map((run) => run.repeatOf)).toEqual(made.slice(0, -1).map((run) => run.runId));
		const [execution] = executions;
		expect(execution).toMatchObject({ workflow: demo.examples.get(EXAMPLE_FILES.peakDatesHistory)?.name, status: 'success' });
		const [summary] = await outputIn(EXAMPLE_FILES.peakDatesHistory, HISTORY_NODE, execution.executionId);

		// Each date's series, which the summary leaves out: the same node with Output "Both", in a scratch workflow saved as the editor saves one.
		const scratch = eachDateWorkflow(demo.examples.get(EXAMPLE_FILES.peakDatesHistory) as WorkflowSeed, 'peak-dates-each-date');
		const saved = await demo.n8n.request<{ data: { id: string } }>('POST', '/rest/workflows', { name: scratch.name, nodes: scratch.nodes, connections: scratch.connections, settings: scratch.settings, active: false });
		expect(saved.status).toBe(200);
		expect(await demo.n8n.executeFromEditor(saved.body.data.id)).toMatchObject({ status: 'success' });
		const [items] = await demo.n8n.executionOutputs(saved.body.data.id, HISTORY_NODE);

		// The records Rate change alerts (whose Detect changes keeps the history) was delivered, every shop of every step.
		const keeper = webhookIdOf(demo.examples.get(EXAMPLE_FILES.rateChangeAlerts) as WorkflowSeed);
		const delivered = sandbox
			.deliveries()
			.filter((delivery) => delivery.endpoint.includes(keeper) && delivery.status === 200)
			.flatMap((delivery) => [delivery.body].flat() as RateRecord[]);
		const dates = datesBetween(String(summary.from), String(summary.to));
		expect(dates).toHaveLength(30);
		expect(summary.from).toBe(new Date().toISOString().slice(0, 10));
		const { summary: eachSummary, expected } = expectHistoryOf(items, expectedHistory(sandbox, delivered, dates, { myHotelCode, los: nights, guests: 2, lookBackDays }), peaks);
		expect(eachSummary.dates).toEqual(summary.dates);
		// The history shows the four weeks' movement: every peak date has their shop days, and the comp median moved.
		const weeks = made.map((run) => run.collectedAt.slice(0, 10));
		for (const history of expected) expect({ date: history.date, days: history.series.map((point) => point.shopDay) }).toEqual({ date: history.date, days: expect.arrayContaining(weeks) });
		expect(expected.filter((history) => history.compMedianFrom !== history.compMedianTo).length).toBeGreaterThan(0);

		const emails = demo.inbox.emails().filter((email) => email.subject.startsWith('Peak dates and their history:'));
		expect(emails).toHaveLength(1);
		expect(emails[0]).toMatchObject({ to: ['revenue@hotel.example'], subject: `Peak dates and their history: ${String(summary.hotelName)}, ${String(summary.from)} to ${String(summary.to)}` });
		expect(emails[0].html?.replace(/\r\n/g, '\n').trim()).toBe(String(summary.html).trim());
	});

	test('after step 10, the last to run shops, the inbox holds no message twice', () => {
		// The rate alert was unpublished after step 4: the shops since did not alert its rates again.
		const rateAlerts = demo.inbox.slackMessages(slackChannelOf(EXAMPLE_FILES.rateAlert));
		expect(rateAlerts.length).toBeGreaterThan(0);
		const seen = new Map<string, number>();
		for (const message of demo.inbox.messages()) {
			const key = message.kind === 'slack' ? `${message.channel}\n${message.text}` : `${message.envelope.to.join(',')}\n${message.subject}\n${message.text ?? message.html}`;
			seen.set(key, (seen.get(key) ?? 0) + 1);
		}
		// Step 4's own copies, as step 4 allows: the Rate Alert example has no memory, and a delivery of
		// its shop the sender posted again after n8n took it alerts twice. A later shop's, never.
		const twice = [...seen].filter(([, count]) => count > 1);
		const alertChannel = `#${slackChannelOf(EXAMPLE_FILES.rateAlert)}\n`;
		const extraAlerts = twice.filter(([key]) => key.startsWith(alertChannel)).reduce((sum, [, count]) => sum + count - 1, 0);
		expect(extraAlerts).toBeLessThanOrEqual(extraPosts(runs[0]));
		expect(twice.filter(([key]) => !key.startsWith(alertChannel))).toEqual([]);
		// Every alert and digest names its websites by name ("hotels.com (4)"), never by code alone.
		const byCode = demo.inbox.messages().filter((message) => /\bwebsite \d+\b/.test(message.kind === 'slack' ? message.text : `${message.text ?? ''}${message.html ?? ''}`));
		expect(byCode.map((message) => (message.kind === 'slack' ? message.text : message.subject))).toEqual([]);
	});

	// With UI_SCREENSHOT_DIR (npm run screenshots: docs/images), the inbox in Chromium, as the README shows it.
	(process.env.UI_SCREENSHOT_DIR ? test : test.skip)('the inbox page shows the alert, the rate change digest and the undercut email as their readers see them', async () => {
		const folder = path.resolve(__dirname, '..', '..', process.env.UI_SCREENSHOT_DIR as string);
		fs.mkdirSync(folder, { recursive: true });
		const browser = await launchChromium();
		try {
			const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
			const problems: string[] = [];
			page.on('console', (message) => void (message.type() === 'error' && problems.push(message.text())));
			page.on('pageerror', (error) => problems.push(error.message));
			await page.goto(demo.inbox.url);
			// The email's frame is fitted to its content once it has loaded.
			await page.waitForFunction(() => {
				const { document } = globalThis as unknown as { document: { querySelector(selector: string): { style: { height: string } } | null } };
				return parseFloat(document.querySelector('iframe.email-body')?.style.height ?? '') > 150;
			});
			// The inbox lists the newest first: step 8's calendar email is above the undercut email, so that one is found by its subject.
			const shots: Array<[string, string, string?]> = [
				['inbox-rate-alert', `article[data-channel="#${slackChannelOf(EXAMPLE_FILES.rateAlert)}"]`],
				['inbox-rate-change-digest', `article[data-channel="#${slackChannelOf(EXAMPLE_FILES.rateChangeDigest)}"]`],
				['inbox-undercut-digest', 'article[data-kind="email"]', 'Undercut and parity:'],
			];
			for (const [name, selector, hasText] of shots) await page.locator(selector, hasText ? { hasText } : {}).first().screenshot({ path: path.join(folder, `${name}.png`) });
			expect(problems).toEqual([]);
		} finally {
			await browser.close();
		}
	});

	/**
	 * The sandbox's 20 senders share a shop among every address registered for it: from step 6 on,
	 * the two Rate Changes examples and the unpublished Rate alert's address, so each trigger has
	 * fewer than 10 of them in flight to gather.
	 */
	test("the shops' single-record deliveries cost tens of executions: each Rate Changes example's trigger gathered them four or more to an execution", async () => {
		for (const file of [EXAMPLE_FILES.rateChangeAlerts, EXAMPLE_FILES.undercutAlerts]) {
			const { deliveries } = passedOn(file);
			const executions = (await demo.n8n.executionIds(idOf(file))).length;
			printProgress(`${demo.examples.get(file)?.name}: ${deliveries} deliveries in ${executions} executions`);
			expect(deliveries).toBeGreaterThanOrEqual(60);
			expect(executions).toBeLessThanOrEqual(deliveries / 4);
		}
	});

	test('no execution of a demo step ended in an error, and the big "Execute workflow" button of each digest runs its digest', async () => {
		for (const file of [EXAMPLE_FILES.rateAlert, EXAMPLE_FILES.rateChangeAlerts, EXAMPLE_FILES.rateChangeDigest, EXAMPLE_FILES.undercutAlerts, EXAMPLE_FILES.undercutDigest, EXAMPLE_FILES.peakDatesHistory]) {
			expect({ file, errors: (await demo.n8n.executionErrors(idOf(file))).filter((error) => error !== null) }).toEqual({ file, errors: [] });
		}
		for (const file of [EXAMPLE_FILES.rateChangeDigest, EXAMPLE_FILES.undercutDigest]) {
			expect(editorTrigger((demo.examples.get(file) as WorkflowSeed).nodes as Array<{ name: string; type: string }>)).toBe('Every morning at 8');
		}
	});
});
