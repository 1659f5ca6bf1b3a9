import { FieldError } from '../../nodes/shared/errors';
import { DEFAULT_CONCURRENCY } from '../../nodes/shared/concurrency';
import {
	pageSizeOption,
	requestOptionsFrom,
	retryPolicyFrom,
	numberOption,
} from '../../nodes/shared/options';

describe('numeric options are read against the bounds their fields show', () => {
	it('gives the default when the option was not added', () => {
		expect(retryPolicyFrom({})).toEqual({ maxAttempts: 5, maxTotalWaitMs: 60_000 });
		expect(requestOptionsFrom({}).concurrency).toBe(DEFAULT_CONCURRENCY);
		expect(numberOption({}, pageSizeOption)).toBe(100);
	});

	it('takes a number, or a number an expression gave as text', () => {
		expect(retryPolicyFrom({ maxAttempts: '3', maxRetryWaitSeconds: ' 2.5 ' })).toEqual({ maxAttempts: 3, maxTotalWaitMs: 2_500 });
		expect(retryPolicyFrom({ maxRetryWaitSeconds: '.5' }).maxTotalWaitMs).toBe(500);
		expect(requestOptionsFrom({ concurrency: 4 }).concurrency).toBe(4);
	});

	it.each([
		[{ maxAttempts: 'many' }, 'Max Attempts "many": must be a whole number from 1 to 10'],
		[{ maxAttempts: 0 }, 'Max Attempts "0": must be a whole number from 1 to 10'],
		[{ maxAttempts: 11 }, 'Max Attempts "11": must be a whole number from 1 to 10'],
		[{ maxAttempts: 2.5 }, 'Max Attempts "2.5": must be a whole number from 1 to 10'],
		[{ maxAttempts: '' }, 'Max Attempts (empty): is required'],
		[{ maxAttempts: '3.0' }, 'Max Attempts "3.0": must be a whole number from 1 to 10'],
		[{ maxRetryWaitSeconds: '0x10' }, 'Max Retry Wait (Seconds) "0x10": must be a number of 0 or more'],
		[{ maxRetryWaitSeconds: '1e3' }, 'Max Retry Wait (Seconds) "1e3": must be a number of 0 or more'],
		[{ maxRetryWaitSeconds: -1 }, 'Max Retry Wait (Seconds) "-1": must be a number of 0 or more'],
		[{ maxRetryWaitSeconds: Number.NaN }, 'Max Retry Wait (Seconds) "NaN": must be a number of 0 or more'],
		[{ maxRetryWaitSeconds: true }, 'Max Retry Wait (Seconds) "true": must be a number of 0 or more'],
	])('refuses %j', (options, message) => {
		expect(() => retryPolicyFrom(options)).toThrow(FieldError);
		expect(() => retryPolicyFrom(options)).toThrow(message);
	});

	it('refuses a Concurrency or Page Size that is not a whole number in range', () => {
		expect(() => requestOptionsFrom({ concurrency: 'abc' })).toThrow('Concurrency "abc": must be a whole number from 1 to 50');
		expect(() => requestOptionsFrom({ concurrency: 0 })).toThrow('must be a whole number from 1 to 50');
		expect(() => numberOption({ pageSize: '1e2' }, pageSizeOption)).toThrow('Page Size "1e2": must be a whole number of 1 or more');
	});
});
