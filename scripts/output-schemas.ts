/**
 * `npm run schemas`: writes each node's output schema (nodes/<Node>/__schema__/), inferred from
 * what the node puts out against the sandbox (see platform/engine/outputSchemas.ts). Run it after a
 * change to what a node outputs; test/package/outputSchemas.engine.test.ts fails until then.
 */
import fs from 'node:fs';
import path from 'node:path';
import { inferOutputSchemas, OUTPUT_SCHEMA_SANDBOX, schemaPath, schemaText, stopEngine } from '../platform/engine';

async function main(): Promise<void> {
	const { startSandbox } = await import('../platform/sandbox');
	const sandbox = await startSandbox({ port: 0, ...OUTPUT_SCHEMA_SANDBOX });
	try {
		for (const [file, schema] of await inferOutputSchemas(sandbox)) {
			fs.mkdirSync(path.dirname(schemaPath(file)), { recursive: true });
			fs.writeFileSync(schemaPath(file), schemaText(schema));
			console.log(`wrote nodes/${file}`);
		}
	} finally {
		await sandbox.close();
		await stopEngine();
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
