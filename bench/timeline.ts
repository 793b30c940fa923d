/**
 * BENCH_TIMELINE=1: after each send run, one line of what the sandbox saw per second (accepted /
 * refused with 429), from the first request on. It shows where a run lost time, to compare a real
 * n8n run with the pacer's virtual-clock simulation (test/client/limiter-simulation.ts).
 */
import type { Sandbox } from '../test/sandbox';

export function printTimeline(sandbox: Sandbox, label: string): void {
	if (process.env.BENCH_TIMELINE !== '1') return;
	const requests = sandbox.requests.filter((request) => request.method === 'POST');
	if (requests.length === 0) return;
	const first = Math.min(...requests.map((request) => request.receivedAt));
	const seconds: Array<{ accepted: number; refused: number }> = [];
	for (const request of requests) {
		const second = Math.floor((request.receivedAt - first) / 1000);
		seconds[second] ??= { accepted: 0, refused: 0 };
		if (request.status === 429) seconds[second].refused += 1;
		else seconds[second].accepted += 1;
	}
	const cells = Array.from(seconds, (cell, second) =>
		cell ? `${second}:${cell.accepted}/${cell.refused}` : `${second}:0/0`,
	);
	console.log(`timeline ${label} (second: accepted/refused): ${cells.join(' ')}`);
}
