/**
 * What a run that stopped at a failed item had already done, so the user can rerun only what is
 * safe: every item is in exactly one group. "Maybe sent" holds items whose request may have
 * reached SMSLeopard with its answer lost (a reset or timeout after the request went out, a 5xx, a
 * success status with a broken body): running them again may send twice.
 */
import { NodeApiError } from 'n8n-workflow';
import {
	SmsLeopardApiError,
	SmsLeopardConnectionError,
	SmsLeopardResponseError,
	SmsLeopardServerError,
} from '../client';
import { itemLabel, itemsLabel } from '../helpers/item-label';
import type { ItemOutcome } from './operation';

/** True when the failed request may still have been acted on by the service. */
export function mayHaveBeenActedOn(error: unknown): boolean {
	if (error instanceof SmsLeopardConnectionError) return error.requestSent;
	if (error instanceof SmsLeopardServerError) return true;
	if (error instanceof SmsLeopardResponseError) return true;
	if (error instanceof SmsLeopardApiError) return false;
	// An n8n API error the client did not classify: no way to know, so assume the worst.
	return error instanceof NodeApiError;
}

export function summariseRun(outcomes: Array<ItemOutcome | undefined>, itemCount: number): string {
	const sent: string[] = [];
	const maybe: number[] = [];
	const notSent: number[] = [];
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		const outcome = outcomes[itemIndex];
		if (outcome?.ok) {
			const ids = outcome.results.map((json) => json.messageId).filter(Boolean);
			sent.push(ids.length ? `${itemLabel(itemIndex)}: ${ids.join(', ')}` : itemLabel(itemIndex));
		} else if (outcome && mayHaveBeenActedOn(outcome.error)) {
			maybe.push(itemIndex);
		} else {
			notSent.push(itemIndex);
		}
	}
	const lines = [
		`Sent: ${sent.length ? sent.join('; ') : 'none'}.`,
		`Maybe sent, the answer was lost: ${maybe.length ? `${itemsLabel(maybe)}; check in SMSLeopard before running them again` : 'none'}.`,
		`Not sent (failed before SMSLeopard acted, or not started): ${notSent.length ? `${itemsLabel(notSent)}; safe to run again` : 'none'}.`,
	];
	return lines.join('\n');
}
