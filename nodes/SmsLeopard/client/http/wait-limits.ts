/**
 * Bounds on waiting. A Node timer holds at most 2^31 - 1 ms (about 24.8 days): a longer setTimeout
 * fires after 1 ms instead, so a long wait handed to a sleep as one timer turned into a loop of
 * 1 ms timers (the pacer checks the time and sleeps again). The settings that make waits are bounded
 * far below that, and the sleep the client uses splits any longer wait into timers that hold.
 */
import { SmsLeopardError } from './errors';
import type { Sleep } from './retry';

export const MAX_TIMER_MS = 2_147_483_647;

/**
 * The slowest pace that may be set: one request every 1,000 seconds. Lower is a typo or a mistaken
 * unit (0.0000001 meant one request every 116 days), and 0 already means "no limit".
 */
export const MIN_REQUESTS_PER_SECOND = 0.001;

/** The longest Timeout for one answer, and the longest total wait on rate limits: a day each. */
export const MAX_TIMEOUT_MS = 86_400_000;
export const MAX_RATE_LIMIT_WAIT_MS = 86_400_000;

/**
 * `sleep`, safe for any length: a wait beyond a timer's range is slept in parts that a timer holds;
 * nothing, a negative or NaN wait is no wait. An endless wait is refused: nothing in the client asks
 * for one, and waiting for ever is never the answer.
 */
export function boundedSleep(sleep: Sleep): Sleep {
	return async (ms: number) => {
		if (ms === Infinity) {
			throw new SmsLeopardError('An endless wait was asked for; the client never waits for ever');
		}
		if (!(ms > 0)) return await sleep(0);
		for (let left = ms; left > 0; left -= MAX_TIMER_MS) {
			await sleep(Math.min(left, MAX_TIMER_MS));
		}
	};
}
