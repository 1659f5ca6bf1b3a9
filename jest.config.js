/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json', diagnostics: false }],
	},
	testMatch: ['<rootDir>/test/**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '/dist/', '/test/e2e/', '/test/queue/', '/test/ui/'],
	setupFilesAfterEnv: ['<rootDir>/test/harness/jest.setup.ts'],
	testTimeout: 30000,
};
