import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { REPO_ROOT } from './communityPackage';
import type { WorkflowSeed } from './cli';

/** The example that serves the package's nodes as MCP tools (examples/). */
export const MCP_EXAMPLE_FILE = 'mcp-travel-pricing-tools.json';

const MCP_TRIGGER_TYPE = '@n8n/n8n-nodes-langchain.mcpTrigger';

/** The two transports of the MCP specification that n8n's MCP Server Trigger serves. */
export type McpTransport = 'streamable-http' | 'sse';

/** What a user pastes into an MCP client to reach an MCP Server Trigger. */
export interface McpAccess {
	/** The production URL a client connects to. */
	url: string;
	/** The transport that URL serves: the trigger's v1 serves SSE only; v2 and later also Streamable HTTP. */
	transports: McpTransport[];
	/** The header the client must send (the trigger's Bearer Auth). */
	authorization: string;
}

/** The example as stored in examples/, without an id (an editor import assigns one). */
export function mcpExample(): WorkflowSeed {
	return JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'examples', MCP_EXAMPLE_FILE), 'utf8')) as WorkflowSeed;
}

/**
 * Where a published workflow's MCP Server Trigger answers: n8n serves it under /mcp/<path>; the
 * trigger's v1 at <path>/sse (its messages at <path>/messages), v2 and later at <path> itself.
 */
export function mcpTriggerAccess(n8nBaseUrl: string, workflow: Pick<WorkflowSeed, 'nodes'>, token: string): McpAccess {
	const trigger = workflow.nodes.find((node) => node.type === MCP_TRIGGER_TYPE);
	if (!trigger) throw new Error('The workflow has no MCP Server Trigger');
	const triggerPath = String((trigger.parameters as { path?: unknown }).path);
	const version = Number(trigger.typeVersion);
	return version < 2
		? { url: `${n8nBaseUrl}/mcp/${triggerPath}/sse`, transports: ['sse'], authorization: `Bearer ${token}` }
		: { url: `${n8nBaseUrl}/mcp/${triggerPath}`, transports: ['streamable-http', 'sse'], authorization: `Bearer ${token}` };
}

/** The MCP example's URL and header in an n8n at n8nBaseUrl, for `npm start` to print. */
export function mcpExampleAccess(n8nBaseUrl: string, token: string): McpAccess {
	return mcpTriggerAccess(n8nBaseUrl, mcpExample(), token);
}

/**
 * The official MCP client (@modelcontextprotocol/sdk), connected to url over one transport with
 * the given Authorization header (none without one). Rejects when the server refuses the connection.
 */
export async function connectMcpClient(url: string, transport: McpTransport, authorization?: string): Promise<Client> {
	const client = new Client({ name: 'travel-pricing-e2e', version: '1.0.0' });
	// Both transports send requestInit's headers with every request, the SSE stream's GET included.
	const headers: Record<string, string> = authorization === undefined ? {} : { Authorization: authorization };
	const requestInit = { headers };
	await client.connect(
		transport === 'sse' ? new SSEClientTransport(new URL(url), { requestInit }) : new StreamableHTTPClientTransport(new URL(url), { requestInit }),
	);
	return client;
}
