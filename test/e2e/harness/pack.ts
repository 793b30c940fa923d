// Packs a package folder the way it is published (`npm pack` runs its prepack build), so the
// suite installs exactly what users would get from npm.
import { execFileSync } from 'child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'fs';
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
 * The tarball packed once for a whole run (E2E_PACKED_TARBALL: set by `.ci/run` for every suite, or
 * by a suite's global set-up for its files), else one packed now for the caller alone.
 */
export function packedTarball(): string {
	return process.env.E2E_PACKED_TARBALL ?? packPackage();
}

/** Removes a tarball from `packedTarball` unless it is the run's shared one (others still use it). */
export function removeOwnTarball(tarball: string | undefined): void {
	if (tarball !== process.env.E2E_PACKED_TARBALL) removePackedTarball(tarball);
}

/**
 * A suite's global set-up: packs the package once for every file unless the run already did
 * (`.ci/run` packs once for all suites). Its tear-down removes the tarball only if it packed it.
 */
export function packForSuite(): void {
	const given = process.env.E2E_PACKED_TARBALL;
	if (given && !existsSync(given))
		throw new Error(
			`E2E_PACKED_TARBALL names ${given}, which does not exist: unset it to pack the package here`,
		);
	if (given) return;
	process.env.E2E_PACKED_TARBALL = packPackage();
	process.env.E2E_PACKED_BY_SUITE = '1';
}

export function removeSuiteTarball(): void {
	if (process.env.E2E_PACKED_BY_SUITE !== '1') return;
	removePackedTarball(process.env.E2E_PACKED_TARBALL);
	delete process.env.E2E_PACKED_TARBALL;
	delete process.env.E2E_PACKED_BY_SUITE;
}

/**
 * For a test file: the run's shared tarball (E2E_PACKED_TARBALL), else one packed before the
 * file's tests and removed after them. Returns a getter, as the tarball exists only once the
 * file's beforeAll has run.
 */
export function packedForThisFile(): () => string {
	let tarball: string | undefined;
	beforeAll(() => {
		tarball = packedTarball();
	}, 180_000);
	afterAll(() => removeOwnTarball(tarball));
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
