import { config } from '@n8n/node-cli/eslint';

export default [
	...config,
	{
		// Tests, the sandbox, the e2e harness and benchmarks are never shipped (package.json "files"
		// is dist/ only), and they must start servers, time things and print progress: the rules
		// that keep node code safe inside n8n do not apply to them.
		files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
		rules: {
			'@n8n/community-nodes/no-restricted-imports': 'off',
			'@n8n/community-nodes/no-restricted-globals': 'off',
			'no-console': 'off',
		},
	},
];
