import type { IncomingMessage } from 'node:http';
import { ApiError, badRequest } from './errors';

export const BODY_LIMIT_BYTES = 10 * 1024 * 1024;

/** Reads and parses a JSON body; an empty body is `undefined` so handlers can say it is required. */
export async function readJsonBody(request: IncomingMessage): Promise<unknown> {
	const declared = Number(request.headers['content-length'] ?? 0);
	if (declared > BODY_LIMIT_BYTES) {
		request.resume();
		throw new ApiError(413, `request body exceeds ${BODY_LIMIT_BYTES} bytes`);
	}
	const chunks: Buffer[] = [];
	let size = 0;
	// An oversized body is read to its end (and dropped) so the 413 answer can still be sent.
	for await (const chunk of request) {
		size += (chunk as Buffer).length;
		if (size <= BODY_LIMIT_BYTES) chunks.push(chunk as Buffer);
	}
	if (size > BODY_LIMIT_BYTES) throw new ApiError(413, `request body exceeds ${BODY_LIMIT_BYTES} bytes`);
	const text = Buffer.concat(chunks).toString('utf8');
	if (text.trim() === '') return undefined;
	try {
		return JSON.parse(text);
	} catch {
		throw badRequest('malformed JSON body');
	}
}
