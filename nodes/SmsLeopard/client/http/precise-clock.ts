/**
 * Time for pacing, finer than a millisecond. Under Max Requests per Second two starts are never
 * closer than 1000 / rate ms (a gateway like nginx's limit_req without burst refuses anything
 * closer), so every bit a start is late is lost for good. With Date.now's whole milliseconds a
 * start due at 1004.08 reads as not due at 1004 and waits for a timer that ends at 1005 or later:
 * in a quiet Node process at 245 a second, 195 a second went out with Date.now and 242 with this
 * clock (`node` loop of the pacer's rule; the campaign bench: 194 per worker before).
 */
import { BRIEF_WAIT_MAX_MS } from './pacing';

/** Milliseconds since the epoch, with a fraction: comparable with Date.now (Node's global clock). */
export function preciseNow(): number {
	return performance.timeOrigin + performance.now();
}

/** Shared memory nobody writes to: `Atomics.wait` on it only times out. */
const NEVER_NOTIFIED = new Int32Array(new SharedArrayBuffer(4));

/**
 * Waits `ms` (a fraction of a millisecond, at most BRIEF_WAIT_MAX_MS) without a timer, holding the
 * process: a timer lasts a millisecond or more, and ends by the coarse clock libuv reads, sometimes
 * a fraction early. Used by the pacer only for the last fraction before a start under Max Requests
 * per Second (pacing.ts); the process sleeps in the kernel meanwhile, using no CPU.
 */
export function waitInPlace(ms: number): void {
	const wait = Math.min(ms, BRIEF_WAIT_MAX_MS);
	if (wait > 0) Atomics.wait(NEVER_NOTIFIED, 0, 0, wait);
}
