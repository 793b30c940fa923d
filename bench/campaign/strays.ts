// n8n processes already running when a case starts its cluster: a test run stopped before its
// teardown leaves its n8n servers behind (2026-12-02: six, idle, through a set of five campaigns),
// and their CPU lands in every figure of the case without a word.
import { readFileSync, readdirSync } from 'fs';

/** Pids of n8n processes (n8n itself or its task runner) alive now, on Linux; [] elsewhere. */
export function runningN8nProcesses(): number[] {
	let entries: string[];
	try {
		entries = readdirSync('/proc');
	} catch {
		return [];
	}
	const found: number[] = [];
	for (const entry of entries) {
		if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
		try {
			const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
			if (/\/n8n\/bin\/n8n |@n8n\/task-runner\//.test(command)) found.push(Number(entry));
		} catch {
			// Gone meanwhile, or not ours to read.
		}
	}
	return found;
}

/** The warning for the case's log when n8n processes run before its cluster does, else ''. */
export function strayWarning(pids: number[]): string {
	if (pids.length === 0) return '';
	return (
		`; WARNING: ${pids.length} n8n process(es) already running (pids ${pids.join(', ')}), ` +
		'not this case: their CPU counts in its figures. Stop them and run it again'
	);
}
