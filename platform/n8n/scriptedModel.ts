import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatRequest, ScriptedToolCall } from './chat';
import { demoTurn } from './demoModel';

export type { ChatMessage, ChatRequest, ScriptedToolCall } from './chat';

/**
 * An OpenAI-compatible chat-completions server that answers from a script instead of a model, so
 * that n8n's AI Agent can be run end to end here (no model is reachable from this machine):
 *
 * 1. A request without tool results is answered with the scripted tool calls (the ones whose tool
 *    the request offers), as a model that decides to call tools would.
 * 2. A request that carries tool results is answered with a final message built from them, one
 *    line per tool: its name and what it returned.
 *
 * In demo mode (`npm start`'s "Demo model (scripted, offline)") the chat message decides instead:
 * demoModel.ts reads the agent example's questions and answers in sentences.
 *
 * Every request is kept, so a test can read the tool definitions n8n sent and the tool results
 * the model got back. Streaming requests (`stream: true`) are answered as server-sent events.
 */

export interface ScriptedModel {
	/** The base URL for the OpenAI credential (`…/v1`). */
	url: string;
	/** The chat-completion requests received, oldest first. */
	requests: ChatRequest[];
	/** The tool calls the next conversation starts with. */
	script(calls: ScriptedToolCall[]): void;
	/** From now on the chat message decides the tool calls and the answer (demoModel.ts). */
	demo(): void;
	close(): Promise<void>;
}

export interface ScriptedModelOptions {
	/** Start in demo mode (see ScriptedModel.demo). */
	demo?: boolean;
	/** The port to listen on (default: any free one). */
	port?: number;
	/** Today's ISO day, from which the demo model reads dates without a year (default: the real one). */
	today?: () => string;
}

/** A tool result as the model sees it: the text of the tool message. */
export function toolResults(request: ChatRequest): Array<{ name: string; content: string }> {
	const names = new Map<string, string>();
	for (const message of request.messages) {
		for (const call of message.tool_calls ?? []) names.set(call.id, call.function.name);
	}
	return request.messages
		.filter((message) => message.role === 'tool')
		.map((message) => ({
			name: names.get(message.tool_call_id ?? '') ?? message.name ?? '?',
			content: typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
		}));
}

export async function startScriptedModel(options: ScriptedModelOptions = {}): Promise<ScriptedModel> {
	const requests: ChatRequest[] = [];
	let calls: ScriptedToolCall[] = [];
	let demo = options.demo ?? false;
	const today = options.today ?? (() => new Date().toISOString().slice(0, 10));
	let callCounter = 0;
	const toolCalls = (chosen: ScriptedToolCall[]) =>
		chosen.map((call) => ({
			id: `call_${++callCounter}`,
			type: 'function',
			function: { name: call.name, arguments: JSON.stringify(call.arguments) },
		}));
	const scriptedMessage = (request: ChatRequest) => {
		const results = toolResults(request);
		if (results.length > 0) {
			return { role: 'assistant', content: `Here is what the tools found.\n${results.map((result) => `${result.name}: ${result.content}`).join('\n')}` };
		}
		const offered = new Set((request.tools ?? []).map((tool) => tool.function.name));
		return { role: 'assistant', content: null, tool_calls: toolCalls(calls.filter((call) => offered.has(call.name))) };
	};
	const demoMessage = (request: ChatRequest) => {
		const turn = demoTurn(request, today());
		return 'toolCalls' in turn
			? { role: 'assistant', content: null, tool_calls: toolCalls(turn.toolCalls) }
			: { role: 'assistant', content: turn.content };
	};

	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const reply = (status: number, body: unknown) => {
				res.writeHead(status, { 'content-type': 'application/json' });
				res.end(JSON.stringify(body));
			};
			if (req.method === 'GET' && req.url?.endsWith('/models')) {
				reply(200, { object: 'list', data: [{ id: 'scripted-model', object: 'model', owned_by: 'tests' }] });
				return;
			}
			if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
				reply(404, { error: { message: `No route ${req.method} ${req.url}` } });
				return;
			}
			let request: ChatRequest;
			try {
				request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest;
			} catch {
				reply(400, { error: { message: 'The body is not JSON' } });
				return;
			}
			requests.push(request);
			const message: { role: string; content: string | null; tool_calls?: ReturnType<typeof toolCalls> } = demo ? demoMessage(request) : scriptedMessage(request);
			const finishReason = message.tool_calls?.length ? 'tool_calls' : 'stop';
			const created = Math.floor(Date.now() / 1000);
			const id = `chatcmpl-${requests.length}`;
			const usage = { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 };
			if (request.stream) {
				res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
				const send = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
				const delta = message.tool_calls
					? { role: 'assistant', tool_calls: message.tool_calls.map((call, index) => ({ index, ...call })) }
					: { role: 'assistant', content: message.content };
				send({ id, object: 'chat.completion.chunk', created, model: request.model, choices: [{ index: 0, delta, finish_reason: null }] });
				send({ id, object: 'chat.completion.chunk', created, model: request.model, choices: [{ index: 0, delta: {}, finish_reason: finishReason }], usage });
				res.end('data: [DONE]\n\n');
				return;
			}
			reply(200, {
				id,
				object: 'chat.completion',
				created,
				model: request.model,
				choices: [{ index: 0, message, finish_reason: finishReason }],
				usage,
			});
		});
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, '127.0.0.1', resolve);
	});
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/v1`,
		requests,
		script(next) {
			calls = next;
			demo = false;
		},
		demo() {
			demo = true;
		},
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
