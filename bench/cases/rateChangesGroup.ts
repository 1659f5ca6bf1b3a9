import { runDailyShops, staysIn, type DaySample, type StaySet } from '../../platform/engine/dailyShops';
import { stopEngine } from '../../platform/engine';
import { formatDuration } from '../../platform/n8n';
import { progress } from '../measure';
import type { BenchmarkResult } from '../report';
import { row } from './common';

/**
 * Benchmark 9: Rate Changes at group scale, the 100-hotel group of issue #28 (100 hotels × 10
 * websites × 3 room types × 365 check-in days: 1,095,000 stays). The first shop, then daily shops
 * with 10 % of the stays moved, through Detect Changes and the morning Digest in n8n's engine
 * against the Data Tables stand-in with n8n 2.41.1's Postgres measure (heap, indexes and TOAST;
 * exact against a real n8n: platform/dataTables/README.md). The size after each day against the
 * 100 MiB target, the records per second this process sustained, the alerts exact.
 *
 * Not measured here: the same in a real n8n in queue mode (2 workers) on Postgres, whose rate is
 * bound by n8n's own work per execution (benchmark 6); docs/nodes/rate-changes-reference.md says so.
 */

export const GROUP_SET: StaySet = { hotels: 100, websites: 10, roomTypes: 3, windowDays: 365 };

const MIB = 1024 * 1024;
const TARGET_BYTES = 100 * MIB;
const TARGET_RATE = 200;

const total = (day: DaySample): number => day.bytes.rates + day.bytes.changes;
const mib = (bytes: number): string => `${(bytes / MIB).toFixed(1)} MiB`;

export async function rateChangesGroup(days: number): Promise<BenchmarkResult> {
	const started = Date.now();
	let samples: DaySample[] = [];
	try {
		samples = await runDailyShops({
			set: GROUP_SET,
			days,
			typeVersion: 1.1,
			movedShare: 0.1,
			database: 'postgres',
			version: '2.41.1',
			perDelivery: 500,
			onDay: (sample) => {
				progress(`  group, day ${sample.day}: ${mib(total(sample))} (peak ${mib(sample.shopBytes.rates + sample.shopBytes.changes)}), ${sample.alerts} alerts, ${formatDuration(sample.elapsedMs)}`);
			},
		});
	} finally {
		await stopEngine();
	}
	const first = samples[0];
	const last = samples[samples.length - 1];
	const rate = (day: DaySample) => day.records / (day.elapsedMs / 1000);
	const later = samples.slice(1);
	const wrong = samples.reduce((sum, day) => sum + day.missing + day.unexpected + day.twice + Math.abs(day.digested - day.alerts), 0);
	const peak = Math.max(...samples.map((day) => day.shopBytes.rates + day.shopBytes.changes));
	const slowest = later.length > 0 ? Math.min(...later.map(rate)) : rate(first);
	return {
		id: '9',
		title: 'Rate Changes at group scale: 1.1M stays on Postgres',
		setup: `The ${staysIn(GROUP_SET).toLocaleString('en-US')} stays of a 100-hotel group shopped daily for ${days} days (the first shop, then 10 % of the stays moved each day), Detect Changes in deliveries of 500 records, 2 at once, and the morning Digest, in n8n's engine against the Data Tables stand-in with n8n 2.41.1's Postgres measure.`,
		packageSide: 'Rate Changes 1.1, its defaults',
		builtInSide: 'after the last day',
		columns: { package: 'First shop', builtIn: `After day ${days}` },
		rows: [
			row('Size of the tables as n8n 2.41.1 measures them on Postgres', 'MiB', total(first) / MIB, total(last) / MIB, '≤ 100 MiB', total(last) <= TARGET_BYTES && total(first) <= TARGET_BYTES),
			row('Largest size, once a shop is in and before its digest', 'MiB', (first.shopBytes.rates + first.shopBytes.changes) / MIB, peak / MIB, '≤ 100 MiB', peak <= TARGET_BYTES),
			row('Rates table / changes table', '', `${mib(first.bytes.rates)} / ${mib(first.bytes.changes)}`, `${mib(last.bytes.rates)} / ${mib(last.bytes.changes)}`),
			row('Bytes per stay', 'bytes', total(first) / staysIn(GROUP_SET), total(last) / staysIn(GROUP_SET)),
			row('Records per second, this process on this machine (the slowest later day)', 'records/s', rate(first), slowest, `≥ ${TARGET_RATE}/s`, slowest >= TARGET_RATE, true),
			row('Alerts (missing, unexpected or twice; digests that differed)', '', first.alerts, `${later.reduce((sum, day) => sum + day.alerts, 0)} (${wrong})`, 'exact', wrong === 0),
		],
		notes: [
			'In process: the rate is what Rate Changes and the stand-in sustain on this machine; in a real n8n each execution also costs n8n its own work (webhook, queue, run data), which benchmark 6 measures for the trigger.',
			`Postgres: every table vacuumed after each day, as autovacuum would have by then. Run took ${formatDuration(Date.now() - started)}.`,
		],
		rounds: samples,
	};
}
