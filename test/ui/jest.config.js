/**
 * The browser suite (see docs/e2e.md): n8n's editor in Debian's Chromium, driven by
 * playwright-core, with the e2e suite's settings (one file at a time, long timeouts).
 * @type {import('jest').Config}
 */
module.exports = {
	...require('../e2e/jest.config.js'),
	testMatch: ['<rootDir>/test/ui/**/*.ui.test.ts'],
};
