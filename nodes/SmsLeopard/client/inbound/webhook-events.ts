/**
 * What SMSLeopard posts back, read into stable events. The shapes are not documented
 * (docs/api.md "Callbacks"), so the reader takes the plausible family rather than one guess: a JSON or
 * form-encoded body; one report, an array of them, or either under a wrapper key (`data`,
 * `reports`, ...); field names in snake_case or camelCase with the usual synonyms; Meta's WhatsApp
 * Cloud API webhook body (`entry[].changes[].value.messages[]` and `statuses[]`) as many providers
 * forward it. Whatever it does not recognise becomes one "unrecognised" event, never an error: the
 * caller keeps the body as received beside every event.
 */
import { isMetaBody, metaEvents } from './meta-webhook';
import { type OptOutSettings, withOptOutMarks } from './opt-out-marks';
import { readReportFields } from './report-fields';
import { readSmsReply } from './sms-reply';
import type { WebhookEvent } from './report-fields';

type Fields = Record<string, unknown>;

const WRAPPERS = [
	'data',
	'report',
	'reports',
	'delivery_report',
	'delivery_reports',
	'deliveryReports',
	'results',
	'events',
	'payload',
	'body',
	'messages',
	'items',
];
/** Deep enough for any wrapper seen in SMS gateways; a bound so a hostile body cannot recurse far. */
const MAX_DEPTH = 4;

function isFields(value: unknown): value is Fields {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A body as received: parsed JSON, a JSON text, or a form-encoded text. */
export function parseWebhookBody(body: unknown): unknown {
	if (typeof body !== 'string' && !Buffer.isBuffer(body)) return body;
	const source = body.toString().trim();
	if (source === '') return {};
	try {
		return JSON.parse(source) as unknown;
	} catch {
		if (!source.includes('=')) return source;
		return Object.fromEntries(new URLSearchParams(source));
	}
}

function deliveryReport(fields: Fields): WebhookEvent | undefined {
	const read = readReportFields(fields);
	return read ? { event: 'smsDeliveryReport', ...read } : undefined;
}

// No count bound: n8n's payload limit (N8N_PAYLOAD_SIZE_MAX, 16 MB by default) bounds a post.
function collect(value: unknown, depth: number, events: WebhookEvent[]): boolean {
	if (depth > MAX_DEPTH) return false;
	if (Array.isArray(value)) {
		let found = false;
		for (const element of value) found = collect(element, depth + 1, events) || found;
		return found;
	}
	if (!isFields(value)) return false;
	if (isMetaBody(value)) {
		const meta = metaEvents(value);
		for (const event of meta) events.push(event);
		return meta.length > 0;
	}
	// A reply before a report: Twilio's inbound SMS carries a status ("received") like a report.
	const report = readSmsReply(value) ?? deliveryReport(value);
	if (report) {
		events.push(report);
		return true;
	}
	for (const key of WRAPPERS) {
		if (key in value && collect(value[key], depth + 1, events)) return true;
	}
	return false;
}

/** Every event a post carries, in its order; one "unrecognised" event when it carries none. */
export function readWebhookEvents(body: unknown, settings: OptOutSettings = {}): WebhookEvent[] {
	const parsed = parseWebhookBody(body);
	const events: WebhookEvent[] = [];
	if (collect(parsed, 0, events)) return events.map((event) => withOptOutMarks(event, settings));
	return [
		{
			event: 'unrecognised',
			messageId: null,
			status: null,
			outcome: null,
			reason: null,
			time: null,
			number: null,
			note: 'Not a delivery report or WhatsApp event this trigger knows: the body is kept as received.',
		},
	];
}
