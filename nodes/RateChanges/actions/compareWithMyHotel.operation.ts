import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { allOf, eq } from '../storage/dataTables';
import { rankMonthKey } from '../storage/positionMonths';
import type { Store } from '../storage/store';
import type { ReportedChange } from '../rules/alert';
import { round2 } from '../rules/amounts';
import { compSetPosition, hotelOffers, isUndercut, type Position, type UndercutRule } from '../rules/position';
import type { RateField } from '../rules/observation';
import { compareAlerts, compareItem, type CompareStanding } from '../rules/standing';

import { codeField, numberField, optionField, positionsTableField, rateFieldField, readSettings, recordSettings, showFor, textField } from './fields';
import { readRecords } from './records';
import { runStanding, type Group, type StandingKind, type StandingSettings } from './standing';

/**
 * Compare With My Hotel: where my hotel's rate stands among the other hotels, for every
 * stay-night the incoming records touch; alerts on an undercut or a change of rank
 * (docs/nodes/rate-changes.md).
 */

/** Its option in the Operation field (the router lists it). */
export const option = {
	name: 'Compare With My Hotel',
	value: 'compareWithMyHotel',
	description: "Where your hotel's rate stands among the other hotels for each stay-night of the incoming records: rank, lowest, median, highest, cheapest competitor",
	action: 'Compare with my hotel',
} as const;

const show = showFor(['compareWithMyHotel']);

const myHotelCode: INodeProperties = {
	displayName: 'My Hotel Code',
	name: 'myHotelCode',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. 100085',
	displayOptions: show,
	description: 'Your hotel; every other hotel shopped for the same stay-night is its comp set',
};

const compareOn: INodeProperties = {
	displayName: 'Compare On',
	name: 'compareOn',
	type: 'options',
	default: 'sameWebsite',
	displayOptions: show,
	options: [
		{ name: 'Same Website', value: 'sameWebsite', description: 'Hotels compared on the website of the incoming record' },
		{ name: 'All Websites', value: 'allWebsites', description: "Each hotel's cheapest rate on any website" },
	],
	description: "Each hotel's rate is its cheapest room on sale for the stay-night",
};

const alertOn: INodeProperties = {
	displayName: 'Alert On',
	name: 'compareAlertOn',
	type: 'options',
	default: 'undercut',
	displayOptions: show,
	options: [
		{ name: 'Undercut', value: 'undercut', description: 'A competitor sells below your rate' },
		{ name: 'Rank Changed', value: 'rankChanged', description: 'Your rank differs from the last shop of the stay-night' },
		{ name: 'Always (Position Feed)', value: 'always', description: 'Every stay-night where your hotel was shopped' },
	],
	description: 'Which stay-nights come out',
};

const undercutPercent: INodeProperties = {
	displayName: 'Undercut At Least (%)',
	name: 'undercutPercent',
	type: 'number',
	typeOptions: { minValue: 0, numberPrecision: 2 },
	// 5 %: a competitor a few cents below is noise in a digest; rate tools alert on a competitor
	// below you by a set share, 5 % being the usual first setting.
	default: 5,
	displayOptions: show,
	description: "How far below your rate, as a percentage of it, the cheapest competitor must be for an undercut (the alert with Alert On: Undercut, and every item's undercut field). 0: any amount below.",
};

const undercutAmount: INodeProperties = {
	displayName: 'Undercut At Least (Amount)',
	name: 'undercutAmount',
	type: 'number',
	typeOptions: { minValue: 0, numberPrecision: 2 },
	default: 0,
	displayOptions: showFor(['compareWithMyHotel']),
	description: "How far below your rate, in your rate's currency, the cheapest competitor must be. With both set, both must hold.",
};

export const properties: INodeProperties[] = [
	myHotelCode,
	compareOn,
	alertOn,
	undercutPercent,
	undercutAmount,
	positionsTableField,
];

interface CompareSettings extends StandingSettings {
	myHotelCode: number;
	sameWebsite: boolean;
	rateField: RateField;
	alertOn: 'undercut' | 'rankChanged' | 'always';
	undercut: UndercutRule;
}

function settings(context: IExecuteFunctions): CompareSettings {
	const alertsOn = optionField<CompareSettings['alertOn']>(context, alertOn);
	return {
		...recordSettings(context),
		positionsTable: textField(context, positionsTableField),
		myHotelCode: codeField(context, myHotelCode),
		sameWebsite: optionField(context, compareOn) === 'sameWebsite',
		rateField: optionField<RateField>(context, rateFieldField),
		alertOn: alertsOn,
		undercut: {
			minPercent: numberField(context, undercutPercent),
			minAmount: numberField(context, undercutAmount),
		},
	};
}

interface Worked {
	position: Position;
	myName: string;
	myRoomType: string;
}

/**
 * What a positions day keeps of a run: my rank among the hotels ranked (`3/7`, `/6` when I had no
 * rate), and, when a competitor undercut me, who and by how much (`3/7;100024;89.5;102;EUR`: the
 * competitor, its rate, mine, the currency), so that a run judged late alerts what it showed.
 * A day written before keeps the rank alone (`3`).
 */
interface RankState {
	rank: number | null;
	rankedHotels: number | null;
	undercut?: { hotelCode: number; rate: number; myRate: number; currency: string };
}

function rankStateText(position: Position, undercut: boolean): string {
	const rank = `${position.rank ?? ''}/${position.rankedHotels}`;
	const competitor = position.cheapestCompetitor;
	if (!undercut || !competitor || position.myRate === null) return rank;
	return [rank, competitor.hotelCode, competitor.rate, position.myRate, position.currency ?? ''].join(';');
}

function readRankState(text: string): RankState {
	const [rank, code, rate, myRate, currency = ''] = text.split(';');
	const [mine, ranked] = rank.split('/');
	const numberOf = (part: string | undefined) => (part === undefined || part === '' ? null : Number(part));
	const undercut = code === undefined ? undefined : { hotelCode: Number(code), rate: Number(rate), myRate: Number(myRate), currency };
	return { rank: numberOf(mine), rankedHotels: numberOf(ranked), undercut };
}

/** A position as far as a positions day remembers it: what a run judged late alerts with. */
function rememberedPosition(myHotelCode: number, state: RankState): Position {
	const { undercut } = state;
	const gap = undercut ? round2(undercut.myRate - undercut.rate) : null;
	return {
		myHotelCode,
		myRate: undercut?.myRate ?? null,
		currency: undercut?.currency ?? null,
		lowest: undercut?.rate ?? null,
		median: null,
		highest: null,
		rank: state.rank,
		rankedHotels: state.rankedHotels ?? 0,
		soldOutCompetitors: 0,
		otherCurrency: [],
		cheapestCompetitor: undercut ? { hotelCode: undercut.hotelCode, hotelName: '', rate: undercut.rate, websiteCode: 0, roomType: '', currency: undercut.currency } : null,
		gap,
		gapPercent: undercut && gap !== null ? round2((gap / undercut.myRate) * 100) : null,
		position: state.rank === null ? 'soldOut' : 'inside',
		competitors: [],
	};
}

/**
 * The item of a run judged late, from its alert (`rank 1 → 2 of 3`, or an undercut naming the
 * rank beside it): the ranks, whether each kind alerted, and the alerts.
 */
function lateItem(group: Group, alerts: readonly ReportedChange[]): IDataObject {
	const [alert] = alerts;
	const ranks = /rank (\S+) → (\S+) of (\d+)/.exec(alert.comparedWith);
	const rankOf = (text: string | undefined) => (text === undefined || text === '-' ? null : Number(text));
	const { checkIn, los, guests } = group.items[0].observation;
	return {
		myHotelCode: alert.hotelCode,
		checkIn,
		los,
		guests,
		websiteCode: alert.websiteCode,
		rank: ranks ? rankOf(ranks[2]) : null,
		rankedHotels: ranks ? Number(ranks[3]) : null,
		previousRank: ranks ? rankOf(ranks[1]) : null,
		rankChanged: ranks !== null,
		undercut: alerts.some((each) => each.changeType === 'undercut' || each.comparedWith.includes('undercut by')),
		judgedLate: true,
		runCollected: alert.previousCollected,
		alerts: alerts as unknown as IDataObject[],
	};
}

function comparing(compare: CompareSettings): StandingKind<Worked> {
	const rule = { myHotelCode: compare.myHotelCode, sameWebsite: compare.sameWebsite, rateField: compare.rateField };
	const rankFirst = compare.alertOn === 'rankChanged';
	return {
		operation: 'compareWithMyHotel',
		kind: 'rank',
		groupOf: ({ checkIn, los, guests, websiteCode }) => {
			const website = compare.sameWebsite ? websiteCode : null;
			const month = checkIn.slice(0, 7);
			return {
				key: [compare.myHotelCode, website ?? '*', checkIn, los, guests].join('|'),
				monthKey: rankMonthKey(compare.myHotelCode, website, month, los, guests),
				hotelCode: compare.myHotelCode,
				rateFilter: allOf(eq('month', month), eq('los', los), eq('guests', guests), ...(website === null ? [] : [eq('websiteCode', website)])),
				holds: (stay) => stay.checkIn === checkIn && stay.los === los && stay.guests === guests && (website === null || stay.websiteCode === website),
			};
		},
		work: (_, stays) => {
			const rates = stays.map(({ hotelCode, hotelName, websiteCode, roomType, currency, ...stay }) => ({ hotelCode, hotelName, websiteCode, roomType, currency, rate: stay[compare.rateField] }));
			const position = compSetPosition(compare.myHotelCode, rates);
			const mine = hotelOffers(rates).find((offer) => offer.hotelCode === compare.myHotelCode);
			const myName = stays.find((stay) => stay.hotelCode === compare.myHotelCode)?.hotelName ?? '';
			return { standing: { position, myName, myRoomType: mine?.rate ? mine.roomType : '' }, state: rankStateText(position, isUndercut(position, compare.undercut)) };
		},
		verdict: (group, { standing: worked }, { previous, marks, complete, stale }) => {
			const previousRank = previous === undefined ? null : readRankState(previous.value).rank;
			const undercut = isUndercut(worked.position, compare.undercut);
			const standing: CompareStanding = {
				first: group.items[0].observation,
				position: worked.position,
				previousRank,
				rankChanged: !stale && !marks.changed && complete && previous !== undefined && worked.position.rank !== previousRank,
				undercut,
				myName: worked.myName,
				myRoomType: worked.myRoomType,
			};
			// An undercut on one website is final once it shows (a competitor cheaper still only widens
			// it); across all websites my cheapest website may still come, so it waits for a complete view.
			const undercutAlert = !stale && !marks.undercut && undercut && (compare.sameWebsite || complete);
			const item = compareItem(rule, standing);
			if (worked.position.position === 'notShopped') return { always: false, alerting: false, alerts: [], item, marks };
			const alerting = compare.alertOn === 'always' || (compare.alertOn === 'undercut' ? undercutAlert : standing.rankChanged);
			const alerts = alerting ? compareAlerts(rule, standing, undercutAlert, rankFirst) : [];
			return {
				always: compare.alertOn === 'always',
				alerting,
				alerts,
				item,
				// What an alert of this batch names (the other kind beside the one Alert On asks for) is not alerted again in the run.
				marks: { ...marks, changed: marks.changed || (alerting && standing.rankChanged), undercut: marks.undercut || (alerting && undercutAlert) },
			};
		},
		late: (group, ended) => {
			const was = readRankState(ended.before);
			const now = readRankState(ended.now);
			const rankChanged = compare.alertOn !== 'undercut' && !ended.marks.changed && now.rank !== was.rank;
			// Only an undercut across all websites waits for a complete view.
			const undercut = !compare.sameWebsite && compare.alertOn !== 'rankChanged' && !ended.marks.undercut && now.undercut !== undefined;
			if (!rankChanged && !undercut) return undefined;
			const first = group.items[0].observation;
			const standing: CompareStanding = { first, position: rememberedPosition(compare.myHotelCode, now), previousRank: was.rank, rankChanged, undercut, myName: '', myRoomType: '' };
			const alerts = compareAlerts(rule, standing, undercut, rankFirst).map((alert) => ({ ...alert, previousCollected: ended.dtCollected }));
			return { alerts, item: lateItem(group, alerts) };
		},
		lateItem,
	};
}

export async function execute(this: IExecuteFunctions, store: Store): Promise<INodeExecutionData[]> {
	const compare = readSettings(this, () => settings(this));
	return await runStanding(store, compare, readRecords(this, compare.rateField), compare.rateField, comparing(compare));
}
