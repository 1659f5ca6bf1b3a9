import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Inbox } from '../inbox';
import type { WorkflowSeed } from './cli';
import { REPO_ROOT } from './communityPackage';
import { bindCredentials } from './credentials';

/**
 * The workflows of examples/ as `npm start` imports them and the tests run them: with the demo
 * credentials bound, and their Slack placeholders pointed at the demo inbox, so that every alert
 * and digest arrives where a newcomer sees it. The files themselves keep the placeholders and the
 * notes that say how to point them at a real Slack or mailbox.
 */

export const EXAMPLES_DIR = path.join(REPO_ROOT, 'examples');

/** The examples the printed steps and the tests name, by file. */
export const EXAMPLE_FILES = {
	eventDigest: 'event-impact-digest.json',
	agent: 'event-demand-agent.json',
	mcp: 'mcp-travel-pricing-tools.json',
	rateAlert: 'rate-alert.json',
	rateChangeAlerts: 'rate-change-alerts.json',
	rateChangeDigest: 'rate-change-digest.json',
	undercutAlerts: 'undercut-parity-alerts.json',
	undercutDigest: 'undercut-parity-digest.json',
	schedules: 'schedules-from-sheet.json',
	rateCalendar: 'morning-rate-calendar.json',
	suggestedRates: 'suggested-rates-approval.json',
	peakDatesHistory: 'peak-dates-history.json',
} as const;

/** What an example's "Alert settings" or "Digest settings" holds until a user pastes their own Slack webhook. */
export const SLACK_PLACEHOLDER = 'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX';

/** The inbox's Slack channel of an example: its file name (`rate-alert.json` posts to #rate-alert). */
export function slackChannelOf(file: string): string {
	return path.basename(file, '.json');
}

/** Where the examples post their Slack messages. */
export interface SlackTarget {
	slackUrl(channel: string): string;
}

type SetAssignment = { name: string; value: unknown };

/** The example with every Slack placeholder of its Set nodes replaced by `url`. */
export function pointAtSlack<T extends { nodes: Array<Record<string, unknown>> }>(workflow: T, url: string): T {
	const nodes = workflow.nodes.map((node) => {
		const assignments = (node.parameters as { assignments?: { assignments?: SetAssignment[] } } | undefined)?.assignments?.assignments;
		if (!assignments?.some((assignment) => assignment.value === SLACK_PLACEHOLDER)) return node;
		const parameters = node.parameters as Record<string, unknown>;
		return {
			...node,
			parameters: {
				...parameters,
				assignments: { assignments: assignments.map((assignment) => (assignment.value === SLACK_PLACEHOLDER ? { ...assignment, value: url } : assignment)) },
			},
		};
	});
	return { ...workflow, nodes };
}

/** An example file as stored. */
export function readExampleFile(file: string): WorkflowSeed {
	return JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')) as WorkflowSeed;
}

/**
 * An example as the demo imports it: an id derived from its file name (so that a later start
 * recognises it as imported), inactive, its credentials bound to the demo's, and its Slack
 * placeholders pointed at the inbox's channel for it.
 */
export function demoExample(file: string, inbox: SlackTarget, id?: string): WorkflowSeed {
	const workflow = readExampleFile(file);
	const seeded = { ...workflow, id: id ?? (workflow.id || `ex${createHash('sha256').update(file).digest('hex').slice(0, 14)}`), active: false };
	return pointAtSlack(bindCredentials(seeded), inbox.slackUrl(slackChannelOf(file)));
}

/** Every examples/*.json as the demo imports it, by file. */
export function demoExamples(inbox: SlackTarget): Map<string, WorkflowSeed> {
	if (!fs.existsSync(EXAMPLES_DIR)) return new Map();
	const files = fs
		.readdirSync(EXAMPLES_DIR)
		.filter((file) => file.endsWith('.json'))
		.sort();
	return new Map(files.map((file) => [file, demoExample(file, inbox)]));
}

/**
 * A digest example as a test runs it: as the demo imports it, with its Schedule Trigger (every
 * morning, every Monday) off, so that only the test decides when a digest is sent.
 */
export function digestExample(file: string, id: string, inbox: SlackTarget): WorkflowSeed {
	const workflow = demoExample(file, inbox, id);
	return { ...workflow, nodes: workflow.nodes.map((node) => (node.type === 'n8n-nodes-base.scheduleTrigger' ? { ...node, disabled: true } : node)) };
}

/**
 * A digest example whose morning Schedule Trigger is a Webhook at `webhookPath` instead: each call
 * is "the morning", a production run as the published workflow makes at 8, which marks what it
 * reports (a manual run only previews). Publish it, then call it with `callMorningDigest`.
 */
export function digestOnCall(file: string, id: string, inbox: SlackTarget, webhookPath: string): WorkflowSeed {
	const workflow = digestExample(file, id, inbox);
	const nodes = workflow.nodes.map((node) =>
		node.name === 'Every morning at 8'
			? { ...node, type: 'n8n-nodes-base.webhook', typeVersion: 2, webhookId: randomUUID(), disabled: false, parameters: { httpMethod: 'POST', path: webhookPath, responseMode: 'lastNode', options: {} } }
			: node,
	);
	return { ...workflow, nodes };
}

/** Runs a `digestOnCall` workflow once; the changes its posts to the inbox counted, and their texts. */
export async function callMorningDigest(
	webhookUrl: string,
	inbox: Pick<Inbox, 'slackMessages'>,
	file: string,
): Promise<{ digested: number; posts: string[] }> {
	const channel = slackChannelOf(file);
	const already = inbox.slackMessages(channel).length;
	const response = await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
	await response.text();
	const posted = inbox.slackMessages(channel).slice(already);
	return {
		digested: posted.reduce((sum, message) => sum + Number((message.payload as { changeCount?: number }).changeCount ?? 0), 0),
		posts: posted.map((message) => String((message.payload as { text?: string }).text ?? '')),
	};
}
