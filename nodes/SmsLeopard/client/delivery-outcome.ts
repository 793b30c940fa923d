/**
 * A delivery status in plain words. Carriers' codes (DELIVRD, UNDELIV, ...) and WhatsApp's statuses
 * (sent, delivered, read, failed) come in one open list: an unknown code stays "unknown", never
 * guessed (docs/api.md "Delivery reports").
 */
export type DeliveryOutcome = 'delivered' | 'failed' | 'pending' | 'unknown';

const DELIVERED = new Set(['DELIVRD', 'DELIVERED', 'READ']);
const FAILED = new Set(['UNDELIV', 'UNDELIVERABLE', 'EXPIRED', 'REJECTD', 'REJECTED', 'FAILED']);
const PENDING = new Set(['QUEUED', 'SENT', 'ACCEPTD', 'ACCEPTED', 'ENROUTE', 'PENDING']);

export function outcomeOf(status: string | null | undefined): DeliveryOutcome {
	const code = (status ?? '').trim().toUpperCase();
	if (DELIVERED.has(code)) return 'delivered';
	if (FAILED.has(code)) return 'failed';
	if (PENDING.has(code)) return 'pending';
	return 'unknown';
}

/** Delivered or failed: nothing will change any more. */
export function isFinalOutcome(outcome: DeliveryOutcome): boolean {
	return outcome === 'delivered' || outcome === 'failed';
}
