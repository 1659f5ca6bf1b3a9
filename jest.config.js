/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json', diagnostics: false }],
	},
	testMatch: ['<rootDir>/test/**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '/dist/', '/test/e2e/', '/test/queue/', '/test/ui/'],
	setupFilesAfterEnv: ['<rootDir>/test/harness/jest.setup.ts'],
	// A worker a core: Jest's default (cores - 1) is one worker on CI's two cores, which ran the files
	// one after the other (docs/e2e.md, "How long it takes").
	maxWorkers: '100%',
	testTimeout: 30000,
};
