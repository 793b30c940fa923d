import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import path from 'path';
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import { LoggerProxy } from 'n8n-workflow';
import { SANDBOX_API_KEY, SANDBOX_API_SECRET } from '../sandbox/seed';
import { scanRecords } from './scan';

/** Runs `write` with the recorder pointed at a fresh folder, and scans what it recorded. */
function scanWhatIsRecorded(write: () => void) {
	const dir = mkdtempSync(path.join(tmpdir(), 'scan-self-test-'));
	const previous = process.env.SECRET_SCAN_DIR;
	process.env.SECRET_SCAN_DIR = dir;
	try {
		write();
		return scanRecords(dir);
	} finally {
		process.env.SECRET_SCAN_DIR = previous;
		rmSync(dir, { recursive: true, force: true });
	}
}

describe('the secret scan itself', () => {
	it('finds a secret in a recorded output, and passes clean ones', () => {
		const dir = mkdtempSync(path.join(tmpdir(), 'scan-self-test-'));
		try {
			const record = (text: string) => JSON.stringify({ kind: 'node run', text });
			writeFileSync(
				path.join(dir, '1.jsonl'),
				[
					record('{"ok":true}'),
					record(`{"error":"secret ${SANDBOX_API_SECRET}"}`),
					record(`{"error":"echoed key ${SANDBOX_API_KEY}"}`),
				].join('\n'),
			);
			const { records, leaks } = scanRecords(dir);
			expect(records).toBe(3);
			expect(leaks).toHaveLength(2);
			expect(leaks[0]).toContain('node run holds');
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it("catches a key in a line logged through n8n-workflow's LoggerProxy", () => {
		const { logLines, leaks } = scanWhatIsRecorded(() => {
			LoggerProxy.debug('a clean line');
			LoggerProxy.warn('request failed', { authorization: `key ${SANDBOX_API_KEY}` });
		});
		expect(logLines).toBe(2);
		expect(leaks).toEqual([expect.stringContaining('log line (warn) holds')]);
	});

	it("catches a key in a line of n8n's Logger (a node's this.logger), once when it came by the proxy", () => {
		const { logLines, leaks } = scanWhatIsRecorded(() => {
			// Creating n8n's Logger makes it the proxy's target, as in n8n itself.
			Container.get(Logger).error(`echoed ${SANDBOX_API_KEY}`);
			LoggerProxy.info(`again ${SANDBOX_API_KEY}`);
		});
		expect(logLines).toBe(2);
		expect(leaks).toEqual([
			expect.stringContaining('log line (error) holds'),
			expect.stringContaining('log line (info) holds'),
		]);
	});
});
