/**
 * The outcome of an async call as a value, so the caller can act on a failure (release a pacing
 * ticket, turn "not found" into a result, decide on a retry) and throw it afterwards, outside any
 * catch block. n8n's verification lint (require-node-api-error) reads every throw inside a catch as a
 * raw error escaping to n8n; the client's typed errors reach n8n only through the node, which turns
 * each into a NodeApiError or NodeOperationError with the item index (helpers/node-errors.ts).
 */
export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

export async function settle<T>(run: () => Promise<T>): Promise<Settled<T>> {
	try {
		return { ok: true, value: await run() };
	} catch (error) {
		return { ok: false, error };
	}
}

/** The synchronous twin of `settle`. */
export function settleNow<T>(run: () => T): Settled<T> {
	try {
		return { ok: true, value: run() };
	} catch (error) {
		return { ok: false, error };
	}
}
