import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, installDebianPackages, onPath, runChecked, runCommand, spawnGroup, type GroupProcess } from '../n8n';

/**
 * Postgres and Redis for n8n's queue mode, from Debian's packages, each started on a free port with
 * its data in a new temporary folder, as a process group of the harness: stopped by close(), and
 * killed with every other group of the harness when the test process ends (Ctrl-C, failure, CI
 * timeout).
 */

const DEBIAN_PACKAGES = { postgres: 'postgresql', redis: 'redis-server' } as const;
const POSTGRES_ROOT = '/usr/lib/postgresql';
/** Debian's postgresql package creates this system user; Postgres refuses to run as root. */
const POSTGRES_USER = 'postgres';
/** The database role and database n8n uses (trust authentication on the loopback only). */
export const POSTGRES_DATABASE = 'n8n';

export interface ServiceProcess {
	port: number;
	dataDir: string;
	/** Stops the server and removes its data folder. Safe to call twice. */
	close(): Promise<void>;
}

/** The newest installed Postgres's bin folder (Debian installs each major version beside the others). */
function postgresBin(): string | undefined {
	let versions: string[];
	try {
		versions = fs.readdirSync(POSTGRES_ROOT).filter((name) => fs.existsSync(path.join(POSTGRES_ROOT, name, 'bin', 'postgres')));
	} catch {
		return undefined;
	}
	const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
	return newest === undefined ? undefined : path.join(POSTGRES_ROOT, newest, 'bin');
}

function redisServer(): string | undefined {
	return onPath('redis-server');
}

/** The uid and gid of a system user, from /etc/passwd. */
function systemUser(name: string): { uid: number; gid: number } {
	const line = fs
		.readFileSync('/etc/passwd', 'utf8')
		.split('\n')
		.find((entry) => entry.startsWith(`${name}:`));
	if (!line) throw new Error(`There is no "${name}" user: install the Debian package ${DEBIAN_PACKAGES.postgres}, which creates it`);
	const [, , uid, gid] = line.split(':');
	return { uid: Number(uid), gid: Number(gid) };
}

let ensured: Promise<{ postgresBin: string; redisServer: string }> | undefined;

/**
 * The Postgres bin folder and redis-server, installing the Debian packages that are missing when
 * this process runs as root (apt-get update once first), else an error naming what to install.
 */
export function ensureQueueServices(): Promise<{ postgresBin: string; redisServer: string }> {
	ensured ??= (async () => {
		const missing: string[] = [];
		if (!postgresBin()) missing.push(DEBIAN_PACKAGES.postgres);
		if (!redisServer()) missing.push(DEBIAN_PACKAGES.redis);
		await installDebianPackages(missing, 'Queue mode needs Postgres and Redis');
		const bin = postgresBin();
		const redis = redisServer();
		if (!bin || !redis) throw new Error(`apt-get installed ${missing.join(', ')}, but Postgres or redis-server is still not there`);
		return { postgresBin: bin, redisServer: redis };
	})();
	return ensured;
}

/** Runs a command as the postgres user (Postgres refuses root) when this process is root. */
function asPostgres(command: string, args: string[]): [string, string[]] {
	return process.getuid?.() === 0 ? ['runuser', ['-u', POSTGRES_USER, '--', command, ...args]] : [command, args];
}

/** A new Postgres cluster (trust authentication, role and database "n8n") listening on 127.0.0.1. */
export async function startPostgres(): Promise<ServiceProcess> {
	const { postgresBin: bin } = await ensureQueueServices();
	const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-queue-postgres-'));
	fs.chmodSync(dataDir, 0o700);
	if (process.getuid?.() === 0) {
		const { uid, gid } = systemUser(POSTGRES_USER);
		fs.chownSync(dataDir, uid, gid);
	}
	const removeData = (): void => fs.rmSync(dataDir, { recursive: true, force: true });
	let server: GroupProcess | undefined;
	try {
		await runChecked(...asPostgres(path.join(bin, 'initdb'), ['-D', dataDir, '-U', POSTGRES_DATABASE, '--auth=trust', '--no-sync']), { timeoutMs: 120_000 });
		const port = await freePort();
		const log = fs.openSync(path.join(dataDir, 'server.log'), 'a');
		// Run in the foreground (not pg_ctl's daemon) so the server is one of the harness's process
		// groups; its socket goes into the data folder, not /var/run/postgresql.
		server = spawnGroup(
			...asPostgres(path.join(bin, 'postgres'), ['-D', dataDir, '-p', String(port), '-k', dataDir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'max_connections=200']),
			{ stdio: ['ignore', log, log] },
		);
		fs.closeSync(log);
		const createdb = path.join(bin, 'createdb');
		const deadline = Date.now() + 60_000;
		for (;;) {
			const result = await runCommand(createdb, ['-h', '127.0.0.1', '-p', String(port), '-U', POSTGRES_DATABASE, POSTGRES_DATABASE], { timeoutMs: 30_000 });
			if (result.code === 0) break;
			if (Date.now() > deadline) throw new Error(`Postgres did not accept connections within 60 s:\n${result.stderr}\n${fs.readFileSync(path.join(dataDir, 'server.log'), 'utf8')}`);
			await sleep(250);
		}
		const running = server;
		let closed = false;
		return {
			port,
			dataDir,
			async close() {
				if (closed) return;
				closed = true;
				// SIGTERM is Postgres's "smart" shutdown: n8n is stopped by then, so nobody holds a session.
				await running.stop(10_000);
				removeData();
			},
		};
	} catch (error) {
		await server?.stop(5_000);
		removeData();
		throw error;
	}
}

/** A Redis server on 127.0.0.1 that keeps nothing on disk. */
export async function startRedis(): Promise<ServiceProcess> {
	const { redisServer: command } = await ensureQueueServices();
	const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-queue-redis-'));
	const port = await freePort();
	const log = fs.openSync(path.join(dataDir, 'server.log'), 'a');
	const server = spawnGroup(command, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dataDir], {
		stdio: ['ignore', log, log],
	});
	fs.closeSync(log);
	let closed = false;
	const close = async (): Promise<void> => {
		if (closed) return;
		closed = true;
		await server.stop(10_000);
		fs.rmSync(dataDir, { recursive: true, force: true });
	};
	const deadline = Date.now() + 30_000;
	while (!fs.readFileSync(path.join(dataDir, 'server.log'), 'utf8').includes('Ready to accept connections')) {
		if (Date.now() > deadline) {
			const output = fs.readFileSync(path.join(dataDir, 'server.log'), 'utf8');
			await close();
			throw new Error(`redis-server did not start within 30 s:\n${output}`);
		}
		await sleep(100);
	}
	return { port, dataDir, close };
}
