/** n8n's own package loader reads the built node (run `npx tsc -p tsconfig.json` first). */
import type { INodeType } from 'n8n-workflow';

import { loadPackage } from '../harness';

describe('n8n loads the trigger from the package', () => {
	it('finds travelPricingRateTrigger with its webhook and the full registration lifecycle', async () => {
		const loader = await loadPackage();
		const trigger = loader.getNode('travelPricingRateTrigger').type as INodeType;
		expect(trigger.description.webhooks?.[0]).toMatchObject({ name: 'default', httpMethod: 'POST', path: 'rate-records' });
		expect(Object.keys(trigger.webhookMethods?.default ?? {}).sort()).toEqual(['checkExists', 'create', 'delete']);
		expect(typeof trigger.webhook).toBe('function');
	});
});
