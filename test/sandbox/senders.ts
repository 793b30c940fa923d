// Sender lookups with the mistake-catching messages docs/api.md "Sender numbers" asks for: users
// confuse a sender's record `id` with its `phone_number_id` (and sometimes paste the phone number
// itself).
import type { Checked, SandboxState, Sender } from './types';

function notFound(message: string): Checked<Sender> {
	return { ok: false, problem: { status: 404, code: 'not_found', message } };
}

/** Resolves the phone_number_id of a send or upload request. */
export function senderByPhoneNumberId(state: SandboxState, value: string): Checked<Sender> {
	const sender = state.senders.find((s) => s.phone_number_id === value);
	if (sender) return { ok: true, value: sender };
	const byRecordId = state.senders.find((s) => String(s.id) === value);
	if (byRecordId) {
		return notFound(
			`phone_number_id '${value}' is the record id of sender ${byRecordId.phone_number}; use its phone_number_id '${byRecordId.phone_number_id}'`,
		);
	}
	const digits = value.replace(/^\+/, '');
	const byNumber = state.senders.find((s) => s.phone_number.replace(/^\+/, '') === digits);
	if (byNumber) {
		return notFound(
			`phone_number_id '${value}' is the phone number of a sender, not its phone_number_id; use '${byNumber.phone_number_id}'`,
		);
	}
	return notFound(
		`phone_number_id '${value}' is not a sender number of this account; GET /v1/phone_number_ids lists them`,
	);
}

/** Resolves the {id} of GET /v1/phone_number_ids/{id}/templates (the record id). */
export function senderByRecordId(state: SandboxState, value: string): Checked<Sender> {
	const sender = state.senders.find((s) => String(s.id) === value);
	if (sender) return { ok: true, value: sender };
	const byPhoneId = state.senders.find((s) => s.phone_number_id === value);
	if (byPhoneId) {
		return notFound(
			`'${value}' is the phone_number_id of sender ${byPhoneId.phone_number}; this path takes the sender's record id: GET /v1/phone_number_ids/${byPhoneId.id}/templates`,
		);
	}
	return notFound(
		`No sender with record id '${value}'; GET /v1/phone_number_ids lists the senders and their ids`,
	);
}
