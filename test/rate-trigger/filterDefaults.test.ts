import type { INodeProperties } from 'n8n-workflow';

import { rateTriggerProperties } from '../../nodes/RateTrigger/description';
import { compileRateFilter, type RateFilterParameters } from '../../nodes/RateTrigger/rateFilters';
import { fieldErrorOf } from '../harness/fieldErrors';
import { rateRecord } from '../harness/rateRecords';

const filterFields = (rateTriggerProperties.find((property) => property.name === 'filters')?.options ??
	[]) as INodeProperties[];

describe('a filter added and left as it comes keeps every record', () => {
	// Added with a default that filters (Onsite Rate At Most = 0), a bound would drop every record
	// with a price before the user typed anything.
	it.each(['minOnsiteRate', 'maxOnsiteRate'])('%s starts empty, with an "e.g." amount', (name) => {
		const field = filterFields.find((option) => option.name === name);
		expect(field).toMatchObject({ default: '', placeholder: expect.stringMatching(/^e\.g\. \d+$/) });

		const filter = compileRateFilter({ [name]: field?.default } as RateFilterParameters);
		expect(filter(rateRecord({ onsiteRate: 142.5 }))).toBe(true);
		expect(filter(rateRecord({ onsiteRate: 0 }))).toBe(true);
	});

	it('reads a bound that comes out blank from an expression as no bound', () => {
		expect(compileRateFilter({ maxOnsiteRate: '  ', minOnsiteRate: '' })(rateRecord({ onsiteRate: 142.5 }))).toBe(true);
	});

	it('reads a typed amount, and refuses one below 0 or not a number, naming the field', () => {
		expect(compileRateFilter({ maxOnsiteRate: '150' })(rateRecord({ onsiteRate: 142.5 }))).toBe(true);
		expect(compileRateFilter({ maxOnsiteRate: ' 100.5 ' })(rateRecord({ onsiteRate: 142.5 }))).toBe(false);
		for (const bad of ['-1', 'cheap', -5]) {
			expect(fieldErrorOf(() => compileRateFilter({ maxOnsiteRate: bad })).field).toBe('Onsite Rate At Most');
		}
	});
});
