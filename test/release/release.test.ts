import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../../platform/n8n/communityPackage';
import { runChecked, runCommand } from '../../platform/n8n/processes';

/**
 * The release gates of .ci/run, each shown to fail on a deliberately broken copy: `npm run scan`
 * (n8n's verification scanner on the source and the packed package, plus what n8n's installer
 * needs from the tarball) and `npm run lint:workflows` (actionlint on the GitHub workflows); and
 * the release notes the publish workflow insists on. Run with the built package (`npm test`
 * builds first).
 */

const SCRIPT_TIMEOUT_MS = 180_000;

function runScript(script: string, args: string[]) {
	return runCommand(process.execPath, ['-r', 'ts-node/register/transpile-only', path.join(REPO_ROOT, 'scripts', script), ...args], {
		cwd: REPO_ROOT,
		timeoutMs: SCRIPT_TIMEOUT_MS,
	});
}

let workDir: string;
let unpacked: string;

/** A copy of the unpacked package to break. */
function packageCopy(name: string): string {
	const copy = path.join(workDir, name);
	fs.cpSync(unpacked, copy, { recursive: true });
	return copy;
}

function editJson(file: string, edit: (json: Record<string, unknown>) => void): void {
	const json = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
	edit(json);
	fs.writeFileSync(file, JSON.stringify(json, null, 2));
}

beforeAll(async () => {
	workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'travel-pricing-release-test-'));
	unpacked = path.join(workDir, 'packed');
	fs.mkdirSync(unpacked);
	// Packed here, into a folder this suite removes, rather than by the e2e harness's packPackage,
	// whose tarball is shared by every suite of the process.
	const { stdout } = await runChecked('npm', ['pack', '--json', '--pack-destination', workDir], { cwd: REPO_ROOT, timeoutMs: 120_000 });
	const [{ filename }] = JSON.parse(stdout) as Array<{ filename: string }>;
	await runChecked('tar', ['-xzf', path.join(workDir, filename), '-C', unpacked, '--strip-components=1'], { timeoutMs: 60_000 });
}, SCRIPT_TIMEOUT_MS);

afterAll(() => {
	fs.rmSync(workDir, { recursive: true, force: true });
});

describe('npm run scan: n8n\'s community-package scanner', () => {
	test('the package as npm packs it has no findings', async () => {
		const { code, stdout } = await runScript('scan.ts', ['--package', unpacked]);
		expect(stdout).toContain('no findings');
		expect(code).toBe(0);
	}, SCRIPT_TIMEOUT_MS);

	test('node code that imports child_process and runs a command fails the scan', async () => {
		const broken = packageCopy('forbidden-import');
		const nodeFile = path.join(broken, 'dist/nodes/Airports/TravelPricingAirports.node.js');
		fs.appendFileSync(nodeFile, '\nconst childProcess = require("child_process");\nchildProcess.execSync("id");\n');

		const { code, stdout } = await runScript('scan.ts', ['--package', broken]);
		expect(stdout).toContain('@n8n/community-nodes/no-restricted-imports');
		expect(stdout).toContain('@n8n/community-nodes/no-dangerous-functions');
		expect(code).toBe(1);
	}, SCRIPT_TIMEOUT_MS);

	test('a lifecycle script in the packed package.json fails the scan', async () => {
		const broken = packageCopy('lifecycle-script');
		editJson(path.join(broken, 'package.json'), (json) => {
			json.scripts = { postinstall: 'node dist/setup.js' };
		});

		const { code, stdout } = await runScript('scan.ts', ['--package', broken]);
		expect(stdout).toContain('@n8n/community-nodes/no-forbidden-lifecycle-scripts');
		expect(code).toBe(1);
	}, SCRIPT_TIMEOUT_MS);

	test('a tarball with a main that is not there, a missing node or a file n8n does not need fails', async () => {
		const broken = packageCopy('contents');
		editJson(path.join(broken, 'package.json'), (json) => {
			json.main = 'index.js';
		});
		fs.rmSync(path.join(broken, 'dist/nodes/HotelInfo/TravelPricingHotelInfo.node.js'));
		fs.writeFileSync(path.join(broken, 'dist/nodes/Airports/TravelPricingAirports.node.js.map'), '{}');

		const { code, stdout } = await runScript('scan.ts', ['--package', broken]);
		expect(stdout).toContain("main names index.js, which the package does not hold");
		expect(stdout).toContain('names dist/nodes/HotelInfo/TravelPricingHotelInfo.node.js, which the package does not hold');
		expect(stdout).toContain('files n8n does not need: dist/nodes/Airports/TravelPricingAirports.node.js.map');
		expect(code).toBe(1);
	}, SCRIPT_TIMEOUT_MS);

	test('a forbidden import in the TypeScript source fails the source scan', async () => {
		const source = path.join(workDir, 'source');
		for (const entry of ['package.json', 'nodes', 'credentials']) {
			fs.cpSync(path.join(REPO_ROOT, entry), path.join(source, entry), { recursive: true });
		}
		const nodeFile = path.join(source, 'nodes/Airports/TravelPricingAirports.node.ts');
		fs.writeFileSync(nodeFile, `import { readFileSync } from 'fs';\n${fs.readFileSync(nodeFile, 'utf8')}\nexport const leak = readFileSync('/etc/passwd');\n`);

		const { code, stdout } = await runScript('scan.ts', ['--source', source]);
		expect(stdout).toContain('TravelPricingAirports.node.ts');
		expect(stdout).toContain('@n8n/community-nodes/no-restricted-imports');
		expect(code).toBe(1);
	}, SCRIPT_TIMEOUT_MS);
});

describe('npm run lint:workflows: actionlint on the GitHub workflows', () => {
	const publishWorkflow = path.join(REPO_ROOT, '.github/workflows/publish.yml');

	test('publish.yml publishes with provenance on a version tag, with the OIDC token it needs', () => {
		const publish = fs.readFileSync(publishWorkflow, 'utf8');
		expect(publish).toMatch(/tags:\s*\n\s*- 'v\*'/);
		expect(publish).toMatch(/permissions:\s*\n(\s*#.*\n)*\s*id-token: write\s*\n\s*contents: read/);
		expect(publish).toContain('run: bash .ci/run');
		expect(publish).toContain('run: npm publish --provenance --access public');
	});

	test('a workflow with an unknown permission scope fails actionlint', async () => {
		const broken = path.join(workDir, 'publish.yml');
		fs.writeFileSync(broken, fs.readFileSync(publishWorkflow, 'utf8').replace('id-token: write', 'id-tokens: write'));

		const { code, stdout } = await runScript('lint-workflows.ts', [broken]);
		expect(stdout).toContain('unknown permission scope "id-tokens"');
		expect(code).toBe(1);
	}, SCRIPT_TIMEOUT_MS);
});

describe('CHANGELOG.md', () => {
	test('has a dated Keep a Changelog section for the version in package.json, linked at the bottom', () => {
		const { version } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
		const changelog = fs.readFileSync(path.join(REPO_ROOT, 'CHANGELOG.md'), 'utf8');
		expect(changelog).toContain(`\n## [${version}] - `);
		expect(changelog).toMatch(new RegExp(`^\\[${version.replace(/\./g, '\\.')}\\]: https://`, 'm'));
	});
});
