/**
 * Sender numbers: GET {chat_url}/v1/phone_number_ids (provider notes, not in the specification).
 * A sender has a record `id` and a `phone_number_id`; send and upload take the latter.
 */
import { z } from 'zod';
import type { ApiCall } from './api-caller';
import { SmsLeopardValidationError } from './errors';
import { echo } from './echo';

export const senderNumberSchema = z
	.object({
		id: z.coerce.number().int(),
		business_account_id: z.coerce.number().nullish(),
		phone_number: z.string().nullish(),
		phone_number_id: z.coerce.string().min(1),
		whatsapp_account_id: z.coerce.string().nullish(),
		messaging_limit: z.coerce.number().nullish(),
	})
	.passthrough();

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
	const byRecordId = senders.find((sender) => String(sender.id) === wanted);
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
			message: `"${echo(wanted)}" is not a phone_number_id of this account: pick the number from the list (known: ${senders.map((sender) => sender.phone_number_id).join(', ') || 'none'})`,
		},
	]);
}
