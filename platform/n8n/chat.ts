/**
 * What an OpenAI-compatible chat-completions request holds, as n8n's AI Agent sends it to the
 * scripted model (scriptedModel.ts), and the tool calls the model answers with (demoModel.ts).
 */

export interface ScriptedToolCall {
	/** The tool's name as n8n offers it (the node's name, spaces as underscores). */
	name: string;
	arguments: Record<string, unknown>;
}

export interface ChatMessage {
	role: string;
	content?: unknown;
	name?: string;
	tool_call_id?: string;
	tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
}

export interface ChatRequest {
	model?: string;
	stream?: boolean;
	messages: ChatMessage[];
	tools?: Array<{ type: string; function: { name: string; description?: string; parameters?: Record<string, unknown> } }>;
}
