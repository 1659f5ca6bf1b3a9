import http from 'node:http';
import { expectError, useFrozenSandbox } from './frozenSandbox';

const { api } = useFrozenSandbox();

describe('unknown paths, methods and bodies', () => {
	it('answers 404 for unknown paths and 405 for a known path with the wrong method', async () => {
		expectError(await api.get('/hotels'), 404);
		const wrongMethod = await api.get('/hotelinfo');
		expectError(wrongMethod, 405);
		expect(wrongMethod.headers.allow).toBe('POST');
	});

	it('answers 400 for malformed JSON and 413 above the 10 MB body limit', async () => {
		const malformed = await api.post('/hotelinfo', '{"hotelcode": ', { headers: { 'content-type': 'application/json' }, transformRequest: [(body) => body] });
		expectError(malformed, 400, /malformed JSON/);
		const huge = await api.post('/eventimpact/', JSON.stringify({ eventName: 'x'.repeat(11 * 1024 * 1024) }), { headers: { 'content-type': 'application/json' }, maxBodyLength: Infinity });
		expectError(huge, 413);
	});
});

describe('concurrency', () => {
	it('answers 1,000 concurrent hotelinfo requests', async () => {
		const agent = new http.Agent({ keepAlive: true, maxSockets: 1000 });
		const responses = await Promise.all(Array.from({ length: 1000 }, (_, i) => api.post('/hotelinfo', { hotelcode: 100001 + (i % 250) }, { httpAgent: agent })));
		agent.destroy();
		expect(responses.every((response) => response.status === 200)).toBe(true);
	});
});
