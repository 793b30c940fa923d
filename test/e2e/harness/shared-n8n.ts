/**
 * One served n8n per version for the e2e files that ask for it (`shared: true` in
 * test/e2e/sandboxed-n8n.ts): started by the suite's global set-up on a copy of the version's user
 * folder template, its owner made there, stopped by the global tear-down. Each such file signs in,
 * stores its own credentials (for its own sandbox) and saves its own workflows; only files that need
 * no n8n environment of their own, read no log line another file could print, and assert nothing
 * about workflows, executions or credentials but their own take it. Each start saved is 10-20 s of
 * a CI run's two cores.
 */
import { existsSync, readFileSync, rmSync } from 'fs';
import * as path from 'path';

import { resolveN8n } from './n8n-install';
import type { UserFolder } from './n8n-process';
import { setUpOwner } from './n8n-owner';
import { type N8nServer, startN8nServer } from './n8n-server';
import { prepareUserFolder } from './user-folder';

export const SHARED_ENV = 'E2E_SHARED_N8N';

interface SharedEntry {
	url: string;
	pid: number;
	root: string;
	logFile: string;
}

/** The global set-up's handles, for its tear-down (jest runs both in its main process). */
const handles = globalThis as { e2eSharedServers?: N8nServer[] };

/** Starts one per version, all at once, after the templates; sets SHARED_ENV for the workers. */
export async function startSharedServers(versions: string[], tarball: string): Promise<void> {
	// E2E_SHARED_N8N=0: every file starts its own, as before.
	if (process.env[SHARED_ENV] === '0') return;
	const started = Date.now();
	const servers: N8nServer[] = [];
	handles.e2eSharedServers = servers;
	const entries = await Promise.all(
		versions.map(async (version) => {
			const folder = await prepareUserFolder({ n8nVersion: version, packageTarball: tarball });
			const logFile = path.join(folder.root, 'n8n-start.log');
			const server = await startN8nServer(folder, { startTimeoutMs: 240_000, logFile });
			servers.push(server);
			await setUpOwner(server.url);
			const entry: SharedEntry = {
				url: server.url,
				pid: server.pid as number,
				root: folder.root,
				logFile,
			};
			return [version, entry] as const;
		}),
	);
	process.env[SHARED_ENV] = JSON.stringify(Object.fromEntries(entries));
	console.log(`shared n8n servers (n8n ${versions.join(', ')}) up in ${Date.now() - started} ms`);
}

export async function stopSharedServers(): Promise<void> {
	await Promise.all((handles.e2eSharedServers ?? []).map(async (server) => await server.stop()));
	handles.e2eSharedServers = undefined;
	const given = process.env[SHARED_ENV];
	if (!given || given === '0') return;
	for (const entry of Object.values(JSON.parse(given) as Record<string, SharedEntry>))
		removeFolder(entry.root);
	delete process.env[SHARED_ENV];
}

function removeFolder(root: string): void {
	if (path.basename(root).startsWith('n8n-e2e-')) rmSync(root, { recursive: true, force: true });
}

/** The shared server of `version` and its user folder, when the run started one. */
export function sharedServer(
	version: string,
): { server: N8nServer; folder: UserFolder } | undefined {
	const given = process.env[SHARED_ENV];
	if (!given || given === '0') return undefined;
	const entry = (JSON.parse(given) as Record<string, SharedEntry>)[version];
	if (!entry) return undefined;
	const n8nDir = path.join(entry.root, '.n8n');
	const folder: UserFolder = {
		root: entry.root,
		n8nDir,
		nodesDir: path.join(n8nDir, 'nodes'),
		n8n: resolveN8n(version),
	};
	const alive = () => {
		try {
			process.kill(entry.pid, 0);
			return true;
		} catch {
			return false;
		}
	};
	const server: N8nServer = {
		url: entry.url,
		pid: entry.pid,
		// Every file's lines: what a failing run's message shows, never what a test asserts on.
		logs: () => (existsSync(entry.logFile) ? readFileSync(entry.logFile, 'utf8') : ''),
		alive,
		// The global tear-down stops it.
		stop: async () => {},
	};
	return { server, folder };
}
