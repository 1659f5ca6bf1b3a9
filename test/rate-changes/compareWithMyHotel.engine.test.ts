import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { DETECT, DIGEST, runRateChanges, shopOf, staysOf, useStandIn, type StaySpec } from '../harness/standIn';

/**
 * What Compare With My Hotel's flags mean to the one reading them: `undercut` follows Undercut At
 * Least whatever Alert On is, and a stay-night alerted for an undercut whose rank also moved is
 * one alert, listed once in the digest with the rank move named beside it.
 */

const api = useStandIn();

const MINE = 500001;
const RIVAL = 500002;
const OTHER = 500003;
const FIRST = '2027-03-01T06:00:00Z';
const SECOND = '2027-03-02T06:00:00Z';
/** One website, two nights: my hotel and two competitors. */
const stays = staysOf([MINE, RIVAL, OTHER], [1], '2027-04-10', 2);

async function shop(parameters: INodeParameters, dtCollected: string, rateOf: (stay: StaySpec, index: number) => number): Promise<IDataObject[]> {
	const records = shopOf(stays, dtCollected, rateOf);
	expect((await runRateChanges(api, DETECT, records)).error).toBeUndefined();
	const run = await runRateChanges(api, parameters, records);
	expect(run.error).toBeUndefined();
	return run.items.map((item) => item.json);
}

describe('Compare With My Hotel: what its flags mean', () => {
	it('with Alert On: Rank Changed, a competitor 2.4 % below me is no undercut (Undercut At Least: 5 %)', async () => {
		const parameters: INodeParameters = { operation: 'compareWithMyHotel', myHotelCode: String(MINE), compareAlertOn: 'rankChanged', options: {} };
		// First shop: I am the cheapest. Second: the rival 2.4 % below me on both nights, so my rank moves from 1 to 2.
		await shop(parameters, FIRST, (stay) => (stay.hotelCode === MINE ? 200 : 230));
		const items = await shop(parameters, SECOND, (stay) => (stay.hotelCode === MINE ? 200 : stay.hotelCode === RIVAL ? 195.2 : 230));
		expect(items).toHaveLength(2);
		for (const item of items) expect(item).toMatchObject({ rankChanged: true, previousRank: 1, rank: 2, undercut: false });
	});

	it('with Alert On: Rank Changed and no Detect Changes before it, part of a shop delivered again alerts nothing', async () => {
		const parameters: INodeParameters = { operation: 'compareWithMyHotel', myHotelCode: String(MINE), compareAlertOn: 'rankChanged', options: {} };
		const run = async (records: IDataObject[]) => {
			const result = await runRateChanges(api, parameters, records);
			expect(result.error).toBeUndefined();
			return result.items.map((item) => item.json);
		};
		// The rival below me on both shops: my rank stays 2 of 3, nothing to alert.
		const rateOf = (stay: StaySpec) => (stay.hotelCode === MINE ? 200 : stay.hotelCode === RIVAL ? 170 : 230);
		await run(shopOf(stays, FIRST, rateOf));
		const second = shopOf(stays, SECOND, rateOf);
		expect(await run(second)).toEqual([]);
		// The second shop again without the rival's records: rank 1 of 2 in what they show, part of what the whole shop showed.
		expect(await run(second.filter((record) => record.hotelCode !== RIVAL))).toEqual([]);
	});

	it('an undercut whose rank also moved comes out once and the digest lists it once, the rank move beside it', async () => {
		const parameters: INodeParameters = { operation: 'compareWithMyHotel', myHotelCode: String(MINE), options: {} };
		await shop(parameters, FIRST, (stay) => (stay.hotelCode === MINE ? 200 : 230));
		const items = await shop(parameters, SECOND, (stay) => (stay.hotelCode === MINE ? 200 : stay.hotelCode === RIVAL ? 170 : 230));
		expect(items).toHaveLength(2);
		for (const item of items) expect(item).toMatchObject({ undercut: true, rankChanged: true, rank: 2 });
		const digest = await runRateChanges(api, DIGEST, [{}]);
		expect(digest.error).toBeUndefined();
		// Detect Changes' moves of the rival share the table; mine are the comparison's.
		const mine = digest.items.flatMap((item) => item.json.changes as IDataObject[]).filter((change) => change.hotelCode === MINE);
		expect(mine).toHaveLength(2);
		for (const change of mine) expect(change).toMatchObject({ changeType: 'undercut', comparedWith: expect.stringMatching(/^hotel 500002 .*; rank 1 → 2 of 3$/) });
		expect(digest.items.map((item) => item.json)).toEqual([expect.objectContaining({ changeCount: 4, undercut: 2, rankChanged: 0 })]);
	});
});
