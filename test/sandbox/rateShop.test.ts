import type { RateRecord } from '../../platform/sandbox';
import { client, expectError, startReceiver, useFrozenSandbox, type Receiver, type Received } from './frozenSandbox';

const { sandbox, api, control } = useFrozenSandbox();

describe('rate record delivery (runShop)', () => {
	let receiver: Receiver;

	beforeAll(async () => {
		receiver = await startReceiver((path) => (path === '/broken' ? 500 : 200));
	});

	afterAll(async () => {
		await receiver.close();
	});

	beforeEach(() => {
		receiver.received.length = 0;
	});

	const registerAll = async (): Promise<void> => {
		await api.post('/webhook', { endpoint: `${receiver.url}/none`, authType: 'none' });
		await api.post('/webhook', { endpoint: `${receiver.url}/basic`, authType: 'basic', userName: 'ana', password: 's3cret' });
		await api.post('/webhook', { endpoint: `${receiver.url}/bearer`, authType: 'bearer', token: 'tok-123' });
		await api.post('/webhook', { endpoint: `${receiver.url}/header`, authType: 'header', headerName: 'X-Api-Key', token: 'key-456' });
	};

	it('posts each record to every webhook of the shop’s account with that webhook’s authType', async () => {
		await registerAll();
		const summary = await sandbox.runShop({ shopId: 3, records: 5 });
		expect(summary).toMatchObject({ shopId: 3, account: 'demo', webhooks: 4, deliveries: 20, records: 5, byStatus: { '200': 20 } });
		const at = (path: string): Received[] => receiver.received.filter((delivery) => delivery.path === path);
		expect(at('/none').every((delivery) => delivery.headers.authorization === undefined)).toBe(true);
		expect(at('/basic').every((delivery) => delivery.headers.authorization === `Basic ${Buffer.from('ana:s3cret').toString('base64')}`)).toBe(true);
		expect(at('/bearer').every((delivery) => delivery.headers.authorization === 'Bearer tok-123')).toBe(true);
		expect(at('/header').every((delivery) => delivery.headers['x-api-key'] === 'key-456' && delivery.headers.authorization === undefined)).toBe(true);
		for (const path of ['/none', '/basic', '/bearer', '/header']) expect(at(path)).toHaveLength(5);
	});

	it('sends records carrying every field of spec part 6 with the right types, each with a unique recordId', async () => {
		await api.post('/webhook', { endpoint: `${receiver.url}/none`, authType: 'none' });
		await sandbox.runShop({ shopId: 3, records: 12 });
		const records = receiver.received.map((delivery) => delivery.body as RateRecord);
		expect(new Set(records.map((record) => record.recordId)).size).toBe(12);
		const shop = sandbox.data.shops.get(3)!;
		for (const record of records) {
			expect(record).toEqual({
				recordId: expect.stringMatching(/^shop3-run\d+-rec\d+$/),
				shopId: 3, dtCollected: '2026-12-01T10:54:00.000Z', websiteCode: expect.any(Number),
				checkIn: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/), checkOut: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/),
				los: shop.config.lor, pos: expect.any(Number), guests: expect.any(Number), hotelId: expect.any(Number), hotelCode: expect.any(Number),
				hotelName: expect.any(String), sourceUrl: expect.stringMatching(/^https:\/\//), address: expect.any(String), city: expect.any(String),
				state: expect.any(String), country: expect.any(String), latitude: expect.stringMatching(/^-?\d+\.\d+$/), longitude: expect.stringMatching(/^-?\d+\.\d+$/),
				currency: shop.config.currency, isLAR: expect.any(Boolean), propertyType: expect.any(String), roomType: expect.any(String),
				roomDescription: expect.any(String), roomAmenities: expect.any(String), mapLink: expect.any(String), roomAvailable: expect.any(String),
				roomLeft: expect.any(String), reviewRating: expect.any(Number), reviewsCount: expect.any(Number), taxAmount: expect.any(Number),
				taxType: expect.any(String), taxStatus: expect.any(Number), mealPlan: expect.any(String), ratePlan: expect.any(String),
				locationRating: expect.any(Number), promo: expect.any(String), ratingText: expect.any(String), onsiteRate: expect.any(Number),
				netRate: expect.any(Number), discount: expect.any(Number), occupancy: expect.any(Number), paymentType: expect.any(String),
				rankingListingCount: expect.any(Number), navigationPage: expect.any(Number), newArrival: expect.any(String),
				distanceHotel: expect.any(Number), otherInformation: expect.any(String), statusCode: expect.any(Number),
				otherRatings: { htlRating: expect.any(Number), aptRating: expect.any(Number), dotsRating: expect.any(Number) },
				ratingFlags: { preferredPartner: expect.any(Boolean), preferredPlus: expect.any(Boolean) },
			});
			expect(shop.hotelCodes).toContain(record.hotelCode);
			expect(Number.isInteger(record.reviewsCount) && Number.isInteger(record.taxStatus) && Number.isInteger(record.los)).toBe(true);
		}
	});

	it('sends arrays when perDelivery > 1 and honours hotelCodes and websiteCodes', async () => {
		await api.post('/webhook', { endpoint: `${receiver.url}/none`, authType: 'none' });
		const summary = await sandbox.runShop({ shopId: 3, records: 7, perDelivery: 3, hotelCodes: [100001], websiteCodes: [2] });
		expect(summary.deliveries).toBe(3);
		const bodies = receiver.received.map((delivery) => delivery.body as RateRecord[]);
		expect(bodies.map((body) => body.length)).toEqual(expect.arrayContaining([3, 3, 1]));
		expect(bodies.flat().every((record) => record.hotelCode === 100001 && record.websiteCode === 2)).toBe(true);
	});

	it('records each receiver status and delivers nothing to other accounts', async () => {
		await api.post('/webhook', { endpoint: `${receiver.url}/broken`, authType: 'none' });
		await client(sandbox.baseUrl, `Bearer ${sandbox.credentials.otherAccountToken}`).post('/webhook', { endpoint: `${receiver.url}/other`, authType: 'none' });
		const summary = await sandbox.runShop({ shopId: 4, records: 3, retries: 0 });
		expect(summary).toMatchObject({ byStatus: { '500': 3 }, retried: 0 });
		expect(sandbox.deliveries().map((delivery) => delivery.status)).toEqual([500, 500, 500]);
		expect(receiver.received.some((delivery) => delivery.path === '/other')).toBe(false);
		const otherRun = await sandbox.runShop({ shopId: 901, records: 2 });
		expect(otherRun).toMatchObject({ account: 'other', deliveries: 2 });
	});

	it('posts a delivery answered 500 again after 1 s, and counts it by its last answer', async () => {
		let posts = 0;
		const flaky = await startReceiver(() => (++posts === 1 ? 500 : 200));
		try {
			await api.post('/webhook', { endpoint: `${flaky.url}/flaky`, authType: 'none' });
			const summary = await sandbox.runShop({ shopId: 3, records: 1 });
			expect(summary).toMatchObject({ deliveries: 1, byStatus: { '200': 1 }, retried: 1 });
			const [delivery] = sandbox.deliveries();
			expect(delivery.attempts.map((attempt) => attempt.status)).toEqual([500, 200]);
			expect(Date.parse(delivery.attempts[1].at) - Date.parse(delivery.attempts[0].at)).toBeGreaterThanOrEqual(1_000);
			expect(flaky.received).toHaveLength(2);
		} finally {
			await flaky.close();
		}
	});

	it('is driven by POST /__sandbox/run-shop and reported by GET /__sandbox/deliveries', async () => {
		await api.post('/webhook', { endpoint: `${receiver.url}/none`, authType: 'none' });
		const { data } = await control.post('/__sandbox/run-shop', { shopId: 2, records: 4, concurrency: 2 });
		expect(data).toMatchObject({ deliveries: 4, byStatus: { '200': 4 } });
		const deliveries = (await control.get('/__sandbox/deliveries')).data;
		expect(deliveries).toHaveLength(4);
		expect(deliveries[0]).toMatchObject({ endpoint: `${receiver.url}/none`, status: 200, recordIds: [expect.any(String)] });
		expectError(await control.post('/__sandbox/run-shop', { shopId: 'x' }), 400, /shopId must be an integer/);
	});

	it('delivers 2,000 records concurrently over keep-alive connections', async () => {
		await api.post('/webhook', { endpoint: `${receiver.url}/none`, authType: 'none' });
		const summary = await sandbox.runShop({ shopId: 1, records: 2000, concurrency: 50 });
		expect(summary.byStatus).toEqual({ '200': 2000 });
		expect(new Set(receiver.received.map((delivery) => (delivery.body as RateRecord).recordId)).size).toBe(2000);
	});
});
