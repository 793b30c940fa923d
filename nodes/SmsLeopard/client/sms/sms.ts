/**
 * SMS on {base_url} (docs/api.md "SMS", "Delivery reports", "Balance"): send one text to many
 * recipients or a customized text per recipient, read a message's delivery report, read the
 * balance. Each answered recipient is matched back to the recipient it was asked for, so a caller
 * sending a batch knows which of its inputs got which message id.
 */
import { z } from 'zod';
import type { ApiCall } from '../http/api-caller';
import {
	answerId,
	answerNumber,
	answerRecord,
	answerText,
	answerTime,
	requiredAnswer,
} from '../http/answer-values';
import { SmsLeopardValidationError } from '../http/errors';
import { plainText } from '../values/identifiers';
import { readRecipientEntry } from '../http/recipient-pairing';
import { isPlainRecord, withOtherFields } from '../http/plain-answer';
import { phoneNumberSchema, plainPhoneNumber } from '../values/phone-number';
import { type SmsSegments, countSmsSegments } from './sms-segments';
import { validateInput } from '../http/validation';

export interface SmsRecipientInput {
	number: string;
	/** The customized text of this recipient; only with `multi`. */
	message?: string;
}

export interface SendSmsRequest {
	/** The sender ID of the account, e.g. SMS_Leopard. */
	source: string;
	/** The text for everyone, or with `multi` the pattern the texts were customized from. */
	message: string;
	recipients: SmsRecipientInput[];
	/** Each recipient carries its own `message`. */
	multi?: boolean;
	/** Where the service sends delivery reports. */
	statusUrl?: string;
	/** Required with `statusUrl`: lets the receiver check that an update came from the service. */
	statusSecret?: string;
	/** Refuse any recipient whose text would take more parts than this. */
	maxParts?: number;
}

const text = (what: string) =>
	z
		.string({ required_error: 'is required', invalid_type_error: `must be ${what} as text` })
		.refine((value) => value.trim() !== '', 'is required');

/**
 * Delivery reports carry the Delivery Report Secret: over plain http anyone on the way reads it and
 * can forge reports. http is accepted only for this machine (localhost, 127.0.0.0/8, [::1]), where
 * nothing travels over a network; the URL parser has already normalised 127.1 or 0x7f.0.0.1.
 */
function encryptedOrLocal(url: string): boolean {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return true; // not a URL at all: .url() above already says so
	}
	const { protocol, hostname } = parsed;
	if (protocol === 'https:') return true;
	const host = hostname.toLowerCase();
	return (
		protocol === 'http:' &&
		(host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host))
	);
}

const statusUrl = z
	.string()
	.trim()
	.url('must be a URL such as https://example.com/webhook/sms-status')
	.refine(encryptedOrLocal, {
		message:
			'must start with https:// (reports carry the Delivery Report Secret; http:// only for localhost, 127.0.0.1 or [::1])',
	});

const recipientInput = z.object({
	number: phoneNumberSchema,
	message: text('the message').optional(),
});
const recipientsInput = z
	.array(recipientInput, { invalid_type_error: 'must be a list of recipients' })
	.min(1, 'needs at least one recipient');

/** Each recipient has a customized text exactly when the send is `multi`. */
function checkCustomizedTexts(
	input: { multi?: boolean; recipients: Array<{ message?: string }> },
	context: z.RefinementCtx,
): void {
	input.recipients.forEach((recipient, position) => {
		if (input.multi && recipient.message === undefined) {
			context.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['recipients', position, 'message'],
				message: 'is required when each recipient gets a customized text',
			});
		}
		if (!input.multi && recipient.message !== undefined) {
			context.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['recipients', position, 'message'],
				message: 'is only used for customized texts (multi): remove it or turn multi on',
			});
		}
	});
}

const sendSmsInput = z
	.object({
		source: plainText('a sender ID').pipe(text('a sender ID').transform((value) => value.trim())),
		message: text('the message'),
		recipients: recipientsInput,
		multi: z.boolean().optional(),
		statusUrl: statusUrl.optional(),
		statusSecret: z.string().optional(),
		maxParts: z.number().int('must be a whole number').positive('must be 1 or more').optional(),
	})
	.superRefine((input, context) => {
		if (input.statusUrl && !input.statusSecret?.trim()) {
			context.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['statusSecret'],
				message:
					"is required when a delivery report URL is given: choose a secret to check the reports with, or set the credential's Webhook Secret",
			});
		}
		if (!input.statusUrl && input.statusSecret) {
			context.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['statusUrl'],
				message: 'is missing: a status secret is only used with a delivery report URL',
			});
		}
		checkCustomizedTexts(input, context);
	});

type SendSmsInput = z.infer<typeof sendSmsInput>;

/**
 * The recipients of a send whose shared fields passed before, when each one plainly passes the
 * recipient checks of recipientsOfChecked below (a number that is a valid phone number once
 * cleaned, a customized text exactly when `multi`), as those checks would give them back;
 * undefined for anything else, which the checks then describe. 10,000 recipients through zod took
 * most of the time before the first request.
 */
function plainlyValidRecipients(
	recipients: unknown,
	multi: boolean | undefined,
): SendSmsInput['recipients'] | undefined {
	if (!Array.isArray(recipients) || recipients.length === 0) return undefined;
	const valid: SendSmsInput['recipients'] = [];
	for (const recipient of recipients as unknown[]) {
		if (recipient === null || typeof recipient !== 'object') return undefined;
		const prototype = Object.getPrototypeOf(recipient) as unknown;
		if (prototype !== Object.prototype && prototype !== null) return undefined;
		const { number, message } = recipient as Record<string, unknown>;
		const cleaned = plainPhoneNumber(number);
		if (cleaned === undefined) return undefined;
		if (multi) {
			if (typeof message !== 'string' || message.trim() === '') return undefined;
			valid.push({ number: cleaned, message });
		} else {
			if (message !== undefined) return undefined;
			valid.push({ number: cleaned });
		}
	}
	return valid;
}

/**
 * A send whose shared fields passed before needs only its recipients checked: the same checks, with
 * the same field names and messages, as sendSmsInput runs on them (which stops, like this, before
 * the customized-text check when a recipient fails its own).
 */
const recipientsOfChecked = z
	.object({ multi: z.boolean().optional(), recipients: recipientsInput })
	.superRefine(checkCustomizedTexts);

export interface SendSmsBody {
	source: string;
	message: string;
	destination: Array<{ number: string; message?: string }>;
	multi?: boolean;
	status_url?: string;
	status_secret?: string;
}

export interface PreparedSms {
	body: SendSmsBody;
	/** Parts of each recipient's text, in recipient order. */
	segments: SmsSegments[];
}

/** What every recipient of one request shares: the body without its destination list. */
export type SmsShared = Omit<SendSmsBody, 'destination'>;

/** One checked recipient: its entry of the destination list and its text's parts. */
export interface CheckedSmsRecipient {
	destination: SendSmsBody['destination'][number];
	segments: SmsSegments;
}

export interface CheckedSms {
	shared: SmsShared;
	recipients: CheckedSmsRecipient[];
}

/** Checks a send and counts its parts; refuses, before anything is sent, a text over `maxParts`. */
export function checkSendSms(request: SendSmsRequest): CheckedSms {
	return smsChecker()(request);
}

/** The fields a request's recipients share, in the order sharedFieldsKey writes them. */
function sharedFieldsOf(request: SendSmsRequest): unknown[] {
	return [
		request.source,
		request.message,
		request.multi,
		request.statusUrl,
		request.statusSecret,
		request.maxParts,
	];
}

/** The fields a request's recipients share, as a key; undefined unless every one is plain data. */
function sharedFieldsKey(shared: unknown[]): string | undefined {
	const plain = shared.every(
		(value) => value === undefined || ['string', 'number', 'boolean'].includes(typeof value),
	);
	return plain ? JSON.stringify(shared.map((value) => value ?? '\u0000absent')) : undefined;
}

/** Whether two sends pass the very same shared fields; a loop, as it runs once per send. */
function sameFields(a: unknown[], b: unknown[]): boolean {
	for (let index = 0; index < a.length; index++) if (!Object.is(a[index], b[index])) return false;
	return true;
}

/** Shared fields that passed their checks, and what the recipients of such a send share. */
interface PassedShared {
	input: SendSmsInput;
	shared: SmsShared;
}

/**
 * checkSendSms for many sends: the fields they share (sender ID, text, delivery report URL and
 * secret, Max Parts) are checked once per distinct value, and each text's parts counted once, so
 * 10,000 recipients of one text cost 10,000 number checks, not 10,000 whole checks. What a send is
 * told is the same either way: its shared fields passed these very checks before. Sends passing
 * the same fields in a row (a node's items) reuse the previous key, and sends of one key share one
 * `shared` object, so the planner groups them without writing a key per send.
 */
export function smsChecker(): (request: SendSmsRequest) => CheckedSms {
	const passedShared = new Map<string, PassedShared>();
	const counted = new Map<string, SmsSegments>();
	const countOnce = (textToCount: string) => {
		let segments = counted.get(textToCount);
		if (!segments) {
			segments = countSmsSegments(textToCount);
			counted.set(textToCount, segments);
		}
		return segments;
	};
	let previous: { fields: unknown[]; key: string | undefined } | undefined;
	const keyOf = (request: SendSmsRequest) => {
		const fields = sharedFieldsOf(request);
		if (previous === undefined || !sameFields(fields, previous.fields)) {
			previous = { fields, key: sharedFieldsKey(fields) };
		}
		return previous.key;
	};
	return (request) => {
		const key = keyOf(request);
		const known = key === undefined ? undefined : passedShared.get(key);
		if (known) {
			const recipients =
				plainlyValidRecipients(request.recipients, known.input.multi) ??
				validateInput(recipientsOfChecked, {
					multi: known.input.multi,
					recipients: request.recipients,
				}).recipients;
			return checkedSms({ ...known.input, recipients }, countOnce, known.shared);
		}
		const input = validateInput(sendSmsInput, request);
		const checked = checkedSms(input, countOnce);
		// Kept whole; a later send's own recipients replace these (above).
		if (key !== undefined) passedShared.set(key, { input, shared: checked.shared });
		return checked;
	};
}

/** What the recipients of a checked send share: the request body without its destination list. */
function sharedOf(input: SendSmsInput): SmsShared {
	return {
		source: input.source,
		message: input.message,
		...(input.multi ? { multi: true } : {}),
		...(input.statusUrl ? { status_url: input.statusUrl, status_secret: input.statusSecret } : {}),
	};
}

function checkedSms(
	input: SendSmsInput,
	countOnce: (text: string) => SmsSegments,
	shared: SmsShared = sharedOf(input),
): CheckedSms {
	const segments = input.recipients.map((recipient) =>
		countOnce(recipient.message ?? input.message),
	);
	if (input.maxParts !== undefined) {
		const max = input.maxParts;
		const issues = segments.flatMap((counted, position) =>
			counted.parts > max
				? [
						{
							field: input.multi ? `recipients[${position}].message` : 'message',
							message: tooManyParts(counted, max),
						},
					]
				: [],
		);
		if (issues.length) throw new SmsLeopardValidationError(issues);
	}
	return {
		shared,
		recipients: input.recipients.map((recipient, position) => ({
			destination: input.multi
				? { number: recipient.number, message: recipient.message }
				: { number: recipient.number },
			segments: segments[position],
		})),
	};
}

/** The one place a send body is built: what the recipients share, then their destination list. */
export function smsRequest(shared: SmsShared, recipients: CheckedSmsRecipient[]): PreparedSms {
	return {
		body: { ...shared, destination: recipients.map((recipient) => recipient.destination) },
		segments: recipients.map((recipient) => recipient.segments),
	};
}

/** One send request, checked and counted; nothing is sent. */
export function prepareSendSms(request: SendSmsRequest): PreparedSms {
	const checked = checkSendSms(request);
	return smsRequest(checked.shared, checked.recipients);
}

function tooManyParts(counted: SmsSegments, max: number): string {
	const why =
		counted.encoding === 'UCS-2'
			? ` because ${counted.nonGsmCharacters.map((c) => JSON.stringify(c)).join(', ')} ${counted.nonGsmCharacters.length === 1 ? 'is' : 'are'} not in the GSM alphabet, so the text goes as UCS-2 (70 characters in one part, 67 per part when longer)`
			: '';
	return `would be sent in ${counted.parts} parts (${counted.length} characters)${why}, more than the maximum of ${max}: shorten it or raise "Max Parts per Message"`;
}

/**
 * The send answer. Its recipient entries are read without trusting their types
 * (recipient-pairing.ts then decides which entry is whose); `success` and the list itself must be
 * there, or the answer is unreadable (and its items maybe sent).
 */
export const sendSmsResponseSchema = z
	.object({
		success: z.boolean(),
		message: z.unknown().transform((value) => (typeof value === 'string' ? value : undefined)),
		recipients: z.array(z.unknown()).default([]),
	})
	.passthrough()
	.transform((answer) => ({ ...answer, recipients: answer.recipients.map(readRecipientEntry) }));

export type SendSmsAnswer = z.infer<typeof sendSmsResponseSchema>;

const SMS_ANSWER_FIELDS = ['success', 'message', 'recipients'] as const;

/** sendSmsResponseSchema's reading of a usual answer, without zod (client/http/plain-answer.ts). */
export function readSendSmsAnswer(value: unknown): SendSmsAnswer | undefined {
	if (!isPlainRecord(value)) return undefined;
	const { success, message, recipients } = value;
	if (typeof success !== 'boolean' || !Array.isArray(recipients)) return undefined;
	const answer: Record<string, unknown> = { success };
	// zod sets a field of the schema that the answer has, even to undefined.
	if ('message' in value) answer.message = typeof message === 'string' ? message : undefined;
	answer.recipients = recipients.map(readRecipientEntry);
	return withOtherFields(answer, value, SMS_ANSWER_FIELDS) as SendSmsAnswer;
}

export function sendSmsCall(body: SendSmsBody): ApiCall<SendSmsAnswer> {
	const count = body.destination.length;
	return {
		operation:
			count === 1
				? `Send SMS to ${body.destination[0].number}`
				: `Send SMS to ${count} recipients (${body.destination[0].number}, ...)`,
		host: 'contacts',
		method: 'POST',
		path: '/v1/sms/send',
		body: { type: 'json', data: body },
		// A repeat after a lost answer could text everyone twice.
		idempotent: false,
		response: sendSmsResponseSchema,
		readPlainly: readSendSmsAnswer,
	};
}

/** "Sent to 1/1. Cost KES 0.90" -> KES; the answer names the currency only in this sentence. */
export function currencyOf(message: string | undefined): string | undefined {
	return /\bcost\s+([A-Z]{3})\b/i.exec(message ?? '')?.[1]?.toUpperCase();
}

const uuidLike = z
	.string({ invalid_type_error: 'must be a message id as text' })
	.trim()
	.min(1, 'is required')
	.regex(
		/^[A-Za-z0-9-]+$/,
		'must be the message id of a sent SMS (such as eb4647b2-2695-4aba-958e-0b39d965f6d0)',
	);

export function checkMessageId(id: unknown): string {
	return validateInput(uuidLike, id, 'messageId');
}

// Odd fields become null with a note (answer-values.ts); only a report without a status at all is
// not a delivery report.
export const deliveryReportSchema = answerRecord({
	id: answerId,
	reason: answerText,
	status: requiredAnswer(answerText),
	time: answerTime,
});

export type DeliveryReport = z.infer<typeof deliveryReportSchema>;

export function deliveryReportCall(messageId: string): ApiCall<DeliveryReport> {
	return {
		operation: `Get delivery report of ${messageId}`,
		host: 'contacts',
		method: 'GET',
		path: `/v1/delivery_reports/${encodeURIComponent(messageId)}`,
		idempotent: true,
		response: deliveryReportSchema,
	};
}

// A balance of true, [42] or "0x1F" is null with a note, never 1, 42 or 31.
export const balanceSchema = answerRecord({
	balance: requiredAnswer(answerNumber),
	conversion_rate: answerNumber,
	converted_balance: answerNumber,
	currency: answerText,
});

export type Balance = z.infer<typeof balanceSchema>;

export const balanceCall: ApiCall<Balance> = {
	operation: 'Get balance',
	host: 'contacts',
	method: 'GET',
	path: '/v1/balance',
	idempotent: true,
	response: balanceSchema,
};
