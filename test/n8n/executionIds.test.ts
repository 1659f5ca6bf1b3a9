import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { N8nRestClient } from '../../platform/n8n/rest';
import type { N8nRuntime } from '../../platform/n8n/runtime';

/**
 * The e2e harness reads every stored execution of a workflow through /rest/executions. n8n 2.41
 * pages that list only by its cursor: each page ordered by start time, the next page the
 * latest-started executions of lower id than the last one. This fake answers as that code does, so
 * that executions started out of id order, which such pages skip, are seen to be listed all the same.
 */

interface StoredExecution {
	id: number;
	startedAt: number;
}

const BASE = Date.parse('2026-09-26T10:00:00.000Z');

function serveLikeN8n241(executions: StoredExecution[]): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
	let requests = 0;
	const server = http.createServer((request, response) => {
		requests++;
		const url = new URL(request.url ?? '/', 'http://localhost');
		const filter = JSON.parse(url.searchParams.get('filter') ?? '{}') as { startedAfter?: string; startedBefore?: string };
		const limit = Number(url.searchParams.get('limit'));
		const cursor = url.searchParams.get('cursor');
		const beforeId = cursor ? Number((JSON.parse(Buffer.from(cursor, 'base64url').toString()) as { v1: { id: string } }).v1.id) : Infinity;
		const inWindow = executions.filter(
			(execution) =>
				(!filter.startedAfter || execution.startedAt >= Date.parse(filter.startedAfter)) &&
				(!filter.startedBefore || execution.startedAt <= Date.parse(filter.startedBefore)),
		);
		const page = inWindow
			.filter((execution) => execution.id < beforeId)
			.sort((a, b) => b.startedAt - a.startedAt || b.id - a.id)
			.slice(0, limit);
		const last = page[page.length - 1];
		const nextCursor =
			page.length === limit && last ? Buffer.from(JSON.stringify({ version: 1, v1: { id: String(last.id), timestamp: new Date(last.startedAt).toISOString() } })).toString('base64url') : null;
		response.setHeader('content-type', 'application/json');
		response.end(
			JSON.stringify({
				data: {
					results: page.map((execution) => ({ id: String(execution.id), startedAt: new Date(execution.startedAt).toISOString() })),
					count: inWindow.length,
					nextCursor,
				},
			}),
		);
	});
	return new Promise((resolve) =>
		server.listen(0, '127.0.0.1', () =>
			resolve({
				url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
				requests: () => requests,
				close: () => new Promise((done) => server.close(() => done())),
			}),
		),
	);
}

function clientOf(url: string): N8nRestClient {
	return new N8nRestClient(url, { executionCursor: true } as N8nRuntime);
}

describe('executionIds on n8n 2.41 and later (cursor pages ordered by start time)', () => {
	test('executions that started out of id order are all listed, highest id first', async () => {
		// 503 executions, each id started a few milliseconds before or after its neighbours, so
		// that the cursor alone finds 500 of them.
		const executions = Array.from({ length: 503 }, (_, index) => ({ id: index + 1, startedAt: BASE + index * 10 + ((index * 7) % 5) * 13 }));
		const n8n = await serveLikeN8n241(executions);
		try {
			const ids = await clientOf(n8n.url).executionIds('wf');
			expect(ids).toEqual(executions.map((execution) => String(execution.id)).reverse());
		} finally {
			await n8n.close();
		}
	});

	test('more than a page of executions started in the same millisecond are all listed', async () => {
		const executions = Array.from({ length: 250 }, (_, index) => ({ id: index + 1, startedAt: BASE + (index < 20 ? index : 500) }));
		const n8n = await serveLikeN8n241(executions);
		try {
			expect(await clientOf(n8n.url).executionIds('wf')).toHaveLength(250);
		} finally {
			await n8n.close();
		}
	});

	test('executions started in id order take only the cursor pages', async () => {
		const executions = Array.from({ length: 250 }, (_, index) => ({ id: index + 1, startedAt: BASE + index }));
		const n8n = await serveLikeN8n241(executions);
		try {
			expect(await clientOf(n8n.url).executionIds('wf')).toHaveLength(250);
			expect(n8n.requests()).toBe(3);
		} finally {
			await n8n.close();
		}
	});
});
