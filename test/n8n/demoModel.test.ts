import { DEMO_HELP, demoTurn, readQuestion } from '../../platform/n8n/demoModel';
import type { ChatMessage, ChatRequest } from '../../platform/n8n/scriptedModel';

const TODAY = '2026-11-25';
const TOOLS = ['Hotel_Info', 'Event_Impact', 'Hotel_Demand', 'Airports'].map((name) => ({ type: 'function', function: { name } }));
const QUESTION = 'What is on around hotel 100013 from 30 December 2026 to 2 January 2027, and how is demand at demand shop 1002?';

function request(messages: ChatMessage[]): ChatRequest {
	return { model: 'gpt-4o-mini', messages: [{ role: 'system', content: 'You help a hotel revenue manager.' }, ...messages], tools: TOOLS };
}

/** A conversation in which the model called the tools and each returned `items`. */
function afterTools(question: string, results: Array<{ name: string; arguments: object; items: unknown }>): ChatRequest {
	return request([
		{ role: 'user', content: question },
		{
			role: 'assistant',
			tool_calls: results.map((result, index) => ({ id: `call_${index}`, function: { name: result.name, arguments: JSON.stringify(result.arguments) } })),
		},
		...results.map((result, index) => ({ role: 'tool', tool_call_id: `call_${index}`, content: JSON.stringify(result.items) })),
	]);
}

describe('what the demo model reads in a question', () => {
	test('hotel codes, the city after "in", the demand shop and the first and last day', () => {
		expect(readQuestion('What is on in Lisbon around hotel 100001 from 2026-12-30 to 2027-01-02, and demand at demand shop 1002?', TODAY)).toEqual({
			hotelCodes: [100001],
			city: 'Lisbon',
			demandId: 1002,
			airportCodes: [],
			from: '2026-12-30',
			to: '2027-01-02',
		});
	});

	test('a date without a year is the next one from today; a later one the next one from the date before it', () => {
		expect(readQuestion('from 30 December to 2 January', TODAY)).toMatchObject({ from: '2026-12-30', to: '2027-01-02' });
		expect(readQuestion('on March 3rd', TODAY)).toMatchObject({ from: '2027-03-03', to: '2027-03-03' });
	});

	test('"in December" is a month, not a city; airport codes count only in a question about airports', () => {
		expect(readQuestion('What is on in December in São Paulo?', TODAY)).toMatchObject({ city: 'São Paulo', airportCodes: [] });
		expect(readQuestion('Which airports are LHR and LGW?', TODAY).airportCodes).toEqual(['LHR', 'LGW']);
	});
});

describe('the tools the demo model calls', () => {
	test('first Hotel Info and Hotel Demand for what the question names, over the days it names', () => {
		expect(demoTurn(request([{ role: 'user', content: QUESTION }]), TODAY)).toEqual({
			toolCalls: [
				{ name: 'Hotel_Info', arguments: { hotelCode: 100013 } },
				{ name: 'Hotel_Demand', arguments: { demandId: 1002, fromDate: '2026-12-30', toDate: '2027-01-02' } },
			],
		});
	});

	test('then Event Impact in the city Hotel Info found the hotel in, from the first day over the days after it', () => {
		const turn = demoTurn(
			afterTools(QUESTION, [{ name: 'Hotel_Info', arguments: { hotelCode: 100013 }, items: [{ hotelcode: 100013, hotelname: 'Hilton London', city: 'London' }] }]),
			TODAY,
		);
		expect(turn).toEqual({ toolCalls: [{ name: 'Event_Impact', arguments: { city: 'London', startDate: '2026-12-30', horizon: 3 } }] });
	});

	test('a week from today when the question names no day', () => {
		expect(demoTurn(request([{ role: 'user', content: 'Events in Rome?' }]), TODAY)).toEqual({
			toolCalls: [{ name: 'Event_Impact', arguments: { city: 'Rome', startDate: TODAY, horizon: 6 } }],
		});
	});

	test('only tools the request offers', () => {
		const withoutDemand = { ...request([{ role: 'user', content: QUESTION }]), tools: TOOLS.filter((tool) => tool.function.name !== 'Hotel_Demand') };
		expect(demoTurn(withoutDemand, TODAY)).toEqual({ toolCalls: [{ name: 'Hotel_Info', arguments: { hotelCode: 100013 } }] });
	});

	test('a question it does not understand is answered with what it understands', () => {
		expect(demoTurn(request([{ role: 'user', content: 'How are you?' }]), TODAY)).toEqual({ content: DEMO_HELP });
	});
});

describe('the demo model\'s answer', () => {
	const answer = (results: Parameters<typeof afterTools>[1]) => {
		const turn = demoTurn(afterTools('Around hotel 100013 in London on 2026-12-30, demand shop 1002', results), TODAY);
		if (!('content' in turn)) throw new Error(`expected an answer, got ${JSON.stringify(turn)}`);
		return turn.content;
	};

	test('says where the hotel is, the events highest impact first, and the demand per day', () => {
		const content = answer([
			{ name: 'Hotel_Info', arguments: { hotelCode: 100013 }, items: [{ hotelcode: 100013, hotelname: 'Hilton London', city: 'London', country: 'United Kingdom', starrating: '4' }] },
			{
				name: 'Event_Impact',
				arguments: { city: 'London', startDate: '2026-12-30', horizon: 0 },
				items: [
					{ eventName: 'Small Fair', startDate: '2026-12-30 10:00:00', endDate: '2026-12-30 12:00:00', impactScore: 12, estimatedAttendees: 300, eventStatus: 'Scheduled' },
					{ eventName: 'Big Summit', startDate: '2026-12-28 09:00:00', endDate: '2026-12-31 18:00:00', impactScore: 65, estimatedAttendees: 12000, eventStatus: 'Scheduled' },
				],
			},
			{
				name: 'Hotel_Demand',
				arguments: { demandId: 1002, fromDate: '2026-12-30', toDate: '2026-12-30' },
				items: [
					{ hotelCode: 100013, hotelName: 'Hilton London', absoluteValue: { '2026-12-30': 40 } },
					{ hotelCode: 100014, hotelName: 'Other', absoluteValue: { '2026-12-30': 60 } },
				],
			},
		]);
		expect(content).toContain('hotel 100013 is Hilton London, London, United Kingdom, 4 stars');
		expect(content.indexOf('Big Summit')).toBeLessThan(content.indexOf('Small Fair'));
		expect(content).toContain('2026-12-28 to 2026-12-31, impact score 65, about 12,000 attendees (Scheduled)');
		expect(content).toContain('Average demand per day: 2026-12-30 50.0');
		expect(content).toContain('Hotel 100013: 2026-12-30 40.');
	});

	test('says when a tool found nothing, and passes on a tool\'s refusal', () => {
		const content = answer([
			{ name: 'Event_Impact', arguments: { city: 'London', startDate: '2026-12-30', horizon: 0 }, items: [] },
			{ name: 'Hotel_Info', arguments: { hotelCode: 'abc' }, items: [{ error: 'Invalid Hotel Code "abc"' }] },
		]);
		expect(content).toContain('no events in London from 2026-12-30 to 2026-12-30');
		expect(content).toContain('**Hotel Info** refused: Invalid Hotel Code "abc"');
	});
});
