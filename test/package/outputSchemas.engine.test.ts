import { OPERATIONS } from '../../nodes/RateChanges/actions/router';
import { useSandbox } from '../harness';
import { inferOutputSchemas, OUTPUT_SCHEMA_CASES, OUTPUT_SCHEMA_SANDBOX, readSchemaFile, schemaText } from '../../platform/engine';

const sandbox = useSandbox(OUTPUT_SCHEMA_SANDBOX);

/**
 * The output schemas the package ships (nodes/<Node>/__schema__/) are what n8n's editor shows for a
 * node that has not run yet. Each must describe what the node really puts out.
 */
describe('the output schemas n8n shows before a node runs', () => {
	test('every node, and each operation of Schedule and Rate Changes, ships one', () => {
		const files = OUTPUT_SCHEMA_CASES.map((entry) => entry.file);
		for (const folder of ['HotelInfo', 'EventImpact', 'Airports', 'HotelDemand', 'ShopUpdate', 'RateTrigger']) {
			expect(files).toContain(`${folder}/__schema__/v1.0.0.json`);
		}
		// n8n reads the file of the node's version: 1.1 is where Simplify came (and gathering, for the trigger), and on.
		for (const folder of ['HotelInfo', 'EventImpact', 'RateTrigger']) {
			expect(files).toContain(`${folder}/__schema__/v1.1.0.json`);
		}
		// A node with an Operation field has one file per operation: n8n reads __schema__/v<version>/<operation>.json.
		for (const operation of ['create', 'update', 'upsert', 'preview']) {
			expect(files).toContain(`Schedule/__schema__/v1.0.0/${operation}.json`);
		}
		for (const operation of OPERATIONS) {
			expect(files).toContain(`RateChanges/__schema__/v1.0.0/${operation}.json`);
		}
	});

	test('each file holds the schema of what its node outputs against the service (npm run schemas writes them)', async () => {
		const inferred = await inferOutputSchemas(sandbox);
		for (const [file, schema] of inferred) {
			expect({ file, text: readSchemaFile(file) }).toEqual({ file, text: schemaText(schema) });
		}
	}, 60_000);
});
