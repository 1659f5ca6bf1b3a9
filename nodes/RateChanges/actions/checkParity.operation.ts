import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { allOf, eq } from '../storage/dataTables';
import { parityMonthKey } from '../storage/positionMonths';
import type { Store } from '../storage/store';
import { parityOf, parityStates, type Parity, type ParityState, type Reference, type Tolerance, type WebsiteParity } from '../rules/parity';
import type { ReportedChange } from '../rules/alert';
import { parityAlerts, parityItem } from '../rules/standing';

import { codeField, numberField, optionField, positionsTableField, readSettings, recordSettings, showFor, textField } from './fields';
import { readRecords } from './records';
import { runStanding, type Group, type StandingKind, type StandingSettings } from './standing';

/**
 * Check Parity: a hotel's total for the same stay and room on every website, against a reference
 * website; alerts on losses or on every change of state (docs/nodes/rate-changes.md).
 */

/** Its option in the Operation field (the router lists it). */
export const option = {
	name: 'Check Parity',
	value: 'checkParity',
	description: "Compare a hotel's total for the same stay and room across websites against a reference website: win, meet or loss, with the severity of each loss",
	action: 'Check rate parity',
} as const;

const show = showFor(['checkParity']);

const hotelCode: INodeProperties = {
	displayName: 'Hotel Code',
	name: 'parityHotelCode',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. 100085',
	displayOptions: show,
	description: 'The hotel whose parity to check, usually yours. Records of other hotels are passed over.',
};

const reference: INodeProperties = {
	displayName: 'Reference',
	name: 'reference',
	type: 'options',
	default: 'website',
	displayOptions: show,
	options: [
		{ name: 'A Website', value: 'website', description: "The hotel's own site, or the website every other must not undercut" },
		{ name: 'The Lowest Website', value: 'lowest', description: 'The cheapest website of the stay; the others win or meet against it' },
	],
	description: 'What every website is held against',
};

const referenceWebsiteCode: INodeProperties = {
	displayName: 'Reference Website Code',
	name: 'referenceWebsiteCode',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. 1',
	displayOptions: showFor(['checkParity'], { reference: ['website'] }),
	description: "The website code of the reference, for example the hotel's own site",
};

const tolerancePercent: INodeProperties = {
	displayName: 'Tolerance (%)',
	name: 'tolerancePercent',
	type: 'number',
	typeOptions: { minValue: 0, numberPrecision: 2 },
	default: 1,
	displayOptions: show,
	description: 'A total within this percentage of the reference meets it. With an amount too, being within either meets.',
};

const toleranceAmount: INodeProperties = {
	displayName: 'Tolerance (Amount)',
	name: 'toleranceAmount',
	type: 'number',
	typeOptions: { minValue: 0, numberPrecision: 2 },
	default: 0,
	displayOptions: show,
	description: "A total within this amount of the reference, in the reference's currency, meets it",
};

const alertOn: INodeProperties = {
	displayName: 'Alert On',
	name: 'parityAlertOn',
	type: 'options',
	default: 'losses',
	displayOptions: show,
	options: [
		{ name: 'Losses', value: 'losses', description: 'Stays where a website sells below the reference by more than the tolerance' },
		{
			name: 'Every Change of State',
			value: 'stateChanges',
			description: "Stays where a website's state (win, meet, loss) differs from the last shop; the first time, stays with a loss",
		},
	],
	description: 'Which stays come out',
};

export const properties: INodeProperties[] = [hotelCode, reference, referenceWebsiteCode, tolerancePercent, toleranceAmount, alertOn, positionsTableField];

interface ParitySettings extends StandingSettings {
	hotelCode: number;
	reference: Reference;
	tolerance: Tolerance;
	alertOn: 'losses' | 'stateChanges';
}

function settings(context: IExecuteFunctions): ParitySettings {
	return {
		...recordSettings(context),
		positionsTable: textField(context, positionsTableField),
		hotelCode: codeField(context, hotelCode),
		reference: optionField(context, reference) === 'lowest' ? { kind: 'lowest' } : { kind: 'website', websiteCode: codeField(context, referenceWebsiteCode) },
		tolerance: { percent: numberField(context, tolerancePercent), amount: numberField(context, toleranceAmount) },
		alertOn: optionField<ParitySettings['alertOn']>(context, alertOn),
	};
}

/**
 * The websites' names the execution's records tell (their sourceUrl hosts): a stay's parity is
 * worked out with stored rates too, which keep no address, so a website whose record is not in the
 * batch is named by what any record of the execution said of it.
 */
function websiteNames(records: ReturnType<typeof readRecords>): Map<number, string> {
	const names = new Map<number, string>();
	for (const { observation } of records.observed) if (observation.websiteName) names.set(observation.websiteCode, observation.websiteName);
	return names;
}

/**
 * A stay's parity as a positions day remembers it (`4:reference,5:loss`): each website's state,
 * named as the execution's records name it, without totals.
 */
function rememberedParity(states: string, names: ReadonlyMap<number, string>): Parity {
	const websites = states.split(',').map((entry): WebsiteParity => {
		const [code, state] = entry.split(':');
		const websiteCode = Number(code);
		return { websiteCode, websiteName: names.get(websiteCode) ?? '', total: null, state: state as ParityState, difference: null, differencePercent: null, severity: null };
	});
	const reference = websites.find((website) => website.state === 'reference');
	return {
		referenceWebsite: reference?.websiteCode ?? null,
		referenceWebsiteName: reference?.websiteName ?? '',
		referenceTotal: null,
		currency: null,
		websites,
		losses: websites.filter((website) => website.state === 'loss').length,
		severity: null,
	};
}

/**
 * The item of a run judged late: its losses from its alerts (the positions day keeps states, not
 * totals); the states too where this execution judged it.
 */
function lateItem(group: Group, alerts: readonly ReportedChange[]): IDataObject {
	const { hotelCode, hotelName, checkIn, los, guests, roomType } = group.items[0].observation;
	return {
		hotelCode,
		hotelName,
		checkIn,
		los,
		guests,
		roomType,
		stateChanged: true,
		judgedLate: true,
		runCollected: alerts[0]?.previousCollected ?? null,
		lossWebsites: alerts.map((alert) => alert.websiteCode),
		alerts: alerts as unknown as IDataObject[],
	};
}

function checking(parity: ParitySettings, names: ReadonlyMap<number, string>): StandingKind<Parity> {
	const changedState = (worked: { standing: Parity; state: string }, previous: string | undefined) =>
		previous === undefined ? worked.standing.losses > 0 : previous !== worked.state;
	return {
		operation: 'checkParity',
		kind: 'parity',
		// The same hotel, stay and room on every website.
		groupOf: ({ hotelCode: code, checkIn, los, guests, roomType }) => {
			if (code !== parity.hotelCode) return undefined;
			const month = checkIn.slice(0, 7);
			return {
				key: [code, checkIn, los, guests, roomType].join('|'),
				monthKey: parityMonthKey(code, month, los, guests, roomType),
				hotelCode: code,
				rateFilter: allOf(eq('hotelCode', code), eq('month', month), eq('los', los), eq('guests', guests), eq('roomType', roomType)),
				holds: (stay) => stay.hotelCode === code && stay.checkIn === checkIn && stay.los === los && stay.guests === guests && stay.roomType === roomType,
			};
		},
		work: (group, stays) => {
			const named = new Map(names);
			for (const { observation } of group.items) if (observation.websiteName) named.set(observation.websiteCode, observation.websiteName);
			const standing = parityOf(
				stays.map((stay) => ({ websiteCode: stay.websiteCode, websiteName: stay.websiteName || named.get(stay.websiteCode) || '', currency: stay.currency, total: stay.totalRate })),
				parity.reference,
				parity.tolerance,
			);
			return { standing, state: parityStates(standing) };
		},
		verdict: (group, worked, { previous, marks, complete, stale }) => {
			const first = group.items[0].observation;
			// A change of state waits for the whole comp set (a complete view).
			const stateChanged = !stale && !marks.changed && complete && changedState(worked, previous?.value);
			if (parity.alertOn === 'stateChanges') {
				return {
					always: false,
					alerting: stateChanged,
					alerts: stateChanged ? parityAlerts(first, worked.standing) : [],
					item: parityItem(first, worked.standing, stateChanged, previous?.value ?? null),
					marks: { ...marks, changed: marks.changed || stateChanged },
				};
			}
			// A website selling below the reference stays below it whatever more arrives: each alerts once a run, as soon as it shows.
			const alerts = stale ? [] : parityAlerts(first, worked.standing).filter((alert) => !marks.losses.includes(alert.websiteCode as number));
			return {
				always: false,
				alerting: alerts.length > 0,
				alerts,
				item: parityItem(first, worked.standing, stateChanged, previous?.value ?? null),
				marks: { ...marks, losses: [...marks.losses, ...alerts.map((alert) => alert.websiteCode as number)] },
			};
		},
		late: (group, ended) => {
			if (parity.alertOn !== 'stateChanges' || ended.marks.changed || ended.now === ended.before) return undefined;
			const alerts = parityAlerts(group.items[0].observation, rememberedParity(ended.now, names)).map((alert) => ({ ...alert, previousCollected: ended.dtCollected }));
			return { alerts, item: { ...lateItem(group, alerts), runCollected: ended.dtCollected, states: ended.now, previousStates: ended.before } };
		},
		lateItem,
	};
}

export async function execute(this: IExecuteFunctions, store: Store): Promise<INodeExecutionData[]> {
	const check = readSettings(this, () => settings(this));
	const records = readRecords(this, 'onsiteRate');
	return await runStanding(store, check, records, 'onsiteRate', checking(check, websiteNames(records)));
}
