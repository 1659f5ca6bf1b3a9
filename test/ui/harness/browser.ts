import { chromium, selectors, type Browser } from 'playwright-core';
import { installDebianPackages, onPath } from '../../../platform/n8n';

/** Debian's package; its binary is /usr/bin/chromium. CHROMIUM_PATH overrides where to find one. */
const CHROMIUM_PACKAGE = 'chromium';

let found: Promise<string> | undefined;

/**
 * The Chromium binary the tests drive: CHROMIUM_PATH, else `chromium` on PATH, else Debian's
 * package installed with apt-get when this process runs as root (CI does), else an error that says
 * what to install. No browser is downloaded: playwright-core only drives the one found here.
 */
export function ensureChromium(): Promise<string> {
	found ??= (async () => {
		const given = process.env.CHROMIUM_PATH;
		if (given) return given;
		const existing = onPath('chromium') ?? onPath('chromium-browser');
		if (existing) return existing;
		await installDebianPackages([CHROMIUM_PACKAGE], 'The browser tests need Chromium');
		const installed = onPath('chromium');
		if (!installed) throw new Error('apt-get installed chromium, but there is still no chromium on PATH');
		return installed;
	})();
	return found;
}

/** Headless Chromium as a container allows it: no sandbox, no GPU, no calls home. */
export async function launchChromium(): Promise<Browser> {
	// n8n's editor marks its elements with data-test-id, not Playwright's default data-testid.
	selectors.setTestIdAttribute('data-test-id');
	return await chromium.launch({
		executablePath: await ensureChromium(),
		headless: true,
		args: [
			'--no-sandbox',
			'--disable-gpu',
			'--disable-dev-shm-usage',
			'--disable-quic',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
		],
	});
}
