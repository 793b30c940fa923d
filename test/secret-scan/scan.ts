/** Reads the recorded outputs and errors and lists every one that holds a secret. */
import { readFileSync, readdirSync } from 'fs';
import path from 'path';
import { SANDBOX_API_KEY, SANDBOX_API_SECRET } from '../sandbox/seed';
import { TEST_SECRETS } from './secrets';

// The key too: with the secret it is the credential, and the node redacts all three.
export const SECRETS = [
	SANDBOX_API_KEY,
	SANDBOX_API_SECRET,
	...TEST_SECRETS,
	Buffer.from(`${SANDBOX_API_KEY}:${SANDBOX_API_SECRET}`).toString('base64'),
];

export function scanRecords(dir: string, secrets = SECRETS): { records: number; leaks: string[] } {
	let records = 0;
	const leaks: string[] = [];
	for (const file of readdirSync(dir)) {
		for (const line of readFileSync(path.join(dir, file), 'utf8').split('\n')) {
			if (!line) continue;
			records++;
			const { kind, text } = JSON.parse(line) as { kind: string; text: string };
			for (const secret of secrets) {
				if (text.includes(secret))
					leaks.push(`${kind} holds "${secret.slice(0, 6)}…": ${text.slice(0, 300)}`);
			}
		}
	}
	return { records, leaks };
}
