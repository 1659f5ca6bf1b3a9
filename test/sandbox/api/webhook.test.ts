import { expectError, useFrozenSandbox } from '../frozenSandbox';

const { sandbox, api, control } = useFrozenSandbox();

describe('POST /webhook', () => {
	it('answers 201 with a message and stores the registration', async () => {
		const { status, data } = await api.post('/webhook', { endpoint: 'https://example.com/hook', authType: 'bearer', token: 't' });
		expect(status).toBe(201);
		expect(data).toEqual({ message: expect.any(String) });
		expect(sandbox.webhooks()).toEqual([expect.objectContaining({ endpoint: 'https://example.com/hook', authType: 'bearer', token: 't', account: 'demo' })]);
		expect((await control.get('/__sandbox/webhooks')).data).toHaveLength(1);
	});

	it('replaces an earlier registration of the same endpoint', async () => {
		await api.post('/webhook', { endpoint: 'https://example.com/hook', authType: 'none' });
		await api.post('/webhook', { endpoint: 'https://example.com/hook', authType: 'bearer', token: 't' });
		expect(sandbox.webhooks()).toHaveLength(1);
	});

	it.each([
		['endpoint is missing', { authType: 'none' }, /endpoint is required/],
		['endpoint is not a URL', { endpoint: 'not a url', authType: 'none' }, /endpoint must be an absolute http\(s\) URL/],
		['endpoint is not http(s)', { endpoint: 'ftp://example.com', authType: 'none' }, /endpoint must use http or https/],
		['authType is not lowercase', { endpoint: 'https://example.com', authType: 'Basic', userName: 'u', password: 'p' }, /authType must be one of none, basic, bearer, header \(lowercase\)/],
		['basic has no password', { endpoint: 'https://example.com', authType: 'basic', userName: 'u' }, /password is required when authType is 'basic'/],
		['bearer has no token', { endpoint: 'https://example.com', authType: 'bearer' }, /token is required when authType is 'bearer'/],
		['header has no headerName', { endpoint: 'https://example.com', authType: 'header', token: 'k' }, /headerName is required when authType is 'header'/],
		['headerName is not a header name', { endpoint: 'https://example.com', authType: 'header', token: 'k', headerName: 'bad header' }, /not a valid HTTP header name/],
	])('answers 400 when %s', async (_case, body, reason) => {
		expectError(await api.post('/webhook', body), 400, reason);
	});
});
