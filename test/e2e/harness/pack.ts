// Packs a package folder the way it is published (`npm pack` runs its prepack build), so the
// suite installs exactly what users would get from npm.
import { execFileSync } from 'child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';

import { repoRoot } from './n8n-install';

/** Returns the tarball path, in a fresh temp folder unless `destination` is given. */
export function packPackage(
	dir: string = repoRoot,
	destination: string = mkdtempSync(path.join(tmpdir(), 'n8n-pack-')),
): string {
	const out = execFileSync('npm', ['pack', '--json', '--pack-destination', destination], {
		cwd: dir,
		encoding: 'utf8',
		env: { ...process.env, npm_config_loglevel: 'error' },
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	// prepack scripts print to stdout too; the JSON report is the last thing written.
	const report = JSON.parse(out.slice(out.lastIndexOf('\n[') + 1)) as Array<{ filename: string }>;
	return path.join(destination, report[0].filename);
}

/** Removes a tarball made by `packPackage` with its temp folder (nothing else lives there). */
export function removePackedTarball(tarball: string | undefined): void {
	if (!tarball) return;
	const folder = path.dirname(tarball);
	if (path.basename(folder).startsWith('n8n-pack-'))
		rmSync(folder, { recursive: true, force: true });
	else rmSync(tarball, { force: true });
}

/**
 * For a test file: the tarball the e2e suite's global set-up packed for every file
 * (E2E_PACKED_TARBALL), else one packed before the file's tests and removed after them. Returns a
 * getter, as the tarball exists only once the file's beforeAll has run.
 */
export function packedForThisFile(): () => string {
	const shared = process.env.E2E_PACKED_TARBALL;
	let tarball: string | undefined;
	beforeAll(() => {
		tarball = shared ?? packPackage();
	}, 180_000);
	afterAll(() => {
		if (!shared) removePackedTarball(tarball);
	});
	return () => {
		if (!tarball) throw new Error('the package is packed in beforeAll: use the getter in a test');
		return tarball;
	};
}

/**
 * Writes and packs a throwaway community package of one node, `source` defining `className` in
 * plain JavaScript, in a temp folder (never the repo) that `removePackedTarball` removes whole.
 * Returns the tarball path.
 */
export function packOneNodePackage(name: string, className: string, source: string): string {
	const dir = mkdtempSync(path.join(tmpdir(), 'n8n-pack-one-node-'));
	const nodeFile = `dist/nodes/${className}/${className}.node.js`;
	mkdirSync(path.dirname(path.join(dir, nodeFile)), { recursive: true });
	writeFileSync(path.join(dir, nodeFile), source);
	const manifest = {
		name,
		version: '0.0.1',
		keywords: ['n8n-community-node-package'],
		license: 'MIT',
		files: ['dist'],
		n8n: { n8nNodesApiVersion: 1, credentials: [], nodes: [nodeFile] },
		peerDependencies: { 'n8n-workflow': '*' },
	};
	writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
	return packPackage(dir, dir);
}
