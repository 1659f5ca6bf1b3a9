import { runDailyShops, TABLES, type DailyShopsOptions, type DaySample, type StaySet, type TableRole } from '../../platform/engine/dailyShops';

/**
 * State that stays bounded: a year of daily shops through Detect Changes, each followed by the
 * morning Digest, against the Data Tables stand-in, whose size models are n8n's own measures
 * (platform/dataTables/README.md). Past check-in days go from the rates table, alerts older than
 * Keep Changes (14 days) from the changes table, so once the window of check-in days has turned
 * over once, no table grows any more. A set small enough for npm test; benchmark 8 (`npm run
 * bench`, BENCH_ONLY=8) measures the one-hotel set of 36,500 stays the same way, against the
 * 10 MiB (SQLite) and 20 MiB (Postgres) targets.
 */

const SET: StaySet = { hotels: 2, websites: 2, roomTypes: 1, windowDays: 120 };
const DAYS = 365;
/** Keep Changes' default and a day: from then on each day's digest row replaces one that goes. */
const KEEP_FULL = 15;

const ROLES: TableRole[] = ['rates', 'changes'];

/** The most each table took while the window first turned over (every check-in day once passed), and the most after. */
function sizes(days: readonly DaySample[]) {
	const firstTurn = days.slice(KEEP_FULL - 1, KEEP_FULL - 1 + SET.windowDays);
	const later = days.slice(KEEP_FULL - 1 + SET.windowDays);
	const most = (samples: readonly DaySample[], role: TableRole) => Math.max(...samples.map((day) => day.bytes[role]));
	return Object.fromEntries(ROLES.map((role) => [role, { firstTurn: most(firstTurn, role), later: most(later, role) }]));
}

function describeYear(name: string, options: Pick<DailyShopsOptions, 'database' | 'version'>): void {
	describe(`${name}: a year of daily shops of ${SET.hotels * SET.websites * SET.roomTypes * SET.windowDays} stays (the one-hotel set's 36,500: benchmark 8)`, () => {
		let days: DaySample[];

		beforeAll(async () => {
			days = await runDailyShops({ set: SET, days: DAYS, minChangePercent: 0, perDelivery: 240, ...options });
		}, 600_000);

		it('alerts every move once, every day, and every morning digest lists the day\'s alerts', () => {
			const daily = days.slice(1).map((day) => ({ day: day.day, alerted: day.alerts > 0, wrong: day.missing + day.unexpected + day.twice, undigested: day.digested - day.alerts }));
			expect(daily.filter((day) => !day.alerted || day.wrong !== 0 || day.undigested !== 0)).toEqual([]);
			expect(days).toHaveLength(DAYS);
		});

		it.each(ROLES)('keeps the %s table within 10 % of the most it took while the window first turned over, for the rest of the year', (role) => {
			const { firstTurn, later } = sizes(days)[role];
			expect(firstTurn).toBeGreaterThan(0);
			expect({ table: TABLES[role], firstTurn, later: later <= firstTurn * 1.1 ? 'within 10 %' : later }).toEqual({ table: TABLES[role], firstTurn, later: 'within 10 %' });
		});

		it('keeps one row per hotel, website, room and month of the window, and one digest row per day of Keep Changes', () => {
			const last = days[days.length - 1];
			// 120 check-in days span 4 or 5 months; beside the digests, the clean-up's rows of the three tables it cleans (changes, rates and the rates' history).
			expect(last.rows.rates / (SET.hotels * SET.websites * SET.roomTypes)).toBeGreaterThanOrEqual(4);
			expect(last.rows.rates / (SET.hotels * SET.websites * SET.roomTypes)).toBeLessThanOrEqual(5);
			expect(last.rows.changes).toBeLessThanOrEqual(KEEP_FULL + 3);
		});
	});
}

describeYear('SQLite (n8n 2.8.4 and 2.41.1 measure it alike)', { database: 'sqlite', version: '2.41.1' });
describeYear("Postgres, n8n 2.41.1's measure (heap, indexes and TOAST)", { database: 'postgres', version: '2.41.1' });
