import type { DataTablesApi } from '../../platform/dataTables';

/** A query string encoded as n8n's request helper (qs) encodes it: every reserved character escaped. */
export function queryString(parameters: Record<string, unknown>): string {
	const encode = (text: string): string => encodeURIComponent(text).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
	const pairs = Object.entries(parameters)
		.filter(([, value]) => value !== undefined)
		.map(([key, value]) => `${key}=${encode(typeof value === 'string' ? value : JSON.stringify(value))}`);
	return pairs.length > 0 ? `?${pairs.join('&')}` : '';
}

export interface Answer<T = unknown> {
	status: number;
	body: T;
}

/** Plain fetch calls to the stand-in's public API, with its key unless another is given. */
export function apiClient(api: DataTablesApi, key: string | null = api.apiKey) {
	async function call<T = unknown>(method: string, path: string, body?: unknown): Promise<Answer<T>> {
		const headers: Record<string, string> = {};
		if (key !== null) headers['x-n8n-api-key'] = key;
		if (body !== undefined) headers['content-type'] = 'application/json';
		const response = await fetch(`${api.apiUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
		const text = await response.text();
		return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
	}
	return {
		call,
		get: <T = unknown>(path: string, query: Record<string, unknown> = {}) => call<T>('GET', `${path}${queryString(query)}`),
		post: <T = unknown>(path: string, body: unknown) => call<T>('POST', path, body),
		patch: <T = unknown>(path: string, body: unknown) => call<T>('PATCH', path, body),
		delete: <T = unknown>(path: string, query: Record<string, unknown> = {}) => call<T>('DELETE', `${path}${queryString(query)}`),
	};
}

export type ApiClient = ReturnType<typeof apiClient>;

export const eq = (columnName: string, value: string | number | boolean | null) => ({ columnName, condition: 'eq', value });

export const filterOf = (...filters: Array<{ columnName: string; condition: string; value: unknown }>) => ({ type: 'and', filters });
