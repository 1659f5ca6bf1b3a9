import { baseRate, chunks, DETECT, detectInDeliveries, DIGEST, digestChangeText, runRateChanges, secondRate, secondShopAlerts, shopOf, staysOf, useStandIn } from '../harness/standIn';

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

describe('websites by name (#39)', () => {
	/** Website 1 is booking.com, website 2 hotels.com, as each record's sourceUrl says. */
	const named = (records: ReturnType<typeof shopOf>) =>
		records.map((record) => ({ ...record, sourceUrl: record.websiteCode === 1 ? 'https://www.booking.com/hotel/za/x.html' : `https://www.hotels.com/ho-${String(record.hotelCode)}` }));

	it("puts each alert out with its website's name, from its record's sourceUrl, and the digest names it with the code beside it", async () => {
		await detectInDeliveries(api, named(shopOf(stays, '2027-02-01T06:00:00Z', baseRate)), 56);
		const second = await Promise.all(chunks(named(shopOf(stays, '2027-02-02T06:00:00Z', secondRate)), 56).map(async (batch) => await runRateChanges(api, DETECT, batch)));
		const alerts = second.flatMap((result) => result.items.map((item) => item.json));
		expect(alerts.length).toBeGreaterThan(0);
		for (const alert of alerts) expect(alert.websiteName).toBe(alert.websiteCode === 1 ? 'booking.com' : 'hotels.com');
		const [digest] = (await runRateChanges(api, DIGEST, [{}])).items.map((item) => item.json);
		const lines = String(digest.text).split('\n').filter((line) => line.startsWith('• '));
		expect(lines.length).toBeGreaterThan(0);
		for (const line of lines) expect(line).toMatch(/^• Hotel 10000[12] \(10000[12]\), (booking\.com \(1\)|hotels\.com \(2\)), /);
		expect(String(digest.html)).toContain('<td>hotels.com (2)</td>');
		// No footer on how full the data tables are below n8n's 80 % warning; the figure stays in dataTables.
		expect(String(digest.text)).not.toContain('Data tables use');
		expect(String(digest.text)).not.toContain("Rate Changes' tables use");
		expect((digest.dataTables as Record<string, unknown>).line).toEqual(expect.stringContaining('Data tables use 0.0 MB of 200.0 MB (0 %'));
	});

	it("says how full n8n's Data Tables are from n8n's 80 % warning on", async () => {
		await alertSecondShop(56);
		const [digest] = (await runRateChanges(api, { ...DIGEST, options: { dataTablesLimitMb: 0.01 } }, [{}])).items.map((item) => item.json);
		expect((digest.dataTables as Record<string, unknown>).state).not.toBe('ok');
		expect(String(digest.text).split('\n').at(-1)).toMatch(/^_n8n's Data Tables are (nearly )?full: /);
		expect(String(digest.html)).toContain("<p><em>n8n&#39;s Data Tables are");
	});
});
