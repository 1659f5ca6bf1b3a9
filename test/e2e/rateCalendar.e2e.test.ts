import type { EmailMessage } from '../../platform/inbox';
import type { RateRecord, RunShopOptions, RunSummary } from '../../platform/sandbox';
import {
	DATA_TABLE_SCOPES,
	DEMO_SHOPS,
	demoExample,
	demoSmtpCredential,
	digestExample,
	e2eVersions,
	EXAMPLE_FILES,
	N8nPublicApi,
	outputOf,
	publicApiHasDataTables,
	slackChannelOf,
	type WorkflowSeed,
} from '../../platform/n8n';
import { datesBetween, expectedCalendar, expectedSuggestions, type CalendarRules, type ExpectedDay } from './calendarExpectation';
import { describeVersions } from './describeVersions';
import { useE2eWithInbox } from './useE2e';

/**
 * The "Morning rate calendar" and "Suggested rates for approval" examples in a real n8n against
 * the sandbox, on the shops `npm start`'s step 8 runs (a month of shop 1's comp set around hotel
 * 100085, a festival near it, then the same month a day later), with "Rate change alerts"
 * published to keep the rates: every figure of each date of the calendar, its email and its Slack
 * message, and the arrows of the second calendar, against figures worked out here from the records
 * the sandbox delivered; then the approval: an approved run writes exactly the suggestions (each
 * reason checked), a declined one writes nothing, each answered by a GET of the link in the email,
 * as a click on its button sends it.
 */

const ALERTS = { file: EXAMPLE_FILES.rateChangeAlerts, id: 'exRateChanges001' };
const CALENDAR = { file: EXAMPLE_FILES.rateCalendar, id: 'exRateCalendar01' };
const APPROVAL = { file: EXAMPLE_FILES.suggestedRates, id: 'exSuggestRates01' };
const APPROVAL_WEBHOOK = 'suggested-rates-e2e';
const APPROVED_TABLE = 'travel_pricing_approved_rates';
const RULES: CalendarRules = { myHotelCode: 100085, los: 5, guests: 2, proximityMiles: 25, minImpactScore: 40 };
/** A browser's: n8n answers an approval link opened by a bot (a mail scanner) with nothing. */
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

type Json = Record<string, unknown>;

/**
 * The approval example published, started by a webhook in place of its Manual Trigger and its
 * Schedule Trigger off: its Send and Wait and its Data Table nodes run in the n8n server, as a
 * morning's run does (`n8n execute` starts no Data Tables, and a run that waits needs the server).
 */
function approvalStartedByWebhook(workflow: WorkflowSeed): WorkflowSeed {
	const nodes = workflow.nodes.map((node) => {
		if (node.name === 'Suggest rates now') {
			return { ...node, type: 'n8n-nodes-base.webhook', typeVersion: 2.1, webhookId: APPROVAL_WEBHOOK, parameters: { httpMethod: 'POST', path: APPROVAL_WEBHOOK, responseMode: 'onReceived', options: {} } };
		}
		return node.type === 'n8n-nodes-base.scheduleTrigger' ? { ...node, disabled: true } : node;
	});
	return { ...workflow, nodes };
}

async function waitFor<T>(what: string, read: () => Promise<T | undefined> | T | undefined, timeoutMs = 120_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await read();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`Still waiting for ${what} after ${timeoutMs / 1000} s`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/** The links of an email's buttons, by their label. */
function buttons(email: EmailMessage): Map<string, string> {
	const links = [...String(email.html).matchAll(/<a href="([^"]+)"[^>]*>([^<]+)<\/a>/g)];
	return new Map(links.map(([, href, label]) => [label.trim(), href.replace(/&amp;/g, '&')]));
}

describeVersions(e2eVersions().filter(publicApiHasDataTables), 'Rate calendar and suggested rates in n8n %s', (version) => {
	const { env, inbox } = useE2eWithInbox((started) => ({
		version,
		workflows: [
			demoExample(ALERTS.file, started, ALERTS.id),
			digestExample(CALENDAR.file, CALENDAR.id, started),
			{ ...approvalStartedByWebhook(demoExample(APPROVAL.file, started)), id: APPROVAL.id },
		],
		publish: [ALERTS.id, APPROVAL.id],
		credentials: [demoSmtpCredential(started.smtp)],
	}));
	let tables: N8nPublicApi;
	let month: { run: RunSummary; records: RateRecord[] };
	let firstCalendar: Json;

	/** Runs a shop, waits for every execution of Rate change alerts it started, and returns the records it delivered. */
	async function shop(options: RunShopOptions): Promise<{ run: RunSummary; records: RateRecord[] }> {
		const before = new Set(await env.n8n.executionIds(ALERTS.id));
		const run = await env.sandbox.runShop(options);
		expect(run.byStatus).toEqual({ 200: run.deliveries });
		await env.n8n.waitForDeliveries(ALERTS.id, before, run.deliveries);
		const records = env.sandbox
			.deliveries()
			.filter((delivery) => delivery.runId === run.runId)
			.flatMap((delivery) => (Array.isArray(delivery.body) ? delivery.body : [delivery.body]));
		return { run, records };
	}

	/** The example's calendar: its Rate calendar output (one summary item), and what it sent. */
	async function calendar(): Promise<{ summary: Json; email: EmailMessage; slack: string }> {
		const emails = inbox.emails().length;
		const posts = inbox.slackMessages(slackChannelOf(CALENDAR.file)).length;
		const run = await env.n8n.execute(CALENDAR.id);
		const output = outputOf(run, 'Rate calendar');
		expect(output).toHaveLength(1);
		const email = await waitFor('the calendar email', () => inbox.emails()[emails]);
		const slack = await waitFor('the calendar in Slack', () => inbox.slackMessages(slackChannelOf(CALENDAR.file))[posts]);
		return { summary: output[0], email, slack: slack.text };
	}

	function figuresOf(summary: Json): ExpectedDay[] {
		const fields: Array<keyof ExpectedDay> = ['date', 'myRate', 'mySoldOut', 'compLowest', 'compMedian', 'compHighest', 'myRank', 'rankedHotels', 'priceIndex', 'band', 'competitorsSoldOut', 'competitorsOnSale', 'event', 'outlier'];
		return (summary.dates as Json[]).map((day) => Object.fromEntries(fields.map((field) => [field, day[field]])) as unknown as ExpectedDay);
	}

	beforeAll(async () => {
		tables = new N8nPublicApi(env.n8n.baseUrl, await env.n8n.createApiKey('Calendar e2e reader', DATA_TABLE_SCOPES));
	});

	test("the calendar holds, for each of the next 30 dates, the figures of the sandbox's shop and the events near the hotel, with every kind of date", async () => {
		month = await shop(DEMO_SHOPS.calendarMonth as RunShopOptions);
		const { summary, email, slack } = await calendar();
		firstCalendar = summary;
		const today = new Date().toISOString().slice(0, 10);
		expect(summary.from).toBe(today);
		const dates = datesBetween(today, String(summary.to));
		expect(dates).toHaveLength(30);
		const expected = expectedCalendar(env.sandbox, month.records, dates, RULES);
		expect(figuresOf(summary)).toEqual(expected);
		for (const day of summary.dates as Json[]) expect([day.myRateArrow, day.compMedianArrow]).toEqual([null, null]);

		// Every kind of date the calendar shows: cheaper, on par, dearer, sold out, not shopped, an event, an outlier.
		const bands = new Set(expected.map((day) => day.band));
		expect(bands).toEqual(new Set(['cheaper', 'onPar', 'dearer', null]));
		expect(expected.some((day) => day.mySoldOut)).toBe(true);
		expect(expected[0].myRate === null && !expected[0].mySoldOut).toBe(true);
		expect(expected.filter((day) => day.outlier).map((day) => day.event?.name)).toContain('Cape Town Harbour Festival');
		expect(summary.counts).toEqual({
			dates: 30,
			cheaper: expected.filter((day) => day.band === 'cheaper').length,
			onPar: expected.filter((day) => day.band === 'onPar').length,
			dearer: expected.filter((day) => day.band === 'dearer').length,
			soldOut: expected.filter((day) => day.mySoldOut).length,
			outliers: expected.filter((day) => day.outlier).length,
			events: expected.filter((day) => day.event).length,
		});

		expect(email.subject).toBe(`Rate calendar: ${String(summary.hotelName)}, ${today} to ${String(summary.to)}, ${expected.filter((day) => day.outlier).length === 1 ? '1 date' : `${expected.filter((day) => day.outlier).length} dates`} to look at`);
		expect(email.html?.replace(/\r\n/g, '\n').trim()).toBe(String(summary.html).trim());
		for (const day of expected.filter((candidate) => candidate.outlier)) expect(email.html).toContain(day.outlier?.reason.replace(/'/g, '&#39;'));
		expect(slack).toBe(summary.text);
	});

	test('the next calendar, a day of moves later, shows with ▲ ▼ what moved since the first', async () => {
		const nextDay = await shop(DEMO_SHOPS.calendarNextDay as RunShopOptions);
		const { summary } = await calendar();
		const dates = (firstCalendar.dates as Json[]).map((day) => String(day.date));
		const before = expectedCalendar(env.sandbox, month.records, dates, RULES);
		const after = expectedCalendar(env.sandbox, nextDay.records, dates, RULES);
		expect(figuresOf(summary)).toEqual(after);
		const moves = (summary.dates as Json[]).map((day) => ({ date: day.date, myRateChange: day.myRateChange, compMedianChange: day.compMedianChange, myRateArrow: day.myRateArrow, compMedianArrow: day.compMedianArrow }));
		const change = (now: number | null, then: number | null) => (now === null || then === null ? null : Math.round((now - then) * 100) / 100);
		const arrow = (moved: number | null) => (moved === null || moved === 0 ? null : moved > 0 ? '▲' : '▼');
		const expectedMoves = after.map((day, index) => {
			const myRateChange = change(day.myRate, before[index].myRate);
			const compMedianChange = change(day.compMedian, before[index].compMedian);
			return { date: day.date, myRateChange, compMedianChange, myRateArrow: arrow(myRateChange), compMedianArrow: arrow(compMedianChange) };
		});
		expect(moves).toEqual(expectedMoves);
		expect(moves.filter((move) => move.myRateArrow !== null).length).toBeGreaterThan(0);
		expect(moves.filter((move) => move.compMedianArrow !== null).length).toBeGreaterThan(0);
		month = nextDay;
	});

	/** Starts the approval example, waits for its email, opens the button's link as a browser does, and waits for the run to end. */
	async function answerApproval(button: 'Approve these rates' | 'Decline'): Promise<{ email: EmailMessage; status: string }> {
		const emails = inbox.emails().length;
		const before = new Set(await env.n8n.executionIds(APPROVAL.id));
		const started = await fetch(`${env.n8n.baseUrl}/webhook/${APPROVAL_WEBHOOK}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
		expect(started.status).toBe(200);
		const email = await waitFor('the approval email', () => inbox.emails()[emails]);
		const executionId = await waitFor('the waiting execution', async () => (await env.n8n.executionIds(APPROVAL.id)).find((id) => !before.has(id)));
		const link = buttons(email).get(button);
		expect(link).toBeDefined();
		const answered = await fetch(String(link), { headers: { 'user-agent': BROWSER } });
		expect(answered.status).toBe(200);
		const status = await waitFor('the run to end', async () => {
			const { body } = await env.n8n.request<{ data: { status: string } }>('GET', `/rest/executions/${executionId}`);
			return ['success', 'error', 'crashed', 'canceled'].includes(body.data?.status) ? body.data.status : undefined;
		});
		return { email, status };
	}

	async function approvedRows(): Promise<Json[]> {
		const listing = await tables.request<{ data: Array<{ id: string; name: string }> }>('GET', `/data-tables?filter=${encodeURIComponent(JSON.stringify({ name: APPROVED_TABLE }))}&limit=250`);
		const table = listing.data.find((candidate) => candidate.name === APPROVED_TABLE);
		if (!table) return [];
		return (await tables.request<{ data: Json[] }>('GET', `/data-tables/${table.id}/rows?sortBy=${encodeURIComponent('id:asc')}&limit=250`)).data;
	}

	test('an approved run writes exactly the suggestions, each with the reason worked out from the shop', async () => {
		const { email, status } = await answerApproval('Approve these rates');
		expect(status).toBe('success');
		const dates = (firstCalendar.dates as Json[]).map((day) => String(day.date));
		const suggestions = expectedSuggestions(expectedCalendar(env.sandbox, month.records, dates, RULES));
		const changes = suggestions.filter((suggestion) => suggestion.change !== null && suggestion.change !== 0);
		expect(changes.length).toBeGreaterThan(10);
		expect(suggestions.some((suggestion) => suggestion.reason.includes("event 'Cape Town Harbour Festival' impact 85: +15 %"))).toBe(true);
		expect(suggestions.some((suggestion) => suggestion.reason.includes('capped at the most per suggestion, 10 %'))).toBe(true);
		expect(email.subject).toBe(`Suggested rates to approve: Hilton Cape Town Riverside, ${changes.length} rates`);
		expect(email.html).toContain('Suggested rates for Hilton Cape Town Riverside (100085), 5 nights, 2 guests');

		const rows = await approvedRows();
		const written = rows.map(({ date, hotelCode, nights, guests, currentRate, suggestedRate, change, changePercent, currency, reason }) => ({ date, hotelCode, nights, guests, currentRate, suggestedRate, change, changePercent, currency, reason }));
		const expected = changes.map(({ date, currentRate, suggestedRate, change, changePercent, reason }) => ({ date, hotelCode: 100085, nights: 5, guests: 2, currentRate, suggestedRate, change, changePercent, currency: 'ZAR', reason }));
		const byDate = (a: Json, b: Json) => (String(a.date) < String(b.date) ? -1 : 1);
		expect(written.sort(byDate)).toEqual(expected.sort(byDate));
		for (const row of rows) expect(Date.parse(String(row.approvedAt))).not.toBeNaN();
	});

	test('a declined run writes nothing', async () => {
		const before = await approvedRows();
		const { status } = await answerApproval('Decline');
		expect(status).toBe('success');
		expect(await approvedRows()).toEqual(before);
	});
});
