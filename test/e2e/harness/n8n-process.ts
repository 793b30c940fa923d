// Runs the real n8n CLI against one throwaway user folder, with an environment that keeps it
// quiet, offline and out of the real ~/.n8n.
import { spawn } from 'child_process';
import { appendFileSync, closeSync, openSync, readFileSync, rmSync, statSync } from 'fs';
import * as path from 'path';

import { recordForSecretScan } from '../../secret-scan/record';
import { PORT_TAKEN_ATTEMPTS, freePort, saysPortInUse } from './free-port';
import type { N8nInstall } from './n8n-install';

export { freePort } from './free-port';

export interface UserFolder {
	/** N8N_USER_FOLDER: n8n keeps its data in `<root>/.n8n`. */
	root: string;
	n8nDir: string;
	/** Where community packages live, as when a user installs one in the editor. */
	nodesDir: string;
	n8n: N8nInstall;
}

export interface CliResult {
	exitCode: number | null;
	stdout: string;
	stderr: string;
	durationMs: number;
	/** Peak resident memory (VmHWM) of the main n8n process in MB, when `measureMemory` was set. */
	peakRssMb?: number;
	/**
	 * The command's output was complete (`doneWhen`) but n8n did not end well: it did not exit in its
	 * grace time (killed here), or a signal ended it (`signal`) after it had printed everything.
	 */
	killedAfterDone?: boolean;
	/** The signal that ended the process, when one did (ours on a timeout, or another's). */
	signal?: string;
}

export interface RunOptions {
	env?: Record<string, string>;
	/** Task-broker port; two n8n processes on the default 5679 collide. Free port if unset. */
	brokerPort?: number;
	/** Where the broker port comes from when unset (freePort unless told; a test's taken port). */
	choosePort?: () => Promise<number>;
	timeoutMs?: number;
	/** Poll the main process's peak resident memory (Linux /proc) every ~20 ms into `peakRssMb`. */
	measureMemory?: boolean;
	/**
	 * The output says the command's work is done. Seen in n8n 1.123.81 on a loaded machine: `n8n
	 * execute` printed its whole run, then never exited (its shutdown closing the database). Once
	 * this holds the process gets DONE_GRACE_MS to exit, then is killed, with `killedAfterDone`.
	 */
	doneWhen?: (stdout: string) => boolean;
	/** With `doneWhen`: how long n8n may take to exit once done (DONE_GRACE_MS unless told). */
	doneGraceMs?: number;
}

/** How long n8n may take to exit once its output is complete (it normally takes well under 1 s). */
const DONE_GRACE_MS = 20_000;

/**
 * A memory figure of a live process from /proc, in kB: VmHWM (the kernel's high-water mark of
 * resident memory) or VmRSS (resident memory now).
 */
export function processMemoryKb(pid: number, field: 'VmHWM' | 'VmRSS'): number | undefined {
	try {
		const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(
			readFileSync(`/proc/${pid}/status`, 'utf8'),
		);
		return match ? Number(match[1]) : undefined;
	} catch {
		// Gone, or not Linux.
		return undefined;
	}
}

/** The environment for n8n: the caller's, minus anything n8n- or node-specific it could inherit. */
export function n8nEnv(folder: UserFolder, brokerPort: number, extra: Record<string, string> = {}) {
	const base: Record<string, string> = {};
	for (const [key, value] of Object.entries(process.env)) {
		// A parent's N8N_*/DB_* would redirect the run; NODE_OPTIONS from jest/tsx loaders would
		// be applied to n8n and its task runner.
		// jest sets NODE_ENV=test, which makes `n8n execute` skip the run and exit 0.
		if (value === undefined || /^(N8N_|DB_|NODE_OPTIONS$|NODE_PATH$|NODE_ENV$|JEST_)/.test(key))
			continue;
		base[key] = value;
	}
	return {
		...base,
		// n8n spawns its task runner with this node too; keep the matching node first on PATH.
		PATH: `${path.dirname(folder.n8n.nodeBin)}${path.delimiter}${process.env.PATH ?? ''}`,
		N8N_USER_FOLDER: folder.root,
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
		GENERIC_TIMEZONE: 'UTC',
		TZ: 'UTC',
		// E2E_N8N_LOG_LEVEL=debug: n8n's own log level, to see what a failing run did.
		...(process.env.E2E_N8N_LOG_LEVEL ? { N8N_LOG_LEVEL: process.env.E2E_N8N_LOG_LEVEL } : {}),
		...extra,
	};
}

let runCounter = 0;

/**
 * With E2E_RUN_LOG set (.ci/run sets it), each n8n command's time and exit go to that file, one line
 * each, so a slow suite shows whether n8n's commands got slower or fewer of them end well.
 */
export function logRun(
	command: string | undefined,
	result: Pick<CliResult, 'durationMs' | 'exitCode' | 'killedAfterDone' | 'signal'>,
): void {
	const file = process.env.E2E_RUN_LOG;
	if (!file) return;
	const test = expect.getState?.().currentTestName ?? '';
	appendFileSync(
		file,
		`${new Date().toISOString()}\t${command}\t${result.durationMs} ms\texit ${String(result.exitCode)}${result.killedAfterDone ? ` (killed${result.signal ? ` by ${result.signal}` : ''}: no clean exit after its output was complete)` : ''}\t${test}\n`,
	);
}

/**
 * Runs `n8n <args>` to completion, collecting its output. When the task-broker port chosen here
 * was taken before n8n bound it (n8n exits at once, having run nothing), it runs again on another.
 */
export async function runN8n(
	folder: UserFolder,
	args: string[],
	options: RunOptions = {},
): Promise<CliResult> {
	for (let attempt = 1; ; attempt++) {
		const brokerPort = options.brokerPort ?? (await (options.choosePort ?? freePort)());
		const result = await runN8nOnce(folder, args, { ...options, brokerPort });
		const portTaken = result.exitCode !== 0 && saysPortInUse(`${result.stdout}\n${result.stderr}`);
		if (!portTaken || options.brokerPort !== undefined || attempt >= PORT_TAKEN_ATTEMPTS)
			return result;
	}
}

async function runN8nOnce(
	folder: UserFolder,
	args: string[],
	options: RunOptions & { brokerPort: number },
): Promise<CliResult> {
	const { brokerPort } = options;
	const started = Date.now();
	// stdout goes to a file: n8n exits right after printing the run, and through a pipe the tail
	// of a large run (10,000 items: megabytes) was lost; writes to a file are synchronous.
	const stdoutFile = path.join(folder.root, `stdout-${process.pid}-${++runCounter}.txt`);
	const stdoutFd = openSync(stdoutFile, 'w');
	const child = spawn(folder.n8n.nodeBin, [folder.n8n.n8nBin, ...args], {
		cwd: folder.root,
		env: n8nEnv(folder, brokerPort, options.env),
		stdio: ['ignore', stdoutFd, 'pipe'],
	});
	closeSync(stdoutFd);
	let stderr = '';
	child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
	// VmHWM only grows, so the last reading before exit is the peak (give or take one interval).
	let peakKb = 0;
	const sample = () => {
		if (child.pid !== undefined)
			peakKb = Math.max(peakKb, processMemoryKb(child.pid, 'VmHWM') ?? 0);
	};
	const poller = options.measureMemory ? setInterval(sample, 20) : undefined;
	if (poller) child.on('exit', () => clearInterval(poller));
	let doneAt: number | undefined;
	let killedAfterDone = false;
	// The output is read again only when it grew: a 10,000-item run prints megabytes.
	let sizeRead = 0;
	const doneWatch = options.doneWhen
		? setInterval(() => {
				if (doneAt === undefined) {
					const size = statSync(stdoutFile).size;
					if (size === sizeRead) return;
					sizeRead = size;
					if (options.doneWhen?.(readFileSync(stdoutFile, 'utf8'))) doneAt = Date.now();
				} else if (Date.now() - doneAt > (options.doneGraceMs ?? DONE_GRACE_MS)) {
					killedAfterDone = true;
					child.kill('SIGKILL');
				}
			}, 1000)
		: undefined;
	const [exitCode, signal] = await new Promise<[number | null, NodeJS.Signals | null]>(
		(resolve, reject) => {
			child.on('error', reject);
			child.on('close', (code, ended) => resolve([code, ended]));
		},
	);
	clearTimeout(timer);
	clearInterval(poller);
	clearInterval(doneWatch);
	const stdout = readFileSync(stdoutFile, 'utf8');
	rmSync(stdoutFile, { force: true });
	recordForSecretScan(`n8n process output (n8n ${args[0]})`, { stdout, stderr });
	const result: CliResult = { exitCode, stdout, stderr, durationMs: Date.now() - started };
	if (signal) result.signal = signal;
	// Seen in n8n 1.123.81 under load (2 of about 225 commands in a CI run): `n8n execute` printed
	// its whole run, "status": "success", then a signal not sent here ended it (exit null) while
	// it shut down. The run is judged by what it printed, as for a hung exit, and the run log says so.
	if (killedAfterDone || (signal && options.doneWhen?.(stdout))) result.killedAfterDone = true;
	logRun(args[0], result);
	if (options.measureMemory && peakKb > 0) result.peakRssMb = peakKb / 1024;
	return result;
}
