import fs from 'node:fs';
import path from 'node:path';
import { runChecked } from './processes';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');

interface PackageJson {
	name: string;
	version: string;
	n8n: { nodes: string[]; credentials: string[] };
	dependencies?: Record<string, string>;
	devDependencies?: Record<string, string>;
	peerDependencies?: Record<string, string>;
	optionalDependencies?: Record<string, string>;
}

export function ownPackageJson(): PackageJson {
	return JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as PackageJson;
}

let packed: Promise<string> | undefined;

/** Where tarballs are packed: one folder per process under platform/n8n/.work (git-ignored). */
const PACK_ROOT = path.join(__dirname, '.work');

/**
 * A fresh folder for this process's tarball. Jest's workers never see the process's 'exit', so
 * instead of cleaning up after itself each run removes the folders of runs that are gone.
 */
function packFolder(): string {
	fs.mkdirSync(PACK_ROOT, { recursive: true });
	for (const entry of fs.readdirSync(PACK_ROOT)) {
		const owner = /^pack-(\d+)$/.exec(entry);
		if (owner && !isAlive(Number(owner[1]))) fs.rmSync(path.join(PACK_ROOT, entry), { recursive: true, force: true });
	}
	const destination = path.join(PACK_ROOT, `pack-${process.pid}`);
	fs.rmSync(destination, { recursive: true, force: true });
	fs.mkdirSync(destination);
	return destination;
}

function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/**
 * The tarball a user would download: `npm pack` of this checkout, once per process. It ships
 * dist/ only, so every file that package.json's n8n section names must have been built.
 */
export function packPackage(): Promise<string> {
	packed ??= (async () => {
		const { n8n } = ownPackageJson();
		const missing = [...n8n.nodes, ...n8n.credentials].filter((file) => !fs.existsSync(path.join(REPO_ROOT, file)));
		if (missing.length > 0) {
			throw new Error(`Run "npm run build" first: the package would ship without ${missing.join(', ')}`);
		}
		const destination = packFolder();
		const { stdout } = await runChecked('npm', ['pack', '--json', '--pack-destination', destination], {
			cwd: REPO_ROOT,
			timeoutMs: 120_000,
		});
		const [{ filename }] = JSON.parse(stdout) as Array<{ filename: string }>;
		return path.join(destination, filename);
	})();
	return packed;
}

/**
 * Installs the tarball into `<n8n folder>/nodes` the way n8n's own community package installer
 * does (CommunityPackagesService.downloadPackage in n8n 2.x): unpack into node_modules/<name>,
 * drop devDependencies, peerDependencies and optionalDependencies from its package.json, install
 * the remaining dependencies with scripts off, and record the package in nodes/package.json.
 * n8n-workflow is therefore not installed beside the package: n8n resolves it to its own copy.
 */
export async function installCommunityPackage(n8nFolder: string, tarball: string): Promise<string> {
	const nodesDir = path.join(n8nFolder, 'nodes');
	const manifest = path.join(nodesDir, 'package.json');
	fs.mkdirSync(path.join(nodesDir, 'node_modules'), { recursive: true });
	if (!fs.existsSync(manifest)) {
		fs.writeFileSync(manifest, JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2));
	}
	const { name } = ownPackageJson();
	const packageDir = path.join(nodesDir, 'node_modules', name);
	fs.rmSync(packageDir, { recursive: true, force: true });
	fs.mkdirSync(packageDir, { recursive: true });
	await runChecked('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1'], { timeoutMs: 60_000 });

	const packageJsonPath = path.join(packageDir, 'package.json');
	const shipped = JSON.parse(fs.readFileSync(packageJsonPath, 'utf8')) as PackageJson;
	delete shipped.devDependencies;
	delete shipped.peerDependencies;
	delete shipped.optionalDependencies;
	fs.writeFileSync(packageJsonPath, JSON.stringify(shipped, null, 2));
	await runChecked(
		'npm',
		['install', '--audit=false', '--fund=false', '--bin-links=false', '--install-strategy=shallow', '--ignore-scripts=true', '--package-lock=false'],
		{ cwd: packageDir, timeoutMs: 300_000 },
	);

	const installed = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { dependencies?: Record<string, string> };
	installed.dependencies = { ...installed.dependencies, [name]: shipped.version };
	fs.writeFileSync(manifest, JSON.stringify(installed, null, 2));
	return packageDir;
}
