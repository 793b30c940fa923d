/**
 * Resident memory and CPU of whole process groups: an n8n worker runs its JavaScript task runner as
 * a child in the worker's process group (the cluster starts each n8n process as a group leader), so
 * the worker's cost is the group's sum, not the leader's own VmRSS. Sampled from /proc on a timer:
 * the memory figure is the largest sum seen, the CPU figure what the group used since start().
 */
import { readFileSync, readdirSync } from 'fs';

/** Clock ticks per second of /proc/<pid>/stat's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

interface ProcStat {
	parent: number;
	group: number;
	/** utime + stime, in clock ticks. */
	cpuTicks: number;
}

/** Fields of /proc/<pid>/stat after the name (which may hold spaces and parentheses). */
function procStat(pid: string): ProcStat | undefined {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		// fields[0] is field 3 (state): pgrp is field 5, utime 14, stime 15.
		return {
			parent: Number(fields[1]),
			group: Number(fields[2]),
			cpuTicks: Number(fields[11]) + Number(fields[12]),
		};
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

export interface GroupPeak {
	peakMb: number;
	/** Processes in the group at the peak (2: the worker and its task runner). */
	processes: number;
	/** The group leader's own largest RSS (the n8n process), and its children's (the task runner). */
	leaderPeakMb: number;
	childrenPeakMb: number;
	/** CPU (user + system) the group used while sampled, in ms. */
	cpuMs: number;
	/** The group's RSS every TIMELINE_MS: [seconds since start, MB, the leader's MB, its children's]. */
	timeline: Array<[number, number, number, number]>;
}

const TIMELINE_MS = 1000;

/**
 * Samples the groups every `intervalMs` until stop(); groups can be added (a replacement worker).
 * A group found gone keeps its figures.
 */
export class GroupRssSampler {
	private readonly peaks = new Map<string, GroupPeak>();
	private readonly groups = new Map<number, string>();
	/** Processes counted with their children (Postgres: each backend leads a group of its own). */
	private readonly families = new Map<number, string>();
	/** Per process: its CPU ticks when first seen (0 if it started after start()) and the latest. */
	private readonly cpu = new Map<string, { group: string; first: number; latest: number }>();
	private started = false;
	private startedAt = 0;
	private lastTimelineAt = Number.NEGATIVE_INFINITY;
	private timer: NodeJS.Timeout | undefined;

	constructor(private readonly intervalMs = 250) {}

	add(name: string, leaderPid: number | undefined): void {
		if (leaderPid === undefined) return;
		this.groups.set(leaderPid, name);
		this.track(name);
	}

	/** Like add, for a process whose children are not in its group: it and its children. */
	addFamily(name: string, parentPid: number | undefined): void {
		if (parentPid === undefined) return;
		this.families.set(parentPid, name);
		this.track(name);
	}

	private track(name: string): void {
		this.peaks.set(name, {
			peakMb: 0,
			processes: 0,
			leaderPeakMb: 0,
			childrenPeakMb: 0,
			cpuMs: 0,
			timeline: [],
		});
		if (this.started) this.sample(true);
	}

	start(): void {
		this.startedAt = Date.now();
		this.sample(true);
		this.started = true;
		this.timer = setInterval(() => this.sample(false), this.intervalMs);
	}

	/** `baseline`: processes seen now count their CPU from now, not from their start. */
	private sample(baseline: boolean): void {
		const now = new Map<
			string,
			{ mb: number; processes: number; leader: number; children: number }
		>();
		for (const pid of readdirSync('/proc')) {
			if (!/^\d+$/.test(pid)) continue;
			const stat = procStat(pid);
			const name =
				stat &&
				(this.groups.get(stat.group) ??
					this.families.get(Number(pid)) ??
					this.families.get(stat.parent));
			if (!stat || !name) continue;
			const entry = now.get(name) ?? { mb: 0, processes: 0, leader: 0, children: 0 };
			const mb = rssKb(pid) / 1024;
			entry.mb += mb;
			entry.processes += 1;
			if (Number(pid) === stat.group || this.families.has(Number(pid))) entry.leader += mb;
			else entry.children += mb;
			now.set(name, entry);
			const known = this.cpu.get(pid);
			if (known) known.latest = stat.cpuTicks;
			else {
				const first = baseline ? stat.cpuTicks : 0;
				this.cpu.set(pid, { group: name, first, latest: stat.cpuTicks });
			}
		}
		const at = Date.now();
		const onTimeline = at - this.lastTimelineAt >= TIMELINE_MS;
		if (onTimeline) this.lastTimelineAt = at;
		for (const [name, reading] of now) {
			const peak = this.peaks.get(name);
			if (!peak) continue;
			if (reading.mb > peak.peakMb) {
				peak.peakMb = reading.mb;
				peak.processes = reading.processes;
			}
			peak.leaderPeakMb = Math.max(peak.leaderPeakMb, reading.leader);
			peak.childrenPeakMb = Math.max(peak.childrenPeakMb, reading.children);
			if (onTimeline) {
				peak.timeline.push([
					Math.round((at - this.startedAt) / 1000),
					Math.round(reading.mb),
					Math.round(reading.leader),
					Math.round(reading.children),
				]);
			}
		}
	}

	stop(): Record<string, GroupPeak> {
		clearInterval(this.timer);
		this.sample(false);
		for (const peak of this.peaks.values()) peak.cpuMs = 0;
		for (const { group, first, latest } of this.cpu.values()) {
			const peak = this.peaks.get(group);
			if (peak) peak.cpuMs += ((latest - first) * 1000) / TICKS_PER_SECOND;
		}
		return Object.fromEntries(
			[...this.peaks].map(([name, peak]) => [name, { ...peak, timeline: [...peak.timeline] }]),
		);
	}
}

/**
 * The postmaster of the Postgres server listening on `port`, found by its command line (its
 * backends are its children, each leading a process group of its own); undefined if none.
 */
export function postmasterOf(port: number): number | undefined {
	for (const pid of readdirSync('/proc')) {
		if (!/^\d+$/.test(pid)) continue;
		let args: string[];
		try {
			args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
		} catch {
			continue;
		}
		if (!/(^|\/)postgres$/.test(args[0] ?? '')) continue;
		const portAt = args.indexOf('-p');
		if (portAt < 0 || args[portAt + 1] !== String(port)) continue;
		return Number(pid);
	}
	return undefined;
}
