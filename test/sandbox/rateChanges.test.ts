import http from 'node:http';
import type { AddressInfo } from 'node:net';
import axios from 'axios';
import { startSandbox, type RateRecord, type RunSummary, type Sandbox } from './index';

/** A webhook receiver keeping every record delivered, whatever the records per POST. */
async function startReceiver(): Promise<{ url: string; records: RateRecord[]; close: () => Promise<void> }> {
	const records: RateRecord[] = [];
	const server = http.createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			records.push(...[JSON.parse(Buffer.concat(chunks).toString('utf8'))].flat());
			response.end('{"ok":true}');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/rates`,
		records,
		close: () => new Promise<void>((resolve) => {
			server.close(() => resolve());
			server.closeAllConnections();
		}),
	};
}

const START = '2026-12-01T10:54:00.000Z';

let sandbox: Sandbox;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, speed: 0, clock: START });
	receiver = await startReceiver();
});

afterAll(async () => {
	await receiver.close();
	await sandbox.close();
});

beforeEach(async () => {
	sandbox.reset();
	sandbox.setClock(START);
	receiver.records.length = 0;
	await axios.post(`${sandbox.baseUrl}/webhook`, { endpoint: receiver.url, authType: 'none' }, { headers: { Authorization: `Bearer ${sandbox.credentials.accessToken}` } });
});

/** A stay: what no two records of one run share. */
function stayOf(record: RateRecord): string {
	return [record.hotelCode, record.websiteCode, record.checkIn.slice(0, 10), record.los, record.guests, record.roomType].join('|');
}

function recNumber(record: RateRecord): number {
	return Number(/-rec(\d+)$/.exec(record.recordId)?.[1]);
}

/** The records the receiver got from one run, in record order. */
function deliveredBy(summary: RunSummary): RateRecord[] {
	const prefix = `shop${summary.shopId}-run${summary.runId}-rec`;
	return receiver.records.filter((record) => record.recordId.startsWith(prefix)).sort((a, b) => recNumber(a) - recNumber(b));
}

describe('stays within one run', () => {
	it('makes every record a stay of its own when a run has more records than pairs × horizon: one guest more per round', async () => {
		const shop = sandbox.data.shops.get(4)!;
		const round = shop.hotelCodes.length * shop.config.websiteCode.length * shop.config.horizon;
		const summary = await sandbox.runShop({ shopId: 4, records: Math.floor(round * 2.5), perDelivery: 50 });
		const records = deliveredBy(summary);
		expect(records).toHaveLength(Math.floor(round * 2.5));
		expect(new Set(records.map(stayOf)).size).toBe(records.length);
		expect(records.map((record) => record.guests)).toEqual(records.map((_, i) => 2 + Math.floor(i / round)));
		expect(records.every((record) => record.occupancy === record.guests)).toBe(true);
	});
});
