import type { EmailMessage } from '../../platform/inbox';
import type { RateRecord, RunShopOptions, RunSummary } from '../../platform/sandbox';
import {
	DEMO_SHOPS,
	demoExample,
	demoSmtpCredential,
	digestExample,
	e2eVersions,
	EXAMPLE_FILES,
	formatDuration,
	NEWEST_N8N,
	OLDEST_N8N,
	outputOf,
	printProgress,
	publicApiHasDataTables,
} from '../../platform/n8n';
import { datesBetween } from './calendarExpectation';
import { describeVersions } from './describeVersions';
import { eachDateWorkflow, expectedHistory, expectHistoryOf, HISTORY_NODE } from './historyExpectation';
import { useE2eWithInbox } from './useE2e';

/**
 * The "Weekly peak dates" example (Rate Changes' Rate History) in a real n8n against the sandbox,
 * on the shops of `npm start`'s step 10 (four weekly shops of shop 66's comp set, the next 30
 * nights collected three weeks, two weeks and one week ago and today),
 * with "Rate change alerts" published to keep the history: the peak dates, each date's series
 * shop day by shop day and its line, against figures worked out here from the records the sandbox
 * delivered; its email is the summary's html.
 *
 * On n8n 2.8.4 always (as the gathering suite, so that CI proves both 2.x lines) and on every
 * other version asked for but the newest, whose run of the same example on the same shops is
 * the first-ten-minutes test's step 10 (one n8n start fewer in CI).
 */

const ALERTS = { file: EXAMPLE_FILES.rateChangeAlerts, id: 'exRateChanges001' };
const PEAKS = { file: EXAMPLE_FILES.peakDatesHistory, id: 'exPeakDates00001' };
const EACH_DATE_ID = 'exPeakDatesEach1';
const VERSIONS = [...new Set([...e2eVersions(), OLDEST_N8N])].filter((version) => publicApiHasDataTables(version) && version !== NEWEST_N8N);

type Json = Record<string, unknown>;

async function waitFor<T>(what: string, read: () => T | undefined, timeoutMs = 120_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = read();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`Still waiting for ${what} after ${timeoutMs / 1000} s`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

describeVersions(VERSIONS, 'Rate history of the peak dates in n8n %s', (version) => {
	const example = (inbox: Parameters<typeof digestExample>[2]) => digestExample(PEAKS.file, PEAKS.id, inbox);
	const { env, inbox } = useE2eWithInbox((started) => ({
		version,
		workflows: [demoExample(ALERTS.file, started, ALERTS.id), example(started), eachDateWorkflow(example(started), EACH_DATE_ID)],
		publish: [ALERTS.id],
		credentials: [demoSmtpCredential(started.smtp)],
	}));
	const delivered: RateRecord[] = [];
	const weeks: RunSummary[] = [];

	/** Runs a shop, waits for every execution of Rate change alerts it started, and keeps the records it delivered. */
	async function shop(options: RunShopOptions): Promise<RunSummary> {
		const before = new Set(await env.n8n.executionIds(ALERTS.id));
		const run = await env.sandbox.runShop(options);
		expect(run.byStatus).toEqual({ 200: run.deliveries });
		await env.n8n.waitForDeliveries(ALERTS.id, before, run.deliveries);
		delivered.push(...env.sandbox.deliveries().filter((delivery) => delivery.runId === run.runId).flatMap((delivery) => [delivery.body].flat() as RateRecord[]));
		return run;
	}

	test("step 10's four weekly shops: every delivery answered, no execution failed", async () => {
		const started = Date.now();
		for (const options of [DEMO_SHOPS.historyThreeWeeksAgo, DEMO_SHOPS.historyTwoWeeksAgo, DEMO_SHOPS.historyLastWeek, DEMO_SHOPS.historyToday]) weeks.push(await shop(options as RunShopOptions));
		printProgress(`n8n ${version}: the four shops in ${formatDuration(Date.now() - started)}`);
		expect((await env.n8n.executionErrors(ALERTS.id)).filter((error) => error !== null)).toEqual([]);
	});

	test('the peak dates and each shop day of their history are what the delivered records give, and the email is the summary', async () => {
		const emails = inbox.emails().length;
		const [summary] = outputOf(await env.n8n.execute(PEAKS.id), HISTORY_NODE);
		const items = outputOf(await env.n8n.execute(EACH_DATE_ID), HISTORY_NODE);
		const parameters = (example({ slackUrl: () => '' }).nodes.find((node) => node.name === HISTORY_NODE) as { parameters: Json }).parameters;
		const dates = datesBetween(String(summary.from), String(summary.to));
		expect(dates).toHaveLength(30);
		const rules = { myHotelCode: Number(parameters.myHotelCode), los: Number(parameters.nights), guests: 2, lookBackDays: Number(parameters.lookBackDays) };
		const { summary: eachSummary, expected } = expectHistoryOf(items, expectedHistory(env.sandbox, delivered, dates, rules), Number(parameters.onlyPeakDates));
		expect(eachSummary.dates).toEqual(summary.dates);
		const weekDays = weeks.map((run) => run.collectedAt.slice(0, 10));
		for (const history of expected) expect({ date: history.date, days: history.series.map((point) => point.shopDay) }).toEqual({ date: history.date, days: expect.arrayContaining(weekDays) });
		expect(expected.filter((history) => history.compMedianFrom !== history.compMedianTo).length).toBeGreaterThan(0);

		const email: EmailMessage = await waitFor('the peak dates email', () => inbox.emails()[emails]);
		expect(email.subject).toBe(`Peak dates and their history: ${String(summary.hotelName)}, ${String(summary.from)} to ${String(summary.to)}`);
		expect(email.html?.replace(/\r\n/g, '\n').trim()).toBe(String(summary.html).trim());
	});
});
