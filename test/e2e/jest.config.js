/**
 * The end-to-end suite against a real n8n (see docs/e2e.md): run on its own, one file at a time,
 * with the long timeouts that installing and starting n8n need.
 * @type {import('jest').Config}
 */
module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json', diagnostics: false }],
	},
	testMatch: ['<rootDir>/test/e2e/**/*.e2e.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '/dist/'],
	maxWorkers: 1,
	testTimeout: 10 * 60_000,
	verbose: true,
};
