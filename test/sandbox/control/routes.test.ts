import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expectError, MORNING_SCHEDULE, useFrozenSandbox } from '../frozenSandbox';
import { VALID_SHOP_UPDATE_BODY } from '../../harness/fixtures';

const { sandbox, api, control } = useFrozenSandbox();

describe('control routes', () => {
	it('reports health with the data set sizes', async () => {
		const { data } = await control.get('/__sandbox/health');
		expect(data).toMatchObject({ ok: true, baseUrl: sandbox.baseUrl, data: { hotels: 250, events: 5000, airports: 3000 } });
	});

	it('resets schedules, webhooks, log, faults and variants but keeps the seed data', async () => {
		await api.post('/schedule', MORNING_SCHEDULE);
		await api.post('/webhook', { endpoint: 'https://example.com/hook', authType: 'none' });
		await api.put('/shops/7', VALID_SHOP_UPDATE_BODY);
		sandbox.setFaults({ latencyMs: 5 });
		sandbox.setVariants({ sourcesAsObject: true });
		expect((await control.post('/__sandbox/reset')).status).toBe(200);
		expect(sandbox.schedules()).toEqual([]);
		expect(sandbox.webhooks()).toEqual([]);
		expect(sandbox.requests()).toEqual([]);
		expect(sandbox.faults()).toEqual({ endpoints: {} });
		expect(sandbox.variants()).toEqual({ sourcesAsObject: false, singleHotelAsArray: false });
		expect(sandbox.data.shops.get(7)?.config.shopName).not.toBe(VALID_SHOP_UPDATE_BODY.shopName);
		expect(sandbox.data.hotels).toHaveLength(250);
	});

	it('reports the most API requests served at once since the stats were reset', async () => {
		sandbox.setFaults({ latencyMs: 100 });
		expect((await control.delete('/__sandbox/stats')).data).toEqual({ inFlight: 0, maxInFlight: 0 });
		await Promise.all(Array.from({ length: 3 }, () => api.post('/hotelinfo', { hotelcode: 100001 })));
		await api.post('/hotelinfo', { hotelcode: 100001 });
		expect((await control.get('/__sandbox/stats')).data).toEqual({ inFlight: 0, maxInFlight: 3 });
		sandbox.resetStats();
		expect(sandbox.stats()).toEqual({ inFlight: 0, maxInFlight: 0 });
	});

	it('answers a run in one short line with ?brief=1, its whole summary at the URL it gives', async () => {
		const base = await control.post('/__sandbox/run-shop', { shopId: 3, records: 300, perDelivery: 50 });
		const brief = await control.post('/__sandbox/run-shop?brief=1', { repeatRun: base.data.runId, changes: { seed: 2, changed: 0.5 }, perDelivery: 50 });
		expect(JSON.stringify(brief.data).length).toBeLessThan(400);
		expect(brief.data).toMatchObject({ shopId: 3, records: 300, expectedChanges: expect.any(Number), details: `/__sandbox/runs?runId=${brief.data.runId}` });
		const whole = await control.get(brief.data.details);
		expect(whole.data.expectedChanges).toHaveLength(brief.data.expectedChanges);
		expect(brief.data.expectedChanges).toBeGreaterThan(50);
		expectError(await control.get('/__sandbox/runs?runId=999'), 404);
	});

	it('answers a run with ?wait=1 once what its deliveries started has ended, as the receiver beside it says', async () => {
		// A receiver that takes each delivery at once, as n8n answers once the execution exists.
		const receiver = http.createServer((request, response) => request.resume().on('end', () => response.end('{}')));
		await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
		try {
			await api.post('/webhook', { endpoint: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, authType: 'none' });
			const answeredWhenAsked: number[] = [];
			sandbox.setSettle(async () => {
				answeredWhenAsked.push(sandbox.deliveries().length);
				return { executions: { ended: true, waitedSeconds: 3, stillRunning: 0 } };
			});
			const waited = await control.post('/__sandbox/run-shop?brief=1&wait=1', { shopId: 3, records: 20 });
			expect(waited.data).toMatchObject({ records: 20, deliveries: 20, settled: { executions: { ended: true, waitedSeconds: 3, stillRunning: 0 } } });
			expect(JSON.stringify(waited.data).length).toBeLessThan(400);
			// Asked once, after every delivery of the run was answered.
			expect(answeredWhenAsked).toEqual([20]);
			expect((await control.post('/__sandbox/run-shop?brief=1', { shopId: 3, records: 5 })).data).not.toHaveProperty('settled');
			expect(answeredWhenAsked).toEqual([20]);
			sandbox.setSettle(undefined);
			expect((await control.post('/__sandbox/run-shop?brief=1&wait=1', { shopId: 3, records: 5 })).data.settled).toEqual({ waited: false, why: 'no receiver told the sandbox how to wait for it' });
		} finally {
			sandbox.setSettle(undefined);
			await new Promise((resolve) => receiver.close(resolve));
		}
	});

	it('answers 404 for an unknown control route', async () => {
		expectError(await control.get('/__sandbox/nope'), 404);
	});
});
