/**
 * `npm pack` ships exactly what n8n loads from an installed community package: the files named in
 * package.json's n8n section, every module they require (followed through relative requires), the
 * codex next to each node, the icons their descriptions name (file:...), and npm's documents
 * (package.json, README, LICENSE, and the CHANGELOG the README links). Nothing else: no stray build
 * output, type declarations or source maps.
 */
import { execFileSync } from 'child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';

import { packedForThisFile } from './harness';

const packed = packedForThisFile();
let tarball: string;
let unpacked: string;
beforeAll(() => {
	tarball = packed();
	unpacked = mkdtempSync(path.join(tmpdir(), 'n8n-unpacked-'));
	execFileSync('tar', ['-xzf', tarball, '-C', unpacked]);
}, 180_000);
afterAll(() => {
	if (unpacked) rmSync(unpacked, { recursive: true, force: true });
});

const root = () => path.join(unpacked, 'package');
const existsFile = (file: string) => statSync(file, { throwIfNoEntry: false })?.isFile() === true;

function packedFiles(): string[] {
	return execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
		.split('\n')
		.filter((line) => line !== '')
		.map((line) => line.replace(/^package\//, ''))
		.sort();
}

/** What n8n loads: the entry files, their relative requires, codex files and file: icons. */
function filesN8nLoads(): string[] {
	const manifest = JSON.parse(readFileSync(path.join(root(), 'package.json'), 'utf8')) as {
		n8n: { nodes: string[]; credentials: string[] };
	};
	const loaded = new Set<string>();
	const visit = (file: string) => {
		if (loaded.has(file)) return;
		loaded.add(file);
		const source = readFileSync(path.join(root(), file), 'utf8');
		for (const [, request] of source.matchAll(/require\("(\.{1,2}\/[^"]+)"\)/g)) {
			const resolved = path.posix.join(path.posix.dirname(file), request);
			// Node's resolution: the file itself, with .js, or a folder's index.js.
			const candidates = [resolved, `${resolved}.js`, `${resolved}/index.js`];
			const found = candidates.find((candidate) => existsFile(path.join(root(), candidate)));
			visit(found ?? `${resolved}.js`);
		}
		for (const [, icon] of source.matchAll(/['"]file:([^'"]+)['"]/g)) {
			loaded.add(path.posix.join(path.posix.dirname(file), icon));
		}
	};
	for (const entry of [...manifest.n8n.nodes, ...manifest.n8n.credentials]) visit(entry);
	for (const node of manifest.n8n.nodes) loaded.add(node.replace(/\.js$/, '.json'));
	return [...loaded].sort();
}

it('holds exactly the files n8n loads, plus package.json, README, LICENSE and CHANGELOG', () => {
	const documents = ['CHANGELOG.md', 'LICENSE.md', 'README.md', 'package.json'];
	expect(packedFiles()).toEqual([...documents, ...filesN8nLoads()].sort());
});

it('declares no main file and asks for strict mode', () => {
	const manifest = JSON.parse(readFileSync(path.join(root(), 'package.json'), 'utf8')) as {
		main?: string;
		n8n: { strict?: boolean };
	};
	expect(manifest.main).toBeUndefined();
	expect(manifest.n8n.strict).toBe(true);
});
