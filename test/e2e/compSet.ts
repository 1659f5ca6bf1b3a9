import type { RateRecord } from '../../platform/sandbox';
import { round2 } from '../../nodes/RateChanges/rules/amounts';

/**
 * What Compare With My Hotel and Check Parity must alert on a comp-set shop, worked out here from
 * its records alone: the undercut stay-nights and the parity losses of my hotel. Night keys are
 * `websiteCode|YYYY-MM-DD`.
 */

/** A record's total, what parity compares: the onsite rate, with the tax when it is excluded. */
function total(record: RateRecord): number {
	return record.taxStatus === 0 ? round2(record.onsiteRate + record.taxAmount) : record.onsiteRate;
}

const nightOf = (record: RateRecord) => `${record.websiteCode}|${record.checkIn.slice(0, 10)}`;

/** The stay-nights where a competitor in my currency undercuts my hotel on the same website by `atLeast` % or more. */
export function expectedUndercuts(records: readonly RateRecord[], myHotel: number, atLeast: number): string[] {
	const nights = new Map<string, RateRecord[]>();
	for (const record of records) nights.set(nightOf(record), [...(nights.get(nightOf(record)) ?? []), record]);
	return [...nights]
		.filter(([, night]) => {
			const mine = night.find((record) => record.hotelCode === myHotel);
			if (!mine || mine.onsiteRate === 0) return false;
			const competitors = night.filter((record) => record.hotelCode !== myHotel && record.onsiteRate > 0 && record.currency === mine.currency);
			if (competitors.length === 0) return false;
			const gap = round2(mine.onsiteRate - Math.min(...competitors.map((record) => record.onsiteRate)));
			return gap > 0 && round2((gap / mine.onsiteRate) * 100) >= atLeast;
		})
		.map(([night]) => night)
		.sort();
}

/** The stay-nights where a website sells my hotel's room more than `tolerance` % below the reference website. */
export function expectedParityLosses(records: readonly RateRecord[], myHotel: number, referenceWebsite: number, tolerance: number): string[] {
	const mine = records.filter((record) => record.hotelCode === myHotel);
	return mine
		.filter((record) => {
			if (record.websiteCode === referenceWebsite || record.onsiteRate === 0) return false;
			const reference = mine.find((candidate) => candidate.websiteCode === referenceWebsite && candidate.checkIn === record.checkIn);
			if (!reference || reference.onsiteRate === 0) return false;
			const difference = round2(total(record) - total(reference));
			return difference < 0 && (Math.abs(difference) / total(reference)) * 100 > tolerance;
		})
		.map(nightOf)
		.sort();
}
