// Finds an n8n version installed by scripts/n8n/install-n8n.sh (cache outside git) and the node
// binary it must run on. Installing is left to that script: it takes minutes and is cached.
import { execFileSync } from 'child_process';
import { existsSync, readFileSync } from 'fs';
import * as path from 'path';

export interface N8nInstall {
	version: string;
	/** node_modules/n8n/bin/n8n: a JS file, always run as `nodeBin n8nBin ...`. */
	n8nBin: string;
	/** System Node 20 or the cached Node 24, whichever this n8n version needs. */
	nodeBin: string;
}

export interface MatrixEntry {
	label: string;
	n8n: string;
	node: number;
}

export const repoRoot = path.resolve(__dirname, '../../..');
const scriptsDir = path.join(repoRoot, 'scripts/n8n');

export function n8nCacheDir(): string {
	return process.env.N8N_CACHE_DIR ?? path.join(repoRoot, '.cache/n8n');
}

/** The pinned version matrix from scripts/n8n/versions.json. */
export function n8nMatrix(): MatrixEntry[] {
	const file = path.join(scriptsDir, 'versions.json');
	return (JSON.parse(readFileSync(file, 'utf8')) as { versions: MatrixEntry[] }).versions;
}

/** The install of `version`, or an error saying how to make it. */
export function resolveN8n(version: string): N8nInstall {
	const dir = path.join(n8nCacheDir(), version);
	if (!existsSync(path.join(dir, '.complete'))) {
		throw new Error(`n8n ${version} is not installed: run scripts/n8n/install-n8n.sh ${version}`);
	}
	const env = JSON.parse(readFileSync(path.join(dir, 'env.json'), 'utf8')) as {
		n8nBin: string;
		nodeBin: string;
	};
	return { version, n8nBin: env.n8nBin, nodeBin: env.nodeBin };
}

/** Installs `version` if needed (minutes when cold, instant when cached) and resolves it. */
export function ensureN8n(version: string): N8nInstall {
	execFileSync(path.join(scriptsDir, 'install-n8n.sh'), [version], {
		stdio: ['ignore', 'ignore', 'inherit'],
	});
	return resolveN8n(version);
}
