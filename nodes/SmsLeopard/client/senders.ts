/**
 * Sender numbers: GET {chat_url}/v1/phone_number_ids (provider notes, not in the specification).
 * A sender has a record `id` and a `phone_number_id`; send and upload take the latter.
 */
import { z } from 'zod';
import type { ApiCall } from './api-caller';

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
