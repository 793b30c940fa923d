/**
 * The npm stand-in of `npm run record:demo` (scripts/record-demo/npm-stand-in.ts), with the real npm
 * run the way n8n 2.8.4's CommunityPackagesService runs it (`--registry=https://registry.npmjs.org`
 * on the command line, the stand-in's settings in the environment): npm resolves the package from
 * it, downloads the very tarball (npm checks its sha512), and gets 404 for any other package, so
 * the video's install cannot pull anything from the real registry.
 */
import { execFile } from 'child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { promisify } from 'util';

import { type NpmStandIn, startNpmStandIn } from '../../scripts/record-demo/npm-stand-in';

const run = promisify(execFile);
const REGISTRY = '--registry=https://registry.npmjs.org';

let folder: string;
let tarball: string;
let standIn: NpmStandIn;

/** npm as n8n calls it (asynchronously: the stand-in answers from this same process). */
async function npm(args: string[]) {
	const cwd = path.join(folder, 'work');
	mkdirSync(cwd, { recursive: true });
	return await run('npm', [...args, REGISTRY], {
		cwd,
		// No retries: a refused download fails at once instead of after npm's back-off.
		env: { ...process.env, ...standIn.npmEnv, npm_config_fetch_retries: '0' },
		timeout: 60_000,
	});
}

beforeAll(async () => {
	folder = mkdtempSync(path.join(tmpdir(), 'npm-stand-in-test-'));
	const source = path.join(folder, 'package');
	mkdirSync(source);
	writeFileSync(
		path.join(source, 'package.json'),
		JSON.stringify({ name: 'n8n-nodes-stand-in-check', version: '1.2.3', main: 'index.js' }),
	);
	writeFileSync(path.join(source, 'index.js'), 'module.exports = 42;\n');
	tarball = path.join(folder, 'n8n-nodes-stand-in-check-1.2.3.tgz');
	await run('tar', ['-czf', tarball, '-C', folder, 'package']);
	standIn = await startNpmStandIn(tarball);
});

afterAll(async () => {
	await standIn?.stop();
	rmSync(folder, { recursive: true, force: true });
});

test('npm view finds the package and its version through the stand-in', async () => {
	expect(standIn.spec).toBe('n8n-nodes-stand-in-check@1.2.3');
	const { stdout } = await npm(['view', 'n8n-nodes-stand-in-check@1.2.3', 'version', '--json']);
	expect(JSON.parse(stdout)).toBe('1.2.3');
});

test('npm pack downloads exactly the tarball given, its integrity checked by npm', async () => {
	const { stdout } = await npm(['pack', 'n8n-nodes-stand-in-check@latest', '--quiet']);
	const packed = path.join(folder, 'work', stdout.trim());
	expect(readFileSync(packed).equals(readFileSync(tarball))).toBe(true);
	expect(standIn.requests).toContain(
		'GET /n8n-nodes-stand-in-check/-/n8n-nodes-stand-in-check-1.2.3.tgz 200',
	);
});

test('any other package gets 404: nothing comes from the real registry', async () => {
	await expect(npm(['view', 'lodash', 'version'])).rejects.toThrow(/E404/);
	expect(standIn.requests).toContain('GET /lodash 404');
});
