/**
 * The queue-mode suite (see docs/scaling.md): n8n as main, workers and a webhook process on
 * Postgres and Redis, with the e2e suite's settings (one file at a time, long timeouts).
 * @type {import('jest').Config}
 */
module.exports = {
	...require('../e2e/jest.config.js'),
	testMatch: ['<rootDir>/test/queue/**/*.queue.test.ts'],
};
