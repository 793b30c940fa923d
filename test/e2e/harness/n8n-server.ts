// Starts `n8n start` on a user folder and waits until it is healthy; for interactive use and
// tests that need the REST API or the editor.
import { spawn } from 'child_process';
import { appendFileSync, mkdirSync } from 'fs';
import { join } from 'path';

import { recordForSecretScan } from '../../secret-scan/record';
import { PORT_TAKEN_ATTEMPTS, freePort, saysPortInUse } from './free-port';
import { n8nEnv, type UserFolder } from './n8n-process';

export interface N8nServer {
	url: string;
	pid: number | undefined;
	/** Everything it printed so far, for a failing test's message. */
	logs(): string;
	/** False once the process has exited. */
	alive(): boolean;
	/** SIGTERM (n8n stops its task runner too), SIGKILL if still alive after the grace time. */
	stop(graceMs?: number): Promise<void>;
}

export interface ServerOptions {
	port?: number;
	brokerPort?: number;
	env?: Record<string, string>;
	startTimeoutMs?: number;
	/** Each chunk n8n prints, as it comes (`npm start` shows n8n's warnings with it). */
	onOutput?: (chunk: string) => void;
	/**
	 * Where ports not given come from (freePort unless told); a test hands out a taken one first to
	 * prove the start moves on.
	 */
	choosePort?: () => Promise<number>;
	/** Everything it prints also goes to this file (the e2e suite's shared servers: shared-n8n.ts). */
	logFile?: string;
}

interface Probe {
	status: number;
	body?: { status?: string; data?: unknown };
}

async function getJson(url: string): Promise<Probe> {
	try {
		// Whatever else listens on the port (n8n could not take it) may never answer.
		const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
		const body = (await response.json().catch(() => undefined)) as Probe['body'];
		return { status: response.status, body };
	} catch {
		return { status: 0 }; // Not listening yet.
	}
}

/**
 * Ready for a client: /healthz answers as soon as the HTTP server listens, /healthz/readiness
 * once the database is migrated, and the REST API (and editor) is mounted after that, so the
 * public /rest/settings answering 200 is the signal that counts.
 */
async function isReady(url: string): Promise<boolean> {
	const health = await getJson(`${url}/healthz`);
	if (health.status !== 200 || health.body?.status !== 'ok') return false;
	// While starting, n8n answers every route 200 with the text "n8n is starting up": wait for JSON.
	const settings = await getJson(`${url}/rest/settings`);
	return settings.status === 200 && settings.body?.data !== undefined;
}

/**
 * Starts n8n and waits until it is healthy. When a port chosen here (the server's or its task
 * broker's) was taken before n8n bound it, n8n exits (the broker's), or says so and runs on never
 * healthy (its own, in n8n 2.8.4): it is stopped and started again on others.
 */
export async function startN8nServer(
	folder: UserFolder,
	options: ServerOptions = {},
): Promise<N8nServer> {
	const choose = options.choosePort ?? freePort;
	const portsGiven = options.port !== undefined && options.brokerPort !== undefined;
	for (let attempt = 1; ; attempt++) {
		const port = options.port ?? (await choose());
		const brokerPort = options.brokerPort ?? (await choose());
		try {
			return await startOnPorts(folder, options, port, brokerPort);
		} catch (error) {
			const taken = error instanceof PortTakenError;
			if (!taken || portsGiven || attempt >= PORT_TAKEN_ATTEMPTS) throw error;
		}
	}
}

/** n8n exited at start because a port it was given was taken. */
class PortTakenError extends Error {}

async function startOnPorts(
	folder: UserFolder,
	options: ServerOptions,
	port: number,
	brokerPort: number,
): Promise<N8nServer> {
	const url = `http://127.0.0.1:${port}`;
	const child = spawn(folder.n8n.nodeBin, [folder.n8n.n8nBin, 'start'], {
		cwd: folder.root,
		env: n8nEnv(folder, brokerPort, {
			N8N_PORT: String(port),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			// Plain http on localhost: a secure cookie would stop the editor's login.
			N8N_SECURE_COOKIE: 'false',
			...options.env,
		}),
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	// E2E_SERVER_LOG_DIR=<folder>: each server's output also goes to a file there, for a run that
	// hangs or fails far from where the test looks.
	const logDir = process.env.E2E_SERVER_LOG_DIR;
	if (logDir) mkdirSync(logDir, { recursive: true });
	const logFile = logDir && join(logDir, `n8n-${port}.log`);
	const take = (chunk: Buffer) => {
		output += chunk.toString();
		if (logFile) appendFileSync(logFile, chunk);
		if (options.logFile) appendFileSync(options.logFile, chunk);
		options.onOutput?.(chunk.toString());
	};
	child.stdout.on('data', take);
	child.stderr.on('data', take);
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	let alive = true;
	void exited.then(() => {
		alive = false;
		recordForSecretScan('n8n process output (n8n start)', output);
	});

	const stop = async (graceMs = 15_000) => {
		if (!alive) return;
		child.kill('SIGTERM');
		const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
		await exited;
		clearTimeout(timer);
	};

	const deadline = Date.now() + (options.startTimeoutMs ?? 90_000);
	while (Date.now() < deadline) {
		if (!alive) {
			const message = `n8n start exited before it was healthy:\n${output}`;
			throw saysPortInUse(output) ? new PortTakenError(message) : new Error(message);
		}
		// n8n 2.8.4 whose own port was taken says so and goes on running, never healthy.
		if (saysPortInUse(output)) {
			await stop();
			throw new PortTakenError(`n8n start found a port taken:\n${output}`);
		}
		if (await isReady(url))
			return { url, pid: child.pid, logs: () => output, alive: () => alive, stop };
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	await stop();
	throw new Error(`n8n start was not healthy within the timeout:\n${output}`);
}
