import { formatAmount, signedAmount } from './amounts';
import { DEFAULT_INDEX_BANDS, DEFAULT_OUTLIER_THRESHOLDS, type Band, type CalendarDay, type IndexBands, type OutlierKind, type OutlierThresholds, type WebsiteChoice } from './calendar';
import { emailTable, escapeHtml } from './html';
import { websiteLabel as namedWebsite } from './websites';

/** The Rate Calendar as a message: an HTML month grid for email, a short text for Slack or Teams. */

export interface CalendarMeta {
	hotelName: string;
	hotelCode: number;
	website: WebsiteChoice;
	/** The website's name, when the operation knows it (Hotel Info's websitename, "Booking.com"). */
	websiteName?: string;
	los: number;
	guests: number;
	/** The bands the calendar was built with, for the legend. Default: DEFAULT_INDEX_BANDS. */
	bands?: Partial<IndexBands>;
	/** The outlier rules it was built with, said under the grid. Default: DEFAULT_OUTLIER_THRESHOLDS. */
	outliers?: Partial<OutlierThresholds>;
}

export interface CalendarCounts {
	dates: number;
	cheaper: number;
	onPar: number;
	dearer: number;
	/** Dates my hotel is sold out. */
	soldOut: number;
	outliers: number;
	/** Dates with an event. */
	events: number;
}

/**
 * How many dates the text lists, one line each: three months. A Slack message holds at most 40,000
 * characters and a date's line up to about 150; a longer window says how many dates it leaves out.
 */
export const TEXT_DATES = 92;

export function calendarCounts(days: readonly CalendarDay[]): CalendarCounts {
	const counts: CalendarCounts = { dates: days.length, cheaper: 0, onPar: 0, dearer: 0, soldOut: 0, outliers: 0, events: 0 };
	for (const day of days) {
		if (day.band) counts[day.band]++;
		if (day.mySoldOut) counts.soldOut++;
		if (day.outlier) counts.outliers++;
		if (day.event) counts.events++;
	}
	return counts;
}

const BAND_LABELS: Record<Band, string> = { cheaper: 'cheaper', onPar: 'on par', dearer: 'dearer' };

/** Cell colours: light enough for black text, told apart without red and green alone. */
const BAND_COLOURS: Record<Band, string> = { cheaper: '#d2e3fc', onPar: '#f1f3f4', dearer: '#fde2c4' };
const NO_INDEX_COLOUR = '#ffffff';
const OUTSIDE_COLOUR = '#fafafa';
const EVENT_MARK = '★';
const OUTLIER_MARK = '!';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const GRID_WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const DAY_MS = 86_400_000;

function websiteLabel(meta: CalendarMeta): string {
	if (meta.website === 'lowest') return 'lowest rate of all websites';
	return namedWebsite(meta.website, meta.websiteName);
}

function stayLabel(meta: CalendarMeta): string {
	return `${meta.los} night${meta.los === 1 ? '' : 's'}, ${meta.guests} guest${meta.guests === 1 ? '' : 's'}`;
}

function windowLabel(days: readonly CalendarDay[]): string {
	if (days.length === 0) return 'no dates';
	const [first, last] = [days[0].date, days[days.length - 1].date];
	return first === last ? first : `${first} to ${last}`;
}

function currencyOf(days: readonly CalendarDay[]): string | null {
	return days.find((day) => day.myCurrency !== null)?.myCurrency ?? null;
}

function title(meta: CalendarMeta): string {
	return `Rate calendar: ${meta.hotelName || `Hotel ${meta.hotelCode}`} (${meta.hotelCode})`;
}

function subtitle(days: readonly CalendarDay[], meta: CalendarMeta): string {
	const currency = currencyOf(days);
	return [websiteLabel(meta), stayLabel(meta), windowLabel(days), ...(currency ? [currency] : [])].join(', ');
}

function countsLine(counts: CalendarCounts): string {
	return (
		`${counts.dates} date${counts.dates === 1 ? '' : 's'}: ${counts.cheaper} cheaper, ${counts.onPar} on par, ${counts.dearer} dearer; ` +
		`${counts.soldOut} sold out, ${counts.outliers} outlier${counts.outliers === 1 ? '' : 's'}, ${counts.events} with an event`
	);
}

const OUTLIER_LABELS: Record<OutlierKind, string> = {
	underpricedBusyDay: 'priced under the market on a busy day',
	overpricedQuietDay: 'priced over the market on a quiet day',
	farFromMedian: 'priced far from the market',
};

/** The outlier rules in words, as the email and the text state them. */
export function outlierRule(meta: CalendarMeta): string {
	const rules = { ...DEFAULT_OUTLIER_THRESHOLDS, ...meta.outliers };
	const busy = `at or under ${rules.busyDayIndexAtMost} on a busy day (an event of impact ${rules.busyEventScore} or more, or demand of ${rules.highDemand} or more)`;
	const quiet = `over ${rules.quietDayIndexAbove} on a quiet day (demand of ${rules.lowDemand} or less${rules.quietWithoutDemand ? ', or no demand data' : ''}, no busy event)`;
	const far = rules.farFromMedianPercent > 0 ? `, or ${rules.farFromMedianPercent} % or more from the comp median on any day` : '';
	return `Outliers: my index ${busy}, ${quiet}${far}.`;
}

function markers(day: CalendarDay): string {
	return [
		...(day.event ? [`<span style="color:#b06000;">${EVENT_MARK}</span>`] : []),
		...(day.outlier ? [`<span style="color:#ffffff;background-color:#c5221f;font-weight:bold;padding:0 3px;">${OUTLIER_MARK}</span>`] : []),
	].join(' ');
}

function rateLine(day: CalendarDay): string {
	if (day.mySoldOut) return '<span style="color:#c5221f;font-weight:bold;">Sold out</span>';
	if (day.myRate === null) return '<span style="color:#80868b;">&mdash;</span>';
	return `<strong>${escapeHtml(formatAmount(day.myRate))}</strong>${day.myRateArrow ? ` ${day.myRateArrow}` : ''}`;
}

function indexLine(day: CalendarDay): string {
	return day.priceIndex === null ? '' : `<div style="color:#3c4043;">${escapeHtml(day.priceIndex.toFixed(1))}</div>`;
}

/** The comp median in grey under my index: the figure the index is read against. */
function medianLine(day: CalendarDay): string {
	if (day.compMedian === null) return day.compMedianArrow ? `<div style="color:#5f6368;font-size:11px;">${day.compMedianArrow}</div>` : '';
	return `<div style="color:#5f6368;font-size:11px;">${escapeHtml(formatAmount(day.compMedian))}${day.compMedianArrow ? ` ${day.compMedianArrow}` : ''}</div>`;
}

/**
 * A day of the grid: seven to a row fit a 375 px phone with amounts of four digits and cents
 * ("3921.38"), and a longer one wraps in its cell rather than widen the email.
 */
const CELL = 'border:1px solid #dadce0;padding:3px 2px;font-size:11px;line-height:15px;vertical-align:top;overflow-wrap:anywhere;';

function dayCell(day: CalendarDay): string {
	const colour = day.band ? BAND_COLOURS[day.band] : NO_INDEX_COLOUR;
	const marks = markers(day);
	return (
		`<td width="14%" valign="top" bgcolor="${colour}" style="${CELL}background-color:${colour};">` +
		`<div style="color:#5f6368;font-size:11px;">${Number(day.date.slice(8, 10))}${marks ? ` ${marks}` : ''}</div>` +
		`<div>${rateLine(day)}</div>${indexLine(day)}${medianLine(day)}</td>`
	);
}

function emptyCell(label = ''): string {
	return `<td width="14%" valign="top" bgcolor="${OUTSIDE_COLOUR}" style="${CELL}background-color:${OUTSIDE_COLOUR};color:#bdc1c6;font-size:11px;">${label}</td>`;
}

const dayNumber = (date: string) => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / DAY_MS;
const isoOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
/** 0 Monday … 6 Sunday. */
const mondayIndex = (day: number) => (new Date(day * DAY_MS).getUTCDay() + 6) % 7;

/** One table per month of the window: Monday to Sunday, the weeks that hold a date of the window. */
function monthTable(month: string, days: readonly CalendarDay[]): string {
	const byDate = new Map(days.map((day) => [day.date, day]));
	const first = dayNumber(days[0].date);
	const last = dayNumber(days[days.length - 1].date);
	const rows: string[] = [];
	for (let weekStart = first - mondayIndex(first); weekStart <= last; weekStart += 7) {
		const cells = GRID_WEEKDAYS.map((_, offset) => {
			const date = isoOf(weekStart + offset);
			const day = byDate.get(date);
			if (day) return dayCell(day);
			return emptyCell(date.slice(0, 7) === month ? String(Number(date.slice(8, 10))) : '');
		});
		rows.push(`<tr>${cells.join('')}</tr>`);
	}
	const [year, monthNumber] = month.split('-').map(Number);
	return [
		`<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="width:100%;border-collapse:collapse;table-layout:fixed;">`,
		`<tr><td colspan="7" style="padding:8px 0 4px 0;font-size:15px;font-weight:bold;">${MONTHS[monthNumber - 1]} ${year}</td></tr>`,
		`<tr>${GRID_WEEKDAYS.map((weekday) => `<td width="14%" style="padding:2px 4px;font-size:11px;color:#5f6368;text-align:center;">${weekday}</td>`).join('')}</tr>`,
		...rows,
		'</table>',
	].join('\n');
}

function swatch(colour: string, label: string): string {
	return `<span style="display:inline-block;background-color:${colour};border:1px solid #dadce0;padding:0 6px;margin-right:6px;">${escapeHtml(label)}</span>`;
}

function legend(meta: CalendarMeta): string {
	const bands = { ...DEFAULT_INDEX_BANDS, ...meta.bands };
	return [
		`<div style="font-size:12px;line-height:20px;color:#3c4043;">`,
		swatch(BAND_COLOURS.cheaper, `cheaper: index below ${bands.cheaperBelow}`),
		swatch(BAND_COLOURS.onPar, `on par: ${bands.cheaperBelow} to ${bands.dearerAbove}`),
		swatch(BAND_COLOURS.dearer, `dearer: above ${bands.dearerAbove}`),
		'<br>',
		'Each date: my rate, then my price index (my rate as a percentage of the comp median), then the comp median in grey. ',
		`▲ ▼ after a rate or the median: moved since the last calendar. ${EVENT_MARK} an event; `,
		`<span style="color:#ffffff;background-color:#c5221f;font-weight:bold;padding:0 3px;">${OUTLIER_MARK}</span> an outlier (listed below); Sold out: my hotel is sold out; &mdash;: not shopped.`,
		`<br>${escapeHtml(outlierRule(meta))}`,
		'</div>',
	].join('');
}

function outlierList(days: readonly CalendarDay[]): string {
	const items = days.flatMap(({ weekday, date, outlier }) =>
		outlier
			? [
					`<tr><td style="padding:4px 0;font-size:13px;border-top:1px solid #dadce0;"><strong>${escapeHtml(`${weekday} ${date}`)}</strong>: ` +
						`${escapeHtml(OUTLIER_LABELS[outlier.kind])}: ${escapeHtml(outlier.reason)}</td></tr>`,
				]
			: [],
	);
	if (items.length === 0) return '';
	return [
		`<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="width:100%;border-collapse:collapse;">`,
		`<tr><td style="padding:8px 0 4px 0;font-size:15px;font-weight:bold;">Dates to look at</td></tr>`,
		...items,
		'</table>',
	].join('\n');
}

/** One event over the dates it marks: a multi-day event is one line with its first and last date. */
export interface EventSpan {
	from: string;
	to: string;
	event: NonNullable<CalendarDay['event']>;
}

/** The window's events, each once: consecutive dates marked with the same event make one span. */
export function eventSpans(days: readonly CalendarDay[]): EventSpan[] {
	const spans: EventSpan[] = [];
	let previousDate = '';
	for (const { date, event } of days) {
		const last = spans.at(-1);
		const continues = last !== undefined && event !== null && last.to === previousDate && last.event.name === event.name && last.event.score === event.score;
		if (continues) last.to = date;
		else if (event) spans.push({ from: date, to: date, event });
		previousDate = date;
	}
	return spans;
}

function eventList(days: readonly CalendarDay[]): string {
	const items = eventSpans(days).map(({ from, to, event }) => {
		const attendees = event.attendees ? `, ${event.attendees.toLocaleString('en-US')} attendees` : '';
		const when = from === to ? from : `${from} to ${to}`;
		return `${escapeHtml(when)}: ${escapeHtml(event.name)} (impact ${escapeHtml(String(event.score))}${escapeHtml(attendees)})`;
	});
	if (items.length === 0) return '';
	return `<div style="font-size:12px;line-height:18px;color:#3c4043;"><strong>Events (${EVENT_MARK})</strong><br>${items.join('<br>')}</div>`;
}

/**
 * The calendar as an email: a title, the counts, one Monday-to-Sunday grid per month (each date
 * coloured by its band, with my rate, my index and the markers), a legend, the outliers with their
 * reasons, and the events. Tables and inline styles only; every value escaped.
 */
export function calendarHtml(days: readonly CalendarDay[], meta: CalendarMeta): string {
	const months = new Map<string, CalendarDay[]>();
	for (const day of days) {
		const month = day.date.slice(0, 7);
		months.set(month, [...(months.get(month) ?? []), day]);
	}
	return emailTable([
		`<div style="font-size:18px;font-weight:bold;">${escapeHtml(title(meta))}</div>` +
			`<div style="font-size:13px;color:#5f6368;">${escapeHtml(subtitle(days, meta))}</div>`,
		`<div style="font-size:13px;">${escapeHtml(countsLine(calendarCounts(days)))}</div>`,
		...[...months].map(([month, monthDays]) => monthTable(month, monthDays)),
		legend(meta),
		...[outlierList(days), eventList(days)].filter((part) => part !== ''),
	]);
}

function textLine(day: CalendarDay): string {
	const when = `${day.weekday} ${day.date}`;
	const currency = day.myCurrency ? ` ${day.myCurrency}` : '';
	const parts: string[] = [];
	if (day.mySoldOut) parts.push('sold out');
	else if (day.myRate === null) parts.push('not shopped');
	else {
		const move = day.myRateChange ? ` ${day.myRateArrow} ${signedAmount(day.myRateChange)}` : '';
		const index = day.priceIndex === null || day.band === null ? '' : ` (index ${day.priceIndex.toFixed(2)}, ${BAND_LABELS[day.band]})`;
		parts.push(`${formatAmount(day.myRate)}${currency}${move}${index}`);
	}
	if (day.compMedian !== null) {
		const move = day.compMedianChange ? ` ${day.compMedianArrow} ${signedAmount(day.compMedianChange)}` : '';
		parts.push(`median ${formatAmount(day.compMedian)}${move}`);
	} else if (day.competitorsShopped > 0) parts.push('every competitor sold out');
	if (day.myRank !== null && day.competitorsOnSale > 0) parts.push(`rank ${day.myRank} of ${day.rankedHotels}`);
	if (day.event) parts.push(`${EVENT_MARK} ${day.event.name} (${day.event.score})`);
	const head = `${day.outlier ? '⚠' : '•'} ${when}: ${parts.join(', ')}`;
	return day.outlier ? `${head}: ${OUTLIER_LABELS[day.outlier.kind]}` : head;
}

/**
 * The calendar for Slack or Teams: a bold title, the counts of the whole window, the outlier rule
 * when a date is one, then the first `maxDates` dates one line each, their outliers first (in date
 * order, then the others); a longer window says how many dates it leaves out, from when to when,
 * and the dates of any later outlier.
 */
export function calendarText(days: readonly CalendarDay[], meta: CalendarMeta, maxDates: number = TEXT_DATES): string {
	const next = days.slice(0, maxDates);
	const ordered = [...next.filter((day) => day.outlier), ...next.filter((day) => !day.outlier)];
	const left = days.slice(maxDates);
	const later = left.filter((day) => day.outlier);
	return [
		`*${title(meta)}: ${subtitle(days, meta)}*`,
		countsLine(calendarCounts(days)),
		...(days.some((day) => day.outlier) ? [outlierRule(meta)] : []),
		...ordered.map(textLine),
		...(left.length > 0 ? [`${left.length} later date${left.length === 1 ? '' : 's'} (${windowLabel(left)}) left out here; the email's calendar has every date`] : []),
		...(later.length > 0 ? [`Later outliers: ${later.map((day) => `${day.weekday} ${day.date}`).join(', ')}`] : []),
	].join('\n');
}
