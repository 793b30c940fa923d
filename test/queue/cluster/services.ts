/**
 * Postgres and Redis for a queue-mode run, from Debian's packages: installed when missing (CI
 * machines start fresh), started on loopback in a folder of the run, and stopped afterwards.
 * Postgres refuses to run as root, so initdb and pg_ctl run as the `postgres` user on a data dir it
 * owns.
 */
import { execFileSync, spawn } from 'child_process';
import {
	chmodSync,
	chownSync,
	existsSync,
	mkdirSync,
	openSync,
	readdirSync,
	readFileSync,
} from 'fs';
import * as path from 'path';

export interface Service {
	name: string;
	port: number;
	pid?: number;
	/** Stops it and waits; safe to call twice. */
	stop(): void;
}

const isRoot = () => process.getuid?.() === 0;

export function postgresBin(): string | undefined {
	const root = '/usr/lib/postgresql';
	if (!existsSync(root)) return undefined;
	const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
	const found = versions.find((version) => existsSync(path.join(root, version, 'bin/initdb')));
	return found ? path.join(root, found, 'bin') : undefined;
}

function hasRedis(): boolean {
	try {
		execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
		return true;
	} catch {
		return false;
	}
}

/** apt-get install what is missing, without questions; a no-op when both are there. */
export function ensurePostgresAndRedis(): void {
	const missing = [
		...(postgresBin() ? [] : ['postgresql']),
		...(hasRedis() ? [] : ['redis-server']),
	];
	if (missing.length === 0) return;
	const sudo = isRoot() ? [] : ['sudo'];
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	const run = (args: string[]) =>
		execFileSync(sudo[0] ?? args[0], sudo.length ? args : args.slice(1), {
			env,
			stdio: ['ignore', 'ignore', 'inherit'],
		});
	run(['apt-get', 'update', '-qq']);
	run(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...missing]);
}

/** Runs a Postgres tool as `postgres` when we are root (it refuses root), as ourselves otherwise. */
function asPostgres(bin: string, args: string[]): void {
	const command = isRoot() ? 'runuser' : bin;
	const full = isRoot() ? ['-u', 'postgres', '--', bin, ...args] : args;
	execFileSync(command, full, { stdio: ['ignore', 'ignore', 'pipe'] });
}

export const POSTGRES_USER = 'postgres';
export const POSTGRES_DATABASE = 'n8n';

export function startPostgres(runDir: string, port: number): Service {
	const bin = postgresBin();
	if (!bin) throw new Error('Postgres is not installed: run ensurePostgresAndRedis() first');
	const dataDir = path.join(runDir, 'postgres');
	mkdirSync(dataDir, { recursive: true });
	// The postgres user must reach its data dir through the run folder (mkdtemp makes it 0700).
	chmodSync(runDir, 0o755);
	if (isRoot()) {
		const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
		const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
		chownSync(dataDir, uid, gid);
	}
	asPostgres(path.join(bin, 'initdb'), [
		'-D',
		dataDir,
		'-U',
		POSTGRES_USER,
		'-A',
		'trust',
		'--no-sync',
	]);
	const pgCtl = path.join(bin, 'pg_ctl');
	const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dataDir} -c fsync=off`;
	const log = path.join(dataDir, 'server.log');
	asPostgres(pgCtl, ['-D', dataDir, '-o', options, '-l', log, '-w', '-t', '60', 'start']);
	asPostgres(path.join(bin, 'createdb'), [
		'-h',
		'127.0.0.1',
		'-p',
		String(port),
		'-U',
		POSTGRES_USER,
		POSTGRES_DATABASE,
	]);
	let stopped = false;
	return {
		name: 'postgres',
		port,
		stop() {
			if (stopped) return;
			stopped = true;
			stopPostgres(dataDir);
		},
	};
}

/** pg_ctl stop on a data dir made by startPostgres (also used by queue:down from its state file). */
export function stopPostgres(dataDir: string): void {
	const bin = postgresBin();
	if (!bin || !existsSync(path.join(dataDir, 'postmaster.pid'))) return;
	try {
		asPostgres(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
	} catch {
		// Already down.
	}
}

/** Redis in the foreground of its own process group, no persistence, loopback only. */
export function startRedis(runDir: string, port: number): Service {
	const dir = path.join(runDir, 'redis');
	mkdirSync(dir, { recursive: true });
	const out = openSync(path.join(dir, 'redis.log'), 'a');
	const child = spawn(
		'redis-server',
		[
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--dir',
			dir,
			'--save',
			'',
			'--appendonly',
			'no',
		],
		{ detached: true, stdio: ['ignore', out, out] },
	);
	child.unref();
	return { name: 'redis', port, pid: child.pid, stop: () => killGroup(child.pid) };
}

/** SIGKILL a process group we started (services die with their children: task runners). */
export function killGroup(pid: number | undefined, signal: NodeJS.Signals = 'SIGKILL'): void {
	if (pid === undefined) return;
	try {
		process.kill(-pid, signal);
	} catch {
		// Gone already.
	}
}

/** Waits until a TCP port accepts connections. */
export async function waitForPort(port: number, timeoutMs = 30_000): Promise<void> {
	const { connect } = await import('net');
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		const ok = await new Promise<boolean>((resolve) => {
			const socket = connect(port, '127.0.0.1');
			socket.once('connect', () => (socket.destroy(), resolve(true)));
			socket.once('error', () => resolve(false));
		});
		if (ok) return;
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	throw new Error(`nothing listens on 127.0.0.1:${port} after ${timeoutMs} ms`);
}

/** The last `chars` characters of a log file ('' when it cannot be read). */
export function tail(file: string, chars = 4000): string {
	try {
		return readFileSync(file, 'utf8').slice(-chars);
	} catch {
		return '';
	}
}

/** Whether the process `pid` still runs. */
export function isAlive(pid: number | undefined): boolean {
	if (pid === undefined) return false;
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}
