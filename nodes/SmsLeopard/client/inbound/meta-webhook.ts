/**
 * Meta's WhatsApp Cloud API webhook body (`entry[].changes[].value`), as many providers forward
 * it, read into stable fields: every message type Meta posts (text, button, interactive button and
 * list replies, media, location, contacts, reaction, order, system, unsupported) and every status
 * with its errors, conversation and pricing. Each event of a kind carries the same fields, null
 * when the post had none, so a workflow can test `$json.media.id` without guessing the shape.
 */
import { readId, readText, readTime } from '../http/answer-values';
import { outcomeOf } from './delivery-outcome';
import type { WebhookEvent } from './report-fields';

type Fields = Record<string, unknown>;

const isFields = (value: unknown): value is Fields =>
	typeof value === 'object' && value !== null && !Array.isArray(value);
const fieldsOf = (value: unknown): Fields | undefined => (isFields(value) ? value : undefined);
const text = (raw: unknown) => (typeof raw === 'number' ? String(raw) : readText(raw)) ?? null;
const id = (raw: unknown) => readId(raw) ?? null;
const timeIso = (raw: unknown) => readTime(raw)?.iso ?? null;
const numberOf = (raw: unknown) =>
	typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : null;

/** The media message types: their object holds id, mime_type and, for some, caption and filename. */
const MEDIA_TYPES = ['image', 'document', 'audio', 'video', 'sticker'];

export interface MetaError {
	code: string | null;
	title: string | null;
	details: string | null;
}

export function isMetaBody(body: Fields): boolean {
	return (
		body.object === 'whatsapp_business_account' ||
		(Array.isArray(body.entry) &&
			body.entry.some((entry) => isFields(entry) && Array.isArray(entry.changes)))
	);
}

function errorsOf(raw: unknown): MetaError[] {
	return (Array.isArray(raw) ? raw.filter(isFields) : []).map((error) => ({
		code: text(error.code),
		title: text(error.title) ?? text(error.message),
		details: text(fieldsOf(error.error_data)?.details) ?? text(error.details),
	}));
}

function reasonOf(errors: MetaError[]): string | null {
	const words = errors.map((error) => error.title ?? error.details ?? error.code).filter(Boolean);
	return words.length > 0 ? words.join('; ') : null;
}

function mediaOf(message: Fields, type: string | null) {
	const media = MEDIA_TYPES.includes(type ?? '') ? fieldsOf(message[type as string]) : undefined;
	if (!media) return null;
	return {
		id: id(media.id),
		mimeType: text(media.mime_type),
		caption: text(media.caption),
		fileName: text(media.filename),
		sha256: text(media.sha256),
		...(typeof media.voice === 'boolean' ? { voice: media.voice } : {}),
		...(typeof media.animated === 'boolean' ? { animated: media.animated } : {}),
	};
}

function locationOf(raw: unknown) {
	const location = fieldsOf(raw);
	if (!location) return null;
	return {
		latitude: numberOf(location.latitude),
		longitude: numberOf(location.longitude),
		name: text(location.name),
		address: text(location.address),
		url: text(location.url),
	};
}

function orderOf(raw: unknown) {
	const order = fieldsOf(raw);
	if (!order) return null;
	const items = Array.isArray(order.product_items) ? order.product_items.filter(isFields) : [];
	return {
		catalogId: id(order.catalog_id),
		text: text(order.text),
		productItems: items.map((item) => ({
			productRetailerId: text(item.product_retailer_id),
			quantity: numberOf(item.quantity),
			itemPrice: numberOf(item.item_price),
			currency: text(item.currency),
		})),
	};
}

function systemOf(raw: unknown) {
	const system = fieldsOf(raw);
	if (!system) return null;
	return {
		body: text(system.body),
		type: text(system.type),
		newWaId: text(system.wa_id) ?? text(system.new_wa_id),
	};
}

/** The customer's profile name and WhatsApp id, from `value.contacts` (matched by wa_id). */
function profileOf(
	value: Fields,
	from: string | null,
): { name: string | null; waId: string | null } {
	const contacts = Array.isArray(value.contacts) ? value.contacts.filter(isFields) : [];
	const contact =
		contacts.find((entry) => from !== null && text(entry.wa_id) === from) ??
		(contacts.length === 1 ? contacts[0] : undefined);
	return {
		name: text(fieldsOf(contact?.profile)?.name),
		waId: text(contact?.wa_id) ?? from,
	};
}

function inboundMessage(message: Fields, value: Fields): WebhookEvent {
	const type = text(message.type);
	const from = text(message.from);
	const button = fieldsOf(message.button);
	const interactive = fieldsOf(message.interactive);
	const reply = fieldsOf(interactive?.button_reply) ?? fieldsOf(interactive?.list_reply);
	const reaction = fieldsOf(message.reaction);
	const media = mediaOf(message, type);
	const order = orderOf(message.order);
	const system = systemOf(message.system);
	const profile = profileOf(value, from);
	const errors = errorsOf(message.errors);
	return {
		event: 'whatsappMessage',
		messageId: id(message.id),
		status: null,
		outcome: null,
		reason: reasonOf(errors),
		time: timeIso(message.timestamp),
		number: from,
		type,
		text:
			text(fieldsOf(message.text)?.body) ??
			text(button?.text) ??
			text(reply?.title) ??
			media?.caption ??
			order?.text ??
			system?.body ??
			null,
		quickReplyPayload: text(button?.payload) ?? text(reply?.id),
		buttonText: text(button?.text) ?? text(reply?.title),
		repliedTo: id(fieldsOf(message.context)?.id),
		reply: reply
			? {
					kind: text(interactive?.type),
					id: text(reply.id),
					title: text(reply.title),
					description: text(reply.description),
				}
			: null,
		media,
		location: locationOf(message.location),
		contacts: Array.isArray(message.contacts) ? (message.contacts as unknown[]) : null,
		reaction: reaction ? { emoji: text(reaction.emoji), messageId: id(reaction.message_id) } : null,
		order,
		system,
		errors,
		profileName: profile.name,
		waId: profile.waId,
		...metadataOf(value),
	};
}

function whatsappStatus(status: Fields, value: Fields): WebhookEvent {
	const errors = errorsOf(status.errors);
	const given = text(status.status);
	const conversation = fieldsOf(status.conversation);
	const pricing = fieldsOf(status.pricing);
	return {
		event: 'whatsappStatus',
		messageId: id(status.id),
		status: given,
		outcome: given === null ? null : outcomeOf(given),
		reason: reasonOf(errors),
		time: timeIso(status.timestamp),
		number: text(status.recipient_id),
		errors,
		conversation: conversation
			? {
					id: text(conversation.id),
					originType: text(fieldsOf(conversation.origin)?.type),
					expiresAt: timeIso(conversation.expiration_timestamp),
				}
			: null,
		pricing: pricing
			? {
					billable: typeof pricing.billable === 'boolean' ? pricing.billable : null,
					pricingModel: text(pricing.pricing_model),
					category: text(pricing.category),
					type: text(pricing.type),
				}
			: null,
		...metadataOf(value),
	};
}

/** Which of the business's numbers the post is about. */
function metadataOf(value: Fields) {
	const metadata = fieldsOf(value.metadata);
	return {
		phoneNumberId: id(metadata?.phone_number_id),
		businessNumber: text(metadata?.display_phone_number),
	};
}

export function metaEvents(body: Fields): WebhookEvent[] {
	const events: WebhookEvent[] = [];
	for (const entry of Array.isArray(body.entry) ? body.entry : []) {
		if (!isFields(entry) || !Array.isArray(entry.changes)) continue;
		for (const change of entry.changes) {
			const value = fieldsOf(fieldsOf(change)?.value);
			if (!value) continue;
			for (const message of Array.isArray(value.messages) ? value.messages : []) {
				if (isFields(message)) events.push(inboundMessage(message, value));
			}
			for (const status of Array.isArray(value.statuses) ? value.statuses : []) {
				if (isFields(status)) events.push(whatsappStatus(status, value));
			}
		}
	}
	return events;
}
