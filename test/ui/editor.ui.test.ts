import fs from 'node:fs';
import path from 'node:path';
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import type { Locator } from 'playwright-core';
import { digestEvents } from '../e2e/digestExpectation';
import { TravelPricingAirports } from '../../nodes/Airports/TravelPricingAirports.node';
import { TravelPricingEventImpact } from '../../nodes/EventImpact/TravelPricingEventImpact.node';
import { TravelPricingHotelDemand } from '../../nodes/HotelDemand/TravelPricingHotelDemand.node';
import { TravelPricingHotelInfo } from '../../nodes/HotelInfo/TravelPricingHotelInfo.node';
import { TravelPricingRateChanges } from '../../nodes/RateChanges/TravelPricingRateChanges.node';
import { TravelPricingRateTrigger } from '../../nodes/RateTrigger/TravelPricingRateTrigger.node';
import { TravelPricingSchedule } from '../../nodes/Schedule/TravelPricingSchedule.node';
import { TravelPricingShopUpdate } from '../../nodes/ShopUpdate/TravelPricingShopUpdate.node';
import {
	DATA_TABLE_SCOPES,
	E2E_OWNER,
	ensureScheduleSheet,
	N8nPublicApi,
	NEWEST_N8N,
	REPO_ROOT,
	SAMPLE_SCHEDULE_ROWS,
	startE2e,
	type E2eEnvironment,
} from '../../platform/n8n';
import { loadWorkflow } from '../e2e/loadWorkflow';
import { Editor, eventually } from './harness';

/**
 * n8n's editor in Chromium, used as a person uses it (see docs/e2e.md): the node panel, each
 * node's form, the three credential dialogs with their Test, Shop Update's airport picker, an example
 * run from its file, and the trigger's "Listen for test event" with the sandbox running a shop.
 * The same run saves the screenshots the docs show (`npm run screenshots` writes them to
 * docs/images). An error in the browser console that comes from this package fails the test.
 */

const TRIGGER_WORKFLOW = {
	...loadWorkflow('rate-trigger.json'),
	id: 'uiRateTrigger001',
	name: 'Rate records in the editor',
	active: false,
};
const SHOP_ID = 1;
const DIGEST_FILE = path.join(REPO_ROOT, 'examples', 'event-impact-digest.json');
const SCHEDULES_FILE = path.join(REPO_ROOT, 'examples', 'schedules-from-sheet.json');

interface PackageNode {
	description: INodeTypeDescription;
	/** The operation to pick in the node panel, for a node that offers several. */
	action?: string;
	/** The screenshot's file name. */
	picture: string;
}

/** The package's eight nodes, in the order a person adds them (the trigger first). */
function packageNodes(): PackageNode[] {
	const node = (type: { description: INodeTypeDescription }, picture: string, action?: string): PackageNode => ({
		description: type.description,
		picture,
		action,
	});
	return [
		node(new TravelPricingRateTrigger(), 'node-rate-trigger'),
		node(new TravelPricingHotelInfo(), 'node-hotel-info'),
		// Schedule offers four operations; the panel asks which one.
		node(new TravelPricingSchedule(), 'node-schedule', 'Preview the next runs of a schedule'),
		node(new TravelPricingEventImpact(), 'node-event-impact'),
		node(new TravelPricingAirports(), 'node-airports'),
		node(new TravelPricingHotelDemand(), 'node-hotel-demand'),
		node(new TravelPricingShopUpdate(), 'node-shop-update'),
		// Rate Changes offers four operations: Detect Changes, the one a workflow starts with.
		node(new TravelPricingRateChanges(), 'node-rate-changes', 'Detect rate changes'),
	];
}

/** The fields a new node shows before anything is set: those without display conditions. */
function alwaysShownFields(description: INodeTypeDescription): string[] {
	return description.properties
		.filter((property: INodeProperties) => !property.displayOptions && property.type !== 'notice' && property.name !== 'operation')
		.map((property) => property.displayName);
}

describe(`the editor of n8n ${NEWEST_N8N} in Chromium`, () => {
	let env: E2eEnvironment;
	let editor: Editor;
	const nodes = packageNodes();

	beforeAll(async () => {
		env = await startE2e({ version: NEWEST_N8N, workflows: [TRIGGER_WORKFLOW] });
		editor = await Editor.open(env.n8n.baseUrl);
	}, 30 * 60_000);

	afterAll(async () => {
		await editor?.close();
		await env?.close();
	});

	afterEach(() => {
		// Every test ends without an error from the package in the browser (console, page, requests).
		expect(editor.takePackageProblems()).toEqual([]);
	});

	test('the owner signs in', async () => {
		await editor.signIn(E2E_OWNER);
		expect(new URL(editor.page.url()).pathname).not.toContain('signin');
	});

	describe('the node panel', () => {
		test('searching "Travel Pricing" lists the eight nodes', async () => {
			await editor.newWorkflow();
			await editor.searchNodes('Travel Pricing');
			// The names, not their count: before the search applies, the panel lists its eight ways to
			// start a workflow.
			const items = editor.nodeCreatorItems();
			await eventually(async () => {
				const listed = (await items.allInnerTexts()).map((text) => text.split('\n')[0].trim());
				expect(listed.sort()).toEqual(nodes.map((node) => node.description.displayName).sort());
			});
			await editor.screenshot('node-panel-search');
			await editor.page.keyboard.press('Escape');
		});

		test.each(nodes.map((node) => [node.description.displayName, node] as const))(
			'%s is added to the workflow and its panel shows its fields',
			async (_name, node) => {
				await editor.addNode('Travel Pricing', node.description.displayName, node.action);
				await eventually(async () => expect(await editor.ndv().getByTestId('node-title-container').innerText()).toContain(node.description.defaults.name));
				const labels = await editor.fieldLabels();
				expect(labels).toEqual(expect.arrayContaining(alwaysShownFields(node.description)));
				// A node n8n cannot load shows an install notice instead of its fields.
				expect(await editor.ndv().innerText()).not.toMatch(/not (currently )?installed|could not be loaded/i);
				await editor.screenshot(node.picture);
				await editor.closeNdv();
				await eventually(async () => expect(await editor.canvasNode(node.description.defaults.name ?? '').count()).toBe(1));
			},
		);
	});

	test("Rate Changes' Digest operation shows its own fields", async () => {
		await editor.openNode('Rate Changes');
		await editor.ndv().getByTestId('parameter-input-operation').click();
		await editor.page.getByRole('option').filter({ hasText: 'Digest' }).locator('visible=true').first().click();
		await eventually(async () => expect(await editor.fieldLabels()).toEqual(expect.arrayContaining(['Group By', 'Changes Table', 'Options'])));
		expect(await editor.fieldLabels()).not.toContain('Rate Field');
		// The click on "Digest" left the pointer over a field, which then shows its hover tools.
		await editor.outputPanel().hover();
		await editor.screenshot('node-rate-changes-digest');
		await editor.closeNdv();
	});

	test.each([
		['Compare With My Hotel', 'node-rate-changes-compare', ['My Hotel Code', 'Compare On', 'Rate Field', 'Alert On', 'Undercut At Least (%)', 'Positions Table']],
		['Check Parity', 'node-rate-changes-parity', ['Hotel Code', 'Reference', 'Reference Website Code', 'Tolerance (%)', 'Tolerance (Amount)', 'Positions Table']],
	])("Rate Changes' %s operation shows its own fields", async (operation, picture, fields) => {
		await editor.openNode('Rate Changes');
		await editor.ndv().getByTestId('parameter-input-operation').click();
		await editor.page.getByRole('option').filter({ hasText: operation }).locator('visible=true').first().click();
		await eventually(async () => expect(await editor.fieldLabels()).toEqual(expect.arrayContaining(fields)));
		expect(await editor.fieldLabels()).not.toContain('Group By');
		await editor.outputPanel().hover();
		await editor.screenshot(picture);
		await editor.closeNdv();
	});

	test("n8n's editor reads each node's output schema from the package (its schema preview)", () => {
		const schemaRequests = editor.responsesTo(/\/schemas\/n8n-nodes-travel-pricing\./);
		const paths = schemaRequests.map((response) => new URL(response.url).pathname);
		// The first node added (the trigger) has nothing before it; the editor asks for the others',
		// at the version a node added from the panel gets: Hotel Info's default is 1.1 (Simplify).
		expect(paths).toEqual(expect.arrayContaining(['/schemas/n8n-nodes-travel-pricing.travelPricingHotelInfo/1.1.0.json']));
		expect(paths).toEqual(expect.arrayContaining(['/schemas/n8n-nodes-travel-pricing.travelPricingSchedule/1.0.0/preview.json']));
		expect(schemaRequests.filter((response) => response.status !== 200 && response.status !== 304)).toEqual([]);
	});

	test('Tidy up lays the eight nodes out on the canvas', async () => {
		await editor.page.getByTestId('tidy-up-button').click();
		await eventually(async () => expect(await editor.canvasNodes().count()).toBe(nodes.length));
		await editor.screenshot('workflow-eight-nodes');
	});

	describe('the credential dialog', () => {
		const cases = [
			{
				type: 'travelPricingApi',
				node: 'Hotel Info',
				slot: 0,
				baseUrl: (): string => env.sandbox.baseUrl,
				secretField: 'accessToken',
				good: async (): Promise<string> => env.sandbox.credentials.accessToken,
				refusal: "The service refused this access token, or the account's validity has expired: check the Access Token field",
				picture: 'credential-api',
			},
			{
				type: 'travelPricingAirportsApi',
				node: 'Airports',
				slot: 0,
				baseUrl: (): string => env.sandbox.baseUrl,
				secretField: 'apiKey',
				good: async (): Promise<string> => env.sandbox.credentials.apiKey,
				refusal: "The service refused this API key, or the account's validity has expired: check the API Key field",
				picture: 'credential-airports',
			},
			{
				// Rate Changes' credential points at the n8n it runs in, with a key of that n8n's API.
				type: 'travelPricingN8nApi',
				node: 'Rate Changes',
				slot: 0,
				baseUrl: (): string => env.n8n.baseUrl,
				secretField: 'apiKey',
				good: async (): Promise<string> => await env.n8n.createApiKey('Browser suite', DATA_TABLE_SCOPES),
				refusal: 'n8n refused this API key (or it has expired): check the API Key field',
				picture: 'credential-n8n-api',
			},
		];

		test.each(cases.map((entry) => [entry.type, entry] as const))(
			'%s: Test fails clearly with a wrong secret and passes with the right one',
			async (_type, entry) => {
				await editor.openNode(entry.node);
				await editor.ndv().getByTestId('node-credentials-select').nth(entry.slot).click();
				await editor.page.getByTestId('node-credentials-select-item-new').locator('visible=true').click();
				const dialog = editor.page.getByTestId('editCredential-modal');
				await dialog.waitFor();
				const field = (name: string) => dialog.getByTestId(`parameter-input-${name}`).locator('input');
				await field('baseUrl').fill(entry.baseUrl());

				// Saving runs the credential's Test: a wrong secret is refused, and the dialog says why.
				await field(entry.secretField).fill('not-the-right-secret');
				const refused = editor.page.waitForResponse((response) => response.url().endsWith('/rest/credentials/test'));
				await dialog.getByTestId('credential-save-button').click();
				expect(await (await refused).json()).toEqual({ data: { status: 'Error', message: entry.refusal } });
				await dialog.getByText("Couldn't connect with these settings").or(dialog.getByText('Couldn’t connect with these settings')).waitFor();
				await dialog.getByText('More details').click();
				await dialog.getByText(entry.refusal).waitFor();
				await editor.screenshot(entry.picture, dialog);
				const secret = await entry.good();
				expect(await dialog.innerText()).not.toContain(secret);

				// The right secret passes: n8n closes the dialog and the node uses the new credential.
				await field(entry.secretField).fill(secret);
				const passed = editor.page.waitForResponse((response) => response.url().endsWith('/rest/credentials/test'));
				await dialog.getByTestId('credential-save-button').click();
				expect(await (await passed).json()).toEqual({ data: { status: 'OK', message: expect.any(String) } });
				await dialog.waitFor({ state: 'hidden' });
				const chosen = await editor.ndv().getByTestId('node-credentials-select').nth(entry.slot).locator('input').inputValue();
				expect(chosen).toMatch(/Travel Pricing (Airports |n8n )?account/);
				await editor.closeNdv();
			},
		);
	});

	/**
	 * Opens Shop Update with one market, the Airports credential chosen (the picker reads airports
	 * with it; it is the node's second, optional credential) and Pickup Location on "From list".
	 * `addMarket` adds the market the first time; later calls find it in the node.
	 */
	async function openPickupLocationList({ addMarket }: { addMarket: boolean }): Promise<Locator> {
		await editor.dismissNotifications();
		await editor.openNode('Shop Update');
		const ndv = editor.ndv();
		const picker = ndv.getByTestId('resource-locator-pickupLocation');
		if (addMarket) await ndv.getByRole('button', { name: 'Add Market' }).click();
		await ndv.getByTestId('node-credentials-select').nth(1).click();
		await editor.page.getByTestId('node-credentials-select-item-tpAirportsCred01').locator('visible=true').click();
		await picker.getByTestId('rlc-mode-selector').click();
		await editor.page.getByTestId('mode-list').locator('visible=true').click();
		return picker;
	}

	test("the airport picker shows the service's error in the list, and the suite's error check catches it", async () => {
		const picker = await openPickupLocationList({ addMarket: true });
		env.sandbox.setFaults({ endpoints: { airports: { p500: 1 } } });
		try {
			await picker.getByTestId('rlc-input').click();
			const message = editor.page.getByTestId('rlc-error-message');
			await eventually(async () => expect(await message.innerText()).toContain('The service failed with HTTP 500'), 60_000);
		} finally {
			env.sandbox.resetFaults();
		}
		await editor.screenshot('shop-update-airport-picker-error', undefined, { dismiss: false });
		// The check every test ends with sees this real error of the package's list search.
		expect(editor.takePackageProblems()).toEqual([
			expect.objectContaining({ kind: 'response', text: expect.stringMatching(/^500 POST \S+\/rest\/dynamic-node-parameters\/resource-locator-results$/) }),
		]);
		await editor.closeNdv();
	});

	test("Shop Update's airport picker lists the sandbox's airports and narrows as one types", async () => {
		const picker = await openPickupLocationList({ addMarket: false });
		await picker.getByTestId('rlc-input').click();

		const items = editor.page.getByTestId('rlc-item');
		await items.first().waitFor();
		// What the list shows is the sandbox's airports reference, as "code – name, city", with
		// "(inactive)" after an airport the reference marks inactive.
		const byCode = new Map(env.sandbox.data.airports.map((airport) => [airport.airportCode, airport]));
		const listed = await items.allInnerTexts();
		expect(listed.length).toBeGreaterThan(20);
		for (const text of listed) {
			const airport = byCode.get(text.slice(0, 3));
			const inactive = airport?.isActiveStatus === false ? ' (inactive)' : '';
			expect(text).toBe(`${airport?.airportCode} – ${airport?.airportName}, ${airport?.city}${inactive}`);
		}
		await editor.screenshot('shop-update-airport-picker', undefined, { dismiss: false });

		// Typing narrows the list to the airports whose code, name or city holds the text.
		const city = String(byCode.get(listed[Math.floor(listed.length / 2)].slice(0, 3))?.city);
		await editor.page.locator('input[data-test-id="rlc-search"], [data-test-id="rlc-search"] input').first().fill(city);
		const narrowed = await eventually(async () => {
			const shown = await items.allInnerTexts();
			expect(shown.length).toBeGreaterThan(0);
			expect(shown.length).toBeLessThan(listed.length);
			expect(shown.filter((text) => !text.includes(city))).toEqual([]);
			return shown;
		});

		await items.first().click();
		await eventually(async () => expect(await picker.getByTestId('rlc-input').inputValue()).toContain(narrowed[0].slice(0, 3)));
		await editor.closeNdv();
	});

	test('the "Event impact digest" example opens from its file, runs, and shows its counts and digest', async () => {
		await editor.newWorkflow();
		await editor.importWorkflowFile(DIGEST_FILE);
		await editor.canvasNode('Build digest').waitFor();
		await editor.page.getByTestId('execute-workflow-button').click();

		const example = JSON.parse(fs.readFileSync(DIGEST_FILE, 'utf8')) as { nodes: Array<{ name: string; parameters: Record<string, unknown> }> };
		const settings = Object.fromEntries(
			(example.nodes.find((node) => node.name === 'Hotel and digest settings')?.parameters.assignments as { assignments: Array<{ name: string; value: unknown }> }).assignments.map(
				(assignment) => [assignment.name, assignment.value],
			),
		);
		const { near, kept } = digestEvents(env.sandbox.data, settings);
		const items = (count: number): string => `${count} item${count === 1 ? '' : 's'}`;
		// Start → settings → Event Impact → filter → sort → digest: the counts on the connections.
		await eventually(
			async () => expect(await editor.connectionLabels()).toEqual([items(1), items(1), items(near.length), items(kept.length), items(kept.length)]),
			120_000,
		);
		await editor.screenshot('example-event-impact-digest');

		await editor.openNode('Build digest');
		const output = editor.outputPanel();
		await output.getByText('1 item').first().waitFor();
		const best = [...kept].sort((a, b) => b.impactScore - a.impactScore)[0];
		await output.getByText(String(settings.hotelName)).first().waitFor();
		await output.getByText(best.eventName).first().waitFor();
		await editor.screenshot('example-digest-output');
		await editor.closeNdv();
	});

	test('the "Schedules from a sheet" example opens from its file and runs on the sheet npm start creates', async () => {
		await ensureScheduleSheet(new N8nPublicApi(env.n8n.baseUrl, await env.n8n.createApiKey('Browser suite (sheet)', DATA_TABLE_SCOPES)));
		await editor.newWorkflow();
		await editor.importWorkflowFile(SCHEDULES_FILE);
		await editor.canvasNode('Write back').waitFor();
		await editor.page.getByTestId('execute-workflow-button').click();

		const rows = `${SAMPLE_SCHEDULE_ROWS.length} items`;
		// Start → Schedule rows → Create or update schedule → Write back: one row per hotel throughout;
		// the Schedule Trigger and the error output carry nothing, so their labels stay empty.
		await eventually(async () => expect((await editor.connectionLabels()).filter(Boolean)).toEqual(['1 item', rows, rows]), 120_000);
		expect(env.sandbox.schedules()).toHaveLength(SAMPLE_SCHEDULE_ROWS.length);
		await editor.screenshot('example-schedules-from-sheet');
	});

	test('the trigger: Listen for test event, the sandbox runs a shop, the records show in the panel', async () => {
		await editor.openWorkflow(TRIGGER_WORKFLOW.id);
		await editor.openNode('Rate Record Trigger');
		env.sandbox.reset();
		await editor.ndv().getByTestId('trigger-execute-button').click();

		// Listening registers the test URL with the service: one POST /webhook, nothing else.
		const trigger = TRIGGER_WORKFLOW.nodes.find((node) => node.name === 'Rate Record Trigger');
		const testUrl = `${env.n8n.baseUrl}/webhook-test/${String(trigger?.webhookId)}/rate-records`;
		await eventually(
			() => expect(env.sandbox.webhooks()).toEqual([expect.objectContaining({ endpoint: testUrl, authType: 'bearer', account: 'demo' })]),
			60_000,
		);
		expect(env.sandbox.requests().map((request) => `${request.method} ${request.path}`)).toEqual(['POST /webhook']);
		await editor.screenshot('rate-trigger-listening');

		const run = await env.sandbox.runShop({ shopId: SHOP_ID, records: 3, perDelivery: 3 });
		expect(run.byStatus).toEqual({ 200: 1 });
		const output = editor.outputPanel();
		await output.getByText('3 items').first().waitFor({ timeout: 60_000 });
		for (const recordId of env.sandbox.deliveries()[0].recordIds) {
			await output.getByText(recordId).first().waitFor();
		}
		await editor.screenshot('rate-trigger-test-event');

		// Listening ends with the first delivery; the service still has the test URL, and n8n
		// answers 404 there until a listen or an activation registers a URL again.
		const after = await env.sandbox.runShop({ shopId: SHOP_ID, records: 1 });
		expect(after.byStatus).toEqual({ 404: 1 });
		await editor.closeNdv();
	});
});
