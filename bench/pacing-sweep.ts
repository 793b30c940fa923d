/**
 * `npm run bench:pacing`: queue mode's "10 executions x 200 sends over two workers, 100 requests/s"
 * on the virtual clock (test/client/limiter-simulation.ts: the client's real pacer and retries
 * against the sandbox's limiter models), in seconds instead of a 90 s queue-suite run, so a pacer
 * change can be judged on many scenarios before it is tried on the real cluster.
 *
 * What the queue suite showed and the sweep now models: the ten executions start over about two
 * seconds (workers take jobs one at a time), so the worker that starts more executions early takes
 * the larger share of the limit, and keeps it. Each scenario draws the start times from a seed
 * (0-2.5 s), places the executions 5 + 5 (every third seed 6 + 4), and varies the phase of the first
 * request and the timers' lateness (0 or 2 ms). Prints, per limiter model, the time over the ideal
 * 2,000 / 100 = 20 s: mean, median, slowest, how many scenarios missed 1.2 x, and 429s per run;
 * then, with BENCH_PACING_SHOW=<model>:<seed>, that scenario second by second, per worker.
 *
 *   BENCH_PACING_SEEDS (default 48)
 */
import {
	SENDS_EACH,
	TEN_EXECUTIONS as EXECUTIONS,
	type SimulationResult,
	simulateTenExecutions,
} from '../test/client/limiter-simulation';
import { mulberry32 } from '../test/sandbox/faults';
import type { LimiterSettings } from '../test/sandbox/limiters';

const LIMIT = 100;
const IDEAL_MS = ((EXECUTIONS * SENDS_EACH) / LIMIT) * 1000;
const GOAL = 1.2;

const MODELS: Array<[string, LimiterSettings]> = [
	['sliding', { model: 'sliding', perSecond: LIMIT }],
	['fixed', { model: 'fixed', perSecond: LIMIT }],
	['tokenBucket', { model: 'tokenBucket', perSecond: LIMIT, burst: 20 }],
];

interface Scenario {
	seed: number;
	startOf: (execution: number) => number;
	processOf: (execution: number) => number;
}

function scenario(seed: number): Scenario {
	const random = mulberry32(seed * 7 + 3);
	const starts = Array.from({ length: EXECUTIONS }, () => Math.floor(random() * 2500));
	const uneven = seed % 3 === 2;
	return {
		seed,
		startOf: (execution) => starts[execution],
		processOf: (execution) => (uneven ? (execution < 6 ? 0 : 1) : execution % 2),
	};
}

async function run(limiter: LimiterSettings, at: Scenario): Promise<SimulationResult> {
	return await simulateTenExecutions({
		limiter,
		processes: 2,
		processOf: at.processOf,
		startOf: at.startOf,
		startAt: 250 + at.seed * 37,
		timerLateMs: at.seed % 2 === 1 ? 2 : 0,
	});
}

/** Accepted sends per second, per worker, and the 429s: where a run lost its time. */
function secondBySecond(result: SimulationResult, at: Scenario): string {
	const first = Math.min(...result.starts);
	const lines: string[] = [];
	for (let second = 0; second * 1000 < result.elapsedMs; second++) {
		const inSecond = (time: number) => Math.floor((time - first) / 1000) === second;
		const sent = result.acceptedLog.filter((entry) => inSecond(entry.at));
		const perWorker = [0, 1].map(
			(worker) => sent.filter((entry) => at.processOf(entry.execution) === worker).length,
		);
		const refused = result.refusedAt.filter(inSecond).length;
		lines.push(`  ${second}s: worker 1 ${perWorker[0]}, worker 2 ${perWorker[1]}, 429 ${refused}`);
	}
	return lines.join('\n');
}

async function main(): Promise<void> {
	const seeds = Number(process.env.BENCH_PACING_SEEDS ?? 48);
	const [showModel, showSeed] = (process.env.BENCH_PACING_SHOW ?? '').split(':');
	console.log(
		`Queue mode on the virtual clock: ${EXECUTIONS} executions x ${SENDS_EACH} sends over two workers, ` +
			`${LIMIT} requests/s, ${seeds} scenarios per model (time / ideal ${IDEAL_MS / 1000} s)`,
	);
	for (const [label, limiter] of MODELS) {
		const ratios: number[] = [];
		let refused = 0;
		for (let seed = 0; seed < seeds; seed++) {
			const at = scenario(seed);
			const result = await run(limiter, at);
			if (result.failed > 0 || result.doubles > 0) {
				throw new Error(`${label}, seed ${seed}: ${result.failed} failed, ${result.doubles} twice`);
			}
			ratios.push(result.elapsedMs / IDEAL_MS);
			refused += result.refused;
			if (label === showModel && String(seed) === showSeed) {
				const done = result.processDoneMs.map((ms) => (ms / 1000).toFixed(1)).join(' s and ');
				console.log(
					`${label}, seed ${seed}: workers done at ${done} s\n${secondBySecond(result, at)}`,
				);
			}
		}
		ratios.sort((a, b) => a - b);
		const mean = ratios.reduce((sum, ratio) => sum + ratio, 0) / ratios.length;
		const missed = ratios.filter((ratio) => ratio > GOAL).length;
		console.log(
			`${label.padEnd(12)} mean ${mean.toFixed(3)} x, median ${ratios[Math.floor(ratios.length / 2)].toFixed(2)} x, ` +
				`slowest ${ratios[ratios.length - 1].toFixed(2)} x, over ${GOAL} x in ${missed} of ${seeds}, ` +
				`${Math.round(refused / seeds)} x 429 per run`,
		);
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
