import { round2 } from './amounts';

/**
 * Rate parity of one hotel's stay and room across websites: pure. Totals are compared with totals
 * (the rate plus its tax where the website shows tax apart), since that is what a guest pays.
 */

/** The latest total of the stay and room on one website. */
export interface WebsiteTotal {
	websiteCode: number;
	/** Its name ("hotels.com"), where a record of it told; '' or absent when unknown. */
	websiteName?: string;
	currency: string;
	/** null: sold out on this website. */
	total: number | null;
}

export type ParityState = 'win' | 'meet' | 'loss' | 'soldOut' | 'otherCurrency' | 'reference' | 'noReference';

export type Severity = 'low' | 'medium' | 'high';

export interface WebsiteParity {
	websiteCode: number;
	/** '' when unknown. */
	websiteName: string;
	total: number | null;
	/** win: the reference is cheaper; meet: within the tolerance; loss: this website sells below the reference. */
	state: ParityState;
	/** total − the reference total. */
	difference: number | null;
	/** difference as a percentage of the reference total. */
	differencePercent: number | null;
	/** Of a loss: low below 5 %, medium below 10 %, high from 10 % under the reference. */
	severity: Severity | null;
}

export type Reference = { kind: 'website'; websiteCode: number } | { kind: 'lowest' };

export interface Tolerance {
	percent: number;
	amount: number;
}

export interface Parity {
	/** The website the others are held against; null when it has no total for this stay. */
	referenceWebsite: number | null;
	/** The reference website's name; '' when unknown. */
	referenceWebsiteName: string;
	referenceTotal: number | null;
	currency: string | null;
	websites: WebsiteParity[];
	losses: number;
	/** The worst severity of a loss, or null without one. */
	severity: Severity | null;
}


const SEVERITY_ORDER: Severity[] = ['low', 'medium', 'high'];

export function severityOf(differencePercent: number): Severity {
	const below = Math.abs(differencePercent);
	if (below >= 10) return 'high';
	if (below >= 5) return 'medium';
	return 'low';
}

/** The total a guest pays: the rate, plus the tax where the website shows it apart (taxStatus 0). */
export function totalOf(rate: number | null, taxAmount: number | null, taxStatus: number | null): number | null {
	if (rate === null || rate <= 0) return null;
	return taxStatus === 0 && taxAmount !== null ? round2(rate + taxAmount) : rate;
}

/**
 * Floating point's share in a percentage of two amounts in cents: 3.12 of 104 is
 * 3.0000000000000004 %, and must meet a tolerance of 3 %. A cent over a tolerance is a far larger
 * share (a millionth of a percent of a total of a million), so this lets no real difference through.
 */
const PERCENT_EPSILON = 1e-9;

/**
 * Within the tolerance: a difference no larger than either tolerance set (1 % or 2.00, whichever
 * is wider); with neither set, only an equal total meets.
 */
function withinTolerance(difference: number, reference: number, tolerance: Tolerance): boolean {
	const size = Math.abs(difference);
	if (size === 0) return true;
	return (tolerance.amount > 0 && size <= tolerance.amount) || (tolerance.percent > 0 && (size / reference) * 100 <= tolerance.percent + PERCENT_EPSILON);
}

export function parityOf(totals: readonly WebsiteTotal[], reference: Reference, tolerance: Tolerance): Parity {
	const sorted = [...totals].sort((a, b) => a.websiteCode - b.websiteCode);
	const onSale = sorted.filter((website) => website.total !== null && website.total > 0);
	const referenceSite =
		reference.kind === 'website'
			? onSale.find((website) => website.websiteCode === reference.websiteCode)
			: [...onSale].sort((a, b) => (a.total as number) - (b.total as number) || a.websiteCode - b.websiteCode)[0];
	if (!referenceSite) {
		return {
			referenceWebsite: null,
			referenceWebsiteName: '',
			referenceTotal: null,
			currency: null,
			websites: sorted.map((website) => ({ websiteCode: website.websiteCode, websiteName: website.websiteName ?? '', total: website.total, state: website.total === null ? 'soldOut' : 'noReference', difference: null, differencePercent: null, severity: null })),
			losses: 0,
			severity: null,
		};
	}
	const referenceTotal = referenceSite.total as number;
	const websites = sorted.map((website): WebsiteParity => {
		const base = { websiteCode: website.websiteCode, websiteName: website.websiteName ?? '', total: website.total };
		if (website.websiteCode === referenceSite.websiteCode) return { ...base, state: 'reference', difference: 0, differencePercent: 0, severity: null };
		if (website.total === null || website.total <= 0) return { ...base, state: 'soldOut', difference: null, differencePercent: null, severity: null };
		if (website.currency !== referenceSite.currency) return { ...base, state: 'otherCurrency', difference: null, differencePercent: null, severity: null };
		const difference = round2(website.total - referenceTotal);
		const differencePercent = round2((difference / referenceTotal) * 100);
		if (withinTolerance(difference, referenceTotal, tolerance)) return { ...base, state: 'meet', difference, differencePercent, severity: null };
		if (difference > 0) return { ...base, state: 'win', difference, differencePercent, severity: null };
		return { ...base, state: 'loss', difference, differencePercent, severity: severityOf(differencePercent) };
	});
	const lossSeverities = websites.flatMap((website) => (website.severity ? [website.severity] : []));
	return {
		referenceWebsite: referenceSite.websiteCode,
		referenceWebsiteName: referenceSite.websiteName ?? '',
		referenceTotal,
		currency: referenceSite.currency,
		websites,
		losses: lossSeverities.length,
		severity: lossSeverities.sort((a, b) => SEVERITY_ORDER.indexOf(b) - SEVERITY_ORDER.indexOf(a))[0] ?? null,
	};
}

/** The states of the websites as one text, to tell whether any changed since the last shop. */
export function parityStates(parity: Parity): string {
	return parity.websites.map((website) => `${website.websiteCode}:${website.state}`).join(',');
}
