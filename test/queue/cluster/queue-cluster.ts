/**
 * n8n in queue mode, the way self-hosted users scale it: Postgres as the database, Redis as the
 * queue, one main (`n8n start`: editor, REST API, webhooks, queueing) and workers (`n8n worker`:
 * they execute). All share N8N_ENCRYPTION_KEY. Each worker has its own user folder with the packed
 * package installed in `.n8n/nodes` the way n8n installs a community package (n8n's queue-mode docs:
 * install it on every worker, or set N8N_REINSTALL_MISSING_PACKAGES=true).
 *
 * Every process runs in its own process group with its output in a log file of the run folder, so
 * stop() (and queue:down, from state.json) kills each with its task runner; nothing is left running.
 */
import { spawn } from 'child_process';
import { randomBytes } from 'crypto';
import { mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';

import { ensureN8n, freePort, n8nEnv, prepareUserFolder, type UserFolder } from '../../e2e/harness';
import {
	POSTGRES_DATABASE,
	POSTGRES_USER,
	type Service,
	ensurePostgresAndRedis,
	isAlive,
	killGroup,
	startPostgres,
	startRedis,
	stopPostgres,
	tail,
	waitForPort,
} from './services';
import { RUN_MARKER, killMarkedProcesses } from './marked-processes';

/** The n8n the queue suite runs; QUEUE_N8N=<version> runs it on another (as E2E_N8N does for e2e). */
export const QUEUE_N8N_VERSION = process.env.QUEUE_N8N || '2.8.4';

export interface QueueProcess {
	name: string;
	pid: number | undefined;
	log: string;
	folder: UserFolder;
	/** Health (workers) or main URL. */
	url: string;
}

export interface QueueCluster {
	runDir: string;
	mainUrl: string;
	main: QueueProcess;
	workers: QueueProcess[];
	postgres: Service;
	redis: Service;
	/** The environment every n8n process shares (database, queue, encryption key, modes). */
	sharedEnv: Record<string, string>;
	/** Everything the n8n processes printed, for a failing test's message. */
	logs(): string;
	/** Kills every process (SIGKILL, with its task runner) and stops Postgres; safe to call twice. */
	stop(): void;
	/** Starts one more worker (e.g. after one was killed). */
	addWorker(name: string): Promise<QueueProcess>;
}

export interface QueueOptions {
	packageTarball: string;
	workers?: number;
	n8nVersion?: string;
	/** Where the run lives; a fresh temp folder when unset. */
	runDir?: string;
	/** Added to every n8n process's environment. */
	env?: Record<string, string>;
	/** Added to the workers' environment only (e.g. NODE_OPTIONS with a heap limit). */
	workerEnv?: Record<string, string>;
	/** Added to the main's environment only. */
	mainEnv?: Record<string, string>;
	/** queue:up: leave everything running when this process exits (queue:down stops it). */
	keepRunning?: boolean;
	/**
	 * Jobs each worker runs at once (`n8n worker --concurrency`), 10 by default. A campaign uses
	 * CAMPAIGN_WORKER_CONCURRENCY (2): a worker that dies then leaves at most two batches unfinished,
	 * the rest wait in Redis.
	 */
	workerConcurrency?: number;
}

export interface QueueState {
	runDir: string;
	mainUrl: string;
	pids: number[];
	postgresDataDir: string;
	userFolders: string[];
	/** What `npm run queue:worker` needs to start one more worker into this run. */
	n8nVersion: string;
	packageTarball: string;
	workerConcurrency: number;
	workerEnv: Record<string, string>;
	workerNames: string[];
	/** The environment every n8n process shares (the file is 0600: it holds the encryption key). */
	sharedEnv: Record<string, string>;
}

/** The environment every n8n process of the run shares, for an operator (mode 0600: it holds the key). */
export const ENV_FILE = 'n8n.env';
const STATE_FILE = 'state.json';

/** A value as a shell reads it back whole: single-quoted, a quote in it escaped. */
export function shellQuoted(value: string): string {
	return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** One line per variable, single-quoted for a shell's `set -a; . n8n.env`. */
function envFileText(env: Record<string, string>): string {
	return Object.entries(env)
		.map(([key, value]) => `${key}=${shellQuoted(value)}`)
		.join('\n')
		.concat('\n');
}

interface SpawnContext {
	runDir: string;
	version: string;
	packageTarball: string;
	sharedEnv: Record<string, string>;
	/** Called with each process's stop(), so the caller can stop everything it started. */
	onStarted(stop: () => void): void;
}

async function spawnN8n(
	context: SpawnContext,
	name: string,
	args: string[],
	env: Record<string, string>,
): Promise<QueueProcess> {
	const folder = await prepareUserFolder({
		n8nVersion: context.version,
		packageTarball: context.packageTarball,
	});
	const log = path.join(context.runDir, `${name}.log`);
	const out = openSync(log, 'a');
	const child = spawn(folder.n8n.nodeBin, [folder.n8n.n8nBin, ...args], {
		cwd: folder.root,
		env: n8nEnv(folder, await freePort(), { ...context.sharedEnv, ...env }),
		stdio: ['ignore', out, out],
		detached: true,
	});
	child.unref();
	context.onStarted(() => {
		killGroup(child.pid);
		rmSync(folder.root, { recursive: true, force: true });
	});
	return { name, pid: child.pid, log, folder, url: '' };
}

async function startWorker(
	context: SpawnContext,
	name: string,
	concurrency: number,
	workerEnv: Record<string, string> | undefined,
): Promise<QueueProcess> {
	const healthPort = await freePort();
	const worker = await spawnN8n(context, name, ['worker', `--concurrency=${concurrency}`], {
		...workerEnv,
		QUEUE_HEALTH_CHECK_ACTIVE: 'true',
		QUEUE_HEALTH_CHECK_PORT: String(healthPort),
		N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
	});
	worker.url = `http://127.0.0.1:${healthPort}`;
	await waitFor(
		name,
		() => workerReady(worker.url),
		() => isAlive(worker.pid),
		worker.log,
	);
	return worker;
}

function readState(stateFile: string): QueueState | undefined {
	try {
		return JSON.parse(readFileSync(stateFile, 'utf8')) as QueueState;
	} catch {
		return undefined;
	}
}

/** Records a worker started after the run began, so queue:down stops it and removes its folder. */
function recordWorker(runDir: string, worker: QueueProcess): void {
	const stateFile = path.join(runDir, STATE_FILE);
	const state = readState(stateFile);
	if (!state) return;
	if (worker.pid !== undefined) state.pids.push(worker.pid);
	state.userFolders.push(worker.folder.root);
	state.workerNames.push(worker.name);
	writeFileSync(stateFile, JSON.stringify(state, null, 2));
}

async function waitFor(
	what: string,
	probe: () => Promise<boolean>,
	alive: () => boolean,
	log: string,
	timeoutMs = 120_000,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (!alive()) throw new Error(`${what} exited while starting:\n${tail(log)}`);
		if (await probe().catch(() => false)) return;
		await new Promise((resolve) => setTimeout(resolve, 300));
	}
	throw new Error(`${what} was not ready within ${timeoutMs} ms:\n${tail(log)}`);
}

/** True when the REST API answers JSON (while starting, n8n answers every route with text). */
async function mainReady(url: string): Promise<boolean> {
	const response = await fetch(`${url}/rest/settings`);
	if (response.status !== 200) return false;
	const body = (await response.json().catch(() => undefined)) as { data?: unknown } | undefined;
	return body?.data !== undefined;
}

async function workerReady(url: string): Promise<boolean> {
	const response = await fetch(`${url}/healthz/readiness`);
	return response.status === 200;
}

export async function startQueueCluster(options: QueueOptions): Promise<QueueCluster> {
	const version = options.n8nVersion ?? QUEUE_N8N_VERSION;
	ensurePostgresAndRedis();
	ensureN8n(version);
	const runDir = options.runDir ?? mkdtempSync(path.join(tmpdir(), 'n8n-queue-'));
	const started: Array<{ stop(): void }> = [];
	const processes: QueueProcess[] = [];
	const stopAll = () => {
		for (const service of started.reverse()) service.stop();
		started.length = 0;
	};
	// A test that throws, a Ctrl-C or jest's exit: kill what we started, synchronously.
	if (!options.keepRunning) process.once('exit', stopAll);

	try {
		const postgres = startPostgres(runDir, await freePort());
		started.push(postgres);
		const redis = startRedis(runDir, await freePort());
		started.push(redis);
		await waitForPort(redis.port);

		const mainPort = await freePort();
		const sharedEnv: Record<string, string> = {
			// Every process knows the public address, as n8n's queue-mode docs ask: a workflow running
			// on a worker builds webhook URLs from it ($execution.resumeUrl), e.g. a campaign posting
			// its batches to the batch workflow's production webhook.
			WEBHOOK_URL: `http://127.0.0.1:${mainPort}/`,
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(redis.port),
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(postgres.port),
			DB_POSTGRESDB_DATABASE: POSTGRES_DATABASE,
			DB_POSTGRESDB_USER: POSTGRES_USER,
			DB_POSTGRESDB_PASSWORD: '',
			N8N_ENCRYPTION_KEY: randomBytes(24).toString('hex'),
			// Filesystem mode is not supported in queue mode (a file on the main's disk is not on the
			// worker's); n8n 2.8 defaults to `database` here, set explicitly so the run says so.
			N8N_DEFAULT_BINARY_DATA_MODE: 'database',
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			N8N_RUNNERS_ENABLED: 'true',
			N8N_LOG_LEVEL: 'info',
			[RUN_MARKER]: runDir,
			...options.env,
		};

		const context: SpawnContext = {
			runDir,
			version,
			packageTarball: options.packageTarball,
			sharedEnv,
			onStarted: (stop) => started.push({ stop }),
		};

		const main = await spawnN8n(context, 'main', ['start'], {
			N8N_PORT: String(mainPort),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_SECURE_COOKIE: 'false',
			...options.mainEnv,
		});
		main.url = `http://127.0.0.1:${mainPort}`;
		processes.push(main);
		// The main migrates the database first; workers start on a migrated one.
		await waitFor(
			'n8n main',
			() => mainReady(main.url),
			() => isAlive(main.pid),
			main.log,
		);

		const concurrency = options.workerConcurrency ?? 10;
		let stateWritten = false;
		const addWorker = async (name: string): Promise<QueueProcess> => {
			const worker = await startWorker(context, name, concurrency, options.workerEnv);
			processes.push(worker);
			if (stateWritten) recordWorker(runDir, worker);
			return worker;
		};
		const workers = await Promise.all(
			Array.from({ length: options.workers ?? 2 }, (_, index) => addWorker(`worker-${index + 1}`)),
		);

		const state: QueueState = {
			runDir,
			mainUrl: main.url,
			pids: [redis.pid, ...processes.map((entry) => entry.pid)].filter(
				(pid): pid is number => pid !== undefined,
			),
			postgresDataDir: path.join(runDir, 'postgres'),
			userFolders: processes.map((entry) => entry.folder.root),
			n8nVersion: version,
			packageTarball: options.packageTarball,
			workerConcurrency: concurrency,
			workerEnv: options.workerEnv ?? {},
			workerNames: workers.map((worker) => worker.name),
			sharedEnv,
		};
		writeFileSync(path.join(runDir, STATE_FILE), JSON.stringify(state, null, 2), { mode: 0o600 });
		writeFileSync(path.join(runDir, ENV_FILE), envFileText(sharedEnv), { mode: 0o600 });
		stateWritten = true;

		return {
			runDir,
			mainUrl: main.url,
			main,
			workers,
			postgres,
			redis,
			sharedEnv,
			logs: () =>
				processes.map((entry) => `--- ${entry.name}\n${tail(entry.log, 3000)}`).join('\n'),
			stop() {
				stopAll();
				process.removeListener('exit', stopAll);
				// A run folder of our own goes too (queue:down removes queue:up's).
				if (!options.runDir) rmSync(runDir, { recursive: true, force: true });
			},
			addWorker,
		};
	} catch (error) {
		stopAll();
		process.removeListener('exit', stopAll);
		throw error;
	}
}

/**
 * npm run queue:worker: one more worker into a running queue:up (a restart after one stopped, or a
 * third for more throughput), with the run's worker settings, recorded for queue:down.
 */
export async function addWorkerToRun(runDir: string, name?: string): Promise<QueueProcess> {
	const state = readState(path.join(runDir, STATE_FILE));
	if (!state) throw new Error(`no queue run in ${runDir}: start one with npm run queue:up`);
	const workerName = name ?? `worker-${state.workerNames.length + 1}`;
	const context: SpawnContext = {
		runDir,
		version: state.n8nVersion,
		packageTarball: state.packageTarball,
		sharedEnv: state.sharedEnv,
		// Left running when this command exits: queue:down stops it from the state file.
		onStarted: () => undefined,
	};
	const worker = await startWorker(context, workerName, state.workerConcurrency, state.workerEnv);
	recordWorker(runDir, worker);
	return worker;
}

/**
 * queue:down: kills what queue:up and queue:worker recorded and every process marked with the run
 * (one an operator started by hand from n8n.env too), then stops its Postgres and removes the
 * user folders, in that order: no n8n is left running on a folder that is gone.
 */
export function stopFromState(stateFile: string): QueueState | undefined {
	const state = readState(stateFile);
	if (!state) return undefined;
	for (const pid of state.pids) killGroup(pid);
	killMarkedProcesses(state.runDir);
	stopPostgres(state.postgresDataDir);
	for (const folder of state.userFolders) rmSync(folder, { recursive: true, force: true });
	return state;
}
