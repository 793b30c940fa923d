/**
 * The one rule for what became of a request that failed: "maybe sent" (the service may have acted on
 * it, so running it again may send twice) or "not sent" (it provably was not acted on: safe to run
 * again). The client stamps every error it throws with the answer (`mayHaveBeenSent`), here and only
 * here; retries, the SMS batches, the output items and the run summary all read that stamp.
 */
import { SmsLeopardError } from './errors';
import type { HttpMethod } from './transport';

/** What is known of a failed request. */
export type FailureEvidence =
	/** No answer. `requestSent` is false only when the request provably never left (transport). */
	| { kind: 'noAnswer'; requestSent: boolean }
	/** An answer with a status other than 2xx. */
	| { kind: 'status'; status: number }
	/** A 2xx whose body could not be read, or is not what was asked for. */
	| { kind: 'unreadable' }
	/** A 2xx whose body says, in so many words, that nothing was done (`success: false`, no ids). */
	| { kind: 'refused' }
	/** An accepted request whose answer does not provably give this recipient an entry. */
	| { kind: 'unpaired' };

/** A read cannot send anything: its failure leaves the item "not sent" whatever happened. */
export function changesSomething(method: HttpMethod): boolean {
	return method !== 'GET';
}

/**
 * 4xx statuses are the service refusing the request, except 408 and 499: a proxy giving up on a
 * request it had already passed on (the service may still act on it).
 */
function isRefusal(status: number): boolean {
	return status >= 400 && status < 500 && status !== 408 && status !== 499;
}

export function mayHaveBeenSent(changes: boolean, evidence: FailureEvidence): boolean {
	if (!changes) return false;
	switch (evidence.kind) {
		case 'noAnswer':
			return evidence.requestSent;
		case 'status':
			// 1xx/3xx (never followed) and 5xx: the request reached a server that did not say no.
			return !isRefusal(evidence.status);
		case 'refused':
			return false;
		case 'unreadable':
		case 'unpaired':
			return true;
	}
}

/** Records the rule's answer on a client error and returns it. */
export function stampSendState<E extends SmsLeopardError>(
	error: E,
	changes: boolean,
	evidence: FailureEvidence,
): E {
	error.mayHaveBeenSent = mayHaveBeenSent(changes, evidence);
	return error;
}
