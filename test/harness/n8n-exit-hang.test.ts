/**
 * The e2e harness when n8n prints its whole run and then never exits (seen once in n8n 1.123.81 on
 * a loaded machine: `n8n execute` hung in its shutdown and was killed at the 120 s limit, failing a
 * test whose run had succeeded). A stand-in for n8n's CLI does exactly that: the run is judged by
 * what it printed, the process is killed soon after, and the kill is recorded.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import path from 'path';

import { type UserFolder, executeWorkflow } from '../e2e/harness';

const RUN = {
	data: { resultData: { runData: { Send: [{ data: { main: [[{ json: { ok: 1 } }]] } }] } } },
};

function standIn(script: string): { folder: UserFolder; remove: () => void } {
	const root = mkdtempSync(path.join(tmpdir(), 'n8n-stand-in-'));
	const n8nBin = path.join(root, 'n8n.js');
	writeFileSync(n8nBin, script);
	const folder = {
		root,
		n8nDir: path.join(root, '.n8n'),
		nodesDir: path.join(root, '.n8n', 'nodes'),
		n8n: { nodeBin: process.execPath, n8nBin },
	} as unknown as UserFolder;
	return { folder, remove: () => rmSync(root, { recursive: true, force: true }) };
}

const print = `process.stdout.write(${JSON.stringify(`${JSON.stringify(RUN, null, 2)}\n`)});`;

it('a run printed whole, then no exit: killed after the grace time and judged by its output', async () => {
	const { folder, remove } = standIn(`${print} setInterval(() => {}, 1000);`);
	try {
		const result = await executeWorkflow(folder, 'w1', { doneGraceMs: 1000, timeoutMs: 60_000 });
		expect(result.ok).toBe(true);
		expect(result.exitCode).toBeNull();
		expect(result.runData.Send).toHaveLength(1);
		// Killed by the watch (about 1-3 s), not by the 60 s limit.
		expect(result.durationMs).toBeLessThan(30_000);
	} finally {
		remove();
	}
});

it('a process that prints nothing whole is not cut short by the watch', async () => {
	const { folder, remove } = standIn(
		`process.stdout.write('{ "partial": '); setTimeout(() => process.exit(3), 3000);`,
	);
	try {
		const result = await executeWorkflow(folder, 'w1', { doneGraceMs: 500, timeoutMs: 60_000 });
		expect(result.exitCode).toBe(3);
		expect(result.ok).toBe(false);
	} finally {
		remove();
	}
});

it('a run printed whole, then ended by a signal it was not sent here (exit null): judged by its output', async () => {
	// Seen twice in one CI run of n8n 1.123.81: the whole successful run printed, then exit null.
	const { folder, remove } = standIn(
		`${print} setTimeout(() => process.kill(process.pid, 'SIGKILL'), 50);`,
	);
	try {
		const result = await executeWorkflow(folder, 'w1', { timeoutMs: 60_000 });
		expect(result).toMatchObject({ ok: true, exitCode: null });
		expect(result.runData.Send).toHaveLength(1);
		expect(result.stdout).toContain('"ok": 1');
	} finally {
		remove();
	}
});

it('a signal before the run was printed whole fails the run', async () => {
	const { folder, remove } = standIn(
		`process.stdout.write('{ "partial": '); setTimeout(() => process.kill(process.pid, 'SIGKILL'), 50);`,
	);
	try {
		const result = await executeWorkflow(folder, 'w1', { timeoutMs: 60_000 });
		expect(result).toMatchObject({ ok: false, exitCode: null });
	} finally {
		remove();
	}
});
