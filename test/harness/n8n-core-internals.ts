// The one place the test harness reaches inside n8n-core, for what n8n-core's index does not
// export. Everything else the harness uses comes from `import ... from 'n8n-core'`.
//
// Today that is one class: SSHClientsManager. n8n-core creates it with every node context's
// helpers, and its constructor starts a 60-second setInterval that it clears only on
// `process.on('exit')`, which never fires inside jest's sandboxed `process`: without calling its
// onShutdown(), jest would not exit. Its file has no public path (n8n-core 1.122.48, 2.8.1 and
// 2.41.1: `main: dist/index`, no `exports`, not re-exported from the index), so the path below is
// internal and may move in any release. When it does, this file fails with the path and the
// version, rather than every test file failing on an unresolved import.
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** SSHClientsManager's file inside the n8n-core package (not exported from its index). */
export const SSH_CLIENTS_MANAGER_PATH = 'n8n-core/dist/execution-engine/ssh-clients-manager';

/**
 * n8n-core majors whose SSHClientsManager this file was checked against: 1.122.48 (inside n8n
 * 1.123.81), 2.8.1 (this repository's, inside n8n 2.8.4) and 2.41.1 (inside n8n 2.41.1). A new major
 * fails until someone checks the path and the onShutdown() it calls again, and adds the major here.
 */
export const CHECKED_N8N_CORE_MAJORS: readonly number[] = [1, 2];

/** What the harness needs of the class: the DI token, whose instance it shuts down. */
export type SshClientsManagerClass = new (...args: unknown[]) => { onShutdown(): void };

export interface CoreInternalsSource {
	/** n8n-core's version (package.json). */
	version: string;
	/** `require` for n8n-core's index and the internal path. */
	load: (id: string) => unknown;
}

/** n8n-core's version from its own package.json, found from its main entry (no `exports` needed). */
export function installedN8nCoreVersion(): string {
	let dir = path.dirname(require.resolve('n8n-core'));
	for (let depth = 0; depth < 6; depth++) {
		const file = path.join(dir, 'package.json');
		try {
			const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
			if (pkg.name === 'n8n-core' && pkg.version) return pkg.version;
		} catch {
			// No package.json at this level: go up.
		}
		dir = path.dirname(dir);
	}
	throw new Error('test/harness/n8n-core-internals.ts: cannot find the package.json of n8n-core');
}

function isSshClientsManagerClass(value: unknown): value is SshClientsManagerClass {
	return (
		typeof value === 'function' &&
		typeof (value as { prototype?: { onShutdown?: unknown } }).prototype?.onShutdown === 'function'
	);
}

/**
 * n8n-core's SSHClientsManager class: from n8n-core's index if a version ever exports it, else from
 * its internal path, for a checked major only. Throws an error naming the path and the version when
 * the class is not where this file expects it.
 */
export function sshClientsManagerClass(
	source: CoreInternalsSource = { version: installedN8nCoreVersion(), load: require },
): SshClientsManagerClass {
	const fromIndex = (source.load('n8n-core') as Record<string, unknown>).SSHClientsManager;
	if (isSshClientsManagerClass(fromIndex)) return fromIndex;

	const where = `${SSH_CLIENTS_MANAGER_PATH} (n8n-core ${source.version})`;
	const recheck =
		'Find where this n8n-core keeps SSHClientsManager (or how it now stops its cleanup interval), then update test/harness/n8n-core-internals.ts';
	const major = Number.parseInt(source.version, 10);
	if (!CHECKED_N8N_CORE_MAJORS.includes(major)) {
		throw new Error(
			`test/harness: n8n-core ${source.version} is a major this harness was not checked against (${CHECKED_N8N_CORE_MAJORS.join(', ')}): ${SSH_CLIENTS_MANAGER_PATH} is internal and may have moved. ${recheck}, and add ${major} to CHECKED_N8N_CORE_MAJORS.`,
		);
	}
	let internal: unknown;
	try {
		internal = (source.load(SSH_CLIENTS_MANAGER_PATH) as Record<string, unknown>).SSHClientsManager;
	} catch (error) {
		const code = (error as { code?: unknown }).code;
		throw new Error(
			`test/harness: cannot load ${where}: ${typeof code === 'string' ? code : String(error)}. ${recheck}.`,
		);
	}
	if (!isSshClientsManagerClass(internal)) {
		throw new Error(
			`test/harness: ${where} no longer exports an SSHClientsManager class with onShutdown(). ${recheck}.`,
		);
	}
	return internal;
}
