import fs from 'node:fs';
import path from 'node:path';
import axios from 'axios';
import type { IDataObject } from 'n8n-workflow';
import type { Browser, Page } from 'playwright-core';

import { startDataTablesApi, type DataTablesApi } from '../../platform/dataTables';
import { runNode, shopRun, stopEngine } from '../../platform/engine';
import { DEMO_SHOPS } from '../../platform/n8n';
import { startSandbox, type RunShopOptions, type Sandbox } from '../../platform/sandbox';
import { launchChromium, SCREENSHOT_DIR } from './harness';

/**
 * Rate History's two emails as their readers see them, in Chromium: the history of the peak dates
 * and the booking-window curve of `npm start`'s calendar month (shop 1's comp set around hotel
 * 100085), after 21 daily shops of it (the first, then a day's moves each morning), built by the
 * node in n8n's engine, rendered as a phone (375 px) and a desktop mail app (720 px) show them.
 * Pictures for the docs.
 */

const MY_HOTEL = 100085;
const SHOP_DAYS = 21;
const FIRST_SHOP = Date.parse('2026-11-10T06:00:00Z');

/** At 720 px, a history of five dates and the curve read in a few screens. */
const MAX_HEIGHT_PX = { history: 2_400, curve: 1_000 };

let sandbox: Sandbox;
let api: DataTablesApi;
let browser: Browser;
let history: IDataObject;
let curve: IDataObject;

/** The records of a run as the one receiver got them. */
async function shop(options: RunShopOptions): Promise<IDataObject[]> {
	return (await shopRun(sandbox, options)).records;
}

async function rateChanges(parameters: IDataObject, items: IDataObject[]): Promise<IDataObject[]> {
	const credentials = { travelPricingN8nApi: { baseUrl: api.baseUrl, apiKey: api.apiKey } };
	const result = await runNode({ nodeType: 'travelPricingRateChanges', parameters: parameters as never, items, credentials, mode: 'trigger' });
	if (result.error) throw new Error(`Rate Changes failed: ${result.error.message}`);
	return result.items.map((item) => item.json);
}

async function render(page: Page, html: string, width: number): Promise<{ fits: boolean; height: number }> {
	await page.setViewportSize({ width, height: 800 });
	await page.setContent(`<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"></head><body style="margin:0;background:#ffffff;">${html}</body></html>`);
	return (await page.evaluate('({ fits: document.documentElement.scrollWidth <= document.documentElement.clientWidth, height: document.documentElement.scrollHeight })')) as { fits: boolean; height: number };
}

async function screenshot(page: Page, name: string): Promise<void> {
	fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
	await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, speed: 0, clock: FIRST_SHOP });
	api = await startDataTablesApi();
	await axios.post(`${sandbox.baseUrl}/webhook`, { endpoint: 'http://127.0.0.1:9/discard', authType: 'none' }, { headers: { Authorization: `Bearer ${sandbox.credentials.accessToken}` } });
	const delivered: IDataObject[] = [];
	for (let day = 0; day < SHOP_DAYS; day++) {
		sandbox.setClock(FIRST_SHOP + day * 86_400_000);
		const options: RunShopOptions = day === 0 ? DEMO_SHOPS.calendarMonth : { shopId: 1, repeatRun: 'latest', changes: { seed: day, drift: 0.5, changed: 0.1 } };
		const records = await shop({ ...options, perDelivery: 360 });
		await rateChanges({ operation: 'detectChanges', options: {} }, records);
		delivered.push(...records);
	}
	const checkIns = [...new Set(delivered.map((record) => String(record.checkIn).slice(0, 10)))].sort();
	const nights = sandbox.data.shops.get(1)?.config.lor;
	const whose = { operation: 'rateHistory', myHotelCode: String(MY_HOTEL), nights, window: 'range', options: {} };
	// The weekly email of the dates that matter: the five ahead of the last shop with the highest comp median.
	[history] = await rateChanges({ ...whose, fromDate: checkIns[SHOP_DAYS], toDate: checkIns[checkIns.length - 1], onlyPeakDates: 5 }, [{}]);
	[curve] = await rateChanges({ ...whose, historyShow: 'curve', fromDate: checkIns[0], toDate: checkIns[checkIns.length - 1] }, [{}]);
	browser = await launchChromium();
}, 15 * 60_000);

afterAll(async () => {
	await browser?.close();
	await api?.close();
	await sandbox?.close();
	await stopEngine();
});

describe('the rate history email', () => {
	test('charts each peak date with its line and figures, fits a phone without scrolling sideways, and reads in a few screens', async () => {
		const dates = history.dates as IDataObject[];
		expect(dates).toHaveLength(5);
		const page = await browser.newPage();
		const phone = await render(page, String(history.html), 375);
		expect(phone.fits).toBe(true);
		const text = await page.locator('body').innerText();
		for (const date of dates) expect(text).toContain(String(date.line));
		// Every bar of mine and of the median stands: a cell of its height, drawn.
		const bars = (await page.evaluate(`[...document.querySelectorAll('td[bgcolor="#1a73e8"], td[bgcolor="#9aa0a6"]')].map((cell) => cell.getBoundingClientRect().height)`)) as number[];
		expect(bars.length).toBeGreaterThan(5 * 2 * 15);
		expect(Math.min(...bars)).toBeGreaterThan(1);
		const desktop = await render(page, String(history.html), 720);
		expect(desktop.fits).toBe(true);
		process.stderr.write(`rate history email: ${phone.height} px tall at 375 px, ${desktop.height} px at 720 px, ${Buffer.byteLength(String(history.html))} bytes\n`);
		expect(desktop.height).toBeLessThan(MAX_HEIGHT_PX.history);
		await screenshot(page, 'rate-history-email');
		await page.close();
	});
});

describe('the booking window email', () => {
	test('gives each bucket a row with my index as a bar, fits a phone, and is short', async () => {
		const page = await browser.newPage();
		const phone = await render(page, String(curve.html), 375);
		expect(phone.fits).toBe(true);
		const text = await page.locator('body').innerText();
		expect(text).toContain(String(curve.line));
		for (const label of ['61–90', '31–60', '15–30', '8–14', '0–7']) expect(text).toContain(label);
		await screenshot(page, 'booking-window-email');
		const desktop = await render(page, String(curve.html), 720);
		expect(desktop.fits).toBe(true);
		process.stderr.write(`booking window email: ${phone.height} px tall at 375 px, ${desktop.height} px at 720 px; ${String(curve.line)}\n`);
		expect(desktop.height).toBeLessThan(MAX_HEIGHT_PX.curve);
		await page.close();
	});
});
