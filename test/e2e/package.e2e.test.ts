import { e2eVersions, ownPackageJson, startE2e, type E2eEnvironment } from '../../platform/n8n';

const PACKAGE = ownPackageJson().name;

const NODE_TYPES = [
	'travelPricingHotelInfo',
	'travelPricingSchedule',
	'travelPricingEventImpact',
	'travelPricingAirports',
	'travelPricingHotelDemand',
	'travelPricingShopUpdate',
	'travelPricingRateTrigger',
	'travelPricingRateChanges',
];
const CREDENTIAL_TYPES = ['travelPricingApi', 'travelPricingAirportsApi', 'travelPricingN8nApi'];

interface NodeTypeDescription {
	name: string;
	displayName: string;
	iconUrl?: string | { light: string; dark: string };
	codex?: { categories?: string[] };
}

describe.each(e2eVersions())('n8n %s loads the package installed from its tarball', (version) => {
	let env: E2eEnvironment;

	beforeAll(async () => {
		env = await startE2e({ version });
	}, 30 * 60_000);

	afterAll(async () => {
		await env?.close();
	});

	test('the node list holds all eight nodes under the package name', async () => {
		const names = (await env.n8n.nodeTypes()).map((type) => type.name);
		expect(NODE_TYPES.map((type) => `${PACKAGE}.${type}`).filter((type) => !names.includes(type))).toEqual([]);
	});

	test('all three credential types are offered', async () => {
		const names = (await env.n8n.credentialTypes()).map((type) => type.name);
		expect(CREDENTIAL_TYPES.filter((type) => !names.includes(type))).toEqual([]);
	});

	test('the seven action nodes are also offered as AI agent tools, and nothing else is added', async () => {
		const ours = (await env.n8n.nodeTypes()).map((type) => type.name).filter((name) => name.startsWith(`${PACKAGE}.`));
		const tools = NODE_TYPES.filter((type) => type !== 'travelPricingRateTrigger').map((type) => `${type}Tool`);
		expect(ours.sort()).toEqual([...NODE_TYPES, ...tools].map((type) => `${PACKAGE}.${type}`).sort());
	});

	test('Event Impact and Hotel Info, and their tools, come in versions 1 and 1.1, new nodes at 1.1 (Simplify on)', async () => {
		const versioned = ['travelPricingEventImpact', 'travelPricingHotelInfo'].flatMap((type) => [type, `${type}Tool`]);
		const types = (await env.n8n.nodeTypes()) as Array<NodeTypeDescription & { version: number | number[]; defaultVersion?: number }>;
		const ours = versioned.map((type) => types.find((description) => description.name === `${PACKAGE}.${type}`));
		expect(ours.map((type) => ({ name: type?.name, version: type?.version, defaultVersion: type?.defaultVersion }))).toEqual(
			versioned.map((type) => ({ name: `${PACKAGE}.${type}`, version: [1, 1.1], defaultVersion: 1.1 })),
		);
	});

	test('every node has its codex categories and serves its light and dark icons', async () => {
		const wanted = new Set(NODE_TYPES.map((type) => `${PACKAGE}.${type}`));
		const ours = ((await env.n8n.nodeTypes()) as NodeTypeDescription[]).filter((type) => wanted.has(type.name));
		expect(ours).toHaveLength(NODE_TYPES.length);
		for (const type of ours) {
			expect({ node: type.name, categories: type.codex?.categories ?? [] }).toEqual({
				node: type.name,
				categories: expect.arrayContaining([expect.any(String)]),
			});
			expect(typeof type.iconUrl).toBe('object');
			const icons = type.iconUrl as { light: string; dark: string };
			for (const url of [icons.light, icons.dark]) {
				const response = await fetch(`${env.n8n.baseUrl}/${url}`);
				expect({ url, status: response.status, type: response.headers.get('content-type') }).toEqual({
					url,
					status: 200,
					type: expect.stringContaining('svg'),
				});
			}
		}
	});

	test("n8n's log holds no error and no warning about the package", () => {
		const errors = env.n8n.logEntries('error').map((entry) => entry.message);
		const warnings = env.n8n
			.logEntries('warn')
			.map((entry) => entry.message)
			.filter((message) => message.includes(PACKAGE) || /travelPricing/i.test(message));
		expect({ errors, warnings }).toEqual({ errors: [], warnings: [] });
	});
});
