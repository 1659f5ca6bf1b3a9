import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import { config } from '@n8n/node-cli/eslint';

// The community-package rules guard code that runs inside a user's n8n. The platform (the sandbox,
// the n8n harness, the engine runner), tests, benchmarks and scripts are never shipped
// (package.json "files" is dist/ only), and they must start servers and processes, hold demo
// secrets, time things and print progress.
const shippedCodeOnly = Object.fromEntries(
	Object.keys(n8nCommunityNodesPlugin.rules).map((rule) => [`@n8n/community-nodes/${rule}`, 'off']),
);

export default [
	...config,
	{
		files: ['platform/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
		rules: {
			...shippedCodeOnly,
			'no-console': 'off',
			// The MCP SDK's exports map "./*" to "*.d.ts" for types, so the resolver looks for
			// client/index.js.d.ts; TypeScript (through typesVersions) and Node resolve it.
			'import-x/no-unresolved': ['error', { ignore: ['^@modelcontextprotocol/sdk/'] }],
		},
	},
];
