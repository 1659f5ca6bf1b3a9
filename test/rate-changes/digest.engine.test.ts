import { baseRate, detectInDeliveries, DIGEST, digestChangeText, runRateChanges, secondRate, secondShopAlerts, shopOf, staysOf, useStandIn } from '../harness/standIn';

/**
 * Digest in n8n's engine against the stand-in for n8n's Data Tables API: after Detect Changes has
 * alerted a shop's moves, a digest lists each once, a test run only previews, and a digest can be
 * sent again by its ID.
 */

const api = useStandIn();

const stays = staysOf([100001, 100002], [1, 2], '2027-02-20', 14);

/** Detect Changes over a first shop and a second one that moved (secondRate), `perDelivery` records a delivery. */
async function alertSecondShop(perDelivery: number): Promise<void> {
	await detectInDeliveries(api, shopOf(stays, '2027-02-01T06:00:00Z', baseRate), perDelivery);
	await detectInDeliveries(api, shopOf(stays, '2027-02-02T06:00:00Z', secondRate), perDelivery);
}

describe('a digest lists every alert once', () => {
	it('lists the alerts of the shop, and the next digest is empty', async () => {
		await alertSecondShop(20);
		const digest = await runRateChanges(api, DIGEST, [{}]);
		expect(digest.error).toBeUndefined();
		const listed = digest.items.flatMap((item) => (item.json.changes as Array<Record<string, unknown>>).map((change) => digestChangeText(change as never)));
		expect(listed.sort()).toEqual(secondShopAlerts(stays));
		expect(digest.items.every((item) => item.json.marked === true)).toBe(true);
		const next = await runRateChanges(api, DIGEST, [{}]);
		expect(next.items.filter((item) => item.json.changeCount !== 0)).toEqual([]);
	});

	it('only previews in a test run from the editor: the scheduled digest still gets every change', async () => {
		await alertSecondShop(56);
		const preview = await runRateChanges(api, DIGEST, [{}], { mode: 'manual' });
		expect(preview.items[0].json).toMatchObject({ marked: false });
		const scheduled = await runRateChanges(api, DIGEST, [{}]);
		const listed = scheduled.items.flatMap((item) => item.json.changes as unknown[]);
		expect(listed).toHaveLength(secondShopAlerts(stays).length);
	});

	it('sends a digest again by its ID, and marks nothing new', async () => {
		await alertSecondShop(56);
		const first = await runRateChanges(api, DIGEST, [{}]);
		const digestId = first.items[0].json.digestId as string;
		const again = await runRateChanges(api, { ...DIGEST, options: { resendDigestId: digestId } }, [{}]);
		expect(again.items.map((item) => item.json.text)).toEqual(first.items.map((item) => item.json.text));
	});
});
