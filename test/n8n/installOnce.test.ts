import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { withInstallAdvice } from '../../platform/n8n/instance';
import { INSTALLED_MARKER, installOnce, type InstallSteps } from '../../platform/n8n/runtime';

/**
 * n8n's install is five minutes of npm, so these tests give installOnce a stand-in install and
 * verification, and leave in its folder what an interrupted real install leaves: a partial tree
 * without the marker, a lock whose owner died, an install that does not run.
 */

let root: string;
let dir: string;
let progress: string[];

beforeEach(() => {
	root = fs.mkdtempSync(path.join(os.tmpdir(), 'install-once-'));
	dir = path.join(root, 'n8n-9.9.9');
	progress = [];
});

afterEach(() => {
	fs.rmSync(root, { recursive: true, force: true });
});

const say = (line: string) => progress.push(line);

/** Installs one file (and records what the folder held when the install began); answers `verified`. */
function fakeSteps(verified: () => string = () => 'fake 9.9.9 answered --version'): InstallSteps & { foundAtStart: string[][] } {
	const foundAtStart: string[][] = [];
	return {
		foundAtStart,
		install: async () => {
			foundAtStart.push(fs.readdirSync(dir));
			fs.writeFileSync(path.join(dir, 'package.json'), '{}');
		},
		verify: async () => verified(),
	};
}

/** A process id that no process has any more. */
function deadPid(): number {
	const finished = spawnSync(process.execPath, ['-e', '']);
	return finished.pid;
}

function leaveHalfInstall(): void {
	fs.mkdirSync(path.join(dir, 'node_modules', 'lodash'), { recursive: true });
	fs.writeFileSync(path.join(dir, 'node_modules', 'lodash', 'isObject.js'), '');
}

describe('a folder without the .installed marker', () => {
	it('is emptied before installing, so nothing half unpacked survives, and is marked once verified', async () => {
		leaveHalfInstall();
		const steps = fakeSteps();
		await installOnce(dir, 'n8n 9.9.9', say, steps);
		expect(steps.foundAtStart).toEqual([[]]);
		expect(fs.existsSync(path.join(dir, 'node_modules'))).toBe(false);
		expect(fs.readFileSync(path.join(dir, INSTALLED_MARKER), 'utf8')).toContain('verified: fake 9.9.9 answered --version');
		expect(progress.join('\n')).toContain(`${dir} holds an unfinished install of n8n 9.9.9`);
	});

	it('is installed when the lock left behind names a process that has died', async () => {
		leaveHalfInstall();
		fs.mkdirSync(`${dir}.lock`);
		fs.writeFileSync(path.join(`${dir}.lock`, 'pid'), String(deadPid()));
		const steps = fakeSteps();
		await installOnce(dir, 'n8n 9.9.9', say, steps);
		expect(steps.foundAtStart).toEqual([[]]);
		expect(fs.existsSync(path.join(dir, INSTALLED_MARKER))).toBe(true);
		expect(fs.existsSync(`${dir}.lock`)).toBe(false);
	});
});

describe('an install that does not run', () => {
	it('is not marked, names its folder, and is installed afresh by the next start', async () => {
		const failing = fakeSteps(() => {
			throw new Error("Cannot find module './isFunction'");
		});
		const failure = installOnce(dir, 'n8n 9.9.9', say, failing);
		await expect(failure).rejects.toThrow(`Installing n8n 9.9.9 into ${dir} failed: Cannot find module './isFunction'`);
		await expect(failure).rejects.toThrow(`rm -rf ${dir}`);
		expect(fs.existsSync(path.join(dir, INSTALLED_MARKER))).toBe(false);
		expect(fs.existsSync(`${dir}.lock`)).toBe(false);

		const next = fakeSteps();
		await installOnce(dir, 'n8n 9.9.9', say, next);
		expect(next.foundAtStart).toEqual([[]]);
		expect(fs.existsSync(path.join(dir, INSTALLED_MARKER))).toBe(true);
	});
});

describe('a folder with the marker', () => {
	it('is used as it is once verified', async () => {
		await installOnce(dir, 'n8n 9.9.9', say, fakeSteps());
		const again = fakeSteps(() => {
			throw new Error('a verified install is not verified at every start');
		});
		await installOnce(dir, 'n8n 9.9.9', say, again);
		expect(again.foundAtStart).toEqual([]);
	});

	it('written before installs were verified, is verified once and then kept', async () => {
		leaveHalfInstall();
		fs.writeFileSync(path.join(dir, INSTALLED_MARKER), '2026-11-01T00:00:00.000Z\n');
		const steps = fakeSteps();
		await installOnce(dir, 'n8n 9.9.9', say, steps);
		expect(steps.foundAtStart).toEqual([]);
		expect(fs.existsSync(path.join(dir, 'node_modules', 'lodash', 'isObject.js'))).toBe(true);
		expect(fs.readFileSync(path.join(dir, INSTALLED_MARKER), 'utf8')).toContain('verified: fake 9.9.9');
	});

	it('written before installs were verified and not running, says which folder to remove and why', async () => {
		leaveHalfInstall();
		fs.writeFileSync(path.join(dir, INSTALLED_MARKER), '2026-11-01T00:00:00.000Z\n');
		const failure = installOnce(
			dir,
			'n8n 9.9.9',
			say,
			fakeSteps(() => {
				throw new Error("Cannot find module './isFunction'");
			}),
		);
		await expect(failure).rejects.toThrow(`n8n 9.9.9 in ${dir} is marked installed but does not run: Cannot find module './isFunction'`);
		await expect(failure).rejects.toThrow(`rm -rf ${dir}`);
	});
});

describe('n8n failing to start on a missing module', () => {
	it('names the install folder to remove', () => {
		const log = "Error: Cannot find module './isFunction'\nRequire stack:\n- /cache/n8n-9.9.9/node_modules/lodash/isObject.js";
		const advice = withInstallAdvice(`n8n exited with 1 while starting:\n${log}`, { version: '9.9.9', dir: '/cache/n8n-9.9.9' });
		expect(advice).toContain("n8n 9.9.9 could not load its module ./isFunction: its install in /cache/n8n-9.9.9 is incomplete.");
		expect(advice).toContain('rm -rf /cache/n8n-9.9.9');
		expect(advice).toContain(log);
	});

	it('leaves any other failure as it was', () => {
		expect(withInstallAdvice('n8n exited with 1 while starting:\nport in use', { version: '9.9.9', dir: '/x' })).toBe('n8n exited with 1 while starting:\nport in use');
	});
});
