import { connectMcpClient } from '../platform/n8n';

/**
 * `npm run mcp:tools`: the official MCP client (@modelcontextprotocol/sdk) pointed at an MCP Server
 * Trigger, as an assistant would use it, for trying the MCP example without an assistant: it lists
 * the tools, or calls one and prints what it returned.
 */

const USAGE = `Usage: npm run mcp:tools -- <url> <token> [<tool> '<arguments as JSON>']

  npm run mcp:tools -- http://localhost:5678/mcp/travel-pricing-tools <token>
  npm run mcp:tools -- http://localhost:5678/mcp/travel-pricing-tools <token> Hotel_Info '{"hotelCode":100013}'

npm start prints the URL and the token of the example "Travel pricing tools for your assistant".
A URL ending in /sse (the trigger's version 1) is reached over SSE, any other over Streamable HTTP.`;

async function main(): Promise<void> {
	const [url, token, tool, json] = process.argv.slice(2);
	if (!url || !token || url === '--help') {
		console.log(USAGE);
		process.exit(url === '--help' ? 0 : 2);
	}
	const client = await connectMcpClient(url, url.endsWith('/sse') ? 'sse' : 'streamable-http', `Bearer ${token}`);
	try {
		if (!tool) {
			const { tools } = await client.listTools();
			for (const { name, description, inputSchema } of tools) {
				const fields = Object.keys(inputSchema.properties ?? {}).join(', ');
				console.log(`${name}(${fields})\n  ${description ?? ''}\n`);
			}
			return;
		}
		const result = await client.callTool({ name: tool, arguments: json ? (JSON.parse(json) as Record<string, unknown>) : {} });
		const content = (result.content ?? []) as Array<{ type: string; text?: string }>;
		for (const part of content) console.log(part.type === 'text' ? part.text : JSON.stringify(part));
		if (result.isError) process.exitCode = 1;
	} finally {
		await client.close();
	}
}

main().catch((error: Error) => {
	console.error(`mcp:tools failed: ${error.message}`);
	process.exit(1);
});
