/**
 * The operator's tools for queue mode do what docs/queue-mode.md says: `npm run queue:up -- --campaign`
 * starts workers as a campaign wants them (one batch at a time, the memory limits), writes what a
 * restart needs (n8n.env, 0600), `npm run queue:worker` adds a worker to the run, and
 * `npm run queue:down` stops every n8n of the run: recorded ones, added ones and one an operator
 * started by hand from n8n.env, before it removes their folders.
 */
import { type ChildProcess, execFileSync, spawn } from 'child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';

import { freePort, resolveN8n } from '../e2e/harness';
import {
	groupMembers,
	killMarkedProcesses,
	markedProcesses,
	RUN_MARKER,
} from './cluster/marked-processes';
import { QUEUE_N8N_VERSION, type QueueState } from './cluster/queue-cluster';
import { isAlive, waitForPort } from './cluster/services';

const repo = path.resolve(__dirname, '../..');

function npmRun(script: string, runDir: string, args: string[] = []): string {
	return execFileSync('npx', ['tsx', path.join(repo, 'scripts/queue', script), ...args], {
		cwd: repo,
		encoding: 'utf8',
		env: { ...process.env, N8N_QUEUE_DIR: runDir },
		stdio: ['ignore', 'pipe', 'pipe'],
		timeout: 280_000,
	});
}

function detachedSleep(env: Record<string, string>): ChildProcess {
	const child = spawn('sleep', ['300'], { env: { ...process.env, ...env }, detached: true });
	child.unref();
	return child;
}

async function waitUntil(what: string, probe: () => boolean, timeoutMs = 10_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!probe()) {
		if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

describe('queue:down finds the run by its mark', () => {
	it('kills the processes marked with this run and leaves others, marked for another run or not', async () => {
		const runDir = mkdtempSync(path.join(tmpdir(), 'marked-'));
		const ours = detachedSleep({ [RUN_MARKER]: runDir });
		const otherRun = detachedSleep({ [RUN_MARKER]: `${runDir}-other` });
		const unmarked = detachedSleep({});
		try {
			await waitUntil('the marked sleep is seen', () =>
				markedProcesses(runDir).includes(ours.pid!),
			);
			expect(killMarkedProcesses(runDir)).toBe(1);
			await waitUntil('the marked sleep is gone', () => !isAlive(ours.pid));
			expect(isAlive(otherRun.pid)).toBe(true);
			expect(isAlive(unmarked.pid)).toBe(true);
		} finally {
			for (const child of [ours, otherRun, unmarked]) child.kill('SIGKILL');
			rmSync(runDir, { recursive: true, force: true });
		}
	});
});

describe('npm run queue:up -- --campaign, queue:worker, queue:down', () => {
	const parent = mkdtempSync(path.join(tmpdir(), 'queue-tools-'));
	// Postgres runs as its own user and must reach its data dir inside (mkdtemp makes 0700).
	chmodSync(parent, 0o755);
	const runDir = path.join(parent, 'run');
	let byHand: ChildProcess | undefined;

	afterAll(() => {
		byHand?.kill('SIGKILL');
		try {
			npmRun('down.ts', runDir);
		} catch {
			// The test's own queue:down already ran.
		}
		rmSync(parent, { recursive: true, force: true });
	});

	it('starts campaign workers, adds one, and stops every n8n of the run, one started by hand too', async () => {
		const up = npmRun('up.ts', runDir, ['--campaign', '--workers', '1']);
		expect(up).toContain('1 workers at --concurrency=2');
		// Quoted as a shell takes them, so the line can be pasted.
		expect(up).toContain(`NODE_OPTIONS='--max-old-space-size=256 --max-semi-space-size=4'`);
		expect(up).toContain(`N8N_RUNNERS_MAX_OLD_SPACE_SIZE='128 --max-semi-space-size=4'`);
		expect(up).toContain('MALLOC_ARENA_MAX=2');
		expect(up).toContain('MALLOC_MMAP_THRESHOLD_=131072');
		expect(up).toContain('the main: NODE_OPTIONS=--max-old-space-size=384');
		expect(up).toContain('N8N_MINIMIZE_EXECUTION_DATA_FETCHING=true');
		const envFile = path.join(runDir, 'n8n.env');
		expect(up).toContain(envFile);
		// What a restart needs is in the file, which only its owner may read (it holds the key).
		expect(statSync(envFile).mode & 0o777).toBe(0o600);
		const envText = readFileSync(envFile, 'utf8');
		for (const key of ['N8N_ENCRYPTION_KEY', 'DB_POSTGRESDB_PORT', 'QUEUE_BULL_REDIS_PORT'])
			expect(envText).toMatch(new RegExp(`^${key}='[^']+'$`, 'm'));
		expect(up).not.toMatch(/N8N_ENCRYPTION_KEY=/);

		const state = (): QueueState =>
			JSON.parse(readFileSync(path.join(runDir, 'state.json'), 'utf8')) as QueueState;
		// The main with its heap limit (n8n start).
		const mainPid = state().pids.find((pid) =>
			readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('start'),
		);
		const mainEnviron = readFileSync(`/proc/${mainPid}/environ`, 'latin1').split('\0');
		expect(mainEnviron).toContain('NODE_OPTIONS=--max-old-space-size=384');
		// Room in n8n's data tables for the record of many campaigns, on every process writing them.
		expect(mainEnviron).toContain('N8N_DATA_TABLES_MAX_SIZE_BYTES=1073741824');
		// No finished execution read back whole, on the main and on each worker.
		expect(mainEnviron).toContain('N8N_MINIMIZE_EXECUTION_DATA_FETCHING=true');
		const workerPid = state().pids.at(-1)!;
		expect(readFileSync(`/proc/${workerPid}/cmdline`, 'utf8')).toContain('--concurrency=2');
		const workerEnviron = readFileSync(`/proc/${workerPid}/environ`, 'latin1').split('\0');
		expect(workerEnviron).toContain(
			'NODE_OPTIONS=--max-old-space-size=256 --max-semi-space-size=4',
		);
		expect(workerEnviron).toContain('MALLOC_ARENA_MAX=2');
		expect(workerEnviron).toContain('MALLOC_MMAP_THRESHOLD_=131072');
		expect(workerEnviron).toContain('N8N_DATA_TABLES_MAX_SIZE_BYTES=1073741824');
		expect(workerEnviron).toContain('N8N_MINIMIZE_EXECUTION_DATA_FETCHING=true');
		// n8n gives its task runner NODE_OPTIONS of its own, built from
		// N8N_RUNNERS_MAX_OLD_SPACE_SIZE: the runner's young generation rides on that value, and an
		// n8n that built it otherwise would show here.
		let runnerEnviron: string[] = [];
		await waitUntil('the worker starts its task runner', () => {
			// The worker leads its process group; its task runner is the group's other member.
			const runner = groupMembers(workerPid).find(
				(pid) =>
					pid !== workerPid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('task-runner'),
			);
			if (runner) runnerEnviron = readFileSync(`/proc/${runner}/environ`, 'latin1').split('\0');
			return runner !== undefined;
		});
		expect(runnerEnviron).toContain(
			'NODE_OPTIONS=--max-old-space-size=128 --max-semi-space-size=4',
		);

		const added = npmRun('worker.ts', runDir);
		expect(added).toMatch(/^worker-2 is up/);
		const afterAdd = state();
		expect(afterAdd.workerNames).toEqual(['worker-1', 'worker-2']);
		const addedPid = afterAdd.pids.at(-1)!;
		expect(readFileSync(`/proc/${addedPid}/cmdline`, 'utf8')).toContain('--concurrency=2');

		// An operator restarts a worker by hand from n8n.env, as the output says.
		const n8n = resolveN8n(QUEUE_N8N_VERSION);
		const handFolder = mkdtempSync(path.join(tmpdir(), 'hand-worker-'));
		byHand = spawn(
			'bash',
			[
				'-c',
				`set -a; . "${envFile}"; exec "${n8n.nodeBin}" "${n8n.n8nBin}" worker --concurrency=2`,
			],
			{
				env: {
					PATH: `${path.dirname(n8n.nodeBin)}:${process.env.PATH}`,
					HOME: process.env.HOME ?? '/root',
					N8N_USER_FOLDER: handFolder,
					N8N_RUNNERS_BROKER_PORT: String(await freePort()),
				},
				stdio: 'ignore',
			},
		);
		await waitUntil(
			'the hand-started worker runs with the mark',
			() => markedProcesses(runDir).includes(byHand!.pid!),
			30_000,
		);

		const postgresPort = Number(afterAdd.sharedEnv.DB_POSTGRESDB_PORT);
		await waitForPort(postgresPort);
		const handExit = new Promise<NodeJS.Signals | number | null>((resolve) =>
			byHand!.once('exit', (code, signal) => resolve(signal ?? code)),
		);
		expect(byHand.exitCode).toBeNull();
		expect(npmRun('down.ts', runDir)).toContain('stopped n8n queue mode');
		// Killed by queue:down itself, not an exit of its own once Postgres and Redis were gone.
		expect(byHand.exitCode ?? (await handExit)).toBe('SIGKILL');
		await waitUntil(
			'every recorded n8n of the run has stopped',
			() => afterAdd.pids.every((pid) => !isAlive(pid)),
			15_000,
		);
		expect(markedProcesses(runDir)).toEqual([]);
		expect(existsSync(runDir)).toBe(false);
		for (const folder of afterAdd.userFolders) expect(existsSync(folder)).toBe(false);
		await expect(waitForPort(postgresPort, 1_000)).rejects.toThrow();
		rmSync(handFolder, { recursive: true, force: true });
	}, 600_000);
});
