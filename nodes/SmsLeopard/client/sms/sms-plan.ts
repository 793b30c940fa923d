/**
 * Many SMS sends, one recipient each (the node's items), planned into as few requests as the service
 * allows: sends that share what one request carries (sender ID, text or pattern, delivery report URL
 * and secret) go together in first-seen order, cut into requests of at most `recipientsPerRequest`.
 * Every send is checked and counted first; a send refused by its checks joins no request.
 */
import { settleNow } from '../http/settle';
import {
	type CheckedSms,
	type PreparedSms,
	type SendSmsRequest,
	smsChecker,
	smsRequest,
} from './sms';

export interface SmsSend {
	request: SendSmsRequest;
	/** Recipients per request; the plan takes it from the first send that passes its checks. */
	recipientsPerRequest: number;
}

export interface PlannedSmsRequest extends PreparedSms {
	/** For each recipient of `body.destination`, in order: its position in the planned sends. */
	positions: number[];
}

export interface SmsPlan {
	/** The requests, in the order of their first send. */
	requests: PlannedSmsRequest[];
	/** Sends refused by their checks, by position, with the validation error. */
	refused: Array<{ position: number; error: unknown }>;
}

/** What a request's recipients must have in common, field by field. */
function sharedKey({ shared }: CheckedSms): string {
	return JSON.stringify([
		shared.source,
		shared.message,
		shared.multi === true,
		shared.status_url ?? null,
		shared.status_secret ?? null,
	]);
}

export function planSms(sends: SmsSend[]): SmsPlan {
	const refused: SmsPlan['refused'] = [];
	const groups = new Map<string, Array<{ position: number; checked: CheckedSms }>>();
	let recipientsPerRequest: number | undefined;
	const check = smsChecker();
	// The checker hands sends of the same shared fields one object: its key is written once.
	const keys = new WeakMap<CheckedSms['shared'], string>();
	const keyOf = (checked: CheckedSms) => {
		let key = keys.get(checked.shared);
		if (key === undefined) {
			key = sharedKey(checked);
			keys.set(checked.shared, key);
		}
		return key;
	};
	sends.forEach((send, position) => {
		const outcome = settleNow(() => check(send.request));
		if (!outcome.ok) {
			refused.push({ position, error: outcome.error });
			return;
		}
		recipientsPerRequest ??= send.recipientsPerRequest;
		const key = keyOf(outcome.value);
		const group = groups.get(key) ?? [];
		group.push({ position, checked: outcome.value });
		groups.set(key, group);
	});
	const size = Math.max(1, Math.floor(recipientsPerRequest ?? 1));
	const requests: PlannedSmsRequest[] = [];
	for (const group of groups.values()) {
		for (let start = 0; start < group.length; start += size) {
			const chunk = group.slice(start, start + size);
			requests.push({
				...smsRequest(
					chunk[0].checked.shared,
					chunk.flatMap(({ checked }) => checked.recipients),
				),
				positions: chunk.flatMap(({ position, checked }) => checked.recipients.map(() => position)),
			});
		}
	}
	return { requests: requests.sort((a, b) => a.positions[0] - b.positions[0]), refused };
}
