import { CONTROL_ROUTES } from './control/routes';
import { startSandbox, type SandboxOptions } from './index';

/**
 * `npm run sandbox`: the service simulator as a standalone server for demos and manual testing.
 * Flags win over environment variables: --port / SANDBOX_PORT (default 5679),
 * --latency / SANDBOX_LATENCY (ms), --speed / SANDBOX_SPEED (virtual clock factor),
 * --seed / SANDBOX_SEED.
 */
function option(name: string, env: string): string | undefined {
	const args = process.argv.slice(2);
	for (let i = 0; i < args.length; i++) {
		if (args[i] === `--${name}`) return args[i + 1];
		if (args[i].startsWith(`--${name}=`)) return args[i].slice(name.length + 3);
	}
	return process.env[env];
}

function numberOption(name: string, env: string): number | undefined {
	const raw = option(name, env);
	if (raw === undefined) return undefined;
	const value = Number(raw);
	if (!Number.isFinite(value) || value < 0) {
		console.error(`--${name} must be a number >= 0, got '${raw}'`);
		process.exit(2);
	}
	return value;
}

async function main(): Promise<void> {
	const options: SandboxOptions = {
		port: numberOption('port', 'SANDBOX_PORT') ?? 5679,
		latencyMs: numberOption('latency', 'SANDBOX_LATENCY'),
		speed: numberOption('speed', 'SANDBOX_SPEED'),
		seed: numberOption('seed', 'SANDBOX_SEED'),
	};
	const sandbox = await startSandbox(options);
	const { credentials } = sandbox;
	console.log(`Travel pricing service sandbox listening on ${sandbox.baseUrl}`);
	console.log('');
	console.log('Demo credentials:');
	console.log(`  access token   Authorization: Bearer ${credentials.accessToken}   (every endpoint but airports)`);
	console.log(`  API key        Authorization: ${credentials.apiKey}   (GET /api/v1/references/airports, no scheme word)`);
	console.log(`  expired        ${credentials.expiredToken} / ${credentials.expiredApiKey}   (always 401)`);
	console.log(`  other account  Bearer ${credentials.otherAccountToken}   (owns shops 900-909)`);
	console.log('');
	console.log(`Virtual clock: ${sandbox.clock().now} at speed ${sandbox.clock().speed}; latency ${options.latencyMs ?? 0} ms`);
	console.log('');
	console.log(`Control routes (no auth) on ${sandbox.baseUrl}:`);
	for (const route of CONTROL_ROUTES) console.log(`  ${route}`);
	const stop = (signal: string): void => {
		console.log(`\n${signal} received, stopping the sandbox`);
		void sandbox.close().then(() => process.exit(0));
	};
	process.once('SIGINT', () => stop('SIGINT'));
	process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: Error) => {
	console.error(`sandbox failed to start: ${error.message}`);
	process.exit(1);
});
