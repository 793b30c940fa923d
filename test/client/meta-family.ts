/**
 * Meta's WhatsApp Cloud API webhook family, one post per message type and a status with errors,
 * conversation and pricing, shaped as Meta documents them. Shared by the client test
 * (meta-webhook.test.ts) and the end-to-end trigger test, which posts the same bodies to real n8n.
 */

const metadata = { display_phone_number: '254700000001', phone_number_id: '110000000000001' };
const customer = { profile: { name: 'Zawadi Akinyi' }, wa_id: '254722000031' };

/** One change's value as Meta posts it: the customer's contact card beside one message. */
export function metaPost(value: Record<string, unknown>): Record<string, unknown> {
	return {
		object: 'whatsapp_business_account',
		entry: [
			{
				id: '102290129340398',
				changes: [
					{ field: 'messages', value: { messaging_product: 'whatsapp', metadata, ...value } },
				],
			},
		],
	};
}

const message = (type: string, fields: Record<string, unknown>, id = `wamid.${type}.1`) =>
	metaPost({
		contacts: [customer],
		messages: [{ from: customer.wa_id, id, timestamp: '1795593600', type, ...fields }],
	});

export interface MetaCase {
	name: string;
	post: Record<string, unknown>;
	/** What the event must hold (toMatchObject). */
	read: Record<string, unknown>;
}

const common = {
	event: 'whatsappMessage',
	number: '254722000031',
	profileName: 'Zawadi Akinyi',
	waId: '254722000031',
	phoneNumberId: '110000000000001',
	businessNumber: '254700000001',
	time: '2026-11-25T08:00:00.000Z',
};

export const META_CASES: MetaCase[] = [
	{
		name: 'text, replying to a message',
		post: message('text', {
			text: { body: 'Hello' },
			context: { from: '254700000001', id: 'wamid.ours.1' },
		}),
		read: {
			...common,
			type: 'text',
			text: 'Hello',
			repliedTo: 'wamid.ours.1',
			messageId: 'wamid.text.1',
		},
	},
	{
		name: 'button (a template quick reply)',
		post: message('button', {
			button: { text: 'Stop promotions', payload: 'stop' },
			context: { id: 'wamid.ours.2' },
		}),
		read: { ...common, type: 'button', quickReplyPayload: 'stop', buttonText: 'Stop promotions' },
	},
	{
		name: 'interactive button reply',
		post: message('interactive', {
			interactive: { type: 'button_reply', button_reply: { id: 'yes-1', title: 'Yes' } },
		}),
		read: {
			...common,
			type: 'interactive',
			reply: { kind: 'button_reply', id: 'yes-1', title: 'Yes', description: null },
			quickReplyPayload: 'yes-1',
		},
	},
	{
		name: 'interactive list reply',
		post: message(
			'interactive',
			{
				interactive: {
					type: 'list_reply',
					list_reply: { id: 'slot-2', title: 'Tuesday 10:00', description: 'Nairobi office' },
				},
			},
			'wamid.list.1',
		),
		read: {
			...common,
			reply: {
				kind: 'list_reply',
				id: 'slot-2',
				title: 'Tuesday 10:00',
				description: 'Nairobi office',
			},
			text: 'Tuesday 10:00',
		},
	},
	...['image', 'document', 'audio', 'video', 'sticker'].map((type) => ({
		name: type,
		post: message(type, {
			[type]: {
				id: `media-${type}-1`,
				mime_type: type === 'document' ? 'application/pdf' : `${type}/x-sample`,
				sha256: 'c2hhMjU2',
				...(type === 'image' || type === 'video' || type === 'document'
					? { caption: `A ${type}` }
					: {}),
				...(type === 'document' ? { filename: 'Invoice.pdf' } : {}),
			},
		}),
		read: {
			...common,
			type,
			media: expectMedia(type),
		},
	})),
	{
		name: 'location',
		post: message('location', {
			location: { latitude: -1.2921, longitude: 36.8219, name: 'Office', address: 'Moi Avenue' },
		}),
		read: {
			...common,
			location: {
				latitude: -1.2921,
				longitude: 36.8219,
				name: 'Office',
				address: 'Moi Avenue',
				url: null,
			},
		},
	},
	{
		name: 'contacts',
		post: message('contacts', {
			contacts: [{ name: { formatted_name: 'Baraka' }, phones: [{ phone: '+254733000001' }] }],
		}),
		read: {
			...common,
			contacts: [{ name: { formatted_name: 'Baraka' }, phones: [{ phone: '+254733000001' }] }],
		},
	},
	{
		name: 'reaction',
		post: message('reaction', { reaction: { message_id: 'wamid.ours.3', emoji: '👍' } }),
		read: { ...common, reaction: { emoji: '👍', messageId: 'wamid.ours.3' } },
	},
	{
		name: 'order',
		post: message('order', {
			order: {
				catalog_id: '900001',
				text: 'Deliver today',
				product_items: [
					{ product_retailer_id: 'sku-7', quantity: '2', item_price: '150', currency: 'KES' },
				],
			},
		}),
		read: {
			...common,
			order: {
				catalogId: '900001',
				text: 'Deliver today',
				productItems: [
					{ productRetailerId: 'sku-7', quantity: 2, itemPrice: 150, currency: 'KES' },
				],
			},
		},
	},
	{
		name: 'system (number changed)',
		post: message('system', {
			system: { body: 'User changed number', type: 'user_changed_number', wa_id: '254722000099' },
		}),
		read: {
			...common,
			system: { body: 'User changed number', type: 'user_changed_number', newWaId: '254722000099' },
		},
	},
	{
		name: 'unsupported',
		post: message('unsupported', {
			errors: [
				{
					code: 131051,
					title: 'Message type unknown',
					error_data: { details: 'Message type is currently not supported.' },
				},
			],
		}),
		read: {
			...common,
			type: 'unsupported',
			errors: [
				{
					code: '131051',
					title: 'Message type unknown',
					details: 'Message type is currently not supported.',
				},
			],
			reason: 'Message type unknown',
		},
	},
	{
		name: 'status: failed, with errors, conversation and pricing',
		post: metaPost({
			statuses: [
				{
					id: 'wamid.ours.4',
					status: 'failed',
					timestamp: '1795593600',
					recipient_id: '254722000031',
					conversation: {
						id: 'conv-1',
						origin: { type: 'marketing' },
						expiration_timestamp: '1795680000',
					},
					pricing: { billable: true, pricing_model: 'CBP', category: 'marketing' },
					errors: [
						{
							code: 131026,
							title: 'Message undeliverable',
							error_data: { details: 'Receiver is incapable of receiving this message' },
						},
					],
				},
			],
		}),
		read: {
			event: 'whatsappStatus',
			messageId: 'wamid.ours.4',
			status: 'failed',
			outcome: 'failed',
			number: '254722000031',
			reason: 'Message undeliverable',
			errors: [
				{
					code: '131026',
					title: 'Message undeliverable',
					details: 'Receiver is incapable of receiving this message',
				},
			],
			conversation: {
				id: 'conv-1',
				originType: 'marketing',
				expiresAt: '2026-11-26T08:00:00.000Z',
			},
			pricing: { billable: true, pricingModel: 'CBP', category: 'marketing', type: null },
		},
	},
];

function expectMedia(type: string) {
	return {
		id: `media-${type}-1`,
		mimeType: type === 'document' ? 'application/pdf' : `${type}/x-sample`,
		caption: type === 'image' || type === 'video' || type === 'document' ? `A ${type}` : null,
		fileName: type === 'document' ? 'Invoice.pdf' : null,
		sha256: 'c2hhMjU2',
	};
}
