/**
 * BENCH_TIMELINE=1: after each send run, one line of what the server saw per second (accepted /
 * refused with 429), from the first request on. It shows where a run lost time, to compare a real
 * n8n run with the pacer's virtual-clock simulation (test/client/limiter-simulation.ts).
 */
import type { ReplyStats } from './reply-server';

export function printTimeline(stats: ReplyStats, label: string): void {
	if (process.env.BENCH_TIMELINE !== '1') return;
	const all = [...stats.receivedAt, ...stats.refusedAt];
	if (all.length === 0) return;
	const first = Math.min(...all);
	const seconds: Array<{ accepted: number; refused: number }> = [];
	const add = (times: number[], key: 'accepted' | 'refused') => {
		for (const at of times) {
			const second = Math.floor((at - first) / 1000);
			seconds[second] ??= { accepted: 0, refused: 0 };
			seconds[second][key] += 1;
		}
	};
	add(stats.receivedAt, 'accepted');
	add(stats.refusedAt, 'refused');
	const cells = Array.from(seconds, (cell, second) =>
		cell ? `${second}:${cell.accepted}/${cell.refused}` : `${second}:0/0`,
	);
	console.log(`timeline ${label} (second: accepted/refused): ${cells.join(' ')}`);
}
