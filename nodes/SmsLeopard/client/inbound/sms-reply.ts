/**
 * An SMS a customer sent to your number (a reply), read from the field names SMS gateways use in
 * their inbound-message callbacks: Africa's Talking (from, to, text, date, id), Twilio (From, Body,
 * MessageSid, SmsStatus "received"), Vonage (msisdn, to, text, messageId), Infobip (from, text,
 * receivedAt under results), Plivo (From, Text, MessageUUID), MessageBird (originator, body), SMPP
 * (source_addr, short_message). SMSLeopard does not document its own (docs/api.md "Callbacks").
 * A record with a delivery status is a report, never a reply, unless the status says "received".
 */
import { readId, readText, readTime } from '../http/answer-values';
import { byName, first } from './field-names';
import type { WebhookEvent } from './report-fields';

type Fields = Record<string, unknown>;

const SENDER_NAMES = [
	'from',
	'originator', // MessageBird
	'sender',
	'sourceaddr', // SMPP source_addr
	'source',
	'fromnumber',
	'msisdn', // Vonage: the customer on an inbound message
	'phonenumber',
	'phone',
	'mobile',
	'number',
];
const TEXT_NAMES = [
	'text',
	'body', // Twilio Body
	'message',
	'content',
	'shortmessage', // SMPP short_message
	'sms',
	'payload', // MessageBird
];
const ID_NAMES = ['messageid', 'msgid', 'id', 'messagesid', 'smssid', 'messageuuid', 'smsid'];
const TO_NAMES = ['to', 'recipient', 'destination', 'destaddr', 'shortcode', 'tonumber'];
const TIME_NAMES = [
	'receivedat', // Infobip
	'date', // Africa's Talking
	'messagetimestamp', // Vonage
	'createddatetime',
	'time',
	'timestamp',
	'datetime',
];
const STATUS_NAMES = ['status', 'deliverystatus', 'dlrstatus', 'messagestatus', 'smsstatus'];
/** The status an inbound message may carry (Twilio SmsStatus "received"). */
const RECEIVED = /^(received|inbound|incoming|mo)$/i;

const numberText = (raw: unknown): string | undefined => {
	const given = typeof raw === 'number' ? String(raw) : readText(raw)?.trim();
	return given === undefined || given === '' ? undefined : given;
};

/** The reply a record holds, or undefined when it is no inbound SMS (a report, or anything else). */
export function readSmsReply(fields: Fields): WebhookEvent | undefined {
	const named = byName(fields);
	const status = first(named, STATUS_NAMES, numberText);
	if (status !== undefined && !RECEIVED.test(status)) return undefined;
	const from = first(named, SENDER_NAMES, numberText);
	const text = first(named, TEXT_NAMES, readText);
	if (from === undefined || text === undefined) return undefined;
	return {
		event: 'smsMessage',
		messageId: first(named, ID_NAMES, readId) ?? null,
		status: null,
		outcome: null,
		reason: null,
		time: first(named, TIME_NAMES, (raw) => readTime(raw)?.iso) ?? null,
		number: from,
		text,
		to: first(named, TO_NAMES, numberText) ?? null,
	};
}
