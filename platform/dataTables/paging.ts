import { badRequest } from './errors';

/**
 * Offset paging as n8n's public API does it: `limit` (default 100, at most 250, larger is
 * clamped; the OpenAPI schema already refuses a `limit` parameter above 250, but not a cursor's)
 * and a `cursor`, base64 of `{"limit":…,"offset":…}`, whose limit replaces the parameter. A limit
 * of 0 means no limit, and its next cursor, while rows remain, is the same page again.
 */

export const MAX_PAGE_SIZE = 250;
const DEFAULT_PAGE_SIZE = 100;

export interface Page {
	offset: number;
	/** 0: every row from the offset on. */
	limit: number;
}

export const INVALID_CURSOR = 'An invalid cursor was provided';

/** The page's limit and offset as texts, as n8n's handler has them once its cursor middleware ran. */
export function pageParameters(query: { limit?: string; cursor?: string }): { limit?: string; offset?: string } {
	if (!query.cursor) return { limit: query.limit };
	let decoded: unknown;
	try {
		decoded = JSON.parse(Buffer.from(query.cursor, 'base64').toString());
	} catch {
		throw badRequest(INVALID_CURSOR);
	}
	if (typeof decoded !== 'object' || decoded === null) throw badRequest(INVALID_CURSOR);
	const cursor = decoded as Record<string, unknown>;
	// A cursor without an offset (n8n's other cursor kind, {lastId, limit}) only sets the limit.
	const text = (value: unknown): string | undefined => (value === undefined || value === null ? undefined : String(value));
	return { limit: text(cursor.limit), offset: 'offset' in cursor ? text(cursor.offset) : undefined };
}

/** n8n's zod parsing of a limit or offset text: parseInt, whole and not negative, limit clamped. */
export function parseCount(name: 'limit' | 'offset', text: string | undefined): number | string {
	const value = text ? parseInt(text, 10) : name === 'limit' ? DEFAULT_PAGE_SIZE : 0;
	if (Number.isNaN(value)) return `Param \`${name}\` must be a valid integer`;
	if (value < 0) return `Param \`${name}\` must be a non-negative integer`;
	return name === 'limit' ? Math.min(value, MAX_PAGE_SIZE) : value;
}

export function pageOf<T>(items: readonly T[], page: Page): T[] {
	return items.slice(page.offset, page.limit === 0 ? undefined : page.offset + page.limit);
}

/** The cursor of the page after this one, or null when no rows remain after it. */
export function nextCursor(page: Page, total: number): string | null {
	if (total <= page.offset + page.limit) return null;
	return Buffer.from(JSON.stringify({ limit: page.limit, offset: page.offset + page.limit })).toString('base64');
}
