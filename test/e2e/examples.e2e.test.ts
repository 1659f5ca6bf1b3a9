import fs from 'node:fs';
import path from 'node:path';
import { digestEvents } from './digestExpectation';
import {
	AIRPORTS_CREDENTIAL,
	API_CREDENTIAL,
	e2eVersions,
	N8N_API_CREDENTIAL,
	outputOf,
	REPO_ROOT,
	startAlertInbox,
	startE2e,
	type AlertInbox,
	type E2eEnvironment,
	type WorkflowSeed,
} from './harness';

/**
 * The example workflows of examples/, imported as a user imports them (with the demo credentials
 * of `npm start`) into one running n8n against the sandbox, run, and their results checked
 * against the sandbox's own data.
 */

const EXAMPLES_DIR = path.join(REPO_ROOT, 'examples');
const DEMO_CREDENTIALS: Record<string, { id: string; name: string }> = {
	travelPricingApi: API_CREDENTIAL,
	travelPricingAirportsApi: AIRPORTS_CREDENTIAL,
	travelPricingN8nApi: N8N_API_CREDENTIAL,
	// The agent example's model: the user picks their own OpenAI credential (agent.e2e.test.ts runs
	// the example with this id pointing at a scripted model).
	openAiApi: { id: 'exampleOpenAi001', name: 'OpenAI account' },
};

/** The examples carry no id (an editor import assigns one); these let the test run them by id. */
const RATE_ALERT = { file: 'rate-alert.json', id: 'exRateAlert00001' };
const SCHEDULES = { file: 'schedules-from-rows.json', id: 'exSchedules00001' };
const DIGEST = { file: 'event-impact-digest.json', id: 'exEventDigest001' };

/** The shop whose run the rate alert watches: the one `npm start` suggests running. */
const SHOP_ID = 1;

type ExampleNode = {
	name: string;
	type: string;
	typeVersion: number;
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
};

type Example = { name: string; nodes: ExampleNode[]; connections: Record<string, unknown>; [key: string]: unknown };

function readExample(file: string): Example {
	return JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')) as Example;
}

function nodeOf(workflow: { nodes: ExampleNode[] }, name: string): ExampleNode {
	const node = workflow.nodes.find((candidate) => candidate.name === name);
	if (!node) throw new Error(`The example has no node "${name}"`);
	return node;
}

/** The rate alert with its "Alert settings" alertUrl swapped, as a user swaps it for Slack. */
function withAlertUrl(workflow: Example, alertUrl: string): Example {
	const settings = nodeOf(workflow, 'Alert settings').parameters.assignments as { assignments: Array<{ name: string; value: unknown }> };
	const assignment = settings.assignments.find((candidate) => candidate.name === 'alertUrl');
	if (!assignment) throw new Error('"Alert settings" has no alertUrl');
	assignment.value = alertUrl;
	return workflow;
}

describe('the example workflows as files', () => {
	const files = fs.readdirSync(EXAMPLES_DIR).filter((file) => file.endsWith('.json'));

	test('there is a rate alert, a schedules-from-rows, an event digest and an AI agent example', () => {
		expect(files).toEqual(expect.arrayContaining([RATE_ALERT.file, SCHEDULES.file, DIGEST.file, 'event-demand-agent.json']));
	});

	test.each(files)('%s names the demo credentials, so it imports ready to run with npm start', (file) => {
		const references = readExample(file).nodes.flatMap((node) => Object.entries(node.credentials ?? {}));
		expect(references.length).toBeGreaterThan(0);
		for (const [type, reference] of references) expect(reference).toEqual(DEMO_CREDENTIALS[type]);
	});

	test.each(files)('%s explains what to change in sticky notes', (file) => {
		const notes = readExample(file).nodes.filter((node) => node.type === 'n8n-nodes-base.stickyNote');
		expect(notes.length).toBeGreaterThanOrEqual(2);
		expect(notes.map((note) => String(note.parameters.content)).join('\n')).toContain('Travel Pricing API');
	});
});

describe.each(e2eVersions())('the example workflows in n8n %s', (version) => {
	let env: E2eEnvironment;
	let inbox: AlertInbox;

	beforeAll(async () => {
		inbox = await startAlertInbox();
		const workflows: WorkflowSeed[] = [
			{ ...withAlertUrl(readExample(RATE_ALERT.file), inbox.url), id: RATE_ALERT.id },
			{ ...readExample(SCHEDULES.file), id: SCHEDULES.id },
			{ ...readExample(DIGEST.file), id: DIGEST.id },
		];
		env = await startE2e({ version, workflows, publish: [RATE_ALERT.id] });
	}, 30 * 60_000);

	afterAll(async () => {
		await env?.close();
		await inbox?.close();
	});

	test("every node of every example is a node type and version this n8n offers", async () => {
		const offered = new Set(
			(await env.n8n.nodeTypes()).flatMap((type) => (Array.isArray(type.version) ? type.version : [type.version]).map((v) => `${type.name}@${v}`)),
		);
		const used = fs
			.readdirSync(EXAMPLES_DIR)
			.filter((file) => file.endsWith('.json'))
			.flatMap((file) => readExample(file).nodes.map((node) => `${node.type}@${node.typeVersion}`));
		expect(used.filter((node) => !offered.has(node))).toEqual([]);
	});

	describe('Rate alert', () => {
		test('posts one alert for each rate of the competitor at or below the threshold, and none for the other rates', async () => {
			const filters = nodeOf(readExample(RATE_ALERT.file), 'Competitor rate below threshold').parameters.filters as {
				hotelCodes: string;
				maxOnsiteRate: string;
			};
			const competitor = Number(filters.hotelCodes);
			const threshold = Number(filters.maxOnsiteRate);
			const executionsBefore = await env.n8n.countExecutions(RATE_ALERT.id);

			const run = await env.sandbox.runShop({ shopId: SHOP_ID, records: 120, perDelivery: 4, concurrency: 4 });
			// Filtered-out records are accepted too: the service must not see them as failed deliveries.
			expect(run.byStatus).toEqual({ 200: 30 });

			const deliveries = env.sandbox.deliveries().filter((delivery) => delivery.runId === run.runId);
			const recordsOf = (body: unknown): Array<Record<string, unknown>> => (Array.isArray(body) ? body : [body]) as Array<Record<string, unknown>>;
			const isAlert = (record: Record<string, unknown>): boolean =>
				record.hotelCode === competitor && record.statusCode === 200 && (record.onsiteRate as number) <= threshold;
			const competitorRates = deliveries.flatMap((delivery) => recordsOf(delivery.body)).filter((record) => record.hotelCode === competitor);
			const expected = competitorRates.filter(isAlert);
			// The example's defaults must select some of the competitor's rates and leave others out.
			expect(expected.length).toBeGreaterThan(0);
			expect(expected.length).toBeLessThan(competitorRates.length);

			// A delivery starts one execution when it holds at least one alert-worthy record.
			const startingDeliveries = deliveries.filter((delivery) => recordsOf(delivery.body).some(isAlert)).length;
			expect(await env.n8n.waitForExecutions(RATE_ALERT.id, executionsBefore + startingDeliveries)).toBe(executionsBefore + startingDeliveries);

			const identity = (rate: Record<string, unknown>): string =>
				[rate.hotelCode, rate.websiteCode, rate.checkIn, rate.roomType, rate.onsiteRate, rate.currency].join('|');
			const posted = inbox.alerts.map((alert) => alert.body.rate as Record<string, unknown>);
			expect(posted.map(identity).sort()).toEqual(expected.map(identity).sort());
			expect(new Set(inbox.alerts.map((alert) => alert.path))).toEqual(new Set(['/rate-alerts']));
			for (const alert of inbox.alerts) {
				const rate = alert.body.rate as Record<string, unknown>;
				expect(alert.body.text).toContain(`${String(rate.hotelName)} sells ${String(rate.roomType)} at ${String(rate.onsiteRate)} ${String(rate.currency)}`);
			}
		});
	});

	describe('run with n8n execute', () => {
		// The manual examples run as the operations suite runs its workflows: with n8n execute
		// alone on the database, the server stopped once the rate alert no longer needs it.
		beforeAll(async () => {
			await env.n8n.stop();
		});

		describe('Schedules from a list of rows', () => {
			/** What each row of the example must become on the wire (the row's lists, in the spec's form). */
			const WIRE_BY_NAME: Record<string, Partial<Record<'year' | 'month' | 'dow' | 'day' | 'hour' | 'minute' | 'seconds', string>>> = {
				'Cape Town compset, weekday mornings': { year: '*', month: '*', dow: '1,2,3,4,5', day: '*', hour: '6', minute: '30', seconds: '0' },
				'Cape Town compset, weekends twice a day': { year: '*', month: '*', dow: '0,6', day: '*', hour: '8,20', minute: '0', seconds: '0' },
				'Shop 7, 1st and 15th in peak season': { year: '*', month: '1,2,12', dow: '*', day: '1,15', hour: '5', minute: '15', seconds: '0' },
			};

			test('creates one schedule per row in the service and shows the next runs of each', async () => {
				const createdAfter = Date.now();
				const run = await env.n8n.execute(SCHEDULES.id);
				const rows = outputOf(run, 'Schedule rows (stand-in for a sheet)');
				const created = outputOf(run, 'Create schedule');

				expect(rows.map((row) => row.name).sort()).toEqual(Object.keys(WIRE_BY_NAME).sort());
				expect(created).toHaveLength(rows.length);
				for (const [index, row] of rows.entries()) {
					const schedule = created[index];
					const stored = env.sandbox.schedules().find((candidate) => candidate.scheduleid === schedule.scheduleid);
					expect(stored).toMatchObject({
						schedulename: row.name,
						rateshopid: row.rateShopId,
						startdate: row.startDate,
						status: 1,
						...WIRE_BY_NAME[String(row.name)],
					});
					if (!stored) continue;

					const nextRuns = (schedule.nextRuns as string[]).map((text) => new Date(text));
					expect(nextRuns).toHaveLength(3);
					// The workflow runs in UTC (the instance's timezone), so its run times are UTC wall times.
					for (const [position, time] of nextRuns.entries()) {
						expect({ time: time.toISOString(), fits: fitsSchedule(time, stored) }).toEqual({ time: time.toISOString(), fits: true });
						expect(time.getTime()).toBeGreaterThan(Math.max(createdAfter, Date.parse(`${stored.startdate}T00:00:00Z`)));
						if (position > 0) expect(time.getTime()).toBeGreaterThan(nextRuns[position - 1].getTime());
					}
				}
			});
		});

		describe('Event impact digest', () => {
			test('sums up exactly the events near the hotel with the minimum impact score, highest first', async () => {
				const run = await env.n8n.execute(DIGEST.id);
				const [settings] = outputOf(run, 'Hotel and digest settings');
				const [digest] = outputOf(run, 'Build digest');
				const { near, kept: expected } = digestEvents(env.sandbox.data, settings);
				// The example's defaults must find events and leave some nearby ones out for their score.
				expect(expected.length).toBeGreaterThan(1);
				expect(expected.length).toBeLessThan(near.length);
				expect(outputOf(run, 'Events near the hotel')).toHaveLength(near.length);

				const events = digest.events as Array<{ eventId: number; impactScore: number; eventName: string }>;
				expect(digest).toMatchObject({ hotelName: settings.hotelName, eventCount: expected.length });
				expect(events.map((event) => [event.eventId, event.impactScore]).sort()).toEqual(
					expected.map((event) => [event.eventId, event.impactScore]).sort(),
				);
				const scores = events.map((event) => event.impactScore);
				expect(scores).toEqual([...scores].sort((a, b) => b - a));
				const lines = String(digest.text).split('\n');
				expect(lines).toHaveLength(events.length + 1);
				expect(lines.slice(1).map((line, index) => line.includes(events[index].eventName))).toEqual(events.map(() => true));
			});
		});
	});
});

/** Whether a time (read in UTC) is one the schedule's stored fields select. */
function fitsSchedule(time: Date, schedule: { year: string; month: string; dow: string; day: string; hour: string; minute: string; seconds: string }): boolean {
	const fits = (field: string, value: number): boolean =>
		field === '*' ||
		field.split(',').some((item) => {
			const [from, to] = item.split('-').map(Number);
			return to === undefined ? value === from : value >= from && value <= to;
		});
	return (
		fits(schedule.year, time.getUTCFullYear()) &&
		fits(schedule.month, time.getUTCMonth() + 1) &&
		fits(schedule.dow, time.getUTCDay()) &&
		fits(schedule.day, time.getUTCDate()) &&
		fits(schedule.hour, time.getUTCHours()) &&
		fits(schedule.minute, time.getUTCMinutes()) &&
		fits(schedule.seconds, time.getUTCSeconds())
	);
}
