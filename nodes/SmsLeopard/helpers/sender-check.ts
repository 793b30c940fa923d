/**
 * Media > Upload names a sender record id given for its phone_number_id (a common mix-up) before
 * the file is sent, as Send Template's template check does. A sender found wrong stays wrong for the
 * run; a failed listing is not kept, so the next item asks again.
 */
import { SmsLeopardValidationError, type SenderNumber } from '../client';
import type { ExecutionState } from './execution-state';

export async function checkSenderOnce(
	state: ExecutionState,
	phoneNumberId: string,
): Promise<SenderNumber | undefined> {
	return await state.once.get(
		'sender-check',
		phoneNumberId,
		async () => await state.client.checkSenderNumber(phoneNumberId),
		(error) => error instanceof SmsLeopardValidationError,
	);
}
