/**
 * What a customer's message says about their messages: `optOut` ('opt out' or 'opt in', absent
 * otherwise) with `optOutWord` (the word as compared), and `fromNormal`, the sender in the opt-out
 * list's normal form. A WhatsApp quick-reply payload counts like typed text.
 */
import { phoneNormalForm } from '../values/phone-normal-form';
import { optOutWordForm, optOutWordOf } from '../values/opt-out-words';
import type { WebhookEvent } from './report-fields';

export interface OptOutSettings {
	/** The country of a national number (0 and 9 digits); DEFAULT_COUNTRY_CODE when not given. */
	countryCode?: string;
}

const MESSAGE_KINDS = new Set(['whatsappMessage', 'smsMessage']);

function senderNormal(event: WebhookEvent, countryCode: string | undefined): string | null {
	const number = event.number;
	if (number === null) return null;
	// Meta's `from` is always international without its plus (wa_id): any country's number.
	if (event.event === 'whatsappMessage' && /^\d+$/.test(number)) {
		return phoneNormalForm(`+${number}`, countryCode);
	}
	return phoneNormalForm(number, countryCode);
}

export function withOptOutMarks(event: WebhookEvent, settings: OptOutSettings = {}): WebhookEvent {
	if (!MESSAGE_KINDS.has(event.event)) return event;
	const said = [event.quickReplyPayload, event.text].find((text) => optOutWordOf(text));
	const choice = optOutWordOf(said);
	return {
		...event,
		fromNormal: senderNormal(event, settings.countryCode),
		...(choice ? { optOut: choice, optOutWord: optOutWordForm(said) } : {}),
	};
}
