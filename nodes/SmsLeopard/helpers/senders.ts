/**
 * Finding a sender number by the value users hold. Send and upload take `phone_number_id`; the
 * template listing takes the record `id`. People mix them up, so a record id is recognised and named.
 */
import { SmsLeopardValidationError, type SenderNumber, type SmsLeopardClient } from '../client';

export async function findSender(
	client: SmsLeopardClient,
	phoneNumberId: string,
): Promise<SenderNumber> {
	const senders = await client.listSenderNumbers();
	const wanted = String(phoneNumberId).trim();
	const match = senders.find((sender) => sender.phone_number_id === wanted);
	if (match) return match;
	const byRecordId = senders.find((sender) => String(sender.id) === wanted);
	if (byRecordId) {
		throw new SmsLeopardValidationError([
			{
				field: 'phoneNumberId',
				message: `"${wanted}" is the record ID of sender ${byRecordId.phone_number ?? ''}, not its phone_number_id: use ${byRecordId.phone_number_id} (or pick the number from the list)`,
			},
		]);
	}
	throw new SmsLeopardValidationError([
		{
			field: 'phoneNumberId',
			message: `"${wanted}" is not a phone_number_id of this account: pick the number from the list (known: ${senders.map((sender) => sender.phone_number_id).join(', ') || 'none'})`,
		},
	]);
}
