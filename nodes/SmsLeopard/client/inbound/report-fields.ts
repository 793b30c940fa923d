/**
 * One SMS delivery report, read from the field names SMS gateways use in their published
 * delivery-report callbacks (the table in docs/delivery-report-fields.md, each row tested in
 * test/client/gateway-reports.test.ts). Names are matched without case, `_` or `-`, so
 * `message_id`, `messageId` and `MessageId` are one name. Earlier names in a list win: Vonage's
 * `msisdn` (the recipient) before `to` (its sender), Infobip's `doneAt` before `sentAt`.
 */
import { readId, readText, readTime } from '../http/answer-values';
import { type DeliveryOutcome, outcomeOf } from './delivery-outcome';
import { byName, first } from './field-names';

type Fields = Record<string, unknown>;

const ID_NAMES = [
	'messageid',
	'msgid',
	'id',
	'messagesid', // Twilio
	'smssid',
	'messageuuid', // Plivo
	'externalid', // Gupshup
	'sid', // Tencent
	'uuid',
	'smsid',
];
const STATUS_NAMES = [
	'status',
	'deliverystatus',
	'dlrstatus',
	'messagestatus', // Twilio
	'smsstatus',
	'reportstatus', // Tencent
	'eventtype', // Gupshup
	'state',
	'stat',
];
const NUMBER_NAMES = [
	'number',
	'phonenumber', // Africa's Talking
	'phone',
	'msisdn',
	'mobile', // Tencent
	'recipient',
	'destaddr', // Gupshup
	'destination',
	'to',
];
const REASON_NAMES = [
	'failurereason', // Africa's Talking
	'reason',
	'statusreason', // MessageBird
	'statusdescription',
	'errordescription',
	'errormessage',
	'errmsg', // Tencent
	'error', // Infobip: an object
	'err',
	'cause', // Gupshup: words, before its errCode
	'errorcode', // Twilio, Plivo
	'errcode', // Vonage err-code, Gupshup
	'statuserrorcode',
	'desc',
	'description',
];
const TIME_NAMES = [
	'doneat', // Infobip
	'donedate',
	'deliveredat',
	'deliverytime',
	'userreceivetime', // Tencent
	'statusdatetime', // MessageBird
	'messagetimestamp', // Vonage message-timestamp
	'eventts', // Gupshup
	'time',
	'timestamp',
	'updatedat',
	'date',
	'sentat',
];
/** Fields of a status given as an object (Infobip, Routee): the words, most general first. */
const STATUS_OBJECT_WORDS = ['groupname', 'name', 'status', 'code'];
/** A reason that says there was no error (Infobip NO_ERROR, Vonage err-code 0, Gupshup 000). */
const NO_ERROR = /^(0+|no[\s_-]?error|ok|none)$/i;

const word = (raw: unknown): string | undefined => {
	const given = typeof raw === 'number' ? String(raw) : readText(raw);
	return given === undefined || given.trim() === '' ? undefined : given.trim();
};
const isFields = (raw: unknown): raw is Fields =>
	typeof raw === 'object' && raw !== null && !Array.isArray(raw);

interface StatusRead {
	status: string;
	outcome: DeliveryOutcome;
	/** An object status's own reason and time (Routee: status.reason, status.updatedDate). */
	reason?: string;
	time?: string;
}

/** A status word, or an object such as {"groupName": "DELIVERED", "name": "DELIVERED_TO_HANDSET"}. */
function readStatus(raw: unknown): StatusRead | undefined {
	const given = word(raw);
	if (given !== undefined) return { status: given, outcome: outcomeOf(given) };
	if (!isFields(raw)) return undefined;
	const named = byName(raw);
	const words = STATUS_OBJECT_WORDS.map((name) => word(named.get(name))).filter(
		(value): value is string => value !== undefined,
	);
	if (words.length === 0) return undefined;
	// The most specific word is shown (DELIVERED_TO_HANDSET); the first understood one decides.
	const outcome = words.map(outcomeOf).find((value) => value !== 'unknown') ?? 'unknown';
	return {
		status: words.length > 1 ? words[1] : words[0],
		outcome,
		reason: readReason(named.get('reason')),
		time: first(named, ['updateddate', 'date', 'time'], timeIso),
	};
}

/** A reason as text: a word, or an error object's description or name; never "no error". */
function readReason(raw: unknown): string | undefined {
	if (isFields(raw)) {
		const named = byName(raw);
		if (NO_ERROR.test(word(named.get('name')) ?? '') || word(named.get('groupname')) === 'OK') {
			return undefined;
		}
		return first(
			named,
			['description', 'detailedstatus', 'message', 'title', 'name', 'code'],
			readReason,
		);
	}
	const given = word(raw);
	return given === undefined || NO_ERROR.test(given) ? undefined : given;
}

const timeIso = (raw: unknown) => readTime(raw)?.iso;
const idOf = (raw: unknown) => readId(raw);

export interface ReportFields {
	messageId: string | null;
	status: string | null;
	outcome: DeliveryOutcome | null;
	reason: string | null;
	time: string | null;
	number: string | null;
}

/** The report's fields, or undefined when the record has no message id and status (not a report). */
export function readReportFields(fields: Fields): ReportFields | undefined {
	const named = byName(fields);
	const messageId = first(named, ID_NAMES, idOf);
	const status = first(named, STATUS_NAMES, readStatus);
	if (messageId === undefined || status === undefined) return undefined;
	const mobile = word(named.get('mobile'));
	const nation = word(named.get('nationcode'));
	// Tencent gives the country code apart from the number.
	const number =
		mobile !== undefined && nation !== undefined && !named.has('number')
			? `+${nation}${mobile}`
			: first(named, NUMBER_NAMES, word);
	// A delivered message has no failure reason: gateways fill the field with "DELIVRD", "No Error"
	// or a success sentence, which would read as one.
	const reason =
		status.outcome === 'delivered'
			? undefined
			: (first(named, REASON_NAMES, readReason) ?? status.reason);
	return {
		messageId,
		status: status.status,
		outcome: status.outcome,
		reason: reason ?? null,
		time: first(named, TIME_NAMES, timeIso) ?? status.time ?? null,
		number: number ?? null,
	};
}

/*
 * One event read from a post to the trigger: the six fields of a report (above, declared once) and
 * its kind. Here, below both readers (webhook-events.ts, meta-webhook.ts), so neither imports the
 * other for it; in a module the trigger loads anyway, so the package ships no file of types alone.
 */
export type WebhookEventKind =
	'smsDeliveryReport' | 'smsMessage' | 'whatsappMessage' | 'whatsappStatus' | 'unrecognised';

/**
 * messageId: the SMS or WhatsApp message the event is about, or the inbound message's; status: as
 * the service gave it (DELIVRD, delivered); number: the recipient of a report or status, the sender
 * of an inbound message (SMS or WhatsApp); time: ISO, when the event carried a readable one.
 */
export interface WebhookEvent extends ReportFields {
	event: WebhookEventKind;
	/** WhatsApp events: the fields of meta-webhook.ts, the same set on every event of a kind. */
	[field: string]: unknown;
	/** What the reader could not make of the body. */
	note?: string;
}
