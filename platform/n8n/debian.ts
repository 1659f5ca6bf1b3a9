import path from 'node:path';
import fs from 'node:fs';
import { runChecked } from './processes';
import { printProgress } from './runtime';

/** The first `command` on PATH, or undefined. */
export function onPath(command: string): string | undefined {
	return (process.env.PATH ?? '')
		.split(path.delimiter)
		.map((dir) => path.join(dir, command))
		.find((candidate) => fs.existsSync(candidate));
}

/**
 * Installs Debian packages a harness needs (apt-get update once first) when this process runs as
 * root, as CI does; otherwise stops with an error that names the packages, for `purpose`.
 */
export async function installDebianPackages(packages: string[], purpose: string): Promise<void> {
	if (packages.length === 0) return;
	const list = packages.join(' ');
	if (process.getuid?.() !== 0) {
		throw new Error(`${purpose}: install the Debian packages ${list} (sudo apt-get install ${list})`);
	}
	printProgress(`installing ${packages.join(', ')} with apt-get (first run on this machine only)`);
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	await runChecked('apt-get', ['update'], { env, timeoutMs: 10 * 60_000 });
	await runChecked('apt-get', ['install', '-y', '--no-install-recommends', ...packages], { env, timeoutMs: 20 * 60_000 });
}
