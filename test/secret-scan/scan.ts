/** Reads the recorded outputs, errors and log lines and lists every one that holds a secret. */
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

/** What was checked, by what it came from: node outputs and errors, log lines, n8n's own output. */
export interface ScanCounts {
	records: number;
	logLines: number;
	processOutputs: number;
}

/** "12 node outputs and errors, 63 n8n log lines", naming only what was recorded. */
export function describeCounts({ records, logLines, processOutputs }: ScanCounts): string {
	return [
		[records - logLines - processOutputs, 'node outputs and errors'],
		[logLines, 'n8n log lines'],
		[processOutputs, 'outputs of n8n processes (stdout and stderr)'],
	]
		.filter(([count], index) => index === 0 || Number(count) > 0)
		.map(([count, what]) => `${count} ${what}`)
		.join(', ');
}

export function scanRecords(dir: string, secrets = SECRETS): ScanCounts & { leaks: string[] } {
	let records = 0;
	let logLines = 0;
	let processOutputs = 0;
	const leaks: string[] = [];
	for (const file of readdirSync(dir)) {
		for (const line of readFileSync(path.join(dir, file), 'utf8').split('\n')) {
			if (!line) continue;
			records++;
			const { kind, text } = JSON.parse(line) as { kind: string; text: string };
			if (kind.startsWith('log line')) logLines++;
			if (kind.startsWith('n8n process')) processOutputs++;
			for (const secret of secrets) {
				if (text.includes(secret))
					leaks.push(`${kind} holds "${secret.slice(0, 6)}…": ${text.slice(0, 300)}`);
			}
		}
	}
	return { records, logLines, processOutputs, leaks };
}
