/**
 * The time allowed for a whole answer, headers and body, as an AbortSignal. Node code may not use
 * timers (n8n's community-node rules); `AbortSignal.timeout` needs none of ours, and its timer does
 * not keep the process alive after the answer came. axios's own timeout is an idle timeout: it
 * never ends an answer that stops mid-body with its socket left open, nor one that drips.
 */

/** The longest wait a Node timer can hold (2^31 - 1 ms); longer ones fire after 1 ms instead. */
export const MAX_TIMER_MS = 2_147_483_647;

export function answerDeadline(timeoutMs: number): AbortSignal {
	const ms = Number.isFinite(timeoutMs) ? Math.ceil(timeoutMs) : MAX_TIMER_MS;
	return AbortSignal.timeout(Math.min(Math.max(0, ms), MAX_TIMER_MS));
}

/** The error a body is ended with at the deadline; its code is what the client reports. */
export function timedOut(): Error {
	return Object.assign(new Error('The answer did not end within the timeout'), {
		code: 'ETIMEDOUT',
	});
}

/**
 * `work`'s result, or `expired` when the deadline comes first. `work` goes on unobserved after
 * that: `onLate` receives its result then, to free what it holds (an answer's open stream).
 */
export async function beforeDeadline<T>(
	work: Promise<T>,
	deadline: AbortSignal,
	onLate: (value: T) => void,
): Promise<{ expired: false; value: T } | { expired: true }> {
	let onAbort = () => {};
	const expired = new Promise<{ expired: true }>((resolve) => {
		onAbort = () => resolve({ expired: true });
		if (deadline.aborted) onAbort();
		else deadline.addEventListener('abort', onAbort, { once: true });
	});
	const result = await Promise.race([
		work.then((value) => ({ expired: false as const, value })),
		expired,
	]).finally(() => deadline.removeEventListener('abort', onAbort));
	if (result.expired) {
		work.then(onLate, () => undefined);
	}
	return result;
}
