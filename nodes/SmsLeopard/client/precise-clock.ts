/**
 * Time for pacing, finer than a millisecond. Under Max Requests per Second two starts are never
 * closer than 1000 / rate ms (a gateway like nginx's limit_req without burst refuses anything
 * closer), so every bit a start is late is lost for good. With Date.now's whole milliseconds a
 * start due at 1004.08 waits for 1005, and a 1 ms timer for the last 0.08 ms: measured in a quiet
 * Node process at 245 a second, 195 a second went out, 234 with this clock, and 242 with
 * `preciseSleep` as well (`BENCH_ONLY=campaignTemplate npm run bench:campaign` for the busy case).
 */
import type { Sleep } from './retry';

/** Milliseconds since the epoch, with a fraction: comparable with Date.now (Node's global clock). */
export function preciseNow(): number {
	return performance.timeOrigin + performance.now();
}

/**
 * A timer for the whole milliseconds of a wait, then the next turn of the event loop for what is
 * left under one: a timer cannot be shorter than 1 ms, and the caller checks the time again.
 */
export function preciseSleep(sleep: Sleep): Sleep {
	return async (ms: number) => {
		if (ms >= 1) return await sleep(Math.floor(ms));
		await new Promise<void>((resolve) => setImmediate(resolve));
	};
}
