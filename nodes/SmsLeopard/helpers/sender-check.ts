/**
 * Media > Upload names a sender record id given for its phone_number_id (a common mix-up) before
 * the file is sent, as Send Template's template check does. A sender found wrong stays wrong for the
 * run; a failed listing is not kept, so the next item asks again.
 */
import { SmsLeopardValidationError, type SenderNumber } from '../client';
import type { ExecutionState } from '../actions/operation';

export async function checkSenderOnce(
	state: ExecutionState,
	phoneNumberId: string,
): Promise<SenderNumber | undefined> {
	let check = state.senderChecks.get(phoneNumberId);
	if (!check) {
		check = state.client.checkSenderNumber(phoneNumberId);
		state.senderChecks.set(phoneNumberId, check);
		check.catch((error: unknown) => {
			if (!(error instanceof SmsLeopardValidationError)) state.senderChecks.delete(phoneNumberId);
		});
	}
	return await check;
}
