import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import path from 'path';
import { SANDBOX_API_KEY, SANDBOX_API_SECRET } from '../sandbox/seed';
import { scanRecords } from './scan';

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
});
