import type { IDataObject } from 'n8n-workflow';
import { asDelivered } from '../../platform/engine/dailyShops';
import { startInbox, type Inbox } from '../../platform/inbox';
import {
	callMorningDigest,
	demoExample,
	digestOnCall,
	e2eVersions,
	formatDuration,
	longE2eVersions,
	outputOf,
	printProgress,
	publicApiHasDataTables,
	startE2e,
	type E2eEnvironment,
	type StoredExecution,
} from '../../platform/n8n';
import type { ChangeType } from '../../platform/sandbox';
import { DEFAULT_RETRIES, DeliveryClient, postWithRetries, runPool } from '../../platform/sandbox/delivery';
import { createPrng, deriveSeed } from '../../platform/sandbox/prng';
import { priced, SOLD_OUT } from '../../platform/sandbox/rateRecords';
import type { StoredWebhook } from '../../platform/sandbox/webhooks';
import { describeVersions } from './describeVersions';
import { RATE_ALERTS as ALERTS, RATE_DIGEST as DIGEST } from './exampleWorkflows';
import { changeIdentity, repeated } from './rateChangeAlerts';

/**
 * Detect Changes on the delivery shape of spec part 6: the service posts ONE rate record per HTTP
 * POST, twenty in flight, in the order a shop collects them (hotel, website, room, check-in day),
 * so that the executions running at once mostly hold stays of the same rates row (one per hotel,
 * website, room and month). The "Rate change alerts" example (Rate Record Trigger, version 1.1,
 * gathering the POSTs into a few executions → Detect Changes at its defaults) takes a shop one day and the same stays again the next day; then the
 * "Rate change digest", published, runs as its morning run does. No execution may fail, the first
 * shop alerts nothing (Include First Seen is off), the next one exactly the moves of 10 % or more,
 * the stays sold out and those back on sale, each once, and the digest lists each once. With
 * E2E_LONG=1, the same shops posted in a seeded random order make a second case, on an n8n of its
 * own (some 3 to 4 minutes more on 2 cores, too long for every run).
 *
 * What must alert is worked out here, from the shop model below, not from the node.
 */

const DETECT_NODE = 'Detect changes';
const DIGEST_PATH = 'one-record-posts-morning-digest';

/** As the service sends: one record a POST, twenty at once; a sender waits up to 60 s for n8n's answer, which comes once the execution exists. */
const DELIVERY = { concurrency: 20, timeoutMs: 60_000, retries: DEFAULT_RETRIES };

/** 2 hotels × 3 websites × 2 rooms × 30 check-in days: 360 stays a shop, over two months of check-ins. */
const SHOP = {
	shopId: 3,
	firstDay: '2027-03-14',
	hotels: [
		{ fields: { hotelCode: 100081, hotelName: 'Hilton Cape Town Riverside', latitude: '-33.9000', longitude: '18.4200' }, baseRate: 180 },
		{ fields: { hotelCode: 100082, hotelName: 'Radisson Blu Waterfront', latitude: '-33.9013', longitude: '18.4217' }, baseRate: 245 },
	],
	websiteCodes: [1, 2, 3],
	roomTypes: ['Standard King Room', 'Junior Suite'],
	windowDays: 30,
} as const;

/**
 * The next day's market: of the stays on sale, 15 % move by 11 to 30 % (an alert), 25 % drift by
 * 0.5 to 5 % (stored, no alert) and 3 % sell out; of the stays sold out, half come back on sale.
 * A first shop finds 4 % of its stays sold out.
 */
const MARKET = { seed: 41, moved: 0.15, movedPercent: [11, 30], drift: 0.25, driftPercent: [0.5, 5], soldOut: 0.03, soldOutAtFirst: 0.04, backOnSale: 0.5 } as const;

const DAY_MS = 86_400_000;

type Hotel = (typeof SHOP.hotels)[number];

interface Stay {
	hotel: Hotel;
	websiteCode: number;
	roomType: string;
	checkIn: string;
}

/** A stay as a shop found it: its rate, or null when sold out. */
interface Found {
	stay: Stay;
	rate: number | null;
}

interface ShopDay {
	date: string;
	/** The records in the order the shop collected them. */
	records: IDataObject[];
	/** changeIdentity of every alert the shop must make. */
	expected: string[];
}

const round2 = (value: number): number => Math.round(value * 100) / 100;
const dayAfter = (day: string, days: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const stayKey = ({ hotel, websiteCode, roomType, checkIn }: Stay): string => `${hotel.fields.hotelCode}|${websiteCode}|${roomType}|${checkIn}`;

/** The stays a shop collects on `date`, in its order: hotel, website, room, then check-in day. */
function staysOn(date: string): Stay[] {
	return SHOP.hotels.flatMap((hotel) =>
		SHOP.websiteCodes.flatMap((websiteCode) =>
			SHOP.roomTypes.flatMap((roomType) => Array.from({ length: SHOP.windowDays }, (_, ahead) => ({ hotel, websiteCode, roomType, checkIn: dayAfter(date, ahead + 1) }))),
		),
	);
}

/** The rate a stay sells at when on sale and not moved: its hotel's, dearer for the suite and on the website's markup. */
function listedRate(stay: Stay): number {
	const jitter = createPrng(deriveSeed(MARKET.seed, stayKey(stay), 'listed')).float(0.9, 1.2, 3);
	return round2(stay.hotel.baseRate * (1 + (SHOP.roomTypes as readonly string[]).indexOf(stay.roomType) * 0.4) * (1 + stay.websiteCode * 0.02) * jitter);
}

/** A stay the shop sees for the first time. */
function firstSeen(stay: Stay): Found {
	const soldOut = createPrng(deriveSeed(MARKET.seed, stayKey(stay), 'first')).chance(MARKET.soldOutAtFirst);
	return { stay, rate: soldOut ? null : listedRate(stay) };
}

/** A stay the last shop found at `previous`, a day later, and the alert Detect Changes' defaults make of it. */
function nextDay(stay: Stay, previous: number | null, date: string): Found & { alert?: ChangeType } {
	const random = createPrng(deriveSeed(MARKET.seed, stayKey(stay), date));
	const draw = random.next();
	const moved = ([low, high]: readonly [number, number]) => round2((previous as number) * (1 + (random.float(low, high, 1) / 100) * (random.chance(0.5) ? 1 : -1)));
	if (previous === null) return draw < MARKET.backOnSale ? { stay, rate: listedRate(stay), alert: 'backOnSale' } : { stay, rate: null };
	if (draw < MARKET.moved) {
		const rate = moved(MARKET.movedPercent);
		return { stay, rate, alert: rate > previous ? 'up' : 'down' };
	}
	if (draw < MARKET.moved + MARKET.drift) return { stay, rate: moved(MARKET.driftPercent) };
	if (draw < MARKET.moved + MARKET.drift + MARKET.soldOut) return { stay, rate: null, alert: 'soldOut' };
	return { stay, rate: previous };
}

/** A found stay as the service posts it: every field of spec part 6, sold out as the sandbox says it. */
function recordOf({ stay, rate }: Found, date: string, index: number): IDataObject {
	const { hotel, websiteCode, roomType, checkIn } = stay;
	const record = asDelivered(
		{
			shopId: SHOP.shopId,
			dtCollected: `${date}T06:00:00.000Z`,
			...hotel.fields,
			websiteCode,
			roomType,
			checkIn: `${checkIn}T00:00:00Z`,
			los: 1,
			guests: 2,
			currency: 'ZAR',
			// The tax included in the rate, 12 % of it.
			...priced(rate ?? 0, 0.12, true),
			taxStatus: 1,
		},
		index,
	);
	return rate === null ? { ...record, ...SOLD_OUT } : record;
}

/** The first day's shop and the next day's, its window moved on a day (one check-in day gone, one new and first seen). */
function twoShops(): [ShopDay, ShopDay] {
	const first = SHOP.firstDay;
	const next = dayAfter(first, 1);
	const firstShop = staysOn(first).map(firstSeen);
	const last = new Map(firstShop.map((found) => [stayKey(found.stay), found.rate]));
	const nextShop = staysOn(next).map((stay) => (last.has(stayKey(stay)) ? nextDay(stay, last.get(stayKey(stay)) as number | null, next) : firstSeen(stay)));
	const expected = nextShop.flatMap((found) =>
		'alert' in found && found.alert
			? [
					changeIdentity({
						hotelCode: found.stay.hotel.fields.hotelCode,
						websiteCode: found.stay.websiteCode,
						checkIn: found.stay.checkIn,
						los: 1,
						guests: 2,
						roomType: found.stay.roomType,
						changeType: found.alert,
						previousRate: last.get(stayKey(found.stay)),
						rate: found.rate,
					}),
				]
			: [],
	);
	return [
		{ date: first, records: firstShop.map((found, index) => recordOf(found, first, index)), expected: [] },
		{ date: next, records: nextShop.map((found, index) => recordOf(found, next, index)), expected },
	];
}

/** How the POSTs of a shop are ordered; a long one runs with E2E_LONG=1 only. */
const ORDERS: Array<{ name: string; long: boolean; order: (records: IDataObject[], date: string) => IDataObject[] }> = [
	{ name: 'in the order the shop collects them', long: false, order: (records) => records },
	{ name: 'in a seeded random order', long: true, order: (records, date) => createPrng(deriveSeed(MARKET.seed, 'shuffle', date)).sample(records, records.length) },
];

/** What one shop's POSTs came to in n8n. */
interface Delivered {
	executions: StoredExecution[];
	failed: StoredExecution[];
	alerts: string[];
	elapsedMs: number;
}

/** The errors of failed executions, each once, with how many ended so. */
function failures(failed: readonly StoredExecution[]): string {
	const counts = new Map<string, number>();
	for (const { error } of failed) counts.set(`${error?.node}: ${error?.message}`, (counts.get(`${error?.node}: ${error?.message}`) ?? 0) + 1);
	return [...counts].map(([message, count]) => `${count} × ${message}`).join('; ') || 'none';
}

const [FIRST_SHOP, NEXT_SHOP] = twoShops();

// The seed must give every kind of alert, so that each is proven, and leave most stays without one.
test('the shop model: 360 stays a shop, the next day alerting each kind of change on 10 to 25 % of them', () => {
	expect([FIRST_SHOP.records.length, NEXT_SHOP.records.length]).toEqual([360, 360]);
	expect(new Set(NEXT_SHOP.expected.map((alert) => alert.split('|')[6]))).toEqual(new Set(['up', 'down', 'soldOut', 'backOnSale']));
	expect(NEXT_SHOP.expected.length / NEXT_SHOP.records.length).toBeGreaterThan(0.1);
	expect(NEXT_SHOP.expected.length / NEXT_SHOP.records.length).toBeLessThan(0.25);
});

describeVersions(e2eVersions().filter(publicApiHasDataTables), 'Detect Changes on one rate record a POST, 20 in flight, in n8n %s', (version) => {
	describe.each(ORDERS.filter(({ long }) => !long || longE2eVersions().includes(version)))('posted $name', ({ name, order }) => {
		let env: E2eEnvironment;
		let inbox: Inbox;
		const client = new DeliveryClient();
		let started: number;

		/** Posts a shop's records to the example's trigger as the service does, waits for every execution to finish, and reads them back. */
		async function deliver(shop: ShopDay): Promise<Delivered> {
			const begun = Date.now();
			const before = new Set(await env.n8n.executionIds(ALERTS.id));
			const [view] = env.sandbox.webhooks();
			const webhook: StoredWebhook = { webhookId: view.webhookId, account: view.account, createdAt: view.createdAt, registration: view };
			const posts = await runPool(
				order(shop.records, shop.date).map((record) => async () => await postWithRetries(client, webhook, JSON.stringify(record), DELIVERY)),
				DELIVERY.concurrency,
			);
			expect(posts.filter(({ outcome }) => outcome.status !== 200).map(({ outcome }) => `${outcome.status ?? 'no answer'}: ${outcome.error ?? ''}`)).toEqual([]);
			// A POST the sender gave up on and sent again may have reached n8n twice.
			const resent = posts.reduce((sum, post) => sum + post.attempts.length - 1, 0);
			const ids = await env.n8n.waitForDeliveries(ALERTS.id, before, shop.records.length + resent, { timeoutMs: 5 * 60_000 });
			const executions = await runPool(
				ids.map((id) => async () => await env.n8n.execution(id)),
				8,
			);
			const failed = executions.filter((execution) => execution.status !== 'success');
			const alerts = executions.filter((execution) => execution.status === 'success').flatMap((execution) => outputOf(execution.run, DETECT_NODE).map(changeIdentity));
			const delivered = { executions, failed, alerts, elapsedMs: Date.now() - begun };
			const missing = shop.expected.filter((alert) => !alerts.includes(alert));
			const unexpected = alerts.filter((alert) => !shop.expected.includes(alert));
			printProgress(
				`${shop.records.length} records of ${shop.date} posted ${name}, n8n ${version}: ${formatDuration(delivered.elapsedMs)}, ${executions.length} executions, ${failed.length} failed (${failures(failed)}), ${alerts.length} alerts of ${shop.expected.length} expected (${missing.length} missing, ${repeated(alerts).length} twice, ${unexpected.length} unexpected)`,
			);
			return delivered;
		}

		beforeAll(async () => {
			started = Date.now();
			inbox = await startInbox();
			env = await startE2e({
				version,
				workflows: [demoExample(ALERTS.file, inbox, ALERTS.id), digestOnCall(DIGEST.file, DIGEST.id, inbox, DIGEST_PATH)],
				publish: [ALERTS.id, DIGEST.id],
			});
		}, 30 * 60_000);

		afterAll(async () => {
			client.close();
			await env?.close();
			await inbox?.close();
			printProgress(`one record a POST, ${name}, n8n ${version}: ${formatDuration(Date.now() - started)} in all`);
		});

		test('the first shop: its POSTs gathered five or more to an execution, no execution fails, and nothing alerts (Include First Seen is off)', async () => {
			const { executions, failed, alerts } = await deliver(FIRST_SHOP);
			expect({ failed: failures(failed), alerts }).toEqual({ failed: 'none', alerts: [] });
			expect(executions.length).toBeLessThanOrEqual(FIRST_SHOP.records.length / 5);
		});

		test('the next day: its POSTs gathered five or more to an execution, no execution fails, and each move of 10 % or more, sold out and back on sale alerts exactly once', async () => {
			const { executions, failed, alerts } = await deliver(NEXT_SHOP);
			expect(executions.length).toBeLessThanOrEqual(NEXT_SHOP.records.length / 5);
			expect(failures(failed)).toBe('none');
			expect(repeated(alerts)).toEqual([]);
			expect([...alerts].sort()).toEqual([...NEXT_SHOP.expected].sort());
		});

		test("the morning digest lists each of the day's alerts exactly once", async () => {
			const before = new Set(await env.n8n.executionIds(DIGEST.id));
			const { digested } = await callMorningDigest(env.n8n.webhookUrl(DIGEST_PATH), inbox, DIGEST.file);
			expect(await env.n8n.waitForExecutions(DIGEST.id, before.size + 1)).toBe(before.size + 1);
			await env.n8n.waitUntilFinished(DIGEST.id);
			const [id] = (await env.n8n.executionIds(DIGEST.id)).filter((candidate) => !before.has(candidate));
			const digest = await env.n8n.execution(id);
			expect({ status: digest.status, error: digest.error }).toEqual({ status: 'success', error: undefined });
			const listed = outputOf(digest.run, 'Digest').flatMap((item) => (item.changes as IDataObject[]).map(changeIdentity));
			expect(repeated(listed)).toEqual([]);
			expect(listed.sort()).toEqual([...NEXT_SHOP.expected].sort());
			expect(digested).toBe(NEXT_SHOP.expected.length);
		});
	});
});
