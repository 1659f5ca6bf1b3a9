import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { REPO_ROOT } from '../../platform/n8n/communityPackage';

/**
 * `npm start` runs its script through `sh -c`, and npm passes a SIGTERM or SIGINT sent to it on to
 * that shell only: a shell that does not exec the script dies and leaves the script (and n8n, the
 * sandbox and the inbox it started) running. This runs the package's own start script through npm,
 * with a stand-in for scripts/start.ts that starts a process group as the demo does and stops it on
 * the signal, and sends the signal to npm's process.
 */

let root: string;

beforeEach(() => {
	root = fs.mkdtempSync(path.join(os.tmpdir(), 'npm-start-signals-'));
});

afterEach(() => {
	fs.rmSync(root, { recursive: true, force: true });
});

const STAND_IN = `
import { spawnGroup } from ${JSON.stringify(path.join(REPO_ROOT, 'platform', 'n8n', 'processes'))};
const started = spawnGroup('sleep', ['600'], { stdio: 'ignore' });
const stop = async (): Promise<void> => {
	await started.stop();
	process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
console.log('started ' + String(started.child.pid));
`;

function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

describe.each(['SIGTERM', 'SIGINT'] as const)('%s sent to the process of npm start', (signal) => {
	it('stops what the start script started', async () => {
		const { scripts } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
		const start = scripts.start.replace('scripts/start.ts', 'stand-in.ts');
		expect(start).not.toBe(scripts.start);
		fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'stand-in', private: true, scripts: { start } }));
		fs.writeFileSync(path.join(root, 'stand-in.ts'), STAND_IN);
		fs.writeFileSync(path.join(root, 'tsconfig.json'), JSON.stringify({ extends: path.join(REPO_ROOT, 'tsconfig.json') }));
		fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(root, 'node_modules'));

		const npm = spawn('npm', ['start'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
		const npmExited = new Promise<void>((resolve) => npm.once('exit', () => resolve()));
		let output = '';
		npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
		npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
		for (let waited = 0; !/started (\d+)/.test(output); waited += 100) {
			if (waited > 20_000) throw new Error(`the stand-in did not start:\n${output}`);
			await sleep(100);
		}
		const startedPid = Number(/started (\d+)/.exec(output)?.[1]);
		expect(alive(startedPid)).toBe(true);

		npm.kill(signal);
		await Promise.race([npmExited, sleep(10_000)]);
		for (let waited = 0; alive(startedPid) && waited < 10_000; waited += 100) await sleep(100);
		const left = alive(startedPid);
		if (left) process.kill(-startedPid, 'SIGKILL');
		npm.kill('SIGKILL');
		expect(left).toBe(false);
	});
});
