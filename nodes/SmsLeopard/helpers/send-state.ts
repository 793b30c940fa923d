/**
 * Whether a failed item may have been sent, for the output items and the run summary alike. The
 * client stamps each of its errors by the one rule (client/http/send-state.ts). What else can fail an
 * item is the node's own checks and n8n's helpers, and the calls an operation makes before its send
 * (listings, a header upload): an operation marks those with `beforeTheSend`, since whatever they
 * did, the item's message did not go out.
 */
import { NodeApiError } from 'n8n-workflow';
import { SmsLeopardError } from '../client';

const failedBeforeTheSend = new WeakSet<object>();

/** Marks an error raised before the item's own send request was made; returns it. */
export function beforeTheSend<E>(error: E): E {
	if (error && typeof error === 'object') failedBeforeTheSend.add(error);
	return error;
}

export function itemMayHaveBeenSent(error: unknown): boolean {
	if (error && typeof error === 'object' && failedBeforeTheSend.has(error)) return false;
	if (error instanceof SmsLeopardError) return error.mayHaveBeenSent;
	// An n8n API error the client did not classify: no way to know, so assume the worst.
	return error instanceof NodeApiError;
}
