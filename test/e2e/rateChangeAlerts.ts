import { printProgress, type E2eEnvironment } from '../../platform/n8n';
import type { ExpectedChange, RunSummary } from '../../platform/sandbox';

/**
 * What Detect Changes must alert of the changes the sandbox made: the examples' rule (Rate
 * Changes' defaults: a move of 10 % or more, sold out, back on sale), and one identity for a
 * change as the sandbox expects it, as the node puts it out and as the digest lists it.
 */

/** Detect Changes' Change At Least (%) at its default, which the examples keep. */
export const CHANGE_AT_LEAST_PERCENT = 10;

export function changeIdentity(change: Record<string, unknown> | ExpectedChange): string {
	const record = change as Record<string, unknown>;
	return [
		record.hotelCode,
		record.websiteCode,
		String(record.checkIn).slice(0, 10),
		record.los,
		record.guests,
		record.roomType,
		record.changeType,
		record.previousRate,
		record.rate,
	].join('|');
}

/** Whether the examples' rule alerts on a change the sandbox made (the node's rounding: a change in cents, its percent to two places). */
export function passesRule(change: ExpectedChange): boolean {
	if (change.changeType === 'soldOut' || change.changeType === 'backOnSale') return true;
	const cents = Math.round(((change.rate as number) - (change.previousRate as number)) * 100) / 100;
	return Math.abs(Math.round((cents / (change.previousRate as number)) * 10_000) / 100) >= CHANGE_AT_LEAST_PERCENT;
}

/** Each entry of `list` that is there more than once. */
export function repeated(list: readonly string[]): string[] {
	return [...new Set(list.filter((entry, index) => list.indexOf(entry) !== index))];
}

/** The shop the rate change examples are fed in the e2e suites: 240 records of shop 1. */
export const ALERT_SHOP = { shopId: 1, records: 240 };

/**
 * As the service delivers (spec, part 6): one record a POST, 20 in flight; a sender waits up to 60 s
 * for n8n's answer, which comes once the execution exists (10 s, the sandbox's default, is short
 * for n8n 2.41.1 on two busy cores: a delivery given up on four times is lost).
 */
export const ONE_RECORD_A_POST = { perDelivery: 1, concurrency: 20, timeoutSeconds: 60 };

export interface DeliveredShop {
	run: RunSummary;
	/** What the workflow's Detect changes node put out, over every execution the shop started. */
	alerts: Array<Record<string, unknown>>;
	/** The executions the shop started. */
	executionIds: string[];
}

/**
 * Runs a shop (or a repeat of one) into a published workflow one record a POST, checks every
 * delivery was taken, and waits for every execution it started: one a delivery with the trigger's
 * version 1, a few for the whole shop with version 1.1 gathering them.
 */
export async function deliverShop(env: E2eEnvironment, workflowId: string, options: Parameters<E2eEnvironment['sandbox']['runShop']>[0]): Promise<DeliveredShop> {
	const before = new Set(await env.n8n.executionIds(workflowId));
	const run = await env.sandbox.runShop({ ...ONE_RECORD_A_POST, ...options });
	expect(run.byStatus).toEqual({ 200: run.deliveries });
	const executionIds = await env.n8n.waitForDeliveries(workflowId, before, run.deliveries);
	printProgress(`${run.deliveries} single-record deliveries in ${executionIds.length} executions`);
	const alerts = (await env.n8n.executionOutputs(workflowId, 'Detect changes', { except: before })).flat();
	return { run, alerts, executionIds };
}
