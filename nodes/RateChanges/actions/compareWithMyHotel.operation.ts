import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { allOf, eq } from '../storage/dataTables';
import { rankMonthKey } from '../storage/positionMonths';
import type { Store } from '../storage/store';
import { compSetPosition, hotelOffers, isUndercut, type Position, type UndercutRule } from '../rules/position';
import type { RateField } from '../rules/observation';
import { compareAlerts, compareItem, type CompareStanding } from '../rules/standing';

import { codeField, numberField, optionField, positionsTableField, rateFieldField, readSettings, recordSettings, showFor, textField } from './fields';
import { readRecords } from './records';
import { runStanding, type StandingKind, type StandingSettings } from './standing';

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

function comparing(compare: CompareSettings): StandingKind<Worked> {
	const rule = { myHotelCode: compare.myHotelCode, sameWebsite: compare.sameWebsite, rateField: compare.rateField };
	const standingOf = (group: Parameters<StandingKind<Worked>['work']>[0], worked: Worked, previousState: string | undefined, mayAlert: boolean, complete: boolean): CompareStanding => {
		const previousRank = previousState === undefined || previousState === '' ? null : Number(previousState);
		return {
			first: group.items[0].observation,
			position: worked.position,
			previousRank,
			rankChanged: mayAlert && complete && previousState !== undefined && worked.position.rank !== previousRank,
			undercut: isUndercut(worked.position, compare.undercut),
			myName: worked.myName,
			myRoomType: worked.myRoomType,
		};
	};
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
			return { standing: { position, myName, myRoomType: mine?.rate ? mine.roomType : '' }, state: position.rank === null ? '' : String(position.rank) };
		},
		verdict: (group, { standing: worked }, previous, mayAlert, complete) => {
			const standing = standingOf(group, worked, previous?.value, mayAlert, complete);
			const item = compareItem(rule, standing);
			if (worked.position.position === 'notShopped') return { always: false, alerting: false, alerts: [], item };
			const alerting = compare.alertOn === 'always' || (compare.alertOn === 'undercut' ? mayAlert && standing.undercut : standing.rankChanged);
			return { always: compare.alertOn === 'always', alerting, alerts: alerting ? compareAlerts(rule, standing, mayAlert && standing.undercut, compare.alertOn === 'rankChanged') : [], item };
		},
	};
}

export async function execute(this: IExecuteFunctions, store: Store): Promise<INodeExecutionData[]> {
	const compare = readSettings(this, () => settings(this));
	return await runStanding(store, compare, readRecords(this, compare.rateField), compare.rateField, comparing(compare));
}
