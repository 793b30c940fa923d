/**
 * BENCH_TIMELINE=1: after each send run, one line of what the server saw per second (accepted /
 * refused with 429), from the first request on, and the arrival gaps before each 429. It shows
 * where a run lost time, to compare a real n8n run with the pacer's virtual-clock simulation
 * (test/client/limiter-simulation.ts).
 */
import type { ReplyStats } from './reply-server';

export function printTimeline(stats: ReplyStats, label: string, postedAt?: number): void {
	if (process.env.BENCH_TIMELINE !== '1') return;
	const all = [...stats.receivedAt, ...stats.refusedAt];
	if (all.length === 0) return;
	// A loop, not Math.min(...all): spreading some 120,000 arguments overflows the call stack.
	let first = Infinity;
	let last = -Infinity;
	for (const at of all) {
		first = Math.min(first, at);
		last = Math.max(last, at);
	}
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
	// The opening: what the campaign spent before its first send (claim, list, plan, first batch).
	if (postedAt !== undefined)
		console.log(
			`  first request ${((first - postedAt) / 1000).toFixed(2)} s after the campaign was posted (${postedAt} Unix ms), the last ${((last - postedAt) / 1000).toFixed(2)} s after`,
		);
	console.log(
		`  arrival gaps before each 429 (ms, the server's clock): ${gapsBeforeRefusals(stats)}`,
	);
}

/**
 * For each 429, the gaps between the arrivals before it and its own: a gateway that allows no burst
 * refuses a request that arrives sooner than 1 / rate after the last, however evenly it was sent.
 */
function gapsBeforeRefusals(stats: ReplyStats): string {
	const arrivals = [
		...stats.receivedAt.map((at) => ({ at, refused: false })),
		...stats.refusedAt.map((at) => ({ at, refused: true })),
	].sort((a, b) => a.at - b.at);
	const lines: string[] = [];
	arrivals.forEach(({ at, refused }, index) => {
		if (!refused || index < 3) return;
		const gaps = [3, 2, 1].map((back) => arrivals[index - back + 1].at - arrivals[index - back].at);
		lines.push(`${((at - arrivals[0].at) / 1000).toFixed(2)}s [${gaps.join(' ')}]`);
	});
	return lines.join(', ') || 'none';
}
