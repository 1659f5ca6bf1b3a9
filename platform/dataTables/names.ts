/**
 * n8n's rules for table and column names (@n8n/api-types' data table schemas), each answering
 * the first message n8n's validation would give, or undefined when the name is fine.
 */

export const COLUMN_NAME_MESSAGE =
	'Only alphabetical characters and non-leading numbers and underscores are allowed for column names, and the maximum length is 63 characters.';

const COLUMN_NAME_PATTERN = /^[a-zA-Z][a-zA-Z0-9_]*$/;

/** Zod's string length messages, which n8n passes on. */
const tooShort = (min: number): string => `String must contain at least ${min} character(s)`;
const tooLong = (max: number): string => `String must contain at most ${max} character(s)`;

/** A column name (after trimming, as n8n trims it): 1 to 63 characters, a letter first, then letters, digits, underscores. */
export function columnNameIssue(name: string): string | undefined {
	const trimmed = name.trim();
	if (trimmed.length < 1) return tooShort(1);
	if (trimmed.length > 63) return tooLong(63);
	return COLUMN_NAME_PATTERN.test(trimmed) ? undefined : COLUMN_NAME_MESSAGE;
}

/** A table name (after trimming): 1 to 128 characters. */
export function tableNameIssue(name: string): string | undefined {
	const trimmed = name.trim();
	if (trimmed.length < 1) return tooShort(1);
	return trimmed.length > 128 ? tooLong(128) : undefined;
}

/** Names n8n keeps for itself: its system columns (in any case) and the dry-run marker. */
export function reservedColumnKind(name: string): 'system' | 'testing' | undefined {
	const lower = name.toLowerCase();
	if (['id', 'createdat', 'updatedat'].includes(lower)) return 'system';
	return lower === 'dryrunstate' ? 'testing' : undefined;
}

export const reservedColumnMessage = (name: string, kind: 'system' | 'testing'): string =>
	`Column name "${name}" is reserved as a ${kind} column name.`;
