/** Which received events start the workflow: the kinds chosen, the statuses chosen, no repeats. */
import { type WebhookEvent, isFinalOutcome } from '../SmsLeopard/client';
import { firstTime } from './repeats';

export type StatusFilter = 'all' | 'final' | 'delivered' | 'failed';

export interface EventFilters {
	kinds: string[];
	statuses: StatusFilter;
	dropRepeats: boolean;
	/** This trigger's key in the repeat memory (workflow and node). */
	trigger: string;
}

function statusPasses(event: WebhookEvent, statuses: StatusFilter): boolean {
	// Inbound messages and unrecognised posts have no status to filter on. A status not understood
	// (outcome "unknown") passes every filter: it may be the final report, and a filter that
	// dropped it would lose it without a trace; the workflow sees it marked unknown.
	if (statuses === 'all' || event.outcome === null || event.outcome === 'unknown') return true;
	if (statuses === 'final') return isFinalOutcome(event.outcome);
	return event.outcome === statuses;
}

/**
 * An SMS reply was an unrecognised post before it had its own kind: a trigger saved with
 * Unrecognised Post chosen keeps receiving it, now named smsMessage, rather than losing it.
 */
function kindPasses(event: WebhookEvent, kinds: string[]): boolean {
	if (kinds.includes(event.event)) return true;
	return event.event === 'smsMessage' && kinds.includes('unrecognised');
}

/** An event's key in the repeat memory; null for one never dropped as a repeat. */
export function repeatKey(event: WebhookEvent): string | null {
	return event.messageId === null
		? null
		: `${event.event}|${event.messageId}|${event.status ?? ''}`;
}

export function keptEvents(events: WebhookEvent[], filters: EventFilters): WebhookEvent[] {
	return events.filter(
		(event) =>
			kindPasses(event, filters.kinds) &&
			statusPasses(event, filters.statuses) &&
			(!filters.dropRepeats || isFirst(filters.trigger, repeatKey(event))),
	);
}

/** A key-less event is never a repeat; a keyed one is the first time its key is seen. */
function isFirst(trigger: string, key: string | null): boolean {
	return key === null || firstTime(trigger, key);
}
