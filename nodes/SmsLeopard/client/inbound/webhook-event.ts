/**
 * One event read from a post to the trigger: the six fields of a report (report-fields.ts, declared
 * there once) and its kind. Below both readers (webhook-events.ts, meta-webhook.ts), so neither
 * imports the other for it.
 */
import type { ReportFields } from './report-fields';

export type WebhookEventKind =
	'smsDeliveryReport' | 'whatsappMessage' | 'whatsappStatus' | 'unrecognised';

/**
 * messageId: the SMS or WhatsApp message the event is about, or the inbound message's; status: as
 * the service gave it (DELIVRD, delivered); number: the recipient of a report or status, the sender
 * of an inbound message; time: ISO, when the event carried a readable one.
 */
export interface WebhookEvent extends ReportFields {
	event: WebhookEventKind;
	/** WhatsApp events: the fields of meta-webhook.ts, the same set on every event of a kind. */
	[field: string]: unknown;
	/** What the reader could not make of the body. */
	note?: string;
}
