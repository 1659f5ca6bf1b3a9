import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { DETECT, DIGEST, runRateChanges, shopOf, staysOf, useStandIn, type StaySpec } from '../harness/standIn';

/**
 * Check Parity in n8n's engine against the stand-in for n8n's Data Tables API: my hotel's total on
 * each website against my own site's, a loss beyond the tolerance alerted once with its severity,
 * and listed once in the digest.
 */

const api = useStandIn();

const MINE = 600001;
const SHOP = '2027-05-01T06:00:00Z';
/** My hotel on my own site (1) and two others, two nights. */
const stays = staysOf([MINE], [1, 2, 3], '2027-05-20', 2);
const PARITY: INodeParameters = { operation: 'checkParity', parityHotelCode: String(MINE), referenceWebsiteCode: '1', options: {} };

/** Website 2 sells 6 % below my site (a loss, medium); website 3 0.5 % below (within the 1 % tolerance: meets). */
const rateOf = (stay: StaySpec) => ({ 1: 200, 2: 188, 3: 199 })[stay.websiteCode] ?? 200;

async function check(records: IDataObject[]): Promise<IDataObject[]> {
	const run = await runRateChanges(api, PARITY, records);
	expect(run.error).toBeUndefined();
	return run.items.map((item) => item.json);
}

describe('Check Parity: a website selling below my own site', () => {
	it('alerts each stay where a website loses beyond the tolerance, once, with the states of every website', async () => {
		const records = shopOf(stays, SHOP, rateOf);
		expect((await runRateChanges(api, DETECT, records)).error).toBeUndefined();
		const items = await check(records);
		expect(items).toHaveLength(2);
		for (const item of items) {
			expect(item).toMatchObject({ hotelCode: MINE, losses: 1, severity: 'medium' });
			const states = Object.fromEntries((item.websites as IDataObject[]).map((site) => [site.websiteCode, site.state]));
			expect(states).toEqual({ 1: 'reference', 2: 'loss', 3: 'meet' });
		}
		expect(await check(records)).toEqual([]);
	});

	it('lists each loss once in the digest', async () => {
		const records = shopOf(stays, SHOP, rateOf);
		await check(records);
		const digest = await runRateChanges(api, DIGEST, [{}]);
		expect(digest.error).toBeUndefined();
		const changes = digest.items.flatMap((item) => item.json.changes as IDataObject[]);
		expect(changes.map((change) => `${change.changeType} ${change.checkIn}`).sort()).toEqual(['parityLoss 2027-05-20', 'parityLoss 2027-05-21']);
	});
});
