// The rules of POST /v1/sms/send (docs/api.md "SMS"): source,
// message and destination required; with multi each destination carries its own message;
// status_secret required when status_url is given; numbers in international or Kenyan local form.
import { normalizePhone, PHONE_FORMAT_HINT } from './phone';
import { SMS_SENDER_IDS } from './seed';
import type { Checked } from './types';

export interface SmsSendInput {
	source: string;
	message: string;
	multi: boolean;
	destinations: Array<{ number: string; message: string }>;
	statusUrl?: string;
	statusSecret?: string;
}

const bad = (message: string): Checked<never> => ({
	ok: false,
	problem: { status: 400, code: 'bad_request', message },
});

const isText = (value: unknown): value is string =>
	typeof value === 'string' && value.trim() !== '';

function checkStatus(
	body: Record<string, unknown>,
): Checked<{ url: string; secret: string } | undefined> {
	const url = body.status_url;
	const secret = body.status_secret;
	if (url === undefined) {
		return secret === undefined
			? { ok: true, value: undefined }
			: bad('status_secret is only used with status_url');
	}
	if (!isText(url) || !/^https?:\/\/[^\s]+$/i.test(url)) {
		return bad('status_url must be an http(s) URL');
	}
	if (!isText(secret)) return bad('status_secret is required when status_url is given');
	return { ok: true, value: { url, secret } };
}

export function validateSmsSend(raw: unknown): Checked<SmsSendInput> {
	if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
		return bad('Request body must be a JSON object');
	}
	const body = raw as Record<string, unknown>;
	if (!isText(body.source)) return bad('source is required: the sender ID of the account');
	const source = SMS_SENDER_IDS.find(
		(id) => id.toLowerCase() === (body.source as string).toLowerCase(),
	);
	if (!source) {
		return bad(
			`Sender ID '${body.source}' is not registered on this account; use one of ${SMS_SENDER_IDS.join(', ')}`,
		);
	}
	if (!isText(body.message)) return bad('message is required');
	if (body.multi !== undefined && typeof body.multi !== 'boolean') {
		return bad('multi must be a boolean');
	}
	const multi = body.multi === true;
	if (!Array.isArray(body.destination) || body.destination.length === 0) {
		return bad('destination is required: a non-empty array of {"number": ...}');
	}
	const status = checkStatus(body);
	if (!status.ok) return status;
	const destinations: SmsSendInput['destinations'] = [];
	for (const [index, entry] of body.destination.entries()) {
		if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
			return bad(`destination[${index}] must be an object with a number`);
		}
		const { number, message } = entry as Record<string, unknown>;
		const normalized = typeof number === 'string' ? normalizePhone(number) : null;
		if (!normalized) {
			return bad(
				`destination[${index}].number '${String(number)}' is not a valid phone number: ${PHONE_FORMAT_HINT}`,
			);
		}
		if (multi && !isText(message)) {
			return bad(`destination[${index}].message is required when multi is true`);
		}
		destinations.push({ number: normalized, message: multi ? (message as string) : body.message });
	}
	return {
		ok: true,
		value: {
			source,
			message: body.message,
			multi,
			destinations,
			statusUrl: status.value?.url,
			statusSecret: status.value?.secret,
		},
	};
}
