import type { ChatMessage, ChatRequest, ScriptedToolCall } from './chat';

/**
 * What the demo model ("Demo model (scripted, offline)", which `npm start` offers to the agent
 * example) does with a chat message: no language model, but a few patterns of the example's
 * questions turned into the calls of its tools, and the tools' results put into sentences.
 *
 * It understands hotel codes (six digits, 100001 to 100250 in the sandbox), a city after "in",
 * "demand shop <id>", three-letter airport codes in a question about airports, and dates as
 * 2026-12-30, "30 December 2026" or "December 30" (a date without a year is the next one from
 * today; a later date without a year the next one from the date before it). Anything else is
 * answered with what it understands.
 */

/** The tools of examples/event-demand-agent.json, as n8n names them to the model. */
const HOTEL_INFO = 'Hotel_Info';
const EVENT_IMPACT = 'Event_Impact';
const HOTEL_DEMAND = 'Hotel_Demand';
const AIRPORTS = 'Airports';

/** The days looked at when the question names none: a week from today. */
const DEFAULT_DAYS = 7;
/** How many events, hotels and airports an answer lists before it counts the rest. */
const LISTED = 5;

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

export interface DemoQuestion {
	hotelCodes: number[];
	city?: string;
	demandId?: number;
	airportCodes: string[];
	/** The first and last day asked about (ISO days), when the question names any. */
	from?: string;
	to?: string;
}

export type DemoTurn = { toolCalls: ScriptedToolCall[] } | { content: string };

export const DEMO_HELP = [
	'I am the demo model (scripted, offline), not a language model: I understand hotel codes (such as 100013), a city after "in" (in London), "demand shop 1002", airport codes in a question about airports (LHR), and dates (30 December 2026, or 2026-12-30).',
	'Try: What is on around hotel 100013 from 30 December 2026 to 2 January 2027, and how is demand at demand shop 1002?',
	"For any other question, pick your own OpenAI credential in the OpenAI Chat Model node.",
].join('\n\n');

/** The demo model's next step: the tool calls the question needs, or the answer from their results. */
export function demoTurn(request: ChatRequest, today: string): DemoTurn {
	const turn = currentTurn(request.messages);
	const question = readQuestion(text(turn.find((message) => message.role === 'user')?.content), today);
	const offered = new Set((request.tools ?? []).map((tool) => tool.function.name));
	const called = turn.flatMap((message) => message.tool_calls ?? []).map((call) => call.function.name);
	const results = turnResults(turn);

	const calls = called.length === 0 ? firstCalls(question, today) : followUpCalls(question, today, called, results);
	const wanted = calls.filter((call) => offered.has(call.name));
	if (wanted.length > 0) return { toolCalls: wanted };
	if (results.length === 0) return { content: DEMO_HELP };
	return { content: answer(question, results) };
}

/** The messages since the last user message: a chat's earlier turns are answered already. */
function currentTurn(messages: ChatMessage[]): ChatMessage[] {
	const lastUser = messages.map((message) => message.role).lastIndexOf('user');
	return lastUser < 0 ? [] : messages.slice(lastUser);
}

function text(content: unknown): string {
	if (typeof content === 'string') return content;
	if (Array.isArray(content)) return content.map((part) => (typeof part === 'string' ? part : String((part as { text?: unknown })?.text ?? ''))).join(' ');
	return '';
}

export function readQuestion(question: string, today: string): DemoQuestion {
	const days = readDays(question, today);
	const demand = /\bdemand\s+(?:shop\s+)?(?:id\s+)?#?(\d{1,6})\b/i.exec(question);
	// "in December" is a month, not a city.
	const city = [...question.matchAll(/\bin\s+(\p{Lu}[\p{L}'-]*(?:\s+\p{Lu}[\p{L}'-]*)*)/gu)]
		.map((match) => match[1])
		.find((name) => !MONTHS.some((month) => name.toLowerCase().startsWith(month.slice(0, 3))));
	return {
		hotelCodes: [...new Set([...question.matchAll(/\b\d{6}\b/g)].map((match) => Number(match[0])))],
		city,
		demandId: demand ? Number(demand[1]) : undefined,
		airportCodes: /airport/i.test(question) ? [...new Set([...question.matchAll(/\b[A-Z]{3}\b/g)].map((match) => match[0]))] : [],
		from: days[0],
		to: days[days.length - 1],
	};
}

/** The days a question names, in the order it names them, as ISO days. */
function readDays(question: string, today: string): string[] {
	const month = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
	const pattern = new RegExp(`\\b(\\d{4})-(\\d{2})-(\\d{2})\\b|\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+${month}(?:,?\\s+(\\d{4}))?\\b|\\b${month}\\s+(\\d{1,2})(?:st|nd|rd|th)?(?:,?\\s+(\\d{4}))?\\b`, 'gi');
	const days: string[] = [];
	for (const match of question.matchAll(pattern)) {
		if (match[1]) {
			days.push(`${match[1]}-${match[2]}-${match[3]}`);
			continue;
		}
		const [day, monthName, year] = match[4] ? [match[4], match[5], match[6]] : [match[8], match[7], match[9]];
		const monthIndex = MONTHS.findIndex((name) => name.startsWith(monthName.toLowerCase().slice(0, 3)));
		const notBefore = days[days.length - 1] ?? today;
		days.push(year ? isoDay(Number(year), monthIndex, Number(day)) : nextOccurrence(monthIndex, Number(day), notBefore));
	}
	return days;
}

function isoDay(year: number, monthIndex: number, day: number): string {
	return new Date(Date.UTC(year, monthIndex, day)).toISOString().slice(0, 10);
}

function nextOccurrence(monthIndex: number, day: number, notBefore: string): string {
	const year = Number(notBefore.slice(0, 4));
	const candidate = isoDay(year, monthIndex, day);
	return candidate >= notBefore ? candidate : isoDay(year + 1, monthIndex, day);
}

export function addDays(day: string, count: number): string {
	return new Date(Date.parse(`${day}T00:00:00Z`) + count * 86_400_000).toISOString().slice(0, 10);
}

function daysBetween(from: string, to: string): number {
	return Math.max(0, Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000));
}

/** The window the tools are asked about: the question's days, else a week from today. */
function askedDays(question: DemoQuestion, today: string): { from: string; to: string } {
	return question.from && question.to ? { from: question.from, to: question.to } : { from: today, to: addDays(today, DEFAULT_DAYS - 1) };
}

function eventsCall(city: string, question: DemoQuestion, today: string): ScriptedToolCall {
	const { from, to } = askedDays(question, today);
	return { name: EVENT_IMPACT, arguments: { city, startDate: from, horizon: daysBetween(from, to) } };
}

function firstCalls(question: DemoQuestion, today: string): ScriptedToolCall[] {
	const { from, to } = askedDays(question, today);
	return [
		...question.hotelCodes.slice(0, 3).map((hotelCode) => ({ name: HOTEL_INFO, arguments: { hotelCode } })),
		...(question.city ? [eventsCall(question.city, question, today)] : []),
		...(question.demandId !== undefined ? [{ name: HOTEL_DEMAND, arguments: { demandId: question.demandId, fromDate: from, toDate: to } }] : []),
		...(question.airportCodes.length > 0 ? [{ name: AIRPORTS, arguments: { codes: question.airportCodes.join(',') } }] : []),
	];
}

/** A hotel asked about without a city: its events are looked up in the city Hotel Info found it in. */
function followUpCalls(question: DemoQuestion, today: string, called: string[], results: ToolResult[]): ScriptedToolCall[] {
	if (question.city || called.includes(EVENT_IMPACT)) return [];
	const city = results.filter((result) => result.name === HOTEL_INFO).flatMap((result) => result.items).map((hotel) => hotel.city).find((value) => typeof value === 'string');
	return typeof city === 'string' ? [eventsCall(city, question, today)] : [];
}

type Item = Record<string, unknown>;

interface ToolResult {
	name: string;
	arguments: Record<string, unknown>;
	items: Item[];
	/** The text as it came, when it is not a list of items. */
	raw: string;
}

function turnResults(turn: ChatMessage[]): ToolResult[] {
	const calls = new Map(turn.flatMap((message) => message.tool_calls ?? []).map((call) => [call.id, call.function]));
	return turn
		.filter((message) => message.role === 'tool')
		.map((message) => {
			const call = calls.get(message.tool_call_id ?? '');
			const raw = text(message.content);
			return { name: call?.name ?? message.name ?? '?', arguments: parseObject(call?.arguments), items: parseItems(raw), raw };
		});
}

function parseObject(json: string | undefined): Record<string, unknown> {
	try {
		const value: unknown = JSON.parse(json ?? '{}');
		return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
	} catch {
		return {};
	}
}

function parseItems(raw: string): Item[] {
	try {
		const value: unknown = JSON.parse(raw);
		const list = Array.isArray(value) ? value : [value];
		return list.filter((item): item is Item => Boolean(item) && typeof item === 'object');
	} catch {
		return [];
	}
}

/** The answer: one paragraph per tool, in the order a revenue manager reads them. */
function answer(question: DemoQuestion, results: ToolResult[]): string {
	const order = [HOTEL_INFO, EVENT_IMPACT, HOTEL_DEMAND, AIRPORTS];
	const sorted = [...results].sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
	const paragraphs = sorted.map((result) => {
		const refusal = result.items.find((item) => typeof item.error === 'string');
		if (refusal) return `**${label(result.name)}** refused: ${String(refusal.error)}`;
		if (result.name === HOTEL_INFO) return hotelParagraph(result);
		if (result.name === EVENT_IMPACT) return eventsParagraph(result);
		if (result.name === HOTEL_DEMAND) return demandParagraph(result, question);
		if (result.name === AIRPORTS) return airportsParagraph(result);
		return `**${label(result.name)}**: ${result.raw}`;
	});
	return [...paragraphs, '(Answered by the demo model, scripted and offline, from what the tools returned.)'].join('\n\n');
}

function label(tool: string): string {
	return tool.replace(/_/g, ' ');
}

function hotelParagraph({ items, arguments: args }: ToolResult): string {
	if (items.length === 0) return `**Hotel Info**: no hotel ${String(args.hotelCode)}.`;
	return items
		.map((hotel) => {
			const stars = hotel.starrating ? `, ${String(hotel.starrating)} stars` : '';
			return `**Hotel Info**: hotel ${String(hotel.hotelcode)} is ${String(hotel.hotelname)}, ${[hotel.city, hotel.country].filter(Boolean).join(', ')}${stars}.`;
		})
		.join('\n');
}

function eventsParagraph({ items, arguments: args }: ToolResult): string {
	const from = String(args.startDate ?? '');
	const to = from ? addDays(from, Number(args.horizon ?? 0)) : '';
	const where = `in ${String(args.city)}${from ? ` from ${from} to ${to}` : ''}`;
	if (items.length === 0) return `**Event Impact**: no events ${where}.`;
	const byImpact = [...items].sort((a, b) => Number(b.impactScore ?? 0) - Number(a.impactScore ?? 0));
	const lines = byImpact.slice(0, LISTED).map((event) => {
		const start = String(event.startDate ?? '').slice(0, 10);
		const end = String(event.endDate ?? '').slice(0, 10);
		const attendees = event.estimatedAttendees !== undefined ? `, about ${Number(event.estimatedAttendees).toLocaleString('en')} attendees` : '';
		return `- ${String(event.eventName)}: ${end && end !== start ? `${start} to ${end}` : start}, impact score ${String(event.impactScore)}${attendees} (${String(event.eventStatus ?? 'status unknown')})`;
	});
	const more = items.length > LISTED ? `\n- and ${items.length - LISTED} more` : '';
	return `**Event Impact**: ${items.length} event${items.length === 1 ? '' : 's'} ${where}, highest impact first:\n${lines.join('\n')}${more}`;
}

function demandParagraph({ items, arguments: args }: ToolResult, question: DemoQuestion): string {
	const shop = `demand shop ${String(args.demandId)}`;
	const values = items.map((hotel) => ({ hotel, days: (hotel.absoluteValue ?? {}) as Record<string, number> }));
	const days = [...new Set(values.flatMap(({ days: byDay }) => Object.keys(byDay)))].sort();
	if (days.length === 0) return `**Hotel Demand**: ${shop} has no demand from ${String(args.fromDate)} to ${String(args.toDate)}.`;
	const perDay = days.map((day) => {
		const onDay = values.map(({ days: byDay }) => byDay[day]).filter((value): value is number => typeof value === 'number');
		return `${day} ${(onDay.reduce((sum, value) => sum + value, 0) / onDay.length).toFixed(1)}`;
	});
	const peaks = values
		.flatMap(({ hotel, days: byDay }) => Object.entries(byDay).map(([day, value]) => ({ hotel, day, value })))
		.sort((a, b) => b.value - a.value)
		.slice(0, 3)
		.map(({ hotel, day, value }) => `${String(hotel.hotelName)} (${String(hotel.hotelCode)}) ${value} on ${day}`);
	const asked = values
		.filter(({ hotel }) => question.hotelCodes.includes(Number(hotel.hotelCode)))
		.map(({ hotel, days: byDay }) => `\nHotel ${String(hotel.hotelCode)}: ${Object.entries(byDay).map(([day, value]) => `${day} ${value}`).join(', ')}.`);
	return `**Hotel Demand**: ${shop}, ${items.length} hotels, ${days[0]} to ${days[days.length - 1]}. Average demand per day: ${perDay.join(', ')}. Highest: ${peaks.join('; ')}.${asked.join('')}`;
}

function airportsParagraph({ items, arguments: args }: ToolResult): string {
	if (items.length === 0) return `**Airports**: no airport with the code(s) ${String(args.codes)}.`;
	return `**Airports**: ${items.map((airport) => `${String(airport.airportCode)} is ${String(airport.airportName)} (${String(airport.city)})`).join('; ')}.`;
}
