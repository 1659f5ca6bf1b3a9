import { createHash, randomUUID } from 'crypto';

import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, NodeApiError } from 'n8n-workflow';

import { numberOption } from '../../shared/options';
import type { ReportedChange } from '../rules/alert';
import { buildDigests, type DigestGroup } from '../rules/digestView';
import { escapeHtml } from '../rules/html';
import { DataTablesFullError } from '../storage/dataTables';
import { fullness, fullnessLine, type Fullness } from '../storage/fullness';
import { clearCleanupFailure, noteCleanupFailure, readHousekeeping } from '../storage/housekeeping';
import type { Entry, Journal, Store } from '../storage/store';

import { changesTableField, optionField, optionsOf, readSettings, showFor, textField } from './fields';

/**
 * Digest: every alert no digest has reported yet, claimed at once, summed up in one item per shop,
 * hotel, or hotel and day, with a text for Slack or Teams and an HTML table for email, and how full
 * n8n's Data Tables are (docs/nodes/rate-changes.md).
 */

/** Its option in the Operation field (the router lists it). */
export const option = {
	name: 'Digest',
	value: 'digest',
	description: 'Sum up every change not reported yet: one item per shop (or hotel) with a ready text and HTML table',
	action: 'Build a digest of rate changes',
} as const;

const show = showFor(['digest']);

export const DEFAULT_MAX_LISTED = 50;

const groupBy: INodeProperties = {
	displayName: 'Group By',
	name: 'groupBy',
	type: 'options',
	default: 'shop',
	displayOptions: show,
	options: [
		{ name: 'Shop', value: 'shop', description: 'One digest item per rate shop' },
		{ name: 'Hotel', value: 'hotel', description: 'One digest item per hotel' },
		{ name: 'Hotel and Day', value: 'hotelDay', description: 'One digest item per hotel and check-in day' },
	],
	description: 'What one digest item sums up',
};

export const maxListedOption: INodeProperties = {
	displayName: 'Max Changes in Text',
	name: 'maxListed',
	type: 'number',
	typeOptions: { minValue: 1, numberPrecision: 0 },
	default: DEFAULT_MAX_LISTED,
	description:
		'How many changes the text and HTML of one digest list, biggest first; the rest are counted ("and 12 more"). The changes field always holds all of them.',
};

const resendOption: INodeProperties = {
	displayName: 'Send Again (Digest ID)',
	name: 'resendDigestId',
	type: 'string',
	default: '',
	placeholder: 'e.g. 0b6f3c1e-4d2a-4f7e-9a51-3c8d2e7b9f10',
	description: 'The digestId of an earlier digest whose message failed: builds that digest again from the changes it reported, and marks nothing new',
};

const markReported: INodeProperties = {
	displayName: 'Mark as Reported',
	name: 'markReported',
	type: 'options',
	// A test run in the editor, or an AI agent calling the node as a tool, previews: the morning
	// digest still gets every change.
	default: 'production',
	displayOptions: show,
	options: [
		{
			name: 'In Production Runs Only',
			value: 'production',
			description: 'A published workflow marks what it reports; a test run in the editor or a call as an AI tool only previews',
		},
		{ name: 'Always', value: 'always', description: 'Every run marks what it reports, test runs and tool calls too' },
		{ name: 'Never (Preview)', value: 'never', description: 'Report without marking: the next digest lists the same changes again' },
	],
	description: 'Whether the changes a digest lists are marked as reported, so the next digest starts after them',
};

const limitOption: INodeProperties = {
	displayName: 'Data Tables Limit (MB)',
	name: 'dataTablesLimitMb',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: 0,
	description:
		"The N8N_DATA_TABLES_MAX_SIZE_BYTES of your n8n, in MB, for the digest's line on how full the data tables are. 0: n8n's default (200 MB where n8n lists table sizes, from 2.27; 50 MB before), or the limit n8n named when it last refused a write.",
};

const optionsField: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	displayOptions: show,
	options: [limitOption, maxListedOption, resendOption],
};

export const properties: INodeProperties[] = [
	groupBy,
	markReported,
	optionsField,
];

interface DigestSettings {
	changesTable: string;
	groupBy: DigestGroup;
	maxListed: number;
	resendDigestId: string;
	markReported: 'production' | 'always' | 'never';
	limitMb: number;
}

function settings(context: IExecuteFunctions): DigestSettings {
	const options = optionsOf(context);
	return {
		changesTable: textField(context, changesTableField),
		groupBy: optionField<DigestGroup>(context, groupBy),
		maxListed: numberOption(options, maxListedOption),
		resendDigestId: typeof options.resendDigestId === 'string' ? options.resendDigestId.trim() : '',
		markReported: optionField<DigestSettings['markReported']>(context, markReported),
		limitMb: numberOption(options, limitOption),
	};
}

/** A run that only previews: asked to, or a test run in the editor or a tool call of an AI agent where marking happens in production only. */
function previews(context: IExecuteFunctions, mark: DigestSettings['markReported']): boolean {
	if (mark !== 'production') return mark === 'never';
	return context.getMode() === 'manual' || context.getNode().type.endsWith('Tool');
}

interface Reported {
	digestId: string;
	changes: ReportedChange[];
	entries: Entry[];
	marked: boolean;
	/** n8n's words when it refused to mark them: its Data Tables are full. */
	refusal?: string;
}

export async function execute(this: IExecuteFunctions, store: Store): Promise<INodeExecutionData[]> {
	const digest = readSettings(this, () => settings(this));
	const journal = await store.journal(digest.changesTable);
	const reported = digest.resendDigestId ? await reportedBefore(journal, digest.resendDigestId) : await report(store, journal, previews(this, digest.markReported));
	const digestId = reported.digestId;
	const own = new Set([journal.table.id, ...reported.entries.flatMap((entry) => entry.monthTable.split(' '))]);
	const { sizes: estimate, cleanupFailed } = await readHousekeeping(journal);
	const full = await fullness(store.api, { tableIds: own, estimate: estimate && Object.values(estimate).reduce((sum, bytes) => sum + bytes, 0) }, {
		settingMb: digest.limitMb,
		refusal: reported.refusal,
	});
	const cleanup = cleanupFailed === undefined ? undefined : cleanupNote(cleanupFailed);
	const items = buildDigests(reported.changes, { digestId, groupBy: digest.groupBy, maxListed: digest.maxListed }).map((item) => withFullness(item, full, reported.marked, cleanup));
	// Nothing to report, but the tables are nearly full or were not cleaned: that alone is worth a message.
	if (items.length === 0 && (full.state !== 'ok' || cleanup)) items.push(withFullness({ digestId, changeCount: 0, text: '', html: '', changes: [] }, full, reported.marked, cleanup));
	// Said once: a digest that marks what it reported forgets it (a preview leaves it for the next).
	if (cleanup && reported.marked && !digest.resendDigestId) await clearCleanupFailure(journal);
	return items.map((json) => ({ json, pairedItem: { item: 0 } }));
}

async function reportedBefore(journal: Journal, digestId: string): Promise<Reported> {
	const entries = await journal.reported(digestId);
	return { digestId, changes: entries.flatMap((entry) => entry.alerts), entries, marked: true };
}

/** A UUID-shaped ID from a text: the same text, the same ID. */
function idOf(text: string): string {
	const hex = createHash('sha256').update(text).digest('hex');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The digest's ID, named after the workflow, the node and what started the run (a Schedule
 * Trigger's item holds the time it fired): n8n's Retry of a failed digest starts the same way, so
 * it finds what the failed run claimed before it stopped and sends it. A later run that starts the
 * same way but is no retry gets an ID of its own.
 */
async function digestIdFor(context: IExecuteFunctions, journal: Journal): Promise<{ digestId: string; claimedBefore: Entry[] }> {
	const started = JSON.stringify(context.getInputData().map((item) => item.json));
	const digestId = idOf(`${context.getWorkflow().id ?? ''}|${context.getNode().name}|${started}`);
	const claimedBefore = await journal.reported(digestId);
	if (claimedBefore.length === 0) return { digestId, claimedBefore };
	return context.getMode() === 'retry' ? { digestId, claimedBefore } : { digestId: randomUUID(), claimedBefore: [] };
}

/**
 * A new digest claims every unreported change in one update, so two digests at once never report
 * the same change: the database gives each entry to one of them. Entries left by executions that
 * died are resolved first, so their alerts are in. At n8n's size limit the claim is refused: the
 * digest then goes out unmarked (the next one lists the same changes again), saying so.
 */
async function report(store: Store, journal: Journal, preview: boolean): Promise<Reported> {
	// Entries it cannot resolve now (the limit, a key that may not delete an empty one) wait for the next digest.
	await store.resolveOrphans(journal, { retry: false }).catch(async (error: unknown) => {
		if (!(error instanceof DataTablesFullError)) await noteCleanupFailure(journal, error);
	});
	const unmarked = async (refusal?: string): Promise<Reported> => {
		const entries = await journal.unreported();
		return { digestId: randomUUID(), changes: entries.flatMap((entry) => entry.alerts), entries, marked: false, refusal };
	};
	if (preview) return await unmarked();
	try {
		const { digestId, claimedBefore } = await digestIdFor(store.context, journal);
		const reportedAt = new Date().toISOString();
		const claimed = await journal.claim(digestId, reportedAt);
		const entries = [...claimedBefore, ...claimed.filter((entry) => !claimedBefore.some((before) => before.id === entry.id))];
		await packClaimed(journal, digestId, reportedAt, entries);
		return { digestId, changes: entries.flatMap((entry) => entry.alerts), entries, marked: true };
	} catch (error) {
		if (!(error instanceof DataTablesFullError)) throw error as NodeApiError;
		return await unmarked(error.message);
	}
}

/**
 * The claimed entries packed into the digest's own rows, which keeps the changes table small:
 * housekeeping, so nothing that stops it stops the digest (the entries stay, claimed by it, and a
 * later clean-up removes them after Keep Changes). At n8n's size limit there is no room for them;
 * anything else (a key without the delete scope) the next digest says.
 */
async function packClaimed(journal: Journal, digestId: string, reportedAt: string, entries: readonly Entry[]): Promise<void> {
	try {
		await journal.pack(digestId, reportedAt, entries);
	} catch (error) {
		if (!(error instanceof DataTablesFullError)) await noteCleanupFailure(journal, error);
	}
}

/** What a digest says when the clean-up could not run. */
function cleanupNote(reason: string): string {
	return `The daily clean-up of Rate Changes' tables could not run (${reason.replace(/[.\s]+$/, '')}): nothing was lost, but the tables grow until it can. If the n8n API key lacks a scope, add it in Settings > n8n API.`;
}

function withFullness(item: IDataObject, full: Fullness, marked: boolean, cleanup?: string): IDataObject {
	const line = fullnessLine(full);
	const note = marked ? '' : 'Not marked as reported: the next digest lists these changes again.';
	// How full the tables are is the reader's business from n8n's 80 % warning on; below it, only dataTables says.
	const notes = [...(full.state === 'ok' ? [] : [line]), ...(note ? [note] : []), ...(cleanup ? [cleanup] : [])];
	return {
		...item,
		marked,
		dataTables: { ...full, line },
		text: [String(item.text ?? ''), ...notes.map((text) => `_${text}_`)].filter((text) => text !== '').join('\n'),
		html: [String(item.html ?? ''), ...notes.map((text) => `<p><em>${escapeHtml(text)}</em></p>`)].filter((text) => text !== '').join('\n'),
	};
}
