/**
 * Message > Send SMS: one text for every recipient, or a text customized per recipient from the
 * item's fields (`multi`). Items go out many per request (Recipients per Request); every item is
 * checked and its parts counted before the first request, so "Max Parts per Message" and bad numbers
 * stop the run before anything is sent.
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import {
	GSM_ONLY_PATTERN,
	SMS_PART_SIZES_IN_WORDS,
	type SmsSend,
	SmsLeopardValidationError,
} from '../../client';
import { settleNow } from '../../client/http/settle';
import { fillPlaceholders, placeholdersOf } from './fill-placeholders';
import { readNumber } from '../../helpers/number-option';
import type { ExecutionState } from '../../helpers/execution-state';
import { runPool } from '../../helpers/worker-pool';
import type { BatchRun, ItemOutcome } from '../operation';
import { previewPlannedRequest, sendPlannedRequest } from './sms-outcomes';
import { optionsCollection } from '../common.fields';
import { showOnlyFor } from '../display-options';
import { dryRunFields } from '../dry-run';

const show = { resource: ['message'], operation: ['sendSms'] };
export const DEFAULT_RECIPIENTS_PER_REQUEST = 100;
const MAX_RECIPIENTS_PER_REQUEST = 1000;
/**
 * Without the option: the parts each text needs, up to this cap (918 GSM-7 characters, 402 UCS-2),
 * shown beside the message. A saved explicit value (1 included) is kept as saved.
 */
export const DEFAULT_MAX_PARTS = 6;

/**
 * Notices for a text over one part, one per part count as written (2 to 6, and 7 or more), each
 * saying how many SMS it is billed as and whether it is sent. n8n cannot show a field by a value
 * inside the Options collection (its resolver takes only top-level names), so the rule is said.
 * `single` and `perPart` are the characters of one part and of each part of a longer text;
 * `other` is the texts of the other encoding, for which these do not show.
 */
function textNotices(
	name: string,
	single: number,
	perPart: number,
	other: { regex: string },
	what: string,
): INodeProperties[] {
	const over = DEFAULT_MAX_PARTS + 1;
	return [2, 3, 4, 5, 6, over].map((parts) => {
		const from = parts === 2 ? single + 1 : perPart * (parts - 1) + 1;
		const upTo = parts === over ? '' : String(perPart * parts);
		const rule =
			parts === over
				? `${over} or more parts of ${perPart} characters as written, each billed as one SMS. Refused before sending: texts of up to ${DEFAULT_MAX_PARTS} parts are sent unless Options > Max Parts per Message allows more.`
				: `${parts} parts of ${perPart} characters as written, billed as ${parts} SMS per recipient. Sent, unless Options > Max Parts per Message is set below ${parts} (without it, texts of up to ${DEFAULT_MAX_PARTS} parts are sent).`;
		return {
			displayName: `${what}: ${rule} Dry Run shows each recipient's parts and cost.`,
			name: `${name}${parts}PartsNotice`,
			type: 'notice',
			default: '',
			// Hide rules only: n8n shows any field whose `show` value is an expression.
			displayOptions: {
				hide: {
					message: [
						{ _cnd: { regex: `^[\\s\\S]{0,${from - 1}}$` } },
						...(upTo ? [{ _cnd: { regex: `^[\\s\\S]{${Number(upTo) + 1},}$` } }] : []),
						{ _cnd: { startsWith: '=' } },
						{ _cnd: other },
					],
				},
			},
		};
	});
}

export const description: INodeProperties[] = showOnlyFor(show, [
	{
		displayName: 'Sender ID',
		name: 'source',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. SMS_Leopard',
		description: 'The sender ID of your SMSLeopard account that recipients see',
	},
	{
		displayName: 'Recipient',
		name: 'recipient',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. +254712345678',
		description:
			'Phone number of the recipient of this item: international format with or without +, or local format',
	},
	{
		displayName: 'Text',
		name: 'textMode',
		type: 'options',
		default: 'same',
		options: [
			{
				name: 'Same Text for Everyone',
				value: 'same',
				description: 'Every recipient gets the message as written',
			},
			{
				name: 'Customized per Recipient',
				value: 'customized',
				description:
					"Placeholders such as {name} are filled from each item's fields, so every recipient gets their own text",
			},
		],
	},
	{
		displayName: 'Message',
		name: 'message',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		required: true,
		// A hint that works in both modes: "{name}" in a same-for-everyone text is refused.
		placeholder: 'e.g. Our Westlands shop opens at 8 today',
		description: `The SMS text. To greet each recipient by name, choose "Customized per Recipient" above and write {name} (any field of the item), or use an expression. Each part is billed as one SMS: ${SMS_PART_SIZES_IN_WORDS}.`,
	},
	// Counted as the marketer types (n8n re-evaluates display conditions on every change). Hidden
	// for an expression, whose text is known only at run time; Dry Run counts every recipient. The
	// notice says whether the text will be refused at the Max Parts per Message set below.
	...textNotices(
		'longText',
		160,
		153,
		{ regex: `^(?!${GSM_ONLY_PATTERN})` },
		'Over 160 characters',
	),
	{
		displayName: `This text has a character outside the GSM alphabet (an emoji, a curly quote, an accent such as "ć"): it is sent as UCS-2, 70 characters in one part, 67 per part when longer. Dry Run lists the characters to replace.`,
		name: 'ucs2Notice',
		type: 'notice',
		default: '',
		displayOptions: {
			hide: { message: [{ _cnd: { regex: GSM_ONLY_PATTERN } }, { _cnd: { startsWith: '=' } }] },
		},
	},
	...textNotices(
		'longUcs2Text',
		70,
		67,
		{ regex: GSM_ONLY_PATTERN },
		'Over 70 characters with a character outside the GSM alphabet',
	),
	optionsCollection('smsOptions', [
		{
			displayName: 'Delivery Report Secret',
			name: 'statusSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				"With a Delivery Report URL: a secret to check that reports come from SMSLeopard. Leave empty to send the credential's Webhook Secret (what an SMSLeopard Trigger v2 checks); required when the credential has none.",
		},
		{
			displayName: 'Delivery Report URL',
			name: 'statusUrl',
			type: 'string',
			default: '',
			placeholder: 'e.g. https://n8n.example.com/webhook/…/smsleopard',
			description:
				'Where SMSLeopard posts delivery reports: the Production URL of an SMSLeopard Trigger (in an active workflow). https:// only; http:// for localhost.',
		},
		{
			displayName: 'Send Braces as Written',
			name: 'sendBracesAsWritten',
			type: 'boolean',
			default: false,
			description:
				'Whether a "Same Text for Everyone" message may contain {word} as written. Off, such a text is refused before anything is sent, since {name} would reach every recipient unfilled.',
		},
		{
			displayName: 'Max Parts per Message',
			name: 'maxParts',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: DEFAULT_MAX_PARTS,
			description: `Refuse, before anything is sent, any item whose text would be sent (and billed) in more parts than this. Without this option: the parts each text needs, up to ${DEFAULT_MAX_PARTS}.`,
		},
		{
			displayName: 'Recipients per Request',
			name: 'recipientsPerRequest',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_RECIPIENTS_PER_REQUEST },
			default: DEFAULT_RECIPIENTS_PER_REQUEST,
			description:
				'How many items share one request. If a request gets no answer, its items are reported as maybe sent and never resent.',
		},
	]),
	...dryRunFields('part'),
]);

export const recipientParameter = 'recipient';

export const dryRunUnit = 'part' as const;

interface SmsOptions {
	sendBracesAsWritten: boolean;
	statusUrl?: string;
	statusSecret?: string;
	maxParts: number;
	recipientsPerRequest: number;
}

/**
 * The Delivery Report Secret a send carries: the item's own, or, with a Delivery Report URL and
 * none of its own, the credential's Webhook Secret (the one an SMSLeopard Trigger v2 checks), so the
 * marketer types it once. Without a URL nothing is taken from the credential: a secret alone is
 * refused by the checks as before.
 */
function reportSecret(raw: Record<string, unknown>, webhookSecret: string): string | undefined {
	const own = typeof raw.statusSecret === 'string' ? raw.statusSecret : undefined;
	if (own !== undefined && own !== '') return own;
	const hasUrl = typeof raw.statusUrl === 'string' && raw.statusUrl.trim() !== '';
	return hasUrl && webhookSecret !== '' ? webhookSecret : own;
}

/**
 * The options of one item, numbers checked: an expression giving "abc", 0, 1.5 or 100000 refuses
 * the item, naming the field, before any request. An option never added takes its default, for
 * saved workflows too: Max Parts per Message up to 6 (a saved 1 stays 1).
 */
function readSmsOptions(
	this: IExecuteFunctions,
	itemIndex: number,
	state: ExecutionState,
): SmsOptions {
	const raw = this.getNodeParameter('smsOptions', itemIndex, {}) as Record<string, unknown>;
	// Noted first, so whatever fails next (even an echo of this item's request) is redacted.
	if (typeof raw.statusSecret === 'string' && raw.statusSecret !== '') {
		state.bodySecrets.add(raw.statusSecret);
	}
	const statusSecret = reportSecret(raw, state.webhookSecret);
	const maxParts = readNumber(raw.maxParts, DEFAULT_MAX_PARTS, { min: 1, whole: true });
	const perRequest = readNumber(raw.recipientsPerRequest, DEFAULT_RECIPIENTS_PER_REQUEST, {
		min: 1,
		max: MAX_RECIPIENTS_PER_REQUEST,
		whole: true,
	});
	const issues = [
		...(maxParts.ok ? [] : [{ field: 'maxParts', message: maxParts.problem }]),
		...(perRequest.ok ? [] : [{ field: 'recipientsPerRequest', message: perRequest.problem }]),
	];
	if (!maxParts.ok || !perRequest.ok) throw new SmsLeopardValidationError(issues);
	return {
		sendBracesAsWritten: raw.sendBracesAsWritten === true,
		statusUrl: raw.statusUrl as string | undefined,
		statusSecret,
		maxParts: maxParts.value,
		recipientsPerRequest: perRequest.value,
	};
}

/**
 * "Dear {name}" with Same Text for Everyone would reach every recipient with the braces as typed:
 * refused before anything is sent, with both ways to fill it and the way to mean it.
 */
function refuseLiteralPlaceholders(message: unknown): void {
	const found = typeof message === 'string' ? placeholdersOf(message) : [];
	if (found.length === 0) return;
	throw new SmsLeopardValidationError([
		{
			field: 'message',
			message: `has ${found.join(', ')}, which every recipient would get as written, since Text is "Same Text for Everyone": choose "Customized per Recipient" under Text to fill ${found.length === 1 ? 'it' : 'them'} from each item's fields, or write the text as an expression such as {{ "Dear " + $json.name }}. To send the braces as written, turn on Options > Send Braces as Written.`,
		},
	]);
}

/** Reads and fills one item's send; a field-named error for an option it cannot take. */
function readItem(this: IExecuteFunctions, itemIndex: number, state: ExecutionState): SmsSend {
	const source = this.getNodeParameter('source', itemIndex, '') as string;
	const recipient = this.getNodeParameter('recipient', itemIndex, '') as string;
	const customized = this.getNodeParameter('textMode', itemIndex, 'same') === 'customized';
	const message = this.getNodeParameter('message', itemIndex, '') as string;
	const options = readSmsOptions.call(this, itemIndex, state);
	const text = customized
		? fillPlaceholders(message, this.getInputData()[itemIndex].json)
		: undefined;
	if (!customized && !options.sendBracesAsWritten) refuseLiteralPlaceholders(message);
	return {
		request: {
			source,
			message,
			recipients: [{ number: recipient, ...(customized ? { message: text } : {}) }],
			multi: customized,
			statusUrl: options.statusUrl || undefined,
			statusSecret: options.statusSecret || undefined,
			maxParts: options.maxParts,
		},
		recipientsPerRequest: options.recipientsPerRequest,
	};
}

/**
 * Reads every item, lets the client check and plan them into requests, and, unless an item was
 * refused without Continue On Fail, sends the requests `concurrency` at a time.
 */
export async function executeBatch(
	this: IExecuteFunctions,
	state: ExecutionState,
	run: BatchRun,
): Promise<Array<ItemOutcome | undefined>> {
	const outcomes: Array<ItemOutcome | undefined> = new Array(run.itemCount);
	const sends: SmsSend[] = [];
	const itemOf: number[] = [];
	for (let itemIndex = 0; itemIndex < run.itemCount; itemIndex++) {
		const read = settleNow(() => readItem.call(this, itemIndex, state));
		if (read.ok) {
			sends.push(read.value);
			itemOf.push(itemIndex);
		} else {
			outcomes[itemIndex] = { ok: false, error: read.error };
		}
	}
	const plan = state.client.planSms(sends);
	for (const { position, error } of plan.refused) outcomes[itemOf[position]] = { ok: false, error };
	if (run.dryRun.on) {
		// A dry run previews every item that passed; the router lists the refused ones beside them.
		plan.requests.forEach((request, index) => {
			const itemIndexes = request.positions.map((position) => itemOf[position]);
			previewPlannedRequest(request, index, run.dryRun).forEach(
				(outcome, position) => (outcomes[itemIndexes[position]] = outcome),
			);
		});
		return outcomes;
	}
	// Without Continue On Fail, one refused item stops the run before any request.
	if (run.stopOnFailure && outcomes.some((outcome) => outcome !== undefined)) return outcomes;
	await runPool(plan.requests.length, run.concurrency, run.stopOnFailure, async (index) => {
		const request = plan.requests[index];
		const itemIndexes = request.positions.map((position) => itemOf[position]);
		const settled = await sendPlannedRequest(state.client, request, itemIndexes);
		settled.forEach((outcome, position) => (outcomes[itemIndexes[position]] = outcome));
		return { failed: settled.some((outcome) => !outcome.ok) };
	});
	return outcomes;
}
