/**
 * When to try a request again, and how long to wait. The rule that matters most: a send is never
 * repeated once the server may have acted on it (a 5xx, or a connection lost after the request went
 * out), because that could deliver the same message twice. 429 and "never reached the server" are
 * always safe to repeat.
 */
import { settle } from './settle';
import {
	SmsLeopardConnectionError,
	SmsLeopardRateLimitError,
	SmsLeopardServerError,
} from './errors';

export interface RetryOptions {
	/** Attempts after the first for server and connection errors (429 waits are bound by time only). */
	maxRetries: number;
	/** Upper bound on the time spent waiting between attempts of one call. */
	maxTotalWaitMs: number;
	/** First backoff delay; doubles each attempt, with jitter. */
	baseDelayMs: number;
	maxDelayMs: number;
	/** Also repeat calls that are not idempotent after a 5xx or a lost connection (may send twice). */
	retryUnsafe: boolean;
}

export const DEFAULT_RETRY: RetryOptions = {
	maxRetries: 5,
	maxTotalWaitMs: 120_000,
	baseDelayMs: 500,
	maxDelayMs: 15_000,
	retryUnsafe: false,
};

export type Sleep = (ms: number) => Promise<void>;

/** Full jitter between half and all of the exponential delay, so parallel callers spread out. */
export function backoffDelay(attempt: number, options: RetryOptions, random = Math.random): number {
	const exponential = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** attempt);
	return Math.round(exponential * (0.5 + random() * 0.5));
}

/** How long to wait before the next attempt, or undefined when the error must be passed on. */
export function retryDelay(
	error: unknown,
	attempt: number,
	idempotent: boolean,
	options: RetryOptions,
): number | undefined {
	if (error instanceof SmsLeopardRateLimitError) {
		// A 429 means the request was refused, not acted on: always safe, bounded by the wait budget.
		// Retry-After is a hint, never a floor of zero: a gateway answering 0, -1 or a past date would
		// otherwise be hammered without pause and the wait budget would never be spent.
		const backoff = backoffDelay(Math.min(attempt, 5), options);
		return Math.max(error.retryAfterMs ?? 0, backoff);
	}
	if (attempt >= options.maxRetries) return undefined;
	if (error instanceof SmsLeopardConnectionError) {
		// Refused on this side by a rule (n8n's SSRF protection): every retry would meet it again.
		if (error.blockedLocally) return undefined;
		if (!error.requestSent || idempotent || options.retryUnsafe)
			return backoffDelay(attempt, options);
		return undefined;
	}
	if (error instanceof SmsLeopardServerError && (idempotent || options.retryUnsafe)) {
		return backoffDelay(attempt, options);
	}
	return undefined;
}

/**
 * Runs `call` until it succeeds or must fail. `onWait` learns of each wait before it starts, so a
 * 429 can hold back other callers too.
 */
export async function withRetries<T>(
	call: () => Promise<T>,
	idempotent: boolean,
	options: RetryOptions,
	sleep: Sleep,
	onWait?: (error: unknown, delayMs: number) => void,
): Promise<T> {
	let waited = 0;
	for (let attempt = 0; ; attempt++) {
		const outcome = await settle(call);
		if (outcome.ok) return outcome.value;
		const { error } = outcome;
		const delay = retryDelay(error, attempt, idempotent, options);
		if (delay === undefined || waited + delay > options.maxTotalWaitMs) throw error;
		waited += delay;
		onWait?.(error, delay);
		await sleep(delay);
	}
}
