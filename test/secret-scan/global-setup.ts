import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import path from 'path';

/** Jest's workers inherit this environment: they record into SECRET_SCAN_DIR. */
export default function globalSetup(): void {
	process.env.SECRET_SCAN_DIR = mkdtempSync(path.join(tmpdir(), 'smsleopard-secret-scan-'));
}
