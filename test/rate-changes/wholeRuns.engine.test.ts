import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runPool } from '../../platform/sandbox/delivery';
import { createPrng } from '../../platform/sandbox/prng';

import { DETECT, DIGEST, runRateChanges, shopOf, staysOf, useStandIn, type StaySpec } from '../harness/standIn';

/**
 * Compare With My Hotel and Check Parity alert what the finished shops give, whatever the grouping
 * and timing of the deliveries (docs/nodes/rate-changes-reference.md, "What Compare With My Hotel
 * and Check Parity alert"): one record a POST, 4 and 20 in flight, in collection order and
 * shuffled, each record collected at its own time over a 40-minute shop, each delivery through
 * Detect Changes then the node as the shipped example runs them. The first shop alerts nothing, the
 * second exactly the ranks, undercuts, parity losses and changes of parity state its finished
 * shop gives against the first's, each once, and the same records again nothing.
 */

const api = useStandIn();

const FIRST = '2027-02-01T06:00:00Z';
const SECOND = '2027-02-02T06:00:00Z';
const THIRD = '2027-02-03T06:00:00Z';

type Order = (records: IDataObject[]) => IDataObject[];

const ORDERS: Array<{ order: string; arrange: Order }> = [
	// staysOf lists stays hotel by hotel, website by website, date by date: as a shop collects them.
	{ order: 'in collection order', arrange: (records) => records },
	{ order: 'shuffled', arrange: (records) => createPrng(45).sample(records, records.length) },
];

const SHAPES = [4, 20].flatMap((inFlight) => ORDERS.map((order) => ({ ...order, inFlight })));

/** A shop collects its comp set over 40 minutes: each record its own collection time. */
function collectedOver40Minutes(records: IDataObject[]): IDataObject[] {
	return records.map((record, index) => ({ ...record, dtCollected: new Date(Date.parse(String(record.dtCollected)) + (index * 40 * 60_000) / records.length).toISOString() }));
}

const night = (day: number) => new Date(Date.parse('2027-02-26T00:00:00Z') + day * 86_400_000).toISOString().slice(0, 10);

interface Node {
	name: string;
	parameters: INodeParameters;
	/** What an item of it says, as one text; undefined: not an alert this test counts. */
	said: (json: IDataObject) => string | undefined;
}

/**
 * Each record its own execution, `inFlight` at once: Detect Changes, then each node (a workflow
 * of its own, with its own positions table). Every node's texts, and the errors and hints.
 */
async function deliver(nodes: readonly Node[], records: IDataObject[], inFlight: number): Promise<{ said: Record<string, string[]>; errors: string[] }> {
	const results = await runPool(
		records.map((record) => async () => {
			const detected = await runRateChanges(api, DETECT, [record]);
			const others = [];
			for (const node of nodes) others.push(await runRateChanges(api, node.parameters, [record], { workflowId: node.name }));
			return [detected, ...others];
		}),
		inFlight,
	);
	const said = Object.fromEntries(
		nodes.map((node, index) => [node.name, results.flatMap((result) => result[index + 1].items.flatMap(({ json }) => node.said(json) ?? [])).sort()]),
	);
	// Behind Detect Changes no execution says its records were not stored (the hint of the last test below).
	const hints = results.flatMap((result) => result.slice(1)).flatMap((result) => result.run.data.resultData.runData['Node under test']?.[0]?.hints ?? []);
	return { said, errors: [...results.flat().flatMap((result) => (result.error ? [result.error.message] : [])), ...hints.map((hint) => `hint: ${hint.message}`)] };
}

function nobody(nodes: readonly Node[]): Record<string, string[]> {
	return Object.fromEntries(nodes.map((node) => [node.name, []]));
}

const day = (json: IDataObject) => String(json.checkIn).slice(0, 10);

/**
 * My hotel (400001) and three competitors on websites 1 and 2, 4 nights. First shop: I am the
 * cheapest everywhere (200 against 205, 210, 220). Second shop: competitor 400004 drops to 170 on
 * nights 0 and 2, and my website 2 to 160 on night 2, a record that may arrive after the others.
 */
const market = staysOf([400001, 400002, 400003, 400004], [1, 2], '2027-02-26', 4);
const marketRate = (shop: string) => (stay: StaySpec, index: number) => {
	const nightIndex = index % 4;
	if (stay.hotelCode === 400001) return shop !== FIRST && stay.websiteCode === 2 && nightIndex === 2 ? 160 : 200;
	if (stay.hotelCode === 400004 && shop !== FIRST && nightIndex % 2 === 0) return 170;
	return { 400002: 205, 400003: 210, 400004: 220 }[stay.hotelCode] as number;
};

const compare = (name: string, options: IDataObject): Node => ({
	name,
	parameters: { operation: 'compareWithMyHotel', myHotelCode: '400001', positionsTable: `positions_${name}`, options: {}, ...options },
	said: (json) => {
		const where = `${day(json)}|${json.websiteCode ?? '*'}`;
		if (options.compareAlertOn === 'always') return json.rankChanged === true ? `${where}|${json.previousRank}→${json.rank}` : undefined;
		return options.compareAlertOn === 'rankChanged' ? `${where}|${json.previousRank}→${json.rank}` : where;
	},
});

// Worked out from the finished shops and the page's rules (an undercut: the cheapest competitor 5 % or more below me).
const COMPARE: Array<{ node: Node; second: string[] }> = [
	{ node: compare('sameWebsiteUndercut', {}), second: [`${night(0)}|1`, `${night(0)}|2`, `${night(2)}|1`] },
	{ node: compare('sameWebsiteRank', { compareAlertOn: 'rankChanged' }), second: [`${night(0)}|1|1→2`, `${night(0)}|2|1→2`, `${night(2)}|1|1→2`] },
	{ node: compare('sameWebsiteAlways', { compareAlertOn: 'always' }), second: [`${night(0)}|1|1→2`, `${night(0)}|2|1→2`, `${night(2)}|1|1→2`] },
	// Across websites my cheapest is 160 on night 2: no undercut there, and still first.
	{ node: compare('allWebsitesUndercut', { compareOn: 'allWebsites' }), second: [`${night(0)}|*`] },
	{ node: compare('allWebsitesRank', { compareOn: 'allWebsites', compareAlertOn: 'rankChanged' }), second: [`${night(0)}|*|1→2`] },
];

/**
 * My hotel on four websites, 4 nights, against website 1. First shop: every website at 200.
 * Second shop: website 4 at 190 on nights 0 and 2, website 3 at 185 on night 0.
 */
const websites = staysOf([400001], [1, 2, 3, 4], '2027-02-26', 4);
const websiteRate = (shop: string) => (stay: StaySpec, index: number) => {
	const nightIndex = index % 4;
	if (shop === FIRST) return 200;
	if (stay.websiteCode === 4 && nightIndex % 2 === 0) return 190;
	if (stay.websiteCode === 3 && nightIndex === 0) return 185;
	return 200;
};
const parityNode = (name: string, options: IDataObject, said: Node['said']): Node => ({
	name,
	parameters: { operation: 'checkParity', parityHotelCode: '400001', referenceWebsiteCode: '1', positionsTable: `positions_${name}`, options: {}, ...options },
	said,
});
const PARITY: Array<{ node: Node; second: string[] }> = [
	// Each website's loss once, whichever records showed it first.
	{
		node: parityNode('parityLosses', {}, (json) =>
			(json.websites as IDataObject[])
				.filter((website) => website.state === 'loss')
				.map((website) => `${day(json)}|${website.websiteCode}`)
				.join(' '),
		),
		second: [`${night(0)}|3 ${night(0)}|4`, `${night(2)}|4`],
	},
	{ node: parityNode('parityStates', { parityAlertOn: 'stateChanges' }, (json) => `${day(json)}|${json.previousStates}→${json.websites ? (json.websites as IDataObject[]).map((website) => `${website.websiteCode}:${website.state}`).join(',') : ''}`), second: [] },
];

async function parityLossesInDigest(): Promise<string[]> {
	const digest = await runRateChanges(api, DIGEST, [{}]);
	expect(digest.error).toBeUndefined();
	return digest.items
		.flatMap((item) => item.json.changes as IDataObject[])
		.filter((change) => change.changeType === 'parityLoss')
		.map((change) => `${change.checkIn}|${change.websiteCode}`)
		.sort();
}

describe.each(SHAPES)('One record a POST, $inFlight in flight, $order, each collected at its own time over 40 minutes', ({ inFlight, arrange }) => {
	it('Compare With My Hotel alerts exactly the undercuts and rank changes of the finished shops, on one website and across all, each once (Alert On: Undercut, Rank Changed, Always)', async () => {
		const nodes = COMPARE.map(({ node }) => node);
		const shop = (at: string) => arrange(collectedOver40Minutes(shopOf(market, at, marketRate(at))));
		expect(await deliver(nodes, shop(FIRST), inFlight)).toEqual({ said: nobody(nodes), errors: [] });
		const second = await deliver(nodes, shop(SECOND), inFlight);
		expect(second).toEqual({ said: Object.fromEntries(COMPARE.map(({ node, second: said }) => [node.name, [...said].sort()])), errors: [] });
		expect(await deliver(nodes, shop(SECOND), inFlight)).toEqual({ said: nobody(nodes), errors: [] });
	}, 240_000);

	it('Check Parity alerts each website that loses once, with every loss of the finished shop, and exactly its changes of state (Every Change of State)', async () => {
		const nodes = PARITY.map(({ node }) => node);
		const shop = (at: string) => arrange(collectedOver40Minutes(shopOf(websites, at, websiteRate(at))));
		expect(await deliver(nodes, shop(FIRST), inFlight)).toEqual({ said: nobody(nodes), errors: [] });
		const second = await deliver(nodes, shop(SECOND), inFlight);
		expect(second.errors).toEqual([]);
		// Each loss alerts in the batch that first shows it: together, every loss of the finished shop, once.
		expect(second.said.parityLosses.flatMap((said) => said.split(' '))).toEqual(expect.arrayContaining([`${night(0)}|3`, `${night(0)}|4`, `${night(2)}|4`]));
		const finished = '1:reference,2:meet,3:meet,4:meet';
		expect(second.said.parityStates).toEqual([
			`${night(0)}|${finished}→1:reference,2:meet,3:loss,4:loss`,
			`${night(2)}|${finished}→1:reference,2:meet,3:meet,4:loss`,
		]);
		expect(await deliver(nodes, shop(SECOND), inFlight)).toEqual({ said: nobody(nodes), errors: [] });
		// The losses config and the changes of state both alert each loss; the digest lists each alert once.
		expect(await parityLossesInDigest()).toEqual([`${night(0)}|3`, `${night(0)}|3`, `${night(0)}|4`, `${night(0)}|4`, `${night(2)}|4`, `${night(2)}|4`]);
	}, 240_000);
});

describe('A run whose comp set came smaller than the last one', () => {
	it('is judged when the next run begins, from the most of it that arrived: its rank change alerts once, then, and the next run is compared with it', async () => {
		const rank = compare('smallerRun', { compareAlertOn: 'rankChanged' });
		// Second shop: competitor 400003 not shopped, 400004 at 170 on nights 0 and 2; my rank goes from 1 of 4 to 2 of 3 there.
		const smaller = market.filter((stay) => stay.hotelCode !== 400003);
		// Each hotel's stays are 8 in a row (2 websites × 4 nights), so a stay's index modulo 4 is its night in either list.
		const shop = (at: string, stays: StaySpec[], rates: string) => createPrng(7).sample(collectedOver40Minutes(shopOf(stays, at, marketRate(rates))), stays.length);
		expect(await deliver([rank], shop(FIRST, market, FIRST), 4)).toEqual({ said: { smallerRun: [] }, errors: [] });
		// Never as many rates as the first run ended with: not judged while it arrives.
		expect(await deliver([rank], shop(SECOND, smaller, SECOND), 4)).toEqual({ said: { smallerRun: [] }, errors: [] });
		// The third shop (at the first's rates) begins: the second run is judged, once, by the first batch of each stay-night; then the third run against it.
		const third = await deliver([rank], shop(THIRD, market, FIRST), 4);
		expect(third.errors).toEqual([]);
		const late = [`${night(0)}|1|1→2`, `${night(0)}|2|1→2`, `${night(2)}|1|1→2`];
		expect(third.said.smallerRun).toEqual([...late, `${night(0)}|1|2→1`, `${night(0)}|2|2→1`, `${night(2)}|1|2→1`].sort());
	}, 240_000);
});

describe('A run of Check Parity whose websites came fewer than the last run', () => {
	it('is judged when the next run begins: its change of state alerts once, then, with each loss it had, named', async () => {
		const states = parityNode('smallerParity', { parityAlertOn: 'stateChanges' }, (json) =>
			json.judgedLate === true ? `late ${day(json)}|${json.previousStates}→${json.states}|${(json.alerts as IDataObject[]).map((alert) => `${alert.websiteCode}<${alert.comparedWith}`).join(' ')}` : `${day(json)}`,
		);
		// Second shop: website 2 not shopped, websites 3 and 4 below the reference as before.
		const fewer = websites.filter((stay) => stay.websiteCode !== 2);
		const shop = (at: string, stays: StaySpec[], rates: string) => createPrng(8).sample(collectedOver40Minutes(shopOf(stays, at, (stay) => websiteRate(rates)(stay, websites.indexOf(stay)))), stays.length);
		expect(await deliver([states], shop(FIRST, websites, FIRST), 4)).toEqual({ said: { smallerParity: [] }, errors: [] });
		// Never as many rates as the first run ended with: not judged while it arrives.
		expect(await deliver([states], shop(SECOND, fewer, SECOND), 4)).toEqual({ said: { smallerParity: [] }, errors: [] });
		const third = await deliver([states], shop(THIRD, websites, FIRST), 4);
		expect(third.errors).toEqual([]);
		const before = '1:reference,2:meet,3:meet,4:meet';
		const after = '1:reference,3:meet,4:meet';
		expect(third.said.smallerParity).toEqual([
			// The third run against the second: website 2 back, the losses gone.
			night(0),
			night(1),
			night(2),
			night(3),
			// The second run, judged late: website 2 missing counts as a change of state, and each loss is alerted against the reference.
			`late ${night(0)}|${before}→1:reference,3:loss,4:loss|3<website 1 4<website 1`,
			`late ${night(1)}|${before}→${after}|`,
			`late ${night(2)}|${before}→1:reference,3:meet,4:loss|4<website 1`,
			`late ${night(3)}|${before}→${after}|`,
		]);
	}, 240_000);
});

describe('Compare With My Hotel with no Detect Changes before it', () => {
	const hintsOf = (result: Awaited<ReturnType<typeof runRateChanges>>) => (result.run.data.resultData.runData['Node under test'][0].hints ?? []).map((hint) => hint.message);
	const rank = compare('noDetectChanges', { compareAlertOn: 'rankChanged' });

	it('says in the execution that only the records delivered together are compared, and how to set it up; behind Detect Changes it says nothing', async () => {
		const [record] = shopOf(market, FIRST, marketRate(FIRST));
		const alone = await runRateChanges(api, rank.parameters, [record], { workflowId: 'alone' });
		expect(alone.error).toBeUndefined();
		expect(hintsOf(alone)).toEqual([
			'Compare With My Hotel got records that no Detect Changes had stored in the Rates Table "travel_pricing_rates": put Detect Changes (same Rates Table and Changes Table) before it, as the example workflows do, so that each stay-night is worked out from the whole shop. Without it only the records delivered together are compared, and with one record a POST that is a part of the shop.',
		]);
		const [next] = shopOf(market, SECOND, marketRate(SECOND));
		expect((await runRateChanges(api, DETECT, [next])).error).toBeUndefined();
		const behind = await runRateChanges(api, rank.parameters, [next], { workflowId: 'behind' });
		expect(behind.error).toBeUndefined();
		expect(hintsOf(behind)).toEqual([]);
	});
});
