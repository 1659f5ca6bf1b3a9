import type { DeliveryAuth } from '../../nodes/RateTrigger/deliveryAuth';
import { receiveRateDelivery, type ReceiveSettings } from '../../nodes/RateTrigger/rateDelivery';
import { compileRateFilter } from '../../nodes/RateTrigger/rateFilters';
import { rateRecord } from '../harness/rateRecords';

const auth: DeliveryAuth = { type: 'bearer', token: 'delivery-secret' };
const authorized = { authorization: 'Bearer delivery-secret' };
const settings = (overrides: Partial<ReceiveSettings> = {}): ReceiveSettings => ({
	auth,
	filter: compileRateFilter({}),
	passInvalidRecords: false,
	...overrides,
});

describe('authentication is checked before anything else', () => {
	it('answers 401 and emits nothing for a wrong secret, even with a valid body', () => {
		const outcome = receiveRateDelivery({ headers: { authorization: 'Bearer nope' }, body: rateRecord() }, settings());
		expect(outcome.status).toBe(401);
		expect(outcome.records).toEqual([]);
		expect(outcome.headers['WWW-Authenticate']).toMatch(/^Bearer/);
	});

	it('answers 401, not 400, to an unauthenticated caller with a broken body', () => {
		expect(receiveRateDelivery({ headers: {}, body: 'not json' }, settings()).status).toBe(401);
	});

	it('does not reveal the expected secret in the answer', () => {
		const outcome = receiveRateDelivery({ headers: {}, body: rateRecord() }, settings());
		expect(JSON.stringify(outcome)).not.toContain('delivery-secret');
	});
});

describe('an authentic delivery is answered at once with what was received and emitted', () => {
	it('answers 200 with received and emitted for one record', () => {
		const outcome = receiveRateDelivery({ headers: authorized, body: rateRecord() }, settings());
		expect(outcome).toMatchObject({ status: 200, body: { received: 1, emitted: 1 } });
		expect(outcome.records).toEqual([rateRecord()]);
	});

	it('emits one record per array entry', () => {
		const body = [rateRecord({ recordId: 'a' }), rateRecord({ recordId: 'b' }), rateRecord({ recordId: 'c' })];
		const outcome = receiveRateDelivery({ headers: authorized, body }, settings());
		expect(outcome.body).toEqual({ received: 3, emitted: 3 });
		expect(outcome.records.map((record) => record.recordId)).toEqual(['a', 'b', 'c']);
	});

	it('answers 200 with emitted 0 when filters drop every record', () => {
		const outcome = receiveRateDelivery(
			{ headers: authorized, body: [rateRecord(), rateRecord()] },
			settings({ filter: compileRateFilter({ currencies: 'USD' }) }),
		);
		expect(outcome).toMatchObject({ status: 200, body: { received: 2, emitted: 0 }, records: [] });
	});

	it('counts only the records that pass the filters as emitted', () => {
		const outcome = receiveRateDelivery(
			{ headers: authorized, body: [rateRecord({ isLAR: false }), rateRecord()] },
			settings({ filter: compileRateFilter({ larOnly: true }) }),
		);
		expect(outcome.body).toEqual({ received: 2, emitted: 1 });
	});
});

describe('bodies that are not rate records are answered 400 and start nothing', () => {
	it.each([
		['not JSON', '{broken', 'The delivery is not valid JSON'],
		['empty', undefined, 'The delivery is empty'],
		['a scalar', '12', 'not a number'],
	])('%s', (_name, body, message) => {
		const outcome = receiveRateDelivery({ headers: authorized, body }, settings());
		expect(outcome.status).toBe(400);
		expect(outcome.body.message).toContain(message);
		expect(outcome.records).toEqual([]);
	});

	it.each([
		['a record', JSON.stringify(rateRecord())],
		['an array of records', JSON.stringify([rateRecord()])],
		['an empty array', '[]'],
	])('a JSON string holding %s, which n8n has parsed once already', (_name, text) => {
		const rawBody = Buffer.from(JSON.stringify(text));
		const outcome = receiveRateDelivery({ headers: authorized, body: text, rawBody }, settings({ passInvalidRecords: true }));
		expect(outcome.status).toBe(400);
		expect(outcome.body.message).toBe('The delivery must be a rate record or an array of rate records, not a string');
		expect(outcome.records).toEqual([]);
	});

	it('refuses a delivery with an invalid record, giving the reason, and emits none of its records', () => {
		const outcome = receiveRateDelivery(
			{ headers: authorized, body: [rateRecord(), rateRecord({ onsiteRate: 'cheap' })] },
			settings(),
		);
		expect(outcome.status).toBe(400);
		expect(outcome.body).toMatchObject({
			error: true,
			status: 400,
			message: '1 of 2 rate records are invalid',
			errors: ['record 1: onsiteRate must be a number, got string'],
		});
		expect(outcome.records).toEqual([]);
	});

	it('names the problem of a single invalid record in the message', () => {
		const outcome = receiveRateDelivery({ headers: authorized, body: rateRecord({ shopId: null }) }, settings());
		expect(outcome.body.message).toBe('The rate record is invalid: shopId must be a number, got null');
	});
});

describe('invalid records can be let through, marked with their errors', () => {
	it('emits the invalid record with _validationErrors and the valid one unchanged', () => {
		const outcome = receiveRateDelivery(
			{ headers: authorized, body: [rateRecord({ onsiteRate: 'cheap' }), rateRecord()] },
			settings({ passInvalidRecords: true }),
		);
		expect(outcome.status).toBe(200);
		expect(outcome.records[0]._validationErrors).toEqual(['onsiteRate must be a number, got string']);
		expect(outcome.records[1]).not.toHaveProperty('_validationErrors');
	});

	it('still refuses bodies that hold no records at all', () => {
		expect(receiveRateDelivery({ headers: authorized, body: '7' }, settings({ passInvalidRecords: true })).status).toBe(400);
	});
});
