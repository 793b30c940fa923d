// A fresh N8N_USER_FOLDER with the packed community package installed into `.n8n/nodes` the way
// n8n's own "Install community node" does it, so the run loads it as users get it from npm.
import { execFile } from 'child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { promisify } from 'util';

import { resolveN8n } from './n8n-install';
import type { UserFolder } from './n8n-process';

const execFileAsync = promisify(execFile);

// n8n's CommunityPackagesService (the same in 1.123, 2.8 and 2.41): these flags, after removing
// peer/dev/optional dependencies from the package.json, so only its own `dependencies` are
// installed. Peers such as n8n-workflow never get a copy next to it; they resolve from n8n's
// tree through the NODE_PATH n8n sets at start-up.
const NPM_INSTALL_ARGS = [
	'--audit=false',
	'--fund=false',
	'--bin-links=false',
	'--install-strategy=shallow',
	'--ignore-scripts=true',
	'--package-lock=false',
];

export interface PrepareOptions {
	n8nVersion: string;
	/** From `npm pack`; omitted for a folder without community packages. */
	packageTarball?: string;
}

/**
 * The e2e suite's user folder templates (test/e2e/harness/folder-templates.ts): per n8n version, a
 * folder with the run's packed package installed and the database n8n created and migrated on one
 * start, as JSON `{ tarball, folders: { <version>: <root> } }`. Set by the suite's global set-up.
 */
export const TEMPLATES_ENV = 'E2E_USER_FOLDER_TEMPLATES';

/** The template for this version and tarball, when the run made one. */
function templateFor(options: PrepareOptions): string | undefined {
	const given = process.env[TEMPLATES_ENV];
	if (!given || !options.packageTarball) return undefined;
	const templates = JSON.parse(given) as { tarball: string; folders: Record<string, string> };
	if (path.resolve(templates.tarball) !== path.resolve(options.packageTarball)) return undefined;
	return templates.folders[options.n8nVersion];
}

export async function prepareUserFolder(options: PrepareOptions): Promise<UserFolder> {
	const n8n = resolveN8n(options.n8nVersion);
	const root = mkdtempSync(path.join(tmpdir(), 'n8n-e2e-'));
	const n8nDir = path.join(root, '.n8n');
	const nodesDir = path.join(n8nDir, 'nodes');
	const template = templateFor(options);
	if (template) {
		// A copy of a folder n8n has started on once: the package installed as below and the
		// database migrated (a fresh database's migrations cost 4-9 s of every n8n start). No owner,
		// credential or workflow is in it; n8n's event logs of that start are left behind.
		cpSync(path.join(template, '.n8n'), n8nDir, {
			recursive: true,
			filter: (source) => !path.basename(source).startsWith('n8nEventLog'),
		});
		return { root, n8nDir, nodesDir, n8n };
	}
	mkdirSync(nodesDir, { recursive: true });
	mkdirSync(nodesDir, { recursive: true });
	// What n8n writes on first start (ensurePackageJson), listing installed packages.
	const nodesPackageJson = { name: 'installed-nodes', private: true, dependencies: {} };
	writeFileSync(path.join(nodesDir, 'package.json'), JSON.stringify(nodesPackageJson, null, 2));
	const folder: UserFolder = { root, n8nDir, nodesDir, n8n };
	if (options.packageTarball) await installPackage(folder, path.resolve(options.packageTarball));
	return folder;
}

/** n8n's downloadPackage(): untar into node_modules/<name>, strip peers, npm install there. */
export async function installPackage(folder: UserFolder, tarball: string): Promise<string> {
	const staging = mkdtempSync(path.join(folder.root, 'unpack-'));
	await execFileAsync('tar', ['-xzf', tarball, '-C', staging, '--strip-components=1']);
	const manifestPath = path.join(staging, 'package.json');
	const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
	const { devDependencies, peerDependencies, optionalDependencies, ...kept } = manifest;
	(void devDependencies, void peerDependencies, void optionalDependencies);
	writeFileSync(manifestPath, JSON.stringify(kept, null, 2));

	const name = String(kept.name);
	const packageDir = path.join(folder.nodesDir, 'node_modules', name);
	mkdirSync(path.dirname(packageDir), { recursive: true });
	rmSync(packageDir, { recursive: true, force: true });
	await execFileAsync('mv', [staging, packageDir]);
	await execFileAsync('npm', ['install', ...NPM_INSTALL_ARGS], {
		cwd: packageDir,
		// The machine's npmrc names a nodedir this npm warns about; errors are all we want.
		env: { ...process.env, npm_config_loglevel: 'error' },
	});

	const listPath = path.join(folder.nodesDir, 'package.json');
	const list = JSON.parse(readFileSync(listPath, 'utf8')) as {
		dependencies: Record<string, string>;
	};
	list.dependencies[name] = String(kept.version);
	writeFileSync(listPath, JSON.stringify(list, null, 2));
	return packageDir;
}

export function removeUserFolder(folder: UserFolder): void {
	rmSync(folder.root, { recursive: true, force: true });
}
