import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { REPO_ROOT, type Owner } from '../../../platform/n8n';
import { launchChromium } from './browser';

/**
 * n8n's editor in Chromium, driven as a person uses it: by the labels and the test ids n8n's own
 * browser tests use (data-test-id). It watches the browser console and the editor's requests, and
 * saves screenshots for the docs.
 */

/** Where screenshots go: docs/images for `npm run screenshots`, else a folder git ignores. */
export const SCREENSHOT_DIR = process.env.UI_SCREENSHOT_DIR
	? path.resolve(REPO_ROOT, process.env.UI_SCREENSHOT_DIR)
	: path.join(REPO_ROOT, 'test', 'ui', '.work', 'screenshots');

/** What names this package in a console message or a request URL. */
const PACKAGE_MARKS = ['n8n-nodes-travel-pricing', 'travelPricing', 'Travel Pricing'];
/** Editor requests that only this package's nodes and credentials cause in these tests. */
const PACKAGE_REQUESTS = ['/rest/dynamic-node-parameters/', '/rest/credentials/test', '/rest/node-types'];

export interface BrowserProblem {
	kind: 'console' | 'page error' | 'response';
	text: string;
}

export class Editor {
	private readonly problems: BrowserProblem[] = [];
	private readonly responses: Array<{ url: string; status: number }> = [];

	private constructor(
		private readonly browser: Browser,
		readonly page: Page,
		readonly baseUrl: string,
	) {
		page.on('console', (message) => {
			if (message.type() === 'error') this.problems.push({ kind: 'console', text: message.text() });
		});
		page.on('pageerror', (error) => this.problems.push({ kind: 'page error', text: `${error.name}: ${error.message}` }));
		page.on('response', (response) => {
			this.responses.push({ url: response.url(), status: response.status() });
			if (response.status() >= 400) {
				this.problems.push({ kind: 'response', text: `${response.status()} ${response.request().method()} ${response.url()}` });
			}
		});
	}

	/** A new browser window on n8n at `baseUrl`, 1440 x 900 like a laptop screen. */
	static async open(baseUrl: string): Promise<Editor> {
		const browser = await launchChromium();
		try {
			const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
			// The editor's first load compiles much; a loaded 2-core machine needs more than 30 s.
			page.setDefaultTimeout(60_000);
			return new Editor(browser, page, baseUrl);
		} catch (error) {
			await browser.close();
			throw error;
		}
	}

	async close(): Promise<void> {
		await this.browser.close();
	}

	/**
	 * Errors the browser saw since the last call that come from this package: console errors and
	 * failed requests that name it, and failures of the requests only its nodes and credentials make
	 * here (airport list, credential test). `expected` lists texts of failures a test provoked on
	 * purpose. Each problem is reported once, to the test during which it happened.
	 */
	takePackageProblems(expected: string[] = []): BrowserProblem[] {
		const seen = this.problems.splice(0);
		return seen.filter(
			(problem) =>
				(PACKAGE_MARKS.some((mark) => problem.text.includes(mark)) || PACKAGE_REQUESTS.some((url) => problem.text.includes(url))) &&
				!expected.some((text) => problem.text.includes(text)),
		);
	}

	/** The responses the editor got whose URL matches `pattern`, in order. */
	responsesTo(pattern: RegExp): Array<{ url: string; status: number }> {
		return this.responses.filter((response) => pattern.test(response.url));
	}

	/**
	 * Closes n8n's notifications ("Credential successfully created"), which would cover a picture.
	 * A click outside an open dropdown closes it too: dismiss before opening one.
	 */
	async dismissNotifications(): Promise<void> {
		const closeButtons = this.page.locator('.el-notification .el-notification__closeBtn');
		for (const button of await closeButtons.all()) await button.click().catch(() => undefined);
	}

	/** Saves a PNG of the page (or of `target`) as `<name>.png` in SCREENSHOT_DIR. */
	async screenshot(name: string, target?: Locator, { dismiss = true } = {}): Promise<string> {
		fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
		const file = path.join(SCREENSHOT_DIR, `${name}.png`);
		if (dismiss) await this.dismissNotifications();
		// Wait for fonts and the last transition, so the picture shows what a person sees.
		await this.page.evaluate(async () => {
			await (globalThis as unknown as { document: { fonts: { ready: Promise<unknown> } } }).document.fonts.ready;
		});
		await this.page.waitForTimeout(400);
		await (target ?? this.page).screenshot({ path: file });
		return file;
	}

	async signIn(owner: Pick<Owner, 'email' | 'password'>): Promise<void> {
		await this.page.goto(`${this.baseUrl}/signin`);
		await this.page.locator('input[name=emailOrLdapLoginId]').fill(owner.email);
		await this.page.locator('input[name=password]').fill(owner.password);
		await this.page.getByTestId('form-submit-button').click();
		await this.page.waitForURL((url) => !url.pathname.includes('signin'));
	}

	/** An empty workflow on the canvas. */
	async newWorkflow(): Promise<void> {
		await this.page.goto(`${this.baseUrl}/workflow/new`);
		await this.page.getByTestId('node-creator-plus-button').waitFor();
	}

	async openWorkflow(id: string): Promise<void> {
		await this.page.goto(`${this.baseUrl}/workflow/${id}`);
		await this.canvasNodes().first().waitFor();
	}

	// ----- node panel (node creator) -----

	nodeCreator(): Locator {
		return this.page.getByTestId('node-creator');
	}

	nodeCreatorItems(): Locator {
		return this.nodeCreator().getByTestId('item-iterator-item');
	}

	/** Opens the node panel with the + button and types `text` into its search. */
	async searchNodes(text: string): Promise<void> {
		await this.page.getByTestId('node-creator-plus-button').click();
		await this.page.getByTestId('node-creator-search-bar').fill(text);
	}

	/**
	 * Adds a node found by `search`, as a person does: click it in the node panel; a community node
	 * shows its details first ("Add to workflow"); a node with several operations lists them and
	 * `action` picks one. The node's panel (NDV) opens.
	 */
	async addNode(search: string, displayName: string, action?: string): Promise<void> {
		await this.searchNodes(search);
		await this.nodeCreatorItems().filter({ hasText: displayName }).first().click();
		if (action) {
			await this.nodeCreatorItems().filter({ hasText: action }).first().click();
		} else {
			await this.page.getByRole('button', { name: 'Add to workflow' }).click();
		}
		await this.ndv().waitFor();
	}

	// ----- node details view -----

	ndv(): Locator {
		return this.page.getByTestId('ndv');
	}

	/** The names of the fields the open node panel shows, in order (each label's first line). */
	async fieldLabels(): Promise<string[]> {
		const labels = await this.ndv().getByTestId('node-parameters').getByTestId('input-label').allInnerTexts();
		return labels.map((label) => label.split('\n')[0].trim()).filter(Boolean);
	}

	async closeNdv(): Promise<void> {
		await this.page.getByTestId('ndv-close-button').click();
		await this.ndv().waitFor({ state: 'hidden' });
	}

	outputPanel(): Locator {
		return this.ndv().getByTestId('output-panel');
	}

	// ----- canvas -----

	canvasNodes(): Locator {
		return this.page.getByTestId('canvas-node');
	}

	canvasNode(name: string): Locator {
		return this.page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);
	}

	async openNode(name: string): Promise<void> {
		await this.canvasNode(name).dblclick();
		await this.ndv().waitFor();
	}

	/** The item counts written on the canvas's connections ("48 items"), left to right. */
	async connectionLabels(): Promise<string[]> {
		return await this.page.getByTestId('edge-label').allInnerTexts();
	}

	/** Imports a workflow file as the editor's "Import from File..." does, into the open workflow. */
	async importWorkflowFile(file: string): Promise<void> {
		await this.page.getByTestId('workflow-import-input').setInputFiles(file);
	}
}
