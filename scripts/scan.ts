import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { packPackage, REPO_ROOT } from '../platform/n8n/communityPackage';
import { runChecked } from '../platform/n8n/processes';

/**
 * `npm run scan`: n8n's verification scanner (@n8n/scan-community-package) on this package, with
 * the scanner's own `analyzePackage` and the same two legs as its `analyzePackageByName`:
 *   - the source: the files a provenance attestation points at (the git checkout), linted with
 *     its SOURCE_FILE_PATTERNS;
 *   - the package: the unpacked `npm pack` tarball, linted as `**\/*.js` and package.json.
 * What `analyzePackageByName` adds is only reachable once a version is published (the provenance
 * check, the source download by the attested commit, `npm pack name@version`), so this script
 * feeds the two legs from this checkout instead. Also checks that the tarball holds only what n8n
 * needs. Exits 1 on any finding.
 *
 *   npm run scan                            both legs, from this checkout (builds first)
 *   npm run scan -- --package <dir|.tgz>    the package leg only, of an unpacked package or tarball
 *   npm run scan -- --source <dir>          the source leg only, of another checkout
 */

interface AnalysisResult {
	passed: boolean;
	message?: string;
	details?: string;
}

interface Scanner {
	analyzePackage(packageDir: string, filePatterns?: string[]): Promise<AnalysisResult>;
	findPackageRoot(sourceDir: string, packageName: string): string | null;
	SOURCE_FILE_PATTERNS: string[];
}

/** The patterns analyzePackageByName lints the unpacked tarball with. */
const PACKAGE_FILE_PATTERNS = ['**/*.js', 'package.json'];

/**
 * What n8n reads from an installed package: package.json (name, version, the n8n section), the
 * compiled nodes and credentials with the files they require, their icons, codex files and output
 * schemas (__schema__). npm adds README and LICENSE to every tarball.
 */
const SHIPPED_FILE = /^(package\.json|README\.md|LICENSE|dist\/.+\.(js|svg|png)|dist\/nodes\/.+\.node\.json|dist\/nodes\/[^/]+\/__schema__\/.+\.json)$/;

interface LegResult {
	leg: string;
	findings: string[];
}

// The scanner is an ES module; ts-node compiles this script to CommonJS, which would turn a plain
// import() into require().
const importModule = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;

async function loadScanner(): Promise<Scanner> {
	const scanner = (await importModule(require.resolve('@n8n/scan-community-package/scanner/scanner.mjs'))) as Scanner;
	// The scanner makes a temporary folder for registry downloads when it loads; with graceful
	// cleanup its own copy of tmp removes that folder when the process exits.
	const requireFromScanner = createRequire(require.resolve('@n8n/scan-community-package/scanner/scanner.mjs'));
	(requireFromScanner('tmp') as { setGracefulCleanup(): void }).setGracefulCleanup();
	return scanner;
}

function tempDir(prefix: string): string {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
	process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
	return dir;
}

function describeFailure(result: AnalysisResult): string {
	return [result.message ?? 'failed', result.details?.trim()].filter(Boolean).join('\n');
}

/**
 * The files a source download by commit would hold: in a git checkout, the tracked and the
 * untracked-but-not-ignored files (so dist/, node_modules/ and test leftovers stay out, as they
 * do in the attested source); any other folder as it is.
 */
function sourceTree(dir: string): string {
	let files: string[];
	try {
		const topLevel = execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: dir, encoding: 'utf8' }).trim();
		if (fs.realpathSync(topLevel) !== fs.realpathSync(dir)) return dir;
		files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: dir, encoding: 'utf8' })
			.split('\0')
			.filter(Boolean);
	} catch {
		return dir;
	}
	const copy = tempDir('travel-pricing-scan-source-');
	for (const file of files) {
		const from = path.join(dir, file);
		if (!fs.existsSync(from) || fs.lstatSync(from).isSymbolicLink()) continue;
		fs.mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
		fs.copyFileSync(from, path.join(copy, file));
	}
	return copy;
}

async function scanSource(scanner: Scanner, dir: string): Promise<LegResult> {
	const leg = `source (${dir})`;
	const tree = sourceTree(dir);
	const { name } = JSON.parse(fs.readFileSync(path.join(tree, 'package.json'), 'utf8')) as { name: string };
	// The scanner lints the first folder whose package.json carries the package's name: a fixture
	// of the same name would be scanned in place of the package.
	const root = scanner.findPackageRoot(tree, name);
	if (!root || fs.realpathSync(root) !== fs.realpathSync(tree)) {
		return { leg, findings: [`the scanner would lint ${root ?? 'nothing'} as ${name}, not the repository root`] };
	}
	const result = await scanner.analyzePackage(root, scanner.SOURCE_FILE_PATTERNS);
	return { leg, findings: result.passed ? [] : [describeFailure(result)] };
}

async function unpack(tarball: string): Promise<string> {
	const dir = tempDir('travel-pricing-scan-package-');
	await runChecked('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1'], { timeoutMs: 60_000 });
	return dir;
}

function listFiles(dir: string, base = dir): string[] {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		return entry.isDirectory() ? listFiles(full, base) : [path.relative(base, full).split(path.sep).join('/')];
	});
}

/** Findings of our own about the unpacked package: what n8n's installer and loader rely on. */
function packageContentFindings(dir: string): string[] {
	const packageJson = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
		main?: string;
		n8n?: { nodes?: string[]; credentials?: string[] };
	};
	const files = listFiles(dir);
	const findings: string[] = [];
	const declared = [...(packageJson.n8n?.nodes ?? []), ...(packageJson.n8n?.credentials ?? [])];
	if (declared.length === 0) findings.push('package.json declares no nodes or credentials in its n8n section');
	for (const file of declared) {
		if (!files.includes(file)) findings.push(`package.json's n8n section names ${file}, which the package does not hold`);
	}
	if (packageJson.main !== undefined && !files.includes(path.posix.normalize(packageJson.main))) {
		findings.push(`package.json's main names ${packageJson.main}, which the package does not hold`);
	}
	const extra = files.filter((file) => !SHIPPED_FILE.test(file));
	if (extra.length > 0) findings.push(`the package holds files n8n does not need: ${extra.join(', ')}`);
	return findings;
}

async function scanPackage(scanner: Scanner, packageDir: string): Promise<LegResult> {
	const leg = `package (${packageDir})`;
	const findings = packageContentFindings(packageDir);
	const result = await scanner.analyzePackage(packageDir, PACKAGE_FILE_PATTERNS);
	if (!result.passed) findings.push(describeFailure(result));
	// analyzePackage passes a package with nothing to lint; a package without code is a finding.
	else if (result.message) findings.push(result.message);
	return { leg, findings };
}

function parseArgs(argv: string[]): { source?: string; package?: string } {
	const options: { source?: string; package?: string } = {};
	for (let i = 0; i < argv.length; i += 2) {
		const [flag, value] = [argv[i], argv[i + 1]];
		if ((flag !== '--source' && flag !== '--package') || !value) {
			throw new Error(`Usage: npm run scan [-- --source <dir>] [-- --package <dir|tarball>] (got ${argv.join(' ')})`);
		}
		options[flag === '--source' ? 'source' : 'package'] = path.resolve(value);
	}
	return options;
}

async function main(): Promise<number> {
	const options = parseArgs(process.argv.slice(2));
	const wholeRepository = !options.source && !options.package;
	const scanner = await loadScanner();
	const results: LegResult[] = [];

	if (wholeRepository || options.source) {
		results.push(await scanSource(scanner, options.source ?? REPO_ROOT));
	}
	if (wholeRepository || options.package) {
		const target = options.package ?? (await packPackage());
		const dir = fs.statSync(target).isDirectory() ? target : await unpack(target);
		results.push(await scanPackage(scanner, dir));
	}

	for (const { leg, findings } of results) {
		if (findings.length === 0) console.log(`✓ ${leg}: no findings`);
		for (const finding of findings) console.log(`✗ ${leg}: ${finding}`);
	}
	const failed = results.filter((result) => result.findings.length > 0).length;
	console.log(`Scan: ${results.length} trees checked, ${failed} with findings`);
	return failed === 0 ? 0 : 1;
}

if (require.main === module) {
	main().then(
		(code) => process.exit(code),
		(error: unknown) => {
			console.error(error);
			process.exit(1);
		},
	);
}
