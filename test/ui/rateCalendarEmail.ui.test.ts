import fs from 'node:fs';
import path from 'node:path';
import axios from 'axios';
import type { IDataObject } from 'n8n-workflow';
import type { Browser, Page } from 'playwright-core';

import { startDataTablesApi, type DataTablesApi } from '../../platform/dataTables';
import { credentialsFor, runNode, shopRun, stopEngine } from '../../platform/engine';
import { DEMO_SHOPS, ensureN8n, NEWEST_N8N, readExampleFile, EXAMPLE_FILES } from '../../platform/n8n';
import { startSandbox, type RunShopOptions, type Sandbox } from '../../platform/sandbox';
import { launchChromium, SCREENSHOT_DIR } from './harness';

/**
 * The Rate Calendar's email and Suggest Rates' approval message as their readers see them, in
 * Chromium: the calendar of `npm start`'s step 8 (a month of shop 1's comp set with a festival,
 * then the same month a day later, so the arrows show) built by the node in n8n's engine, its
 * `html` rendered as a phone and a desktop mail app show it; the approval email of the "Suggested
 * rates for approval" example as n8n 2.41.1's Send and Wait for Response builds it (n8n's own
 * email template, the example's message and buttons). Pictures for the docs.
 */

let sandbox: Sandbox;
let api: DataTablesApi;
let browser: Browser;
let calendar: IDataObject;
let suggestions: IDataObject;

/** The records of a run as the one receiver got them. */
async function shop(options: RunShopOptions): Promise<IDataObject[]> {
	return (await shopRun(sandbox, options)).records;
}

async function rateChanges(parameters: IDataObject, items: IDataObject[]): Promise<IDataObject[]> {
	const credentials = { ...credentialsFor(sandbox), travelPricingN8nApi: { baseUrl: api.baseUrl, apiKey: api.apiKey } };
	const result = await runNode({ nodeType: 'travelPricingRateChanges', parameters: parameters as never, items, credentials, mode: 'trigger' });
	if (result.error) throw new Error(`Rate Changes failed: ${result.error.message}`);
	return result.items.map((item) => item.json);
}

/** The example's node parameters, by node name. */
function exampleParameters(file: string, nodeName: string): IDataObject {
	return readExampleFile(file).nodes.find((node) => node.name === nodeName)?.parameters as IDataObject;
}

async function render(page: Page, html: string, width: number): Promise<void> {
	await page.setViewportSize({ width, height: 800 });
	await page.setContent(`<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"></head><body style="margin:0;background:#ffffff;">${html}</body></html>`);
}

async function screenshot(page: Page, name: string): Promise<void> {
	fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
	await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, speed: 0 });
	api = await startDataTablesApi();
	await axios.post(`${sandbox.baseUrl}/webhook`, { endpoint: 'http://127.0.0.1:9/discard', authType: 'none' }, { headers: { Authorization: `Bearer ${sandbox.credentials.accessToken}` } });
	const calendarParameters = exampleParameters(EXAMPLE_FILES.rateCalendar, 'Rate calendar');
	for (const [morning, run] of [DEMO_SHOPS.calendarMonth, DEMO_SHOPS.calendarNextDay].entries()) {
		await rateChanges({ operation: 'detectChanges', options: {} }, await shop({ ...(run as RunShopOptions), perDelivery: 360 }));
		[calendar] = await rateChanges(calendarParameters, [{ morning }]);
	}
	[suggestions] = await rateChanges(exampleParameters(EXAMPLE_FILES.suggestedRates, 'Suggest rates'), [{}]);
	browser = await launchChromium();
}, 10 * 60_000);

afterAll(async () => {
	await browser?.close();
	await api?.close();
	await sandbox?.close();
	await stopEngine();
});

describe('the rate calendar email', () => {
	test('shows every kind of date, the arrows and the festival, and fits a phone without scrolling sideways', async () => {
		const counts = calendar.counts as Record<string, number>;
		expect(counts.cheaper * counts.onPar * counts.dearer * counts.soldOut * counts.outliers * counts.events).toBeGreaterThan(0);
		const page = await browser.newPage();
		await render(page, String(calendar.html), 375);
		const fits = await page.evaluate(() => {
			const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
			return root.scrollWidth <= root.clientWidth;
		});
		expect(fits).toBe(true);
		const text = await page.locator('body').innerText();
		expect(text).toContain('Sold out');
		expect(text).toMatch(/[▲▼]/);
		expect(text).toContain('Cape Town Harbour Festival');
		expect(text).toContain('Dates to look at');
		for (const day of calendar.dates as IDataObject[]) expect(text).toContain(String(Number(String(day.date).slice(8, 10))));
		await render(page, String(calendar.html), 720);
		await screenshot(page, 'rate-calendar-email');
		await page.close();
	});
});

/** The approval of the example's 30 dates in n8n's Send and Wait email at 720 px: each date a row of figures and a row for its reason. */
const APPROVAL_MAX_HEIGHT_PX = 2_000;

describe('the approval message', () => {
	test('is n8n’s Send and Wait email with the suggestions, their reasons and the Approve and Decline buttons', async () => {
		const runtime = await ensureN8n(NEWEST_N8N);
		const templates = path.join(runtime.dir, 'node_modules', 'n8n-nodes-base', 'dist', 'utils', 'sendAndWait');
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const { createEmailBodyWithoutN8nAttribution, BUTTON_STYLE_PRIMARY, BUTTON_STYLE_SECONDARY } = require(path.join(templates, 'email-templates.js')) as {
			createEmailBodyWithoutN8nAttribution(message: string, buttons: string): string;
			BUTTON_STYLE_PRIMARY: string;
			BUTTON_STYLE_SECONDARY: string;
		};
		// n8n's createButton (utils.js, which loads the Form node and more than this test needs).
		const createButton = (url: string, label: string, style: string) => `<a href="${url}" target="_blank" style="${style === 'secondary' ? BUTTON_STYLE_SECONDARY : BUTTON_STYLE_PRIMARY}">${label}</a>`;
		const approval = exampleParameters(EXAMPLE_FILES.suggestedRates, 'Ask for approval');
		const { approveLabel, disapproveLabel } = (approval.approvalOptions as { values: Record<string, string> }).values;
		// The example's message: the summary's html, as n8n's getSendAndWaitConfig hands it on (its
		// escapeHtml decodes &amp; &lt; &gt; &#39; &quot;, and <br> becomes a line break).
		const message = String(suggestions.html)
			.replace(/&amp;|&lt;|&gt;|&#39;|&quot;/g, (entity) => ({ '&amp;': '&', '&lt;': '<', '&gt;': '>', '&#39;': "'", '&quot;': '"' })[entity] as string)
			.replace(/<br>/g, '\n');
		const link = 'http://127.0.0.1:5678/webhook-waiting/1/approval';
		const html = createEmailBodyWithoutN8nAttribution(message, [createButton(`${link}?approved=false`, disapproveLabel, 'secondary'), createButton(`${link}?approved=true`, approveLabel, 'primary')].join('\n'));
		const page = await browser.newPage();
		await render(page, html, 720);
		const text = await page.locator('body').innerText();
		expect(text).toContain('Suggested rates for Hilton Cape Town Riverside (100085), 5 nights, 2 guests');
		expect(text).toContain(String((suggestions.changes as IDataObject[])[0].reason));
		expect(text).toContain('Approve these rates');
		expect(text).toContain('Decline');
		// It was 4,673 px tall when a Why column wrapped a word a line: a month of dates reads in a few screens.
		const height = Number(await page.evaluate('document.documentElement.scrollHeight'));
		process.stderr.write(`approval email: ${height} px tall at 720 px\n`);
		expect(height).toBeLessThan(APPROVAL_MAX_HEIGHT_PX);
		await screenshot(page, 'suggested-rates-approval');
		await page.close();
	});
});
