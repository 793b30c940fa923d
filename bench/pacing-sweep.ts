/**
 * `npm run bench -- pacing`: queue mode's "10 executions x 200 sends over two workers, 100 requests/s"
 * on the virtual clock (test/client/limiter-simulation.ts: the client's real pacer and retries
 * against the sandbox's limiter models), in seconds instead of a 90 s queue-suite run, so a pacer
 * change can be judged on many scenarios before it is tried on the real cluster.
 *
 * What the queue suite showed and the sweep now models: the ten executions start over about two
 * seconds (workers take jobs one at a time), so the worker that starts more executions early takes
 * the larger share of the limit, and keeps it. Each scenario draws the start times from a seed
 * (0-2.5 s), places the executions 5 + 5 (every third seed 6 + 4), and varies the phase of the first
 * request and the timers' lateness (0 or 2 ms). Prints, per limiter model, the time over the ideal
 * 2,000 / 100 = 20 s: mean, median, slowest, how many scenarios missed 1.2 x, 429s per run, and
 * where the time over 20 s went on average: the opening (the first 3 s short of 300 sends), the
 * tail (from the first worker's end, time less its sends / 100) and the middle (the rest); then,
 * with BENCH_PACING_SHOW=<model>:<seed>, that scenario second by second, per worker.
 *
 * Then one process alone, which a pacer change must not slow: 2,000 sends at 100/s, 10 and 50 in
 * parallel, the first request at 9 phases of a window, timers 0 to 3 ms late (72 runs per model).
 *
 *   BENCH_PACING_SEEDS (default 48)
 */
import {
	SENDS_EACH,
	TEN_EXECUTIONS as EXECUTIONS,
	type SimulationResult,
	simulate,
	simulateTenExecutions,
} from '../test/client/limiter-simulation';
import { mulberry32 } from '../test/sandbox/faults';
import type { LimiterSettings } from '../test/sandbox/limiters';
import { meanOf } from './measure';

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

/** The virtual time a scenario starts at: its first request's phase in a window. */
const phaseOf = (at: Scenario) => 250 + at.seed * 37;

async function run(limiter: LimiterSettings, at: Scenario): Promise<SimulationResult> {
	return await simulateTenExecutions({
		limiter,
		processes: 2,
		processOf: at.processOf,
		startOf: at.startOf,
		startAt: phaseOf(at),
		timerLateMs: at.seed % 2 === 1 ? 2 : 0,
	});
}

/** Seconds over the ideal lost in the opening, the middle and the tail (see the header). */
function lostTime(result: SimulationResult, begin: number): [number, number, number] {
	const firstDone = Math.min(...result.processDoneMs);
	const lastDone = Math.max(...result.processDoneMs);
	const sentAt = result.acceptedLog.map((entry) => entry.at - begin);
	const opening = 3 - sentAt.filter((at) => at < 3000).length / LIMIT;
	const tail =
		(lastDone - firstDone) / 1000 - sentAt.filter((at) => at >= firstDone).length / LIMIT;
	const over = (result.elapsedMs - IDEAL_MS) / 1000;
	return [opening, over - opening - tail, tail];
}

/** One process alone: the single-n8n runs that a change for queue mode must not slow. */
async function oneProcess(limiter: LimiterSettings): Promise<number[]> {
	const ratios: number[] = [];
	for (const startAt of [0, 50, 100, 250, 400, 500, 750, 900, 990]) {
		for (const timerLateMs of [0, 1, 2, 3]) {
			for (const parallel of [10, 50]) {
				const result = await simulate({
					limiter,
					sends: EXECUTIONS * SENDS_EACH,
					parallel,
					latencyMs: 20,
					startAt,
					timerLateMs,
				});
				if (result.failed > 0 || result.doubles > 0) throw new Error('one process: failed');
				ratios.push(result.elapsedMs / IDEAL_MS);
			}
		}
	}
	return ratios.sort((a, b) => a - b);
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
		const lost = [0, 0, 0];
		for (let seed = 0; seed < seeds; seed++) {
			const at = scenario(seed);
			const result = await run(limiter, at);
			if (result.failed > 0 || result.doubles > 0) {
				throw new Error(`${label}, seed ${seed}: ${result.failed} failed, ${result.doubles} twice`);
			}
			ratios.push(result.elapsedMs / IDEAL_MS);
			refused += result.refused;
			lostTime(result, phaseOf(at)).forEach((seconds, part) => (lost[part] += seconds));
			if (label === showModel && String(seed) === showSeed) {
				const done = result.processDoneMs.map((ms) => (ms / 1000).toFixed(1)).join(' s and ');
				console.log(
					`${label}, seed ${seed}: workers done at ${done} s\n${secondBySecond(result, at)}`,
				);
			}
		}
		ratios.sort((a, b) => a - b);
		const mean = meanOf(ratios);
		const missed = ratios.filter((ratio) => ratio > GOAL).length;
		console.log(
			`${label.padEnd(12)} mean ${mean.toFixed(3)} x, median ${ratios[Math.floor(ratios.length / 2)].toFixed(2)} x, ` +
				`slowest ${ratios[ratios.length - 1].toFixed(2)} x, over ${GOAL} x in ${missed} of ${seeds}, ` +
				`${Math.round(refused / seeds)} x 429 per run; s lost: opening, middle, tail ` +
				lost.map((seconds) => (seconds / seeds).toFixed(2)).join(', '),
		);
	}
	console.log('One process, 2,000 sends at 100/s, 72 runs per model (time / ideal 20 s)');
	for (const [label, limiter] of MODELS) {
		const single = await oneProcess(limiter);
		const mean = meanOf(single);
		const missed = single.filter((ratio) => ratio > GOAL).length;
		console.log(
			`${label.padEnd(12)} mean ${mean.toFixed(3)} x, slowest ${single[single.length - 1].toFixed(3)} x, ` +
				`over ${GOAL} x in ${missed} of ${single.length}`,
		);
	}
}

/** Run by `npm run bench -- <case>` (bench/run.ts). */
export { main as run };
