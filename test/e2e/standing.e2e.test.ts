import type { Inbox } from '../../platform/inbox';
import type { MarketInput, RateRecord, RunSummary } from '../../platform/sandbox';
import {
	DEMO_SHOPS,
	demoExample,
	demoSmtpCredential,
	digestExample,
	API_CREDENTIAL,
	e2eVersions,
	longE2eVersions,
	N8N_API_CREDENTIAL,
	NO_DATA_TABLES_REFUSAL,
	outputOf,
	printProgress,
	publicApiHasDataTables,
	type E2eEnvironment,
	type WorkflowSeed,
} from '../../platform/n8n';
import { expectedParityLosses, expectedUndercuts } from './compSet';
import { describeVersions } from './describeVersions';
import { UNDERCUT_ALERTS as EXAMPLE, UNDERCUT_DIGEST as DIGEST } from './exampleWorkflows';
import { useE2eWithInbox } from './useE2e';
import { round2 } from '../../nodes/RateChanges/rules/amounts';

/**
 * The "Undercut and parity alerts" example (and its digest, "Undercut and parity digest", by email)
 * in a real n8n against a comp-set shop of the sandbox
 * (run-shop `market`): shop 1 laid out so that where my hotel stands on each website and night,
 * and what each website sells my room for, follow from the delivered records, with a known
 * undercut, a night my hotel is sold out, parity losses and a win, and a competitor in another
 * currency. A second workflow feeds every position (Alert On: Always) and watches my rank (Alert
 * On: Rank Changed), each with tables of its own.
 *
 * Each shop arrives in one delivery, so each workflow runs once per shop and sees the whole comp
 * set of every night at once; but the last test's two shops, delivered one record a POST, 4 in
 * flight, shuffled, each record collected at its own time over 40 minutes, as the service may
 * deliver them (issue 45). For that test the feed workflow (no Detect Changes before its nodes) is
 * set aside and a third, a rank watch and a position feed behind Detect Changes as the shipped
 * example places its nodes, is published instead.
 */

const FEED = { id: 'e2eStandingFeed1', name: 'Position feed and rank watch' };
/** Published by the one-record-a-POST test only (in the feed's place), so the shops before it reach two workflows. */
const WATCH = { id: 'e2eStandingWatch1', name: 'Rank watch behind Detect Changes' };
const SHOP_ID = 1;
/** Shop 1's six hotels on its two websites, days 1 to 5 after the run. */
const RECORDS = 60;
const WEBSITES = [4, 5];
const DAYS = [1, 2, 3, 4, 5];
const CLOCK = '2026-12-01T12:00:00.000Z';
/**
 * The second shop's time: the same day (the same check-in days), over 6 hours after the first, so
 * a run of its own (Rate Changes tells a shop's runs apart by their collection times).
 */
const LATER_THAT_DAY = '2026-12-01T18:30:00.000Z';
/**
 * The shops delivered one record a POST: a week on, so their check-in days (12-09 to 12-13) are
 * none of the shops before them, and the second 7 hours after the first, so a run of its own.
 */
const IN_FLIGHT_CLOCK = '2026-12-08T06:00:00.000Z';
const IN_FLIGHT_LATER = '2026-12-08T13:00:00.000Z';
/** As the service delivers a comp-set shop: one record a POST, 4 in flight (each shop collected over 40 minutes, shuffled). */
const ONE_RECORD_A_POST = { perDelivery: 1, concurrency: 4, timeoutSeconds: 60 };
const COLLECTED_OVER_MINUTES = 40;

const MY_HOTEL = 100085;
const REFERENCE_WEBSITE = 4;
const OTHER_WEBSITE = 5;
/** Its records say EUR: never compared with my ZAR rates (shop 1's hotels are in Cape Town). */
const OTHER_CURRENCY_HOTEL = 100008;
/** Compare With My Hotel's Undercut At Least (%) at its default, which the example keeps. */
const UNDERCUT_PERCENT = 5;
const TOLERANCE_PERCENT = 1;

/** The constructed cases: the competitor 12 % below me, the night I am sold out, the parity cases. */
const UNDERCUT = { hotelCode: 100024, websiteCode: REFERENCE_WEBSITE, day: 2, belowMe: 0.12 };
const SOLD_OUT_DAY = 5;
const PARITY = {
	medium: { day: 3, ratio: 0.92 },
	low: { day: 1, ratio: 0.97 },
	win: { day: 4, ratio: 1.05 },
};

type Record_ = Record<string, unknown>;

interface Offer {
	hotelCode: number;
	websiteCode: number;
	day: string;
	currency: string;
	/** null: sold out. */
	rate: number | null;
	total: number | null;
	los: number;
	guests: number;
	roomType: string;
}

function offerOf(record: Record_): Offer {
	const rate = (record.onsiteRate as number) > 0 ? (record.onsiteRate as number) : null;
	const total = rate === null ? null : record.taxStatus === 0 ? round2(rate + (record.taxAmount as number)) : rate;
	return {
		hotelCode: record.hotelCode as number,
		websiteCode: record.websiteCode as number,
		day: String(record.checkIn).slice(0, 10),
		currency: record.currency as string,
		rate,
		total,
		los: record.los as number,
		guests: record.guests as number,
		roomType: record.roomType as string,
	};
}

/** Where my hotel stands on one website and night, worked out here from the records alone. */
function expectedPosition(offers: readonly Offer[], websiteCode: number, day: string) {
	const night = offers.filter((offer) => offer.websiteCode === websiteCode && offer.day === day);
	const mine = night.find((offer) => offer.hotelCode === MY_HOTEL) as Offer;
	const others = night.filter((offer) => offer.hotelCode !== MY_HOTEL);
	const sameCurrency = others.filter((offer) => offer.currency === mine.currency);
	const onSale = sameCurrency.filter((offer) => offer.rate !== null).sort((a, b) => (a.rate as number) - (b.rate as number));
	const rates = onSale.map((offer) => offer.rate as number);
	const middle = Math.floor(rates.length / 2);
	const median = rates.length % 2 === 1 ? rates[middle] : round2((rates[middle - 1] + rates[middle]) / 2);
	const cheapest = onSale[0];
	const rank = mine.rate === null ? null : 1 + rates.filter((rate) => rate < (mine.rate as number)).length;
	const gap = mine.rate === null ? null : round2(mine.rate - cheapest.rate!);
	const gapPercent = gap === null ? null : round2((gap / (mine.rate as number)) * 100);
	let position = 'inside';
	if (mine.rate === null) position = 'soldOut';
	else if (rank === 1) position = 'cheapest';
	else if (mine.rate >= rates[rates.length - 1]) position = 'mostExpensive';
	return {
		summary: {
			myHotelCode: MY_HOTEL,
			myRate: mine.rate,
			currency: mine.currency,
			checkIn: day,
			websiteCode,
			lowest: rates[0],
			median,
			highest: rates[rates.length - 1],
			rank,
			rankedHotels: onSale.length + (mine.rate === null ? 0 : 1),
			soldOutCompetitors: sameCurrency.length - onSale.length,
			otherCurrency: others.filter((offer) => offer.currency !== mine.currency).map(({ hotelCode, currency }) => ({ hotelCode, currency })),
			gap,
			gapPercent,
			position,
		},
		cheapest: { hotelCode: cheapest.hotelCode, rate: cheapest.rate },
		undercut: gap !== null && gap > 0 && (gapPercent as number) >= UNDERCUT_PERCENT,
	};
}

/** My hotel's parity on one night against the reference website, worked out here. */
function expectedParity(offers: readonly Offer[], day: string) {
	const night = offers.filter((offer) => offer.hotelCode === MY_HOTEL && offer.day === day).sort((a, b) => a.websiteCode - b.websiteCode);
	const reference = night.find((offer) => offer.websiteCode === REFERENCE_WEBSITE && offer.total !== null);
	if (!reference) return { losses: 0, websites: night.map((offer) => ({ websiteCode: offer.websiteCode, state: offer.total === null ? 'soldOut' : 'noReference' })) };
	const websites = night.map((offer) => {
		if (offer.websiteCode === REFERENCE_WEBSITE) return { websiteCode: offer.websiteCode, total: offer.total, state: 'reference', severity: null };
		if (offer.total === null) return { websiteCode: offer.websiteCode, total: null, state: 'soldOut', severity: null };
		const difference = round2(offer.total - (reference.total as number));
		const differencePercent = round2((difference / (reference.total as number)) * 100);
		const below = -differencePercent;
		if (difference === 0 || Math.abs(difference / (reference.total as number)) * 100 <= TOLERANCE_PERCENT) {
			return { websiteCode: offer.websiteCode, total: offer.total, difference, differencePercent, state: 'meet', severity: null };
		}
		if (difference > 0) return { websiteCode: offer.websiteCode, total: offer.total, difference, differencePercent, state: 'win', severity: null };
		return { websiteCode: offer.websiteCode, total: offer.total, difference, differencePercent, state: 'loss', severity: below >= 10 ? 'high' : below >= 5 ? 'medium' : 'low' };
	});
	return { referenceWebsite: REFERENCE_WEBSITE, referenceTotal: reference.total, currency: reference.currency, websites, losses: websites.filter((website) => website.state === 'loss').length };
}

function examples(inbox: Inbox): WorkflowSeed[] {
	return [demoExample(EXAMPLE.file, inbox, EXAMPLE.id), digestExample(DIGEST.file, DIGEST.id, inbox)];
}

/** The Rate Record Trigger (version 1: one execution a delivery) of a workflow of this file. */
function rateRecords(id: string, webhookId: string): WorkflowSeed['nodes'][number] {
	return {
		id,
		name: 'Rate records',
		type: 'n8n-nodes-travel-pricing.travelPricingRateTrigger',
		typeVersion: 1,
		position: [0, 0],
		webhookId,
		parameters: { registration: 'automatic', authentication: 'generatedSecret', filters: {} },
		credentials: { travelPricingApi: API_CREDENTIAL },
	};
}

/** Each of `nodes` side by side after the trigger, as the shipped examples connect them. */
function afterTheTrigger(nodes: readonly string[]): WorkflowSeed['connections'] {
	return { 'Rate records': { main: [nodes.map((node) => ({ node, type: 'main', index: 0 }))] } };
}

/** A Rate Changes node of a workflow of this file, after its trigger. */
function rateChanges(id: string, name: string, y: number, parameters: Record_): WorkflowSeed['nodes'][number] {
	return {
		id,
		name,
		type: 'n8n-nodes-travel-pricing.travelPricingRateChanges',
		typeVersion: 1,
		position: [300, y],
		parameters,
		credentials: { travelPricingN8nApi: N8N_API_CREDENTIAL },
	};
}

/** Two Compare With My Hotel nodes on their own tables, so that neither moves the other's remembered ranks. */
function feedWorkflow(): WorkflowSeed {
	const compare = (name: string, y: number, alertOn: string, tables: string) =>
		rateChanges(`${tables}-node`, name, y, {
			operation: 'compareWithMyHotel',
			myHotelCode: String(MY_HOTEL),
			compareAlertOn: alertOn,
			changesTable: `${tables}_changes`,
			positionsTable: `${tables}_positions`,
		});
	return {
		id: FEED.id,
		name: FEED.name,
		nodes: [
			rateRecords('feed-trigger', '6c0b8f0e-2f7d-4a55-9c11-3e2f61f1a9d4'),
			compare('Position feed', -100, 'always', 'e2e_feed'),
			compare('Rank watch', 100, 'rankChanged', 'e2e_rank'),
		],
		connections: afterTheTrigger(['Position feed', 'Rank watch']),
		settings: { executionOrder: 'v1' },
	};
}

/**
 * A rank watch and a position feed as the shipped example places its nodes: Detect Changes and
 * Compare With My Hotel (Alert On: Rank Changed, and Always) side by side after the trigger, on
 * the same Rates and Changes Tables, so Detect Changes keeps the rates of a run's earlier
 * deliveries. One execution a delivery (trigger version 1).
 */
function watchWorkflow(): WorkflowSeed {
	const tables = { ratesTable: 'e2e_watch_rates', changesTable: 'e2e_watch_changes' };
	const node = (name: string, y: number, parameters: Record_) => rateChanges(`watch-${y}`, name, y, { ...parameters, ...tables });
	return {
		id: WATCH.id,
		name: WATCH.name,
		nodes: [
			rateRecords('watch-trigger', '0d6f3c52-7a1e-4c1b-9f7e-5b2a8e4d9c31'),
			node('Detect changes', -100, { operation: 'detectChanges' }),
			node('Rank watch', 100, { operation: 'compareWithMyHotel', myHotelCode: String(MY_HOTEL), compareAlertOn: 'rankChanged', positionsTable: 'e2e_watch_positions' }),
			node('Position feed', 300, { operation: 'compareWithMyHotel', myHotelCode: String(MY_HOTEL), compareAlertOn: 'always', positionsTable: 'e2e_watch_feed_positions' }),
		],
		connections: afterTheTrigger(['Detect changes', 'Rank watch', 'Position feed']),
		settings: { executionOrder: 'v1' },
	};
}

/** What one shop made each node put out, and the records it delivered. */
interface Shop {
	run: RunSummary;
	offers: Offer[];
	days: string[];
	detect: Record_[];
	compare: Record_[];
	parity: Record_[];
	feed: Record_[];
	rankWatch: Record_[];
}

const nightKey = (item: Record_) => `${item.websiteCode}|${item.checkIn}`;

describeVersions(e2eVersions().filter(publicApiHasDataTables), 'Undercut and parity alerts in n8n %s', (version) => {
	const { env, inbox } = useE2eWithInbox((started) => ({
		version,
		workflows: [...examples(started), feedWorkflow(), watchWorkflow()],
		publish: [EXAMPLE.id, FEED.id],
		credentials: [demoSmtpCredential(started.smtp)],
	}));
	const shops: Shop[] = [];

	async function deliver(options: Parameters<E2eEnvironment['sandbox']['runShop']>[0]): Promise<Shop> {
		const before = {
			example: new Set(await env.n8n.executionIds(EXAMPLE.id)),
			feed: new Set(await env.n8n.executionIds(FEED.id)),
		};
		const run = await env.sandbox.runShop({ perDelivery: RECORDS, ...options });
		expect(run.byStatus).toEqual({ 200: 2 });
		await env.n8n.waitForDeliveries(EXAMPLE.id, before.example, 1);
		expect(await env.n8n.waitForExecutions(FEED.id, before.feed.size + 1)).toBe(before.feed.size + 1);
		const output = async (workflowId: string, node: string, except: Set<string>) => (await env.n8n.executionOutputs(workflowId, node, { except })).flat();
		const records = env.sandbox
			.deliveries()
			.filter((delivery) => delivery.runId === run.runId)
			.slice(0, 1)
			.flatMap((delivery) => [delivery.body].flat() as unknown as Record_[]);
		expect(records).toHaveLength(RECORDS);
		const offers = records.map(offerOf);
		return {
			run,
			offers,
			days: [...new Set(offers.map((offer) => offer.day))].sort(),
			detect: await output(EXAMPLE.id, 'Detect changes', before.example),
			compare: await output(EXAMPLE.id, 'Compare with my hotel', before.example),
			parity: await output(EXAMPLE.id, 'Check parity', before.example),
			feed: await output(FEED.id, 'Position feed', before.feed),
			rankWatch: await output(FEED.id, 'Rank watch', before.feed),
		};
	}

	/** Every night's items equal the computation from the records; the example's are the undercuts. */
	function expectPositions(shop: Shop): void {
		const nights = WEBSITES.flatMap((websiteCode) => shop.days.map((day) => ({ websiteCode, day, expected: expectedPosition(shop.offers, websiteCode, day) })));
		expect(shop.feed.map(nightKey).sort()).toEqual(nights.map(({ websiteCode, day }) => `${websiteCode}|${day}`).sort());
		for (const { websiteCode, day, expected } of nights) {
			const item = shop.feed.find((candidate) => nightKey(candidate) === `${websiteCode}|${day}`) as Record_;
			expect(item).toMatchObject(expected.summary);
			expect(item.cheapestCompetitor).toMatchObject(expected.cheapest);
		}
		const undercuts = nights.filter(({ expected }) => expected.undercut);
		expect(shop.compare.map(nightKey).sort()).toEqual(undercuts.map(({ websiteCode, day }) => `${websiteCode}|${day}`).sort());
		for (const item of shop.compare) expect(item).toMatchObject({ undercut: true, ...expectedPosition(shop.offers, item.websiteCode as number, item.checkIn as string).summary });
	}

	function expectParity(shop: Shop): void {
		const withLosses = shop.days.map((day) => ({ day, expected: expectedParity(shop.offers, day) })).filter(({ expected }) => expected.losses > 0);
		expect(shop.parity.map((item) => item.checkIn).sort()).toEqual(withLosses.map(({ day }) => day));
		for (const { day, expected } of withLosses) {
			expect(shop.parity.find((item) => item.checkIn === day)).toMatchObject({ hotelCode: MY_HOTEL, ...expected });
		}
	}

	/** Stay-nights whose rank differs between two shops, from their records. */
	function rankMoves(before: Shop, after: Shop): string[] {
		return WEBSITES.flatMap((websiteCode) =>
			after.days
				.filter((day) => expectedPosition(before.offers, websiteCode, day).summary.rank !== expectedPosition(after.offers, websiteCode, day).summary.rank)
				.map((day) => `${websiteCode}|${day}`),
		).sort();
	}

	beforeAll(() => {
		env.sandbox.setClock(CLOCK);
	});

	const currencies = { [OTHER_CURRENCY_HOTEL]: 'EUR' };

	test('a first comp-set shop: positions, undercuts and parity as the records give them, the other currency apart', async () => {
		const shop = await deliver({ shopId: SHOP_ID, records: RECORDS, market: { seed: 3, currencies } });
		shops.push(shop);
		expect(shop.days).toHaveLength(DAYS.length);
		expect(shop.detect).toEqual([]);
		expectPositions(shop);
		expectParity(shop);
		for (const item of shop.feed) expect(item.otherCurrency).toEqual([{ hotelCode: OTHER_CURRENCY_HOTEL, currency: 'EUR' }]);
		// The first shop has no rank to compare with.
		expect(shop.rankWatch).toEqual([]);
	});

	test('a shop with a known undercut, a sold-out night and parity losses: exactly those, and every rank that moved', async () => {
		const [first] = shops;
		const offer = (hotelCode: number, websiteCode: number, day: number) =>
			first.offers.find((candidate) => candidate.hotelCode === hotelCode && candidate.websiteCode === websiteCode && candidate.day === first.days[day - 1]) as Offer;
		const myUndercutRate = offer(MY_HOTEL, UNDERCUT.websiteCode, UNDERCUT.day).rate as number;
		// On the undercut night, every other competitor in my currency is put above me, and the chosen one 12 % below.
		const undercutNight: MarketInput['prices'] = first.offers
			.filter((candidate) => candidate.websiteCode === UNDERCUT.websiteCode && candidate.day === first.days[UNDERCUT.day - 1])
			.filter((candidate) => candidate.hotelCode !== MY_HOTEL && candidate.hotelCode !== OTHER_CURRENCY_HOTEL)
			.map((candidate) => ({
				hotelCode: candidate.hotelCode,
				websiteCode: UNDERCUT.websiteCode,
				checkIn: UNDERCUT.day,
				factor:
					candidate.hotelCode === UNDERCUT.hotelCode
						? ((1 - UNDERCUT.belowMe) * myUndercutRate) / (candidate.rate as number)
						: Math.max(1, (1.05 * myUndercutRate) / (candidate.rate as number)),
			}));
		const parityPrice = ({ day, ratio }: { day: number; ratio: number }) => ({
			hotelCode: MY_HOTEL,
			websiteCode: OTHER_WEBSITE,
			checkIn: day,
			factor: (ratio * (offer(MY_HOTEL, REFERENCE_WEBSITE, day).total as number)) / (offer(MY_HOTEL, OTHER_WEBSITE, day).total as number),
		});
		env.sandbox.setClock(LATER_THAT_DAY);
		const shop = await deliver({
			shopId: SHOP_ID,
			records: RECORDS,
			market: {
				seed: 3,
				currencies,
				prices: [
					...(undercutNight ?? []),
					{ hotelCode: MY_HOTEL, checkIn: SOLD_OUT_DAY, factor: 0 },
					parityPrice(PARITY.medium),
					parityPrice(PARITY.low),
					parityPrice(PARITY.win),
				],
			},
		});
		shops.push(shop);
		expectPositions(shop);
		expectParity(shop);

		const day = (offset: number) => shop.days[offset - 1];
		const undercut = shop.compare.find((item) => nightKey(item) === `${UNDERCUT.websiteCode}|${day(UNDERCUT.day)}`) as Record_;
		expect(undercut).toMatchObject({ undercut: true, rank: 2, position: 'inside', cheapestCompetitor: { hotelCode: UNDERCUT.hotelCode } });
		expect(undercut.gapPercent as number).toBeCloseTo(UNDERCUT.belowMe * 100, 1);
		for (const websiteCode of WEBSITES) {
			expect(shop.feed.find((item) => nightKey(item) === `${websiteCode}|${day(SOLD_OUT_DAY)}`)).toMatchObject({
				position: 'soldOut',
				myRate: null,
				rank: null,
				gap: null,
				undercut: false,
			});
			expect(shop.compare.find((item) => nightKey(item) === `${websiteCode}|${day(SOLD_OUT_DAY)}`)).toBeUndefined();
		}
		const parityOn = (offset: number) => shop.parity.find((item) => item.checkIn === day(offset));
		expect(parityOn(PARITY.medium.day)).toMatchObject({ losses: 1, severity: 'medium', websites: [{ state: 'reference' }, { websiteCode: OTHER_WEBSITE, state: 'loss', severity: 'medium' }] });
		expect((parityOn(PARITY.medium.day)?.websites as Record_[])[1].differencePercent as number).toBeCloseTo(-8, 1);
		expect(parityOn(PARITY.low.day)).toMatchObject({ losses: 1, severity: 'low' });
		// A website dearer than the reference wins, and sold out everywhere there is no reference: neither alerts.
		expect(parityOn(PARITY.win.day)).toBeUndefined();
		expect(expectedParity(shop.offers, day(PARITY.win.day)).websites[1]).toMatchObject({ state: 'win' });
		expect(parityOn(SOLD_OUT_DAY)).toBeUndefined();

		const moves = rankMoves(first, shop);
		expect(moves).toEqual(expect.arrayContaining(WEBSITES.map((websiteCode) => `${websiteCode}|${day(SOLD_OUT_DAY)}`)));
		expect(shop.rankWatch.map(nightKey).sort()).toEqual(moves);
		for (const item of shop.rankWatch) {
			const previous = expectedPosition(first.offers, item.websiteCode as number, item.checkIn as string).summary.rank;
			expect(item).toMatchObject({ rankChanged: true, previousRank: previous });
		}
	});

	test('the shop collected again with some rates moved alerts exactly the stay-nights whose rank moved', async () => {
		const shop = await deliver({ repeatRun: shops[1].run.runId, changes: { seed: 5, changed: 0.3 } });
		shops.push(shop);
		expect(shop.run.expectedChanges?.length).toBeGreaterThan(0);
		expectPositions(shop);
		expectParity(shop);
		const moves = rankMoves(shops[1], shop);
		expect(moves.length).toBeGreaterThan(0);
		expect(shop.rankWatch.map(nightKey).sort()).toEqual(moves);
	});

	test('the last shop delivered again, ten records a delivery, alerts nothing more', async () => {
		const before = { example: new Set(await env.n8n.executionIds(EXAMPLE.id)), feed: new Set(await env.n8n.executionIds(FEED.id)) };
		const perWorkflow = Math.ceil(RECORDS / 10);
		const run = await env.sandbox.runShop({ repeatRun: shops[shops.length - 1].run.runId, replay: true, perDelivery: 10, concurrency: 4 });
		expect(run.byStatus).toEqual({ 200: perWorkflow * 2 });
		// The example's trigger (version 1.1) gathers the deliveries; the feed's (version 1) runs once a delivery.
		await env.n8n.waitForDeliveries(EXAMPLE.id, before.example, perWorkflow);
		expect(await env.n8n.waitForExecutions(FEED.id, before.feed.size + perWorkflow)).toBe(before.feed.size + perWorkflow);
		const output = async (workflowId: string, node: string, except: Set<string>) => (await env.n8n.executionOutputs(workflowId, node, { except })).flat();
		expect({
			detect: await output(EXAMPLE.id, 'Detect changes', before.example),
			compare: await output(EXAMPLE.id, 'Compare with my hotel', before.example),
			parity: await output(EXAMPLE.id, 'Check parity', before.example),
			rankWatch: await output(FEED.id, 'Rank watch', before.feed),
		}).toEqual({ detect: [], compare: [], parity: [], rankWatch: [] });
	});

	test('the digest emails exactly the undercuts, parity losses and changes of each hotel, and the next digest sends nothing', async () => {
		const run = await env.n8n.execute(DIGEST.id);
		const digests = outputOf(run, 'Digest');
		const expected = new Map<string, { undercut: number; parityLoss: number; rankChanged: number; changeCount: number }>();
		const count = (hotelCode: unknown, _checkIn: unknown, field: 'undercut' | 'parityLoss' | 'rankChanged' | null, by = 1) => {
			const key = String(hotelCode);
			const entry = expected.get(key) ?? { undercut: 0, parityLoss: 0, rankChanged: 0, changeCount: 0 };
			if (field) entry[field] += by;
			entry.changeCount += by;
			expected.set(key, entry);
		};
		for (const shop of shops) {
			for (const change of shop.detect) count(change.hotelCode, String(change.checkIn).slice(0, 10), null);
			// One line a stay-night alerted, whatever flags it carries: with Alert On: Undercut, an undercut (its rank move named beside it).
			for (const item of shop.compare) count(MY_HOTEL, item.checkIn, 'undercut');
			for (const item of shop.parity) count(MY_HOTEL, item.checkIn, 'parityLoss', item.losses as number);
		}
		const shopsUndercuts = shops.reduce((sum, shop) => sum + shop.compare.length, 0);
		expect(shopsUndercuts).toBeGreaterThan(0);
		expect(digests.map((digest) => String(digest.hotelCode)).sort()).toEqual([...expected.keys()].sort());
		for (const digest of digests) {
			const { undercut, parityLoss, rankChanged, changeCount } = expected.get(String(digest.hotelCode))!;
			expect(digest).toMatchObject({ undercut, parityLoss, rankChanged, changeCount });
		}
		// One email per hotel, its subject naming the hotel and its count, its body the digest's table.
		const emails = inbox.emails();
		expect(emails).toHaveLength(digests.length);
		for (const digest of digests) {
			const email = emails.find((candidate) => candidate.subject.includes(`(${digest.hotelCode}), ${digest.changeCount} alert`));
			expect(email).toMatchObject({ to: ['revenue@hotel.example'], html: expect.stringContaining(String(digest.html).slice(0, 60)) });
		}

		const again = await env.n8n.execute(DIGEST.id);
		expect(outputOf(again, 'Digest')).toEqual([]);
		expect(inbox.emails()).toHaveLength(digests.length);
	});

	/**
	 * Every execution of a workflow since `before`, once each: each node's items, its errors, and
	 * how many put out any item. With one record a POST, an execution that finds a node's pass lease
	 * held stages its record and ends with no items: the alerts come out of the execution holding it.
	 */
	async function executionsSince(workflowId: string, before: ReadonlySet<string>, nodes: readonly string[]) {
		const ids = (await env.n8n.executionIds(workflowId)).filter((id) => !before.has(id));
		const items: Record<string, Record_[]> = Object.fromEntries(nodes.map((node) => [node, []]));
		const errors: string[] = [];
		let withItems = 0;
		for (const id of ids) {
			const execution = await env.n8n.execution(id);
			if (execution.error) errors.push(`${id}: ${execution.error.node ?? ''} ${execution.error.message}`);
			const outputs = nodes.map((node) => outputOf(execution.run, node));
			outputs.forEach((output, index) => items[nodes[index]].push(...output));
			if (outputs.some((output) => output.length > 0)) withItems++;
		}
		return { executions: ids.length, withItems, errors, items };
	}

	/** A shop delivered one record a POST, and what every execution it started put out, once they have all ended. */
	async function deliverOneRecordAPost(options: Parameters<E2eEnvironment['sandbox']['runShop']>[0]) {
		const before = {
			example: new Set(await env.n8n.executionIds(EXAMPLE.id)),
			watch: new Set(await env.n8n.executionIds(WATCH.id)),
		};
		const startedAt = Date.now();
		const run = await env.sandbox.runShop({ ...ONE_RECORD_A_POST, ...options });
		// The service has no delete endpoint: it still posts to the feed set aside, which n8n answers 404.
		expect({ byStatus: run.byStatus, retried: run.retried }).toEqual({ byStatus: { 200: RECORDS * 2, 404: RECORDS }, retried: 0 });
		// The example's trigger (version 1.1) gathers the deliveries; the watch's (version 1) runs once a delivery.
		await env.n8n.waitForDeliveries(EXAMPLE.id, before.example, RECORDS);
		expect(await env.n8n.waitForExecutions(WATCH.id, before.watch.size + RECORDS)).toBe(before.watch.size + RECORDS);
		await env.n8n.waitUntilFinished(WATCH.id);
		const seconds = Math.round((Date.now() - startedAt) / 1000);
		const example = await executionsSince(EXAMPLE.id, before.example, ['Detect changes', 'Compare with my hotel', 'Check parity']);
		const watch = await executionsSince(WATCH.id, before.watch, ['Detect changes', 'Rank watch', 'Position feed']);
		const receiver = Math.min(...env.sandbox.deliveries().map((delivery) => delivery.webhookId));
		const deliveries = env.sandbox.deliveries().filter((delivery) => delivery.runId === run.runId && delivery.webhookId === receiver);
		const records = deliveries.flatMap((delivery) => [delivery.body].flat() as RateRecord[]);
		expect(records).toHaveLength(RECORDS);
		printProgress(
			`one record a POST on n8n ${version}: run ${run.runId} settled in ${seconds} s; example ${example.executions} executions (${example.withItems} with items), watch ${watch.executions} (${watch.withItems}); ` +
				`arrival order ${deliveries.map((delivery) => /-rec(\d+)$/.exec(delivery.recordIds[0])?.[1]).join(',')}`,
		);
		expect({ example: example.errors, watch: watch.errors }).toEqual({ example: [], watch: [] });
		return {
			run,
			records,
			offers: records.map((record) => offerOf(record as unknown as Record_)),
			days: [...new Set(records.map((record) => record.checkIn.slice(0, 10)))].sort(),
			detect: example.items['Detect changes'],
			compare: example.items['Compare with my hotel'],
			parity: example.items['Check parity'],
			rankWatch: watch.items['Rank watch'],
			feed: watch.items['Position feed'],
		};
	}

	const lossesOf = (items: Record_[]) =>
		items.flatMap((item) => (item.websites as Record_[]).filter((website) => website.state === 'loss').map((website) => `${website.websiteCode}|${item.checkIn}`)).sort();
	const rankMove = (item: Record_) => `${nightKey(item)}|${item.previousRank}→${item.rank}`;

	test('two shops one record a POST, 4 in flight, shuffled, collected over 40 minutes: exactly the finished shops’ undercuts, losses and rank changes, each once, and a redelivery nothing', async () => {
		// My hotel cheapest on every night and website of the first shop: no undercut, no rank before to move from.
		const cheapest = { hotelCode: MY_HOTEL, factor: 0.7 };
		// The feed workflow before has no Detect Changes: with one record a POST each of its executions
		// sees only its own record (its hint says so, wholeRuns.engine.test.ts), so it is set aside and
		// the watch, Detect Changes and both Compare With My Hotel nodes as the example places them, is published.
		await env.n8n.deactivateWorkflow(FEED.id);
		await env.n8n.activateWorkflow(WATCH.id);
		env.sandbox.setClock(IN_FLIGHT_CLOCK);
		const first = await deliverOneRecordAPost({ shopId: SHOP_ID, records: RECORDS, market: { seed: 3, currencies, prices: [cheapest] }, collectedOverMinutes: COLLECTED_OVER_MINUTES, shuffle: 45 });
		expect(first.days).toHaveLength(DAYS.length);
		expect({ undercuts: first.compare.map(nightKey).sort(), losses: lossesOf(first.parity), rankWatch: first.rankWatch }).toEqual({
			undercuts: expectedUndercuts(first.records, MY_HOTEL, UNDERCUT_PERCENT),
			losses: expectedParityLosses(first.records, MY_HOTEL, REFERENCE_WEBSITE, TOLERANCE_PERCENT),
			rankWatch: [],
		});

		// The second shop, 7 hours on: each move a factor of the first shop's rate, so what it does follows from the records.
		const rate = (hotelCode: number, websiteCode: number, day: number) =>
			first.offers.find((offer) => offer.hotelCode === hotelCode && offer.websiteCode === websiteCode && offer.day === first.days[day - 1]) as Offer;
		const belowMe = (hotelCode: number, websiteCode: number, day: number, share: number) => ({
			hotelCode,
			websiteCode,
			checkIn: day,
			factor: (share * (rate(MY_HOTEL, websiteCode, day).rate as number)) / (rate(hotelCode, websiteCode, day).rate as number),
		});
		const prices: MarketInput['prices'] = [
			cheapest,
			// An undercut: 12 % below me (rank 1 → 2).
			belowMe(UNDERCUT.hotelCode, REFERENCE_WEBSITE, 2, 0.88),
			// Ranks that move without an undercut: 1 → 2, and 1 → 3.
			belowMe(100015, OTHER_WEBSITE, 3, 0.98),
			belowMe(100015, REFERENCE_WEBSITE, 4, 0.97),
			belowMe(UNDERCUT.hotelCode, REFERENCE_WEBSITE, 4, 0.97),
			// A parity loss: my room on the other website 8 % below my own site.
			{
				hotelCode: MY_HOTEL,
				websiteCode: OTHER_WEBSITE,
				checkIn: 1,
				factor: (0.92 * (rate(MY_HOTEL, REFERENCE_WEBSITE, 1).total as number)) / (rate(MY_HOTEL, OTHER_WEBSITE, 1).total as number),
			},
			// Rates that move and leave my rank where it was.
			{ hotelCode: 100154, checkIn: 5, factor: 1.1 },
			{ hotelCode: UNDERCUT.hotelCode, websiteCode: OTHER_WEBSITE, checkIn: 2, factor: 0.95 },
		];
		env.sandbox.setClock(IN_FLIGHT_LATER);
		const second = await deliverOneRecordAPost({ shopId: SHOP_ID, records: RECORDS, market: { seed: 3, currencies, prices }, collectedOverMinutes: COLLECTED_OVER_MINUTES, shuffle: 46 });
		expect(second.days).toEqual(first.days);

		const nights = WEBSITES.flatMap((websiteCode) => second.days.map((day) => ({ websiteCode, day })));
		const ranks = nights.map(({ websiteCode, day }) => ({
			night: `${websiteCode}|${day}`,
			before: expectedPosition(first.offers, websiteCode, day).summary.rank,
			after: expectedPosition(second.offers, websiteCode, day).summary.rank,
		}));
		const moves = ranks.filter(({ before, after }) => before !== after).map(({ night, before, after }) => `${night}|${before}→${after}`);
		const whole = {
			undercuts: expectedUndercuts(second.records, MY_HOTEL, UNDERCUT_PERCENT),
			losses: expectedParityLosses(second.records, MY_HOTEL, REFERENCE_WEBSITE, TOLERANCE_PERCENT),
		};
		// What the shops were built to give: ranks moved on some nights and not on others, a new undercut, a new loss.
		expect(moves.length).toBeGreaterThan(0);
		expect(moves.length).toBeLessThan(nights.length);
		expect(whole.undercuts.filter((night) => !expectedUndercuts(first.records, MY_HOTEL, UNDERCUT_PERCENT).includes(night))).not.toEqual([]);
		expect(whole.losses.filter((night) => !expectedParityLosses(first.records, MY_HOTEL, REFERENCE_WEBSITE, TOLERANCE_PERCENT).includes(night))).not.toEqual([]);

		const again = await deliverOneRecordAPost({ repeatRun: second.run.runId, replay: true, shuffle: 47 });
		// One comparison, so that a difference shows with every other.
		expect({
			second: {
				undercuts: second.compare.map(nightKey).sort(),
				losses: lossesOf(second.parity),
				rankWatch: second.rankWatch.map(rankMove).sort(),
				// The position feed (Alert On: Always) flags the same rank changes.
				feedFlagged: second.feed.filter((item) => item.rankChanged === true).map(rankMove).sort(),
			},
			redelivered: {
				detect: again.detect,
				compare: again.compare,
				parity: again.parity,
				rankWatch: again.rankWatch,
				feedFlagged: again.feed.filter((item) => item.rankChanged === true),
			},
		}).toEqual({
			second: { ...whole, rankWatch: [...moves].sort(), feedFlagged: [...moves].sort() },
			redelivered: { detect: [], compare: [], parity: [], rankWatch: [], feedFlagged: [] },
		});
		for (const item of second.compare) expect(item).toMatchObject({ undercut: true, ...expectedPosition(second.offers, item.websiteCode as number, item.checkIn as string).summary });
		for (const item of second.parity) expect(item).toMatchObject({ hotelCode: MY_HOTEL, ...expectedParity(second.offers, item.checkIn as string) });
	});
});

/**
 * The first shop after the example is published, delivered as npm start's printed step delivers it
 * (one record a delivery, twenty at once), the example's trigger gathering the deliveries into
 * executions that run at once: each sees its records and what the rates table holds when it reads
 * it, and several reach a stay-night for the first time at once. The
 * alerts are exactly the undercuts and parity losses the whole comp set gives, each out of one
 * execution, and the digest lists each once (issue 27 found 54 undercut rows for 10 stay-nights;
 * issue 36 found alerts missing and alerts the whole comp set does not give).
 */
describeVersions(longE2eVersions().filter(publicApiHasDataTables), 'The first shop of the undercut and parity example, one record a delivery, in n8n %s', (version) => {
	const { env, inbox } = useE2eWithInbox((started) => ({ version, workflows: examples(started), publish: [EXAMPLE.id], credentials: [demoSmtpCredential(started.smtp)] }));

	test('overlapping executions alert each undercut and parity loss of the whole comp set once, and the digest lists each once', async () => {
		const before = new Set(await env.n8n.executionIds(EXAMPLE.id));
		const run = await env.sandbox.runShop(DEMO_SHOPS.today);
		expect(run.byStatus).toEqual({ 200: run.records });
		const executions = await env.n8n.waitForDeliveries(EXAMPLE.id, before, run.records);
		expect((await env.n8n.executionErrors(EXAMPLE.id)).filter(Boolean)).toEqual([]);
		const records = env.sandbox
			.deliveries()
			.filter((delivery) => delivery.runId === run.runId)
			.flatMap((delivery) => [delivery.body].flat() as RateRecord[]);
		const output = async (node: string) => (await env.n8n.executionOutputs(EXAMPLE.id, node)).flat();
		const alerted = {
			undercuts: (await output('Compare with my hotel')).map(nightKey),
			losses: (await output('Check parity')).flatMap((item) =>
				(item.websites as Record_[]).filter((website) => website.state === 'loss').map((website) => `${website.websiteCode}|${item.checkIn}`),
			),
		};
		const whole = {
			undercuts: expectedUndercuts(records, MY_HOTEL, UNDERCUT_PERCENT),
			losses: expectedParityLosses(records, MY_HOTEL, REFERENCE_WEBSITE, TOLERANCE_PERCENT),
		};
		printProgress(
			`first shop one record a delivery on n8n ${version}: ${run.records} records in ${executions.length} executions, ${alerted.undercuts.length} undercuts alerted (${new Set(alerted.undercuts).size} stay-nights) of the ${whole.undercuts.length} the whole comp set gives, ${alerted.losses.length} parity losses (${new Set(alerted.losses).size}) of ${whole.losses.length}`,
		);
		const repeated = (list: string[]) => list.filter((entry, index) => list.indexOf(entry) !== index);
		expect({ undercuts: repeated(alerted.undercuts), losses: repeated(alerted.losses) }).toEqual({ undercuts: [], losses: [] });
		expect({ undercuts: [...alerted.undercuts].sort(), losses: [...alerted.losses].sort() }).toEqual({ undercuts: [...whole.undercuts].sort(), losses: [...whole.losses].sort() });

		const digests = outputOf(await env.n8n.execute(DIGEST.id), 'Digest');
		const changes = digests.flatMap((digest) => digest.changes as Record_[]);
		const listed = (changeType: string) =>
			changes
				.filter((change) => change.changeType === changeType)
				.map((change) => `${change.websiteCode}|${change.checkIn}`)
				.sort();
		expect({ undercuts: listed('undercut'), losses: listed('parityLoss') }).toEqual({ undercuts: [...alerted.undercuts].sort(), losses: [...alerted.losses].sort() });
		expect(inbox.emails()).toHaveLength(digests.length);
	});
});

describeVersions(
	e2eVersions().filter((version) => !publicApiHasDataTables(version)),
	'Undercut and parity alerts in n8n %s, whose public API has no Data Tables',
	(version) => {
		const { env, inbox } = useE2eWithInbox((started) => ({
			version,
			workflows: [parityOnly(started), digestExample(DIGEST.file, DIGEST.id, started), feedWorkflow()],
			publish: [EXAMPLE.id, FEED.id],
			credentials: [demoSmtpCredential(started.smtp)],
		}));

		/** The example with only Check Parity after the trigger (Detect Changes is proven in rateChanges.e2e.test.ts). */
		function parityOnly(started: Inbox): WorkflowSeed {
			const workflow = demoExample(EXAMPLE.file, started, EXAMPLE.id);
			const nodes = workflow.nodes.map((node) =>
				node.name === 'Detect changes' || node.name === 'Compare with my hotel' ? { ...node, disabled: true } : node,
			);
			return { ...workflow, nodes };
		}

		test('a delivered shop is accepted, and Check Parity and Compare With My Hotel fail with the error that names n8n 2.8', async () => {
			const run = await env.sandbox.runShop({ shopId: SHOP_ID, records: RECORDS, perDelivery: RECORDS });
			expect(run.byStatus).toEqual({ 200: 2 });
			expect(await env.n8n.waitForExecutions(EXAMPLE.id, 1)).toBe(1);
			expect(await env.n8n.waitForExecutions(FEED.id, 1)).toBe(1);
			const refusal = (node: string) => ({ node, message: NO_DATA_TABLES_REFUSAL, description: expect.stringContaining('(n8n 1.x has none)') });
			expect(await env.n8n.executionErrors(EXAMPLE.id)).toEqual([refusal('Check parity')]);
			expect(await env.n8n.executionErrors(FEED.id)).toEqual([refusal('Position feed')]);
		});

		test('the digest fails with the same error and posts nothing', async () => {
			await expect(env.n8n.execute(DIGEST.id)).rejects.toThrow(NO_DATA_TABLES_REFUSAL);
			expect(inbox.messages()).toEqual([]);
		});
	},
);
