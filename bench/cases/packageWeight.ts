import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { N8nInstance, ownPackageJson, REPO_ROOT, runChecked, type N8nRuntime } from '../../platform/n8n';
import { alternate, progress } from '../measure';
import type { BenchmarkResult } from '../report';
import { medianOf, row } from './common';

/** Bytes of every file under a folder (what it takes on disk, before block rounding). */
function folderBytes(folder: string): number {
	let total = 0;
	for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
		const full = path.join(folder, entry.name);
		if (entry.isDirectory()) total += folderBytes(full);
		else if (entry.isFile()) total += fs.statSync(full).size;
	}
	return total;
}

const kb = (bytes: number): number => bytes / 1024;

/**
 * Benchmark 5: what installing the package costs: its tarball, its files, and the extra time n8n
 * takes to start with it, measured on two fresh n8n folders (with and without the package)
 * started in alternation after a first start each that runs the database migrations.
 */
export async function packageWeight(runtime: N8nRuntime, tarball: string, rounds: number): Promise<BenchmarkResult> {
	progress('5 package weight and n8n start-up time');
	const { stdout } = await runChecked('npm', ['pack', '--dry-run', '--json'], { cwd: REPO_ROOT, timeoutMs: 120_000 });
	const [packed] = JSON.parse(stdout) as Array<{ size: number; unpackedSize: number; entryCount: number }>;
	const tarballBytes = fs.statSync(tarball).size;

	const folders = ['with', 'without'].map((side) => fs.mkdtempSync(path.join(os.tmpdir(), `travel-pricing-bench-${side}-`)));
	const withPackage = await N8nInstance.create({ runtime, userFolder: folders[0] });
	const without = await N8nInstance.create({ runtime, userFolder: folders[1] });
	try {
		await withPackage.installPackage(tarball);
		const installedBytes = folderBytes(path.join(withPackage.n8nFolder, 'nodes', 'node_modules', ownPackageJson().name));
		const startOnce = (instance: N8nInstance) => async (): Promise<number> => {
			const started = performance.now();
			await instance.start();
			const ms = performance.now() - started;
			await instance.stop();
			return ms;
		};
		// The first start of a folder creates its database: it is the warm-up round.
		const [withMs, withoutMs] = await alternate(rounds, [startOnce(withPackage), startOnce(without)]);
		const extra = medianOf(withMs, (ms) => ms) - medianOf(withoutMs, (ms) => ms);
		return {
			id: '5',
			title: 'Package weight',
			setup: `The tarball \`npm pack\` makes (what n8n's community package installer downloads), its unpacked files, the package as installed in <n8n folder>/nodes, and the time \`n8n start\` takes until the editor is up (its "Editor is now accessible" line, then /rest/settings answering), in two fresh n8n folders that differ only in the package, started in alternation.`,
			packageSide: 'n8n with this package installed',
			builtInSide: 'the same n8n without it',
			rows: [
				row('Tarball', 'KB', kb(tarballBytes), null),
				row('Unpacked', 'KB', kb(packed.unpackedSize), null),
				row('Files', '', packed.entryCount, null),
				row('Installed on disk, dependencies included', 'KB', kb(installedBytes), null),
				row('n8n start-up time', 'ms', medianOf(withMs, (ms) => ms), medianOf(withoutMs, (ms) => ms)),
				row('Extra start-up time with the package', 'ms', extra, null),
			],
			notes: [
				'Start-up is polled every 250 ms by the harness, so differences below that are within the noise of one round.',
			],
			rounds: { startMs: { package: withMs, builtIn: withoutMs }, packed, tarballBytes, installedBytes },
		};
	} finally {
		await withPackage.dispose();
		await without.dispose();
		for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
	}
}
