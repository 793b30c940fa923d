/**
 * What SMSLeopard posts back, read into stable events. The shapes are not documented
 * (docs/api.md "Callbacks"), so the reader takes the plausible family rather than one guess: a JSON or
 * form-encoded body; one report, an array of them, or either under a wrapper key (`data`,
 * `reports`, ...); field names in snake_case or camelCase with the usual synonyms; Meta's WhatsApp
 * Cloud API webhook body (`entry[].changes[].value.messages[]` and `statuses[]`) as many providers
 * forward it. Whatever it does not recognise becomes one "unrecognised" event, never an error: the
 * caller keeps the body as received beside every event.
 */
import { type DeliveryOutcome, outcomeOf } from './delivery-outcome';
import { readId, readText, readTime } from './answer-values';

export type WebhookEventKind =
	'smsDeliveryReport' | 'whatsappMessage' | 'whatsappStatus' | 'unrecognised';

export interface WebhookEvent {
	event: WebhookEventKind;
	/** The message the event is about: the SMS or WhatsApp message id, or the inbound message's. */
	messageId: string | null;
	/** As the service gave it: a carrier code (DELIVRD) or a WhatsApp status (delivered). */
	status: string | null;
	outcome: DeliveryOutcome | null;
	reason: string | null;
	/** ISO date, when the event carried a readable time. */
	time: string | null;
	/** The recipient of a report or status; the sender of an inbound message. */
	number: string | null;
	/** WhatsApp inbound messages only. */
	type?: string | null;
	text?: string | null;
	quickReplyPayload?: string | null;
	buttonText?: string | null;
	/** The id of the message an inbound message replies to (a template with quick replies). */
	repliedTo?: string | null;
	/** What the reader could not make of the body. */
	note?: string;
}

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
const ID_KEYS = ['message_id', 'messageId', 'msg_id', 'msgId', 'id', 'uuid', 'sms_id', 'smsId'];
const STATUS_KEYS = [
	'status',
	'delivery_status',
	'deliveryStatus',
	'dlr_status',
	'dlrStatus',
	'state',
	'stat',
];
const NUMBER_KEYS = ['number', 'phone', 'phone_number', 'msisdn', 'recipient', 'destination', 'to'];
const REASON_KEYS = [
	'reason',
	'status_description',
	'statusDescription',
	'description',
	'error',
	'error_message',
	'errorMessage',
	'err',
];
const TIME_KEYS = [
	'time',
	'timestamp',
	'delivered_at',
	'deliveredAt',
	'done_date',
	'doneDate',
	'updated_at',
	'updatedAt',
	'date',
];
/** Deep enough for any wrapper seen in SMS gateways; a bound so a hostile body cannot recurse far. */
const MAX_DEPTH = 4;
/** One post may carry many reports; a bound keeps one post from flooding a workflow. */
export const MAX_EVENTS_PER_POST = 10_000;

function isFields(value: unknown): value is Fields {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function first(fields: Fields, keys: string[], read: (raw: unknown) => string | undefined) {
	for (const key of keys) {
		if (key in fields) {
			const value = read(fields[key]);
			if (value !== undefined) return value;
		}
	}
	return null;
}

const text = (raw: unknown) => (typeof raw === 'number' ? String(raw) : readText(raw));
const timeIso = (raw: unknown) => readTime(raw)?.iso;

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

function isMetaBody(body: Fields): boolean {
	return (
		body.object === 'whatsapp_business_account' ||
		(Array.isArray(body.entry) &&
			body.entry.some((entry) => isFields(entry) && Array.isArray(entry.changes)))
	);
}

function metaEvents(body: Fields): WebhookEvent[] {
	const events: WebhookEvent[] = [];
	for (const entry of Array.isArray(body.entry) ? body.entry : []) {
		if (!isFields(entry) || !Array.isArray(entry.changes)) continue;
		for (const change of entry.changes) {
			const value = isFields(change) && isFields(change.value) ? change.value : undefined;
			if (!value) continue;
			for (const message of Array.isArray(value.messages) ? value.messages : []) {
				if (isFields(message)) events.push(inboundMessage(message));
			}
			for (const status of Array.isArray(value.statuses) ? value.statuses : []) {
				if (isFields(status)) events.push(whatsappStatus(status));
			}
		}
	}
	return events;
}

function inboundMessage(message: Fields): WebhookEvent {
	const type = text(message.type) ?? null;
	const button = isFields(message.button) ? message.button : undefined;
	const interactive = isFields(message.interactive) ? message.interactive : undefined;
	const reply =
		interactive && isFields(interactive.button_reply) ? interactive.button_reply : undefined;
	const context = isFields(message.context) ? message.context : undefined;
	const body = isFields(message.text) ? message.text.body : undefined;
	return {
		event: 'whatsappMessage',
		messageId: readId(message.id) ?? null,
		status: null,
		outcome: null,
		reason: null,
		time: timeIso(message.timestamp) ?? null,
		number: text(message.from) ?? null,
		type,
		text: text(body) ?? text(button?.text) ?? text(reply?.title) ?? null,
		quickReplyPayload: text(button?.payload) ?? text(reply?.id) ?? null,
		buttonText: text(button?.text) ?? text(reply?.title) ?? null,
		repliedTo: readId(context?.id) ?? null,
	};
}

function whatsappStatus(status: Fields): WebhookEvent {
	const errors = Array.isArray(status.errors) ? status.errors.filter(isFields) : [];
	const reason = errors.length
		? errors.map((error) => text(error.title) ?? text(error.message) ?? text(error.code)).join('; ')
		: null;
	const given = text(status.status) ?? null;
	return {
		event: 'whatsappStatus',
		messageId: readId(status.id) ?? null,
		status: given,
		outcome: given === null ? null : outcomeOf(given),
		reason: reason || null,
		time: timeIso(status.timestamp) ?? null,
		number: text(status.recipient_id) ?? null,
	};
}

/** A flat record with a message id and a status: an SMS delivery report. */
function isReport(fields: Fields): boolean {
	return first(fields, ID_KEYS, text) !== null && first(fields, STATUS_KEYS, text) !== null;
}

function deliveryReport(fields: Fields): WebhookEvent {
	const status = first(fields, STATUS_KEYS, text);
	return {
		event: 'smsDeliveryReport',
		messageId: first(fields, ID_KEYS, text),
		status,
		outcome: status === null ? null : outcomeOf(status),
		reason: first(fields, REASON_KEYS, text) || null,
		time: first(fields, TIME_KEYS, timeIso),
		number: first(fields, NUMBER_KEYS, text),
	};
}

function collect(value: unknown, depth: number, events: WebhookEvent[]): boolean {
	if (depth > MAX_DEPTH || events.length >= MAX_EVENTS_PER_POST) return false;
	if (Array.isArray(value)) {
		let found = false;
		for (const element of value) {
			if (events.length >= MAX_EVENTS_PER_POST) break;
			found = collect(element, depth + 1, events) || found;
		}
		return found;
	}
	if (!isFields(value)) return false;
	if (isMetaBody(value)) {
		const meta = metaEvents(value);
		events.push(...meta.slice(0, MAX_EVENTS_PER_POST - events.length));
		return meta.length > 0;
	}
	if (isReport(value)) {
		events.push(deliveryReport(value));
		return true;
	}
	for (const key of WRAPPERS) {
		if (key in value && collect(value[key], depth + 1, events)) return true;
	}
	return false;
}

/** Every event a post carries, in its order; one "unrecognised" event when it carries none. */
export function readWebhookEvents(body: unknown): WebhookEvent[] {
	const parsed = parseWebhookBody(body);
	const events: WebhookEvent[] = [];
	if (collect(parsed, 0, events)) return events;
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
