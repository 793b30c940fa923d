/**
 * The secret scan: after every suite ran, no recorded output item, error or log line may hold the sandbox's
 * API key, the API secret, a wrong secret used by a test, or the Basic token built from the key and secret.
 */
import { rmSync } from 'fs';
import { describeCounts, scanRecords } from './scan';

export default function globalTeardown(): void {
	const dir = process.env.SECRET_SCAN_DIR;
	if (!dir) return;
	const { leaks, ...counts } = scanRecords(dir);
	rmSync(dir, { recursive: true, force: true });
	// A run of only a few suites may record nothing; a full run records hundreds.
	if (leaks.length > 0)
		throw new Error(`secret scan: ${leaks.length} leak(s):\n${leaks.join('\n')}`);
	console.log(
		`\nsecret scan: ${describeCounts(counts)} checked; none holds the API key, the API secret or their Basic token`,
	);
}
