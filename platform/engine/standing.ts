import type { IDataObject } from 'n8n-workflow';

import { parityOf, parityStates, type Reference, type Tolerance } from '../../nodes/RateChanges/parity';
import { compSetPosition, isUndercut, type UndercutRule } from '../../nodes/RateChanges/position';
import type { Observation, RateField } from '../../nodes/RateChanges/rateChanges';
import { compareChangeRows, compareItem, parityChangeRows, parityItem } from '../../nodes/RateChanges/standing';

/**
 * Compare With My Hotel and Check Parity (nodes/RateChanges/standing.ts) over rate records, with
 * maps in place of n8n's Data Tables: the rates table as Detect Changes keeps it (the latest
 * observation of each stay) and the positions table (what each stay-night or stay was last time).
 * The node reaches those tables through n8n's public API, which no in-process run has, so its pure
 * functions run here, the items and changes rows built by the same functions of standing.ts; the
 * e2e suite runs the node itself against n8n.
 */

export interface CompareRule {
	myHotelCode: number;
	sameWebsite: boolean;
	rateField: RateField;
	alertOn: 'undercut' | 'rankChanged' | 'always';
	undercut: UndercutRule;
}

export interface ParityRule {
	hotelCode: number;
	reference: Reference;
	tolerance: Tolerance;
	alertOn: 'losses' | 'stateChanges';
}

/** What one execution of the node gives: its output items and the rows it adds to the changes table. */
export interface StandingRun {
	items: IDataObject[];
	changeRows: IDataObject[];
}

/** The tables one Rate Changes node reads and writes across executions. */
export class StandingTables {
	private readonly rates = new Map<string, Observation>();
	private readonly positions = new Map<string, string>();

	/** Detect Changes (or the incoming records, when newer) keeps the latest observation of each stay. */
	private store(observations: readonly Observation[]): void {
		for (const observation of observations) {
			const stored = this.rates.get(observation.stayKey);
			if (!stored || observation.dtCollected > stored.dtCollected) this.rates.set(observation.stayKey, observation);
		}
	}

	private rows(matches: (row: Observation) => boolean): Observation[] {
		return [...this.rates.values()].filter(matches);
	}

	compareWithMyHotel(rule: CompareRule, observations: readonly Observation[]): StandingRun {
		this.store(observations);
		const groups = groupBy(observations, ({ checkIn, los, guests, websiteCode }) => [rule.myHotelCode, rule.sameWebsite ? websiteCode : '*', checkIn, los, guests].join('|'));
		const standings = [...groups].map(([key, group]) => {
			const first = group[0];
			const rows = this.rows((row) => row.checkIn === first.checkIn && row.los === first.los && row.guests === first.guests && (!rule.sameWebsite || row.websiteCode === first.websiteCode));
			const position = compSetPosition(
				rule.myHotelCode,
				rows.map((row) => ({ hotelCode: row.hotelCode, hotelName: row.hotelName, websiteCode: row.websiteCode, roomType: row.roomType, currency: row.currency, rate: row[rule.rateField] })),
			);
			const previous = this.positions.get(`rank|${key}`);
			const previousRank = previous === undefined || previous === '' ? null : Number(previous);
			const rankChanged = previous !== undefined && position.rank !== previousRank;
			const myName = rows.find((row) => row.hotelCode === rule.myHotelCode)?.hotelName ?? '';
			this.positions.set(`rank|${key}`, position.rank === null ? '' : String(position.rank));
			return { first, position, previousRank, rankChanged, myName, undercut: isUndercut(position, rule.undercut) };
		});
		const alerting = standings.filter(({ position, rankChanged, undercut }) => {
			if (position.position === 'notShopped') return false;
			if (rule.alertOn === 'always') return true;
			return rule.alertOn === 'undercut' ? undercut : rankChanged;
		});
		const changeRows = alerting.flatMap((standing) => compareChangeRows(rule, standing, standing.undercut));
		const items = alerting.map((standing) => compareItem(rule, standing));
		return { items, changeRows };
	}

	checkParity(rule: ParityRule, observations: readonly Observation[]): StandingRun {
		this.store(observations);
		const groups = groupBy(
			observations.filter((observation) => observation.hotelCode === rule.hotelCode),
			({ hotelCode, checkIn, los, guests, roomType }) => [hotelCode, checkIn, los, guests, roomType].join('|'),
		);
		const results = [...groups].map(([key, group]) => {
			const first = group[0];
			const rows = this.rows(
				(row) => row.hotelCode === first.hotelCode && row.checkIn === first.checkIn && row.los === first.los && row.guests === first.guests && row.roomType === first.roomType,
			);
			const parity = parityOf(
				rows.map((row) => ({ websiteCode: row.websiteCode, currency: row.currency, total: row.totalRate })),
				rule.reference,
				rule.tolerance,
			);
			const states = parityStates(parity);
			const previous = this.positions.get(`parity|${key}`);
			const stateChanged = previous === undefined ? parity.losses > 0 : previous !== states;
			this.positions.set(`parity|${key}`, states);
			return { first, parity, stateChanged, previousStates: previous ?? null };
		});
		const alerting = results.filter(({ parity, stateChanged }) => (rule.alertOn === 'losses' ? parity.losses > 0 : stateChanged));
		const changeRows = alerting.flatMap(({ first, parity }) => parityChangeRows(first, parity));
		const items = alerting.map(({ first, parity, stateChanged, previousStates }) => parityItem(first, parity, stateChanged, previousStates));
		return { items, changeRows };
	}
}

function groupBy(observations: readonly Observation[], keyOf: (observation: Observation) => string): Map<string, Observation[]> {
	const groups = new Map<string, Observation[]>();
	for (const observation of observations) {
		const key = keyOf(observation);
		groups.set(key, [...(groups.get(key) ?? []), observation]);
	}
	return groups;
}
