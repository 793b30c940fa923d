/**
 * Media > Upload names a sender record id given for its phone_number_id (a common mix-up) before
 * the file is sent, as Send Template's template check does. The sender found is kept for later
 * executions like the template listings (run-listings.ts); a sender found wrong stays wrong for the
 * run but is never kept beyond it, so no item is refused against a kept listing. A failed listing
 * is not kept, so the next item asks again; an upload the service refuses drops the kept sender.
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
		async () => await checkSender(state, phoneNumberId),
		(error) => error instanceof SmsLeopardValidationError,
	);
}

async function checkSender(
	state: ExecutionState,
	phoneNumberId: string,
): Promise<SenderNumber | undefined> {
	// A refusal is thrown, never kept: what refuses an item here was always listed in this run.
	const fetch = async () => await state.client.checkSenderNumber(phoneNumberId);
	const keep = (sender: SenderNumber | undefined) => sender !== undefined;
	return (await state.listings.get('sender', phoneNumberId, fetch, keep)).value;
}

/** The service refused an upload for this sender: later executions list the senders again. */
export function forgetKeptSender(state: ExecutionState, phoneNumberId: string): void {
	state.listings.forget('sender', phoneNumberId);
}
