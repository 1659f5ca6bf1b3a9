import type { IDataObject } from 'n8n-workflow';

import type { ReportedChange } from './alert';
import type { Observation, RateField } from './observation';
import type { Parity } from './parity';
import type { Position } from './position';
import { websiteLabel } from './websites';

/**
 * What Compare With My Hotel and Check Parity put out and keep as alerts, built from what they
 * worked out for one stay-night (or stay): pure.
 */

/** What Compare With My Hotel found for one stay-night. */
export interface CompareStanding {
	/** The first incoming record of the stay-night. */
	first: Observation;
	position: Position;
	previousRank: number | null;
	rankChanged: boolean;
	undercut: boolean;
	myName: string;
	/** My cheapest room on sale for the stay-night, or '' when I have none. */
	myRoomType: string;
}

export interface CompareRule {
	myHotelCode: number;
	sameWebsite: boolean;
	rateField: RateField;
}

/**
 * A stay-night's alert, one row whatever flags it carries (a digest lists it once): the kind Alert
 * On asks for first (`rankFirst`: the change of rank; else the undercut, when `alertUndercut`),
 * the other kind when that one is missing, and the other flag named beside it in `comparedWith`.
 */
export function compareAlerts(rule: CompareRule, standing: CompareStanding, alertUndercut: boolean, rankFirst = false): ReportedChange[] {
	const { first, position, previousRank, rankChanged, myName, myRoomType } = standing;
	const base = {
		shopId: first.shopId,
		hotelCode: rule.myHotelCode,
		hotelName: myName,
		websiteCode: rule.sameWebsite ? first.websiteCode : null,
		websiteName: rule.sameWebsite ? (first.websiteName ?? '') : '',
		checkIn: first.checkIn,
		los: first.los,
		guests: first.guests,
		roomType: myRoomType,
		currency: position.currency ?? '',
		rateField: rule.rateField,
		previousRate: null,
		rate: position.myRate,
		previousCollected: null,
		severity: '',
		dtCollected: first.dtCollected,
	};
	const competitor = position.cheapestCompetitor;
	const undercut: ReportedChange | undefined =
		alertUndercut && competitor
			? {
					...base,
					changeType: 'undercut',
					comparedWith: `hotel ${competitor.hotelCode} ${competitor.hotelName}`.trim() + (competitor.roomType ? ` (${competitor.roomType})` : ''),
					comparedRate: competitor.rate,
					change: position.gap,
					changePercent: position.gapPercent,
				}
			: undefined;
	const rank: ReportedChange | undefined = rankChanged
		? {
				...base,
				changeType: 'rankChanged',
				comparedWith: `rank ${previousRank ?? '-'} → ${position.rank ?? '-'} of ${position.rankedHotels}`,
				comparedRate: null,
				change: null,
				changePercent: null,
			}
		: undefined;
	const [preferred, other] = rankFirst ? [rank, undercut] : [undercut, rank];
	const alert = preferred ?? other;
	if (!alert) return [];
	return [preferred && other ? { ...alert, comparedWith: `${alert.comparedWith}; ${other.changeType === 'undercut' ? `undercut by ${other.comparedWith}` : other.comparedWith}` } : alert];
}

/** Compare With My Hotel's output item for a stay-night. */
export function compareItem(rule: CompareRule, standing: CompareStanding): IDataObject {
	const { first, position, previousRank, rankChanged, undercut, myName } = standing;
	const { competitors, ...summary } = position;
	return {
		...summary,
		myHotelName: myName,
		checkIn: first.checkIn,
		los: first.los,
		guests: first.guests,
		websiteCode: rule.sameWebsite ? first.websiteCode : null,
		websiteName: rule.sameWebsite ? (first.websiteName ?? '') : '',
		previousRank,
		rankChanged,
		undercut,
		competitors: competitors as unknown as IDataObject[],
	};
}

/** The alerts of a stay's parity: one for each website that loses. */
export function parityAlerts(first: Observation, parity: Parity): ReportedChange[] {
	return parity.websites
		.filter((website) => website.state === 'loss')
		.map((website) => ({
			shopId: first.shopId,
			hotelCode: first.hotelCode,
			hotelName: first.hotelName,
			websiteCode: website.websiteCode,
			websiteName: website.websiteName,
			checkIn: first.checkIn,
			los: first.los,
			guests: first.guests,
			roomType: first.roomType,
			currency: parity.currency ?? '',
			rateField: 'totalRate',
			changeType: 'parityLoss',
			previousRate: null,
			rate: website.total,
			change: website.difference,
			changePercent: website.differencePercent,
			previousCollected: null,
			comparedWith: websiteLabel(parity.referenceWebsite as number, parity.referenceWebsiteName),
			comparedRate: parity.referenceTotal,
			severity: website.severity ?? '',
			dtCollected: first.dtCollected,
		}));
}

/** Check Parity's output item for a stay. */
export function parityItem(first: Observation, parity: Parity, stateChanged: boolean, previousStates: string | null): IDataObject {
	const { hotelCode, hotelName, checkIn, los, guests, roomType } = first;
	return { hotelCode, hotelName, checkIn, los, guests, roomType, ...(parity as unknown as IDataObject), stateChanged, previousStates };
}
