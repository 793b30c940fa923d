/**
 * Sender numbers: GET {chat_url}/v1/phone_number_ids (docs/api.md "Sender numbers").
 * A sender has a record `id` and a `phone_number_id`; send and upload take the latter.
 */
import { z } from 'zod';
import type { ApiCall } from '../http/api-caller';
import {
	answerId,
	answerRecord,
	answerRecordId,
	answerText,
	answerWholeNumber,
} from '../http/answer-values';
import { SmsLeopardResponseError, SmsLeopardValidationError } from '../http/errors';
import { echo } from '../http/echo';

// Odd fields become null with a note (answer-values.ts): one odd sender does not hide the others.
export const senderNumberSchema = answerRecord({
	id: answerRecordId,
	business_account_id: answerWholeNumber,
	phone_number: answerText,
	phone_number_id: answerId,
	whatsapp_account_id: answerId,
	messaging_limit: answerWholeNumber,
});

export type SenderNumber = z.infer<typeof senderNumberSchema>;

export const senderNumbersCall: ApiCall<SenderNumber[]> = {
	operation: 'List sender numbers',
	host: 'chat',
	method: 'GET',
	path: '/v1/phone_number_ids',
	idempotent: true,
	response: z.array(senderNumberSchema),
};

/**
 * The sender whose `phone_number_id` is given. People mix up the record `id` and the
 * `phone_number_id`, so a record id is recognised and the right value named.
 */
export function findSenderIn(senders: SenderNumber[], phoneNumberId: string): SenderNumber {
	const wanted = String(phoneNumberId).trim();
	const match = senders.find((sender) => sender.phone_number_id === wanted);
	if (match) return match;
	const byRecordId = senders.find(
		(sender) => typeof sender.id === 'number' && String(sender.id) === wanted,
	);
	if (byRecordId) {
		throw new SmsLeopardValidationError([
			{
				field: 'phoneNumberId',
				message: `"${echo(wanted)}" is the record ID of sender ${byRecordId.phone_number ?? ''}, not its phone_number_id: use ${byRecordId.phone_number_id} (or pick the number from the list)`,
			},
		]);
	}
	throw new SmsLeopardValidationError([
		{
			field: 'phoneNumberId',
			message: `"${echo(wanted)}" is not a phone_number_id of this account: pick the number from the list (known: ${senders.flatMap((sender) => sender.phone_number_id ?? []).join(', ') || 'none'})`,
		},
	]);
}

/**
 * The record id the template listing of this sender is addressed by. A listing that gave the sender
 * no usable id (null with a note) cannot lead to its templates: an error naming the field, not a
 * request to /phone_number_ids/null/templates.
 */
export function senderRecordId(sender: SenderNumber): number {
	if (typeof sender.id === 'number') return sender.id;
	throw new SmsLeopardResponseError(senderNumbersCall.operation, 200, undefined, [
		{
			field: 'id',
			message: `sender ${echo(sender.phone_number_id ?? '')} has no usable record id${sender.notes ? ` (${sender.notes.map((note) => echo(note)).join('; ')})` : ''}, so its templates cannot be listed`,
		},
	]);
}
