/**
 * A delivery status in plain words. Carriers' codes (DELIVRD, UNDELIV, ...), WhatsApp's statuses
 * (sent, delivered, read, failed) and the status words of SMS gateways' delivery-report callbacks
 * (docs/delivery-report-fields.md) come in one open list: an unknown word stays "unknown", never
 * guessed (docs/api.md "Delivery reports"). Words are compared in upper case without spaces,
 * underscores or hyphens, so `delivery_failed`, `DeliveryFailed` and `DELIVERY FAILED` are one word.
 */
export type DeliveryOutcome = 'delivered' | 'failed' | 'pending' | 'unknown';

const DELIVERED = new Set([
	'DELIVRD',
	'DELIVERED',
	'READ',
	// Africa's Talking and Tencent say Success / SUCCESS for a delivered message.
	'SUCCESS',
	'DELIVEREDTOHANDSET',
]);
const FAILED = new Set([
	'UNDELIV',
	'UNDELIVERABLE',
	'UNDELIVERED',
	'UNDELIVEREDONHANDSET',
	'EXPIRED',
	'REJECTD',
	'REJECTED',
	'FAILED',
	'FAIL',
	'DELETED',
	'DELIVERYFAILED',
	'ABSENTSUBSCRIBER',
	'CANCELED',
	'CANCELLED',
	'ABORTED',
]);
const PENDING = new Set([
	'QUEUED',
	'SENT',
	'SENDING',
	'SUBMITTED',
	'BUFFERED',
	'SCHEDULED',
	'ACCEPTD',
	'ACCEPTED',
	'ENROUTE',
	'PENDING',
	'DISPATCHED',
]);

/** The form a status word is compared in. */
export function statusWord(status: string): string {
	return status
		.trim()
		.toUpperCase()
		.replace(/[\s_-]+/g, '');
}

export function outcomeOf(status: string | null | undefined): DeliveryOutcome {
	const code = statusWord(status ?? '');
	if (DELIVERED.has(code)) return 'delivered';
	if (FAILED.has(code)) return 'failed';
	if (PENDING.has(code)) return 'pending';
	return 'unknown';
}

/** Delivered or failed: nothing will change any more. */
export function isFinalOutcome(outcome: DeliveryOutcome): boolean {
	return outcome === 'delivered' || outcome === 'failed';
}
