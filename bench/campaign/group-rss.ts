/**
 * Resident memory of whole process groups: an n8n worker runs its JavaScript task runner as a child
 * in the worker's process group (the cluster starts each n8n process as a group leader), so the
 * worker's cost is the group's sum, not the leader's own VmRSS. Sampled from /proc on a timer; the
 * figure is the largest sum seen.
 */
import { readFileSync, readdirSync } from 'fs';

/** The process group of `pid` (field 5 of /proc/<pid>/stat; the name in field 2 may hold spaces). */
function groupOf(pid: string): number | undefined {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		return Number(fields[2]);
	} catch {
		return undefined;
	}
}

function rssKb(pid: string): number {
	try {
		const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
		return match ? Number(match[1]) : 0;
	} catch {
		return 0;
	}
}

/** Current RSS in MB of each group in `groups` (leader pid), and how many processes it has. */
export function groupRss(groups: number[]): Map<number, { mb: number; processes: number }> {
	const result = new Map(groups.map((group) => [group, { mb: 0, processes: 0 }]));
	for (const pid of readdirSync('/proc')) {
		if (!/^\d+$/.test(pid)) continue;
		const entry = result.get(groupOf(pid) ?? -1);
		if (!entry) continue;
		entry.mb += rssKb(pid) / 1024;
		entry.processes += 1;
	}
	return result;
}

export interface GroupPeak {
	peakMb: number;
	/** Processes in the group at the peak (2: the worker and its task runner). */
	processes: number;
}

/**
 * Samples the groups every `intervalMs` until stop(); groups can be added (a replacement worker).
 * A group found gone stays at its peak.
 */
export class GroupRssSampler {
	private readonly peaks = new Map<string, GroupPeak>();
	private readonly groups = new Map<string, number>();
	private timer: NodeJS.Timeout | undefined;

	constructor(private readonly intervalMs = 250) {}

	add(name: string, leaderPid: number | undefined): void {
		if (leaderPid === undefined) return;
		this.groups.set(name, leaderPid);
		this.peaks.set(name, { peakMb: 0, processes: 0 });
	}

	start(): void {
		this.sample();
		this.timer = setInterval(() => this.sample(), this.intervalMs);
	}

	sample(): void {
		const now = groupRss([...this.groups.values()]);
		for (const [name, leader] of this.groups) {
			const reading = now.get(leader);
			const peak = this.peaks.get(name);
			if (reading && peak && reading.mb > peak.peakMb) {
				this.peaks.set(name, { peakMb: reading.mb, processes: reading.processes });
			}
		}
	}

	stop(): Record<string, GroupPeak> {
		clearInterval(this.timer);
		this.sample();
		return Object.fromEntries(this.peaks);
	}
}
