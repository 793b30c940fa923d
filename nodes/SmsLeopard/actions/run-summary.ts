/**
 * What a run that stopped at a failed item had already done, so the user can rerun only what is
 * safe: every item is in exactly one group. "Maybe sent" holds items whose request may have
 * reached SMSLeopard without a confirmation for them (a reset or timeout after the request went out,
 * a 5xx, a success status with a broken body, an answer that does not list them): running them again
 * may send twice. The one rule behind it is client/http/send-state.ts.
 */
import { itemLabel, itemsLabel } from '../helpers/item-label';
import { itemMayHaveBeenSent } from '../helpers/send-state';
import type { ItemOutcome } from './operation';

export function summariseRun(outcomes: Array<ItemOutcome | undefined>, itemCount: number): string {
	const sent: string[] = [];
	const maybe: number[] = [];
	const notSent: number[] = [];
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		const outcome = outcomes[itemIndex];
		if (outcome?.ok) {
			const ids = outcome.results.map((json) => json.messageId).filter(Boolean);
			sent.push(ids.length ? `${itemLabel(itemIndex)}: ${ids.join(', ')}` : itemLabel(itemIndex));
		} else if (outcome && itemMayHaveBeenSent(outcome.error)) {
			maybe.push(itemIndex);
		} else {
			notSent.push(itemIndex);
		}
	}
	const lines = [
		`Sent: ${sent.length ? sent.join('; ') : 'none'}.`,
		`Maybe sent, not confirmed by SMSLeopard: ${maybe.length ? `${itemsLabel(maybe)}; check in SMSLeopard before running them again` : 'none'}.`,
		`Not sent (failed before SMSLeopard acted, or not started): ${notSent.length ? `${itemsLabel(notSent)}; safe to run again` : 'none'}.`,
	];
	return lines.join('\n');
}
