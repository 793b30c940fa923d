/**
 * Every n8n process of a queue run carries SMSLEOPARD_QUEUE_RUN=<run folder> in its environment
 * (also one an operator starts by hand from the run's n8n.env), so queue:down finds and stops all
 * of them, not only those it recorded: a worker restarted by hand would otherwise outlive the run
 * and lose its user folder under it.
 */
import { readFileSync, readdirSync } from 'fs';

export const RUN_MARKER = 'SMSLEOPARD_QUEUE_RUN';

/** Pids of live processes whose environment names this run folder (Linux /proc). */
export function markedProcesses(runDir: string): number[] {
	const wanted = `${RUN_MARKER}=${runDir}`;
	const found: number[] = [];
	let entries: string[];
	try {
		entries = readdirSync('/proc');
	} catch {
		return found;
	}
	for (const entry of entries) {
		if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
		try {
			const environ = readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0');
			if (environ.includes(wanted)) found.push(Number(entry));
		} catch {
			// Gone meanwhile, or not ours to read.
		}
	}
	return found;
}

/** The process group of a pid (field 5 of /proc/<pid>/stat), or undefined when it is gone. */
export function processGroup(pid: number): number | undefined {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		// The command name (field 2) may hold spaces and parentheses: count from its closing one.
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		return Number(fields[2]);
	} catch {
		return undefined;
	}
}

/** The live processes of a process group (an n8n started as a group leader, and its task runner). */
export function groupMembers(group: number): number[] {
	let entries: string[];
	try {
		entries = readdirSync('/proc');
	} catch {
		return [];
	}
	return entries
		.filter((entry) => /^\d+$/.test(entry) && processGroup(Number(entry)) === group)
		.map(Number);
}

/** SIGKILLs every marked process with its group (an n8n and its task runner); returns how many. */
export function killMarkedProcesses(runDir: string): number {
	const pids = markedProcesses(runDir);
	for (const pid of pids) {
		const group = processGroup(pid);
		try {
			// A group of its own (started detached): the whole group; otherwise the process alone, so
			// an operator's shell that started it by hand is left alone.
			if (group === pid) process.kill(-pid, 'SIGKILL');
			else process.kill(pid, 'SIGKILL');
		} catch {
			// Gone already.
		}
	}
	return pids.length;
}
