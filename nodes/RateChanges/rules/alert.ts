import type { ChangeType } from './observation';

/**
 * An alert as the changes table keeps it and a digest lists it, whichever operation raised it:
 * a rate that moved (Detect Changes), an undercut or a change of rank (Compare With My Hotel), a
 * website selling below the reference (Check Parity).
 */

export type StandingType = 'undercut' | 'rankChanged' | 'parityLoss';

export type ReportedType = ChangeType | StandingType;

export interface ReportedChange {
	shopId: number | null;
	hotelCode: number;
	hotelName: string;
	/** null: compared across all websites. */
	websiteCode: number | null;
	/** The website's name ("hotels.com"), from its record's sourceUrl; '' or absent when unknown (alerts stored before it was kept). */
	websiteName?: string;
	checkIn: string;
	los: number;
	guests: number;
	/** Empty for an undercut or a change of rank: a stay-night spans room types. */
	roomType: string;
	currency: string;
	rateField: string;
	changeType: ReportedType;
	previousRate: number | null;
	rate: number | null;
	change: number | null;
	changePercent: number | null;
	previousCollected: string | null;
	/** Undercut: the competitor; parity loss: the reference website; rank change: the ranks. */
	comparedWith: string;
	comparedRate: number | null;
	severity: string;
	dtCollected: string;
}
